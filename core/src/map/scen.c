/* scen.c - Moving AI scenario (.scen) loader. */
#include <string.h>
#include "common/pf_internal.h"
#include "grow_internal.h"
#include "pathfind/pf_scen.h"

struct pf_scen {
    pf_allocator   alloc;
    pf_scen_entry *e;
    uint32_t       n, cap;
    char           map_name[256];
};

pf_status pf_scen_parse(const char *text, size_t len, const char *name, const pf_scen_load_desc *desc,
                        pf_scen **out, pf_diag *diag)
{
    const pf_allocator *alloc = desc ? &desc->allocator : NULL;
    if (!out) return pf__diag_set(diag, PF_INVALID_ARGUMENT, name, 0, 0, "no output pointer");
    *out = NULL;
    if (!text && len) return pf__diag_set(diag, PF_INVALID_ARGUMENT, name, 0, 0, "no input");
    if (!text) text = ""; /* (NULL, 0) is empty input; NULL + 0 is undefined behaviour */
    pf_allocator a = pf__alloc_resolve(alloc);
    pf__lines ls = {text, text + len, 0};
    const char *s, *p, *t;
    size_t n, tl;
    if (!pf__next_line(&ls, &s, &n))
        return pf__diag_set(diag, PF_PARSE_ERROR, name, 1, 0, "empty file: expected 'version 1'");
    p = s;
    if (!pf__next_token(&p, s + n, &t, &tl) || !pf__tok_eq(t, tl, "version") || !pf__next_token(&p, s + n, &t, &tl) ||
        !(pf__tok_eq(t, tl, "1") || pf__tok_eq(t, tl, "1.0")) || pf__next_token(&p, s + n, &t, &tl))
        return pf__diag_set(diag, PF_PARSE_ERROR, name, 1, 1, "expected 'version 1'");

    pf_scen *sc = pf__calloc(&a, sizeof *sc, 16);
    if (!sc) return pf__diag_set(diag, PF_OUT_OF_MEMORY, name, 0, 0, "out of memory");
    sc->alloc = a;
    while (pf__next_line(&ls, &s, &n)) {
        p = s;
        const char *tok[10];
        size_t tlen[10];
        int k = 0;
        while (k < 10 && pf__next_token(&p, s + n, &tok[k], &tlen[k])) k++;
        if (k == 0) continue; /* blank line */
        if (k != 9) {
            pf_scen_destroy(sc);
            return pf__diag_set(diag, PF_PARSE_ERROR, name, ls.line, 0,
                                "expected 9 fields (bucket map w h sx sy gx gy length), found %s%d",
                                k == 10 ? "more than " : "", k == 10 ? 9 : k);
        }
        uint64_t v[7];
        double opt;
        static const char *const what[7] = {"bucket", "map width", "map height", "start x", "start y",
                                            "goal x", "goal y"};
        static const int field[7] = {0, 2, 3, 4, 5, 6, 7};
        for (int i = 0; i < 7; i++)
            if (!pf__parse_u64(tok[field[i]], tlen[field[i]], &v[i]) || v[i] > INT32_MAX) {
                pf_scen_destroy(sc);
                return pf__diag_set(diag, PF_PARSE_ERROR, name, ls.line, (uint32_t)(tok[field[i]] - s) + 1,
                                    "bad %s", what[i]);
            }
        if (!pf__parse_double(tok[8], tlen[8], &opt) || opt < 0) {
            pf_scen_destroy(sc);
            return pf__diag_set(diag, PF_PARSE_ERROR, name, ls.line, (uint32_t)(tok[8] - s) + 1, "bad optimal length");
        }
        if (v[3] >= v[1] || v[5] >= v[1] || v[4] >= v[2] || v[6] >= v[2]) {
            pf_scen_destroy(sc);
            return pf__diag_set(diag, PF_PARSE_ERROR, name, ls.line, 0, "start or goal outside the %llux%llu map",
                                (unsigned long long)v[1], (unsigned long long)v[2]);
        }
        if (sc->n == sc->cap) {
            if (sc->cap > UINT32_MAX / 2) { /* only from memory: a file stops at PF_SCEN_MAX_FILE_BYTES */
                pf_scen_destroy(sc);
                return pf__diag_set(diag, PF_TOO_LARGE, name, ls.line, 0, "more than 2^31 queries");
            }
            if (!pf__grow_slow(&a, &sc->e, &sc->cap, (uint64_t)sc->n + 1u, sizeof *sc->e, 256u, 0)) {
                pf_scen_destroy(sc);
                return pf__diag_set(diag, PF_OUT_OF_MEMORY, name, 0, 0, "out of memory");
            }
        }
        if (sc->n == 0) {
            size_t ml = tlen[1] < sizeof sc->map_name - 1 ? tlen[1] : sizeof sc->map_name - 1;
            memcpy(sc->map_name, tok[1], ml);
            sc->map_name[ml] = '\0';
        }
        sc->e[sc->n++] = (pf_scen_entry){(uint32_t)v[0], (uint32_t)v[1], (uint32_t)v[2], (int32_t)v[3],
                                         (int32_t)v[4], (int32_t)v[5], (int32_t)v[6], opt};
    }
    if (diag) *diag = (pf_diag){.status = PF_OK};
    *out = sc;
    return PF_OK;
}

pf_status pf_scen_load(const char *path, const pf_scen_load_desc *desc, pf_scen **out, pf_diag *diag)
{
    if (out) *out = NULL;
    pf_allocator a = pf__alloc_resolve(desc ? &desc->allocator : NULL);
    char *buf;
    size_t len;
    pf_status st = pf__read_text(path, &a, PF_SCEN_MAX_FILE_BYTES, ".scen", &buf, &len, diag);
    if (st != PF_OK) return st;
    st = pf_scen_parse(buf, len, path, &(pf_scen_load_desc){.allocator = a}, out, diag);
    pf__free(&a, buf, len + 1);
    return st;
}

uint32_t pf_scen_count(const pf_scen *s) { return s ? s->n : 0; }
const pf_scen_entry *pf_scen_get(const pf_scen *s, uint32_t i) { return s && i < s->n ? &s->e[i] : NULL; }
const char *pf_scen_map_name(const pf_scen *s) { return s ? s->map_name : ""; }

void pf_scen_destroy(pf_scen *s)
{
    if (!s) return;
    pf_allocator a = s->alloc;
    pf__free(&a, s->e, (size_t)s->cap * sizeof *s->e);
    pf__free(&a, s, sizeof *s);
}
