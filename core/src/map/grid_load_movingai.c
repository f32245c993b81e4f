/* grid_load_movingai.c - Moving AI .map loader; strict, never reads past the buffer. */
#include <string.h>
#include "map/map_internal.h"

/* Terrain class of a Moving AI character; -1 when unknown (public: the EDITS format uses it too). */
int pf_grid_terrain_class(char ch)
{
    switch (ch) {
    case '.': case 'G': case 'S': return 1; /* ground (swamp is ordinary ground) */
    case 'W': return 2;                     /* water */
    case 'T': return 3;                     /* trees */
    case '@': case 'O': return 0;           /* out of bounds */
    default: return -1;
    }
}

/* Reads "KEY VALUE" (e.g. "height 49"); returns 0 when the line does not match. */
static int header_uint(const char *s, size_t n, const char *key, uint64_t *v)
{
    const char *p = s, *end = s + n, *t;
    size_t tl;
    if (!pf__next_token(&p, end, &t, &tl) || !pf__tok_eq(t, tl, key)) return 0;
    if (!pf__next_token(&p, end, &t, &tl) || !pf__parse_u64(t, tl, v)) return 0;
    return !pf__next_token(&p, end, &t, &tl);
}

pf_status pf_grid_parse_movingai(const char *text, size_t len, const char *name,
                                 const pf_grid_load_desc *desc, pf_map **out, pf_diag *diag)
{
    if (!out) return pf__diag_set(diag, PF_INVALID_ARGUMENT, name, 0, 0, "no output pointer");
    *out = NULL;
    if (!text && len) return pf__diag_set(diag, PF_INVALID_ARGUMENT, name, 0, 0, "no input");
    if (!text) text = ""; /* (NULL, 0) is empty input; NULL + 0 is undefined behaviour */
    pf_grid_load_desc d = desc ? *desc : (pf_grid_load_desc){0};
    if ((unsigned)d.moves > PF_MOVES_HEX)
        return pf__diag_set(diag, PF_INVALID_ARGUMENT, name, 0, 0, "unknown movement rule %d", (int)d.moves);
    int weighted = 0;
    for (int i = 0; i < 128; i++) {
        if (d.char_cost[i] == 0.0f) continue;
        if (!(d.char_cost[i] > 0.0f) || d.char_cost[i] > 1e30f)
            return pf__diag_set(diag, PF_INVALID_ARGUMENT, name, 0, 0, "cost of '%c' must be positive and finite", i);
        if (d.char_cost[i] != 1.0f) weighted = 1;
    }

    pf__lines ls = {text, text + len, 0};
    const char *s;
    size_t n;
    uint64_t hgt = 0, wid = 0;
    int have_type = 0, have_h = 0, have_w = 0;
    /* header: "type octile", "height H", "width W" in any order, then "map" */
    for (;;) {
        if (!pf__next_line(&ls, &s, &n))
            /* name the line where more header was expected (line 1 for empty input, not 0) */
            return pf__diag_set(diag, PF_PARSE_ERROR, name, ls.line + 1, 0, "unexpected end of file in header");
        const char *p = s, *t;
        size_t tl;
        if (!pf__next_token(&p, s + n, &t, &tl))
            return pf__diag_set(diag, PF_PARSE_ERROR, name, ls.line, 1, "empty line in header");
        if (pf__tok_eq(t, tl, "type")) {
            if (have_type) return pf__diag_set(diag, PF_PARSE_ERROR, name, ls.line, 1, "'type' given twice");
            if (!pf__next_token(&p, s + n, &t, &tl) || !pf__tok_eq(t, tl, "octile"))
                return pf__diag_set(diag, PF_PARSE_ERROR, name, ls.line, 0, "map type must be 'octile'");
            if (pf__next_token(&p, s + n, &t, &tl)) /* as for height and width */
                return pf__diag_set(diag, PF_PARSE_ERROR, name, ls.line, (uint32_t)(t - s) + 1u,
                                    "text after 'type octile'");
            have_type = 1;
        } else if (pf__tok_eq(t, tl, "height")) {
            if (have_h) return pf__diag_set(diag, PF_PARSE_ERROR, name, ls.line, 1, "'height' given twice");
            if (!header_uint(s, n, "height", &hgt))
                return pf__diag_set(diag, PF_PARSE_ERROR, name, ls.line, 0, "bad height line");
            have_h = 1;
        } else if (pf__tok_eq(t, tl, "width")) {
            if (have_w) return pf__diag_set(diag, PF_PARSE_ERROR, name, ls.line, 1, "'width' given twice");
            if (!header_uint(s, n, "width", &wid))
                return pf__diag_set(diag, PF_PARSE_ERROR, name, ls.line, 0, "bad width line");
            have_w = 1;
        } else if (pf__tok_eq(t, tl, "map")) {
            if (pf__next_token(&p, s + n, &t, &tl))
                return pf__diag_set(diag, PF_PARSE_ERROR, name, ls.line, 0, "unexpected text after 'map'");
            break;
        } else {
            return pf__diag_set(diag, PF_PARSE_ERROR, name, ls.line, 1, "unknown header line '%.*s'",
                                (int)(tl > 40 ? 40 : tl), t);
        }
    }
    if (!have_type || !have_h || !have_w)
        return pf__diag_set(diag, PF_PARSE_ERROR, name, ls.line, 0, "header needs type, height and width before 'map'");
    if (hgt == 0 || wid == 0)
        return pf__diag_set(diag, PF_PARSE_ERROR, name, ls.line, 0, "width and height must be positive");
    if (wid > PF_GRID_MAX_SIDE || hgt > PF_GRID_MAX_SIDE)
        return pf__diag_set(diag, PF_TOO_LARGE, name, ls.line, 0, "map %llux%llu exceeds %u per side",
                            (unsigned long long)wid, (unsigned long long)hgt, PF_GRID_MAX_SIDE);
    /* the index range is a property of the header: say so before blaming missing rows */
    if ((wid + 2) * (hgt + 2) >= PF_MAX_NODES)
        return pf__diag_set(diag, PF_TOO_LARGE, name, ls.line, 0, "map %llux%llu exceeds the node index range",
                            (unsigned long long)wid, (unsigned long long)hgt);
    /* a file cannot hold more cells than it has bytes: reject before allocating */
    if (wid * hgt > (uint64_t)(ls.end - ls.p))
        return pf__diag_set(diag, PF_PARSE_ERROR, name, ls.line + 1, 0,
                            "file is truncated: %llu rows of %llu cells announced",
                            (unsigned long long)hgt, (unsigned long long)wid);

    pf_map *m;
    pf_status st = pf__grid_alloc(&d.allocator, (uint32_t)wid, (uint32_t)hgt, d.moves, weighted, &m);
    if (st != PF_OK) return pf__diag_set(diag, st, name, 0, 0, "%s", pf_status_str(st));
    for (uint32_t y = 0; y < hgt; y++) {
        if (!pf__next_line(&ls, &s, &n)) {
            pf_map_destroy(m);
            return pf__diag_set(diag, PF_PARSE_ERROR, name, ls.line + 1, 0,
                                "file is truncated: expected %llu rows, found %u", (unsigned long long)hgt, y);
        }
        if (n != wid) {
            pf_map_destroy(m);
            return pf__diag_set(diag, PF_PARSE_ERROR, name, ls.line, (uint32_t)(n < wid ? n + 1 : wid + 1),
                                "row has %zu cells, expected %llu", n, (unsigned long long)wid);
        }
        uint8_t *row = m->cls + (size_t)(y + 1) * m->pw + 1;
        float *crow = m->cost ? m->cost + (size_t)(y + 1) * m->pw + 1 : NULL;
        for (uint32_t x = 0; x < wid; x++) {
            unsigned char ch = (unsigned char)s[x];
            int k = ch < 128 ? pf_grid_terrain_class((char)ch) : -1;
            if (k < 0) {
                pf_map_destroy(m);
                if (ch >= 32 && ch < 127)
                    return pf__diag_set(diag, PF_PARSE_ERROR, name, ls.line, x + 1, "unknown terrain character '%c'", ch);
                return pf__diag_set(diag, PF_PARSE_ERROR, name, ls.line, x + 1, "unknown terrain byte 0x%02x", ch);
            }
            row[x] = (uint8_t)k;
            if (crow && d.char_cost[ch] != 0.0f) crow[x] = d.char_cost[ch];
        }
    }
    /* trailing blank lines are tolerated; anything else is an error */
    while (pf__next_line(&ls, &s, &n)) {
        for (size_t i = 0; i < n; i++)
            if (s[i] != ' ' && s[i] != '\t') {
                pf_map_destroy(m);
                return pf__diag_set(diag, PF_PARSE_ERROR, name, ls.line, (uint32_t)i + 1,
                                    "unexpected data after %llu map rows", (unsigned long long)hgt);
            }
    }
    pf__grid_finish_costs(m);
    st = pf__grid_build(m, out);
    if (st != PF_OK) return pf__diag_set(diag, st, name, 0, 0, "%s", pf_status_str(st));
    if (diag) *diag = (pf_diag){.status = PF_OK};
    return PF_OK;
}

pf_status pf_grid_load_movingai(const char *path, const pf_grid_load_desc *desc, pf_map **out,
                                pf_diag *diag)
{
    if (out) *out = NULL;
    pf_allocator a = pf__alloc_resolve(desc ? &desc->allocator : NULL);
    char *buf;
    size_t len;
    pf_status st = pf__read_text(path, &a, PF_GRID_MAX_FILE_BYTES, ".map", &buf, &len, diag);
    if (st != PF_OK) return st;
    st = pf_grid_parse_movingai(buf, len, path, desc, out, diag);
    pf__free(&a, buf, len + 1);
    return st;
}
