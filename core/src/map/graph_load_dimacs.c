/* graph_load_dimacs.c - DIMACS shortest-path challenge format (.gr arcs, .co coordinates). */
#include <math.h>
#include <string.h>
#include "map/map_internal.h"

/* A token of digits only: a count or weight that did not parse was too large for 64 bits, which
 * the header promises as PF_TOO_LARGE, not as a malformed number. */
static int all_digits(const char *t, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (t[i] < '0' || t[i] > '9') return 0;
    return n > 0;
}

/* Nodes a header may announce beyond those its arcs can name (2 per arc): isolated nodes are legal
 * DIMACS, but a 16-byte "p sp 33554432 0" made a 268 MB map and 680 MB per context (a review).
 * More must be listed by a .co file (a line each, which its own header check bounds by size). */
#define GR_SPARE_NODES 4096u

/* Skips comment and blank lines; returns 0 at end of input. */
static int next_content(pf__lines *ls, const char **s, size_t *n)
{
    while (pf__next_line(ls, s, n)) {
        const char *p = *s, *t;
        size_t tl;
        if (!pf__next_token(&p, *s + *n, &t, &tl)) continue;
        if (t[0] == 'c' && (tl == 1)) continue;
        if (t[0] == 'c' && tl > 1) continue; /* "c..." comments without a space */
        return 1;
    }
    return 0;
}

/* Errors at the end of input name the line after the last one read: where the missing line
 * would have been (line 1 for empty input). */
static pf_status parse_gr(const char *text, size_t len, const char *name, const pf_allocator *a, int has_co,
                          uint32_t *nn, uint32_t *ne, pf_edge **edges, pf_diag *diag)
{
    pf__lines ls = {text, text + len, 0};
    const char *s, *p, *t;
    size_t n, tl;
    *edges = NULL;
    if (!next_content(&ls, &s, &n))
        return pf__diag_set(diag, PF_PARSE_ERROR, name, ls.line + 1, 0, "missing 'p sp N M' line");
    p = s;
    uint64_t N, M;
    if (!pf__next_token(&p, s + n, &t, &tl) || !pf__tok_eq(t, tl, "p") || !pf__next_token(&p, s + n, &t, &tl) ||
        !pf__tok_eq(t, tl, "sp"))
        return pf__diag_set(diag, PF_PARSE_ERROR, name, ls.line, 1, "expected 'p sp N M'");
    const char *tn = NULL, *tm = NULL;
    size_t ln = 0, lm = 0;
    int okn = pf__next_token(&p, s + n, &tn, &ln), okm = okn && pf__next_token(&p, s + n, &tm, &lm);
    if (!okm || pf__next_token(&p, s + n, &t, &tl) || !all_digits(tn, ln) || !all_digits(tm, lm))
        return pf__diag_set(diag, PF_PARSE_ERROR, name, ls.line, 0, "expected 'p sp N M' with two counts");
    /* digits past 64 bits: over the limits, named as written */
    if (!pf__parse_u64(tn, ln, &N))
        return pf__diag_set(diag, PF_TOO_LARGE, name, ls.line, 0,
                            "graph too large: %.*s nodes, the limit is %u (PF_GRAPH_MAX_NODES)", (int)(ln < 40 ? ln : 40),
                            tn, PF_GRAPH_MAX_NODES);
    if (!pf__parse_u64(tm, lm, &M))
        return pf__diag_set(diag, PF_TOO_LARGE, name, ls.line, 0,
                            "graph too large: %.*s arcs, the limit is %u (PF_GRAPH_MAX_ARCS)", (int)(lm < 40 ? lm : 40),
                            tm, PF_GRAPH_MAX_ARCS);
    if (N == 0) return pf__diag_set(diag, PF_PARSE_ERROR, name, ls.line, 0, "graph has no nodes");
    /* the header alone can announce any size: the documented limits bound what it may make us
     * allocate (node arrays, and every context made for the graph later) */
    if (N > PF_GRAPH_MAX_NODES)
        return pf__diag_set(diag, PF_TOO_LARGE, name, ls.line, 0,
                            "graph too large: %llu nodes, the limit is %u (PF_GRAPH_MAX_NODES)",
                            (unsigned long long)N, PF_GRAPH_MAX_NODES);
    if (M > PF_GRAPH_MAX_ARCS)
        return pf__diag_set(diag, PF_TOO_LARGE, name, ls.line, 0,
                            "graph too large: %llu arcs, the limit is %u (PF_GRAPH_MAX_ARCS)",
                            (unsigned long long)M, PF_GRAPH_MAX_ARCS);
    if (!has_co && N > 2 * M + GR_SPARE_NODES)
        return pf__diag_set(diag, PF_PARSE_ERROR, name, ls.line, 0,
                            "%llu nodes announced, more than %llu arcs can name: at most 2 per arc and %u more "
                            "without a .co file that lists them",
                            (unsigned long long)N, (unsigned long long)M, GR_SPARE_NODES);
    /* each arc line takes at least 8 bytes: reject impossible counts before allocating */
    if (M > (uint64_t)(ls.end - ls.p) / 8 + 1)
        return pf__diag_set(diag, PF_PARSE_ERROR, name, ls.line, 0, "file is truncated: %llu arcs announced",
                            (unsigned long long)M);
    pf_edge *e = pf__alloc(a, (size_t)(M ? M : 1) * sizeof(pf_edge), 16);
    if (!e) return pf__diag_set(diag, PF_OUT_OF_MEMORY, name, 0, 0, "out of memory");
    uint64_t k = 0;
    while (next_content(&ls, &s, &n)) {
        p = s;
        pf__next_token(&p, s + n, &t, &tl);
        if (!pf__tok_eq(t, tl, "a")) {
            pf__free(a, e, (size_t)(M ? M : 1) * sizeof(pf_edge));
            return pf__diag_set(diag, PF_PARSE_ERROR, name, ls.line, 1, "expected an arc line 'a U V W'");
        }
        if (k == M) {
            pf__free(a, e, (size_t)(M ? M : 1) * sizeof(pf_edge));
            return pf__diag_set(diag, PF_PARSE_ERROR, name, ls.line, 0, "more arcs than the %llu announced",
                                (unsigned long long)M);
        }
        uint64_t u, v;
        int64_t w = 0;
        const char *tw = NULL;
        size_t lw = 0;
        const char *why = NULL;
        if (!pf__next_token(&p, s + n, &t, &tl) || !pf__parse_u64(t, tl, &u)) why = "bad source id";
        else if (!pf__next_token(&p, s + n, &t, &tl) || !pf__parse_u64(t, tl, &v)) why = "bad target id";
        else if (!pf__next_token(&p, s + n, &tw, &lw)) why = "bad weight";
        else if (!pf__parse_i64(tw, lw, &w)) {
            if (all_digits(tw, lw)) w = INT64_MAX; /* past 64 bits: over PF_DIMACS_MAX_WEIGHT */
            else why = "bad weight";
        }
        else if (pf__next_token(&p, s + n, &t, &tl)) why = "extra text after the weight";
        else if (u == 0 || u > N) why = "source id out of range";
        else if (v == 0 || v > N) why = "target id out of range";
        else if (w < 0) why = "negative weight";
        if (!why && (uint64_t)w > PF_DIMACS_MAX_WEIGHT) {
            pf__free(a, e, (size_t)(M ? M : 1) * sizeof(pf_edge));
            return pf__diag_set(diag, PF_TOO_LARGE, name, ls.line, 0,
                                "weight %.*s exceeds 2^53 (PF_DIMACS_MAX_WEIGHT), the largest a double "
                                "holds exactly", (int)(lw < 40 ? lw : 40), tw);
        }
        if (why) {
            pf__free(a, e, (size_t)(M ? M : 1) * sizeof(pf_edge));
            return pf__diag_set(diag, PF_PARSE_ERROR, name, ls.line, 0, "%s", why);
        }
        e[k++] = (pf_edge){(uint32_t)(u - 1), (uint32_t)(v - 1), (double)w};
    }
    if (k != M) {
        pf__free(a, e, (size_t)(M ? M : 1) * sizeof(pf_edge));
        return pf__diag_set(diag, PF_PARSE_ERROR, name, ls.line + 1, 0, "file is truncated: %llu of %llu arcs",
                            (unsigned long long)k, (unsigned long long)M);
    }
    *nn = (uint32_t)N;
    *ne = (uint32_t)M;
    *edges = e;
    return PF_OK;
}

static pf_status parse_co(const char *text, size_t len, const char *name, const pf_allocator *a, uint32_t nn,
                          double **xy_out, pf_diag *diag)
{
    pf__lines ls = {text, text + len, 0};
    const char *s, *p, *t;
    size_t n, tl;
    *xy_out = NULL;
    if (!next_content(&ls, &s, &n))
        return pf__diag_set(diag, PF_PARSE_ERROR, name, ls.line + 1, 0, "missing 'p aux sp co N' line");
    p = s;
    uint64_t N;
    int ok = pf__next_token(&p, s + n, &t, &tl) && pf__tok_eq(t, tl, "p") && pf__next_token(&p, s + n, &t, &tl) &&
             pf__tok_eq(t, tl, "aux") && pf__next_token(&p, s + n, &t, &tl) && pf__tok_eq(t, tl, "sp") &&
             pf__next_token(&p, s + n, &t, &tl) && pf__tok_eq(t, tl, "co") && pf__next_token(&p, s + n, &t, &tl) &&
             pf__parse_u64(t, tl, &N) && !pf__next_token(&p, s + n, &t, &tl);
    if (!ok) return pf__diag_set(diag, PF_PARSE_ERROR, name, ls.line, 1, "expected 'p aux sp co N'");
    if (N != nn)
        return pf__diag_set(diag, PF_PARSE_ERROR, name, ls.line, 0, "coordinates for %llu nodes, graph has %u",
                            (unsigned long long)N, nn);
    /* each coordinate line takes at least 8 bytes ("v 1 0 0" and its end): a file far too short
     * for the nodes is refused before 17 bytes a node are allocated for it, as arcs are (a short
     * one, of a few thousand nodes, is read to the line that says what is wrong) */
    if (N > 4096 && N > (uint64_t)(ls.end - ls.p) / 8 + 1)
        return pf__diag_set(diag, PF_PARSE_ERROR, name, ls.line, 0, "file is truncated: %llu nodes announced",
                            (unsigned long long)N);
    size_t bytes = (size_t)nn * 2 * sizeof(double);
    double *xy = pf__alloc(a, bytes, 64);
    uint8_t *seen = pf__calloc(a, nn, 16);
    if (!xy || !seen) {
        pf__free(a, xy, bytes);
        pf__free(a, seen, nn);
        return pf__diag_set(diag, PF_OUT_OF_MEMORY, name, 0, 0, "out of memory");
    }
    uint32_t count = 0;
    const char *why = NULL;
    while (!why && next_content(&ls, &s, &n)) {
        p = s;
        pf__next_token(&p, s + n, &t, &tl);
        uint64_t id;
        int64_t x, y;
        if (!pf__tok_eq(t, tl, "v")) why = "expected a node line 'v ID X Y'";
        else if (!pf__next_token(&p, s + n, &t, &tl) || !pf__parse_u64(t, tl, &id)) why = "bad node id";
        else if (!pf__next_token(&p, s + n, &t, &tl) || !pf__parse_i64(t, tl, &x)) why = "bad x coordinate";
        else if (!pf__next_token(&p, s + n, &t, &tl) || !pf__parse_i64(t, tl, &y)) why = "bad y coordinate";
        else if (pf__next_token(&p, s + n, &t, &tl)) why = "extra text after the coordinates";
        else if (id == 0 || id > nn) why = "node id out of range";
        else if (seen[id - 1]) why = "node listed twice";
        else {
            seen[id - 1] = 1;
            xy[2 * (id - 1)] = (double)x;
            xy[2 * (id - 1) + 1] = (double)y;
            count++;
        }
    }
    pf__free(a, seen, nn);
    if (!why && count != nn) {
        pf__free(a, xy, bytes);
        return pf__diag_set(diag, PF_PARSE_ERROR, name, ls.line + 1, 0, "file is truncated: %u of %u nodes", count, nn);
    }
    if (why) {
        pf__free(a, xy, bytes);
        return pf__diag_set(diag, PF_PARSE_ERROR, name, ls.line, 0, "%s", why);
    }
    *xy_out = xy;
    return PF_OK;
}

static pf_status parse_both(const char *gr, size_t gl, const char *gname, const char *co, size_t cl,
                            const char *cname, const pf_allocator *alloc, pf_map **out, pf_diag *diag)
{
    pf_allocator a = pf__alloc_resolve(alloc);
    uint32_t nn = 0, ne = 0;
    pf_edge *e;
    pf_status st = parse_gr(gr, gl, gname, &a, co != NULL, &nn, &ne, &e, diag);
    if (st != PF_OK) return st;
    double *xy = NULL;
    if (co) {
        st = parse_co(co, cl, cname, &a, nn, &xy, diag);
        if (st != PF_OK) {
            pf__free(&a, e, (size_t)(ne ? ne : 1) * sizeof(pf_edge));
            return st;
        }
    }
    pf_graph_desc d = {.node_count = nn, .edge_count = ne, .edges = e, .coords = xy, .allocator = a};
    st = pf_graph_create(&d, out);
    pf__free(&a, e, (size_t)(ne ? ne : 1) * sizeof(pf_edge));
    pf__free(&a, xy, (size_t)nn * 2 * sizeof(double));
    if (st != PF_OK) return pf__diag_set(diag, st, gname, 0, 0, "%s", pf_status_str(st));
    if (diag) *diag = (pf_diag){.status = PF_OK};
    return PF_OK;
}

pf_status pf_graph_parse_dimacs(const char *gr, size_t gr_len, const char *co, size_t co_len,
                                const pf_graph_load_desc *desc, pf_map **out, pf_diag *diag)
{
    const pf_allocator *alloc = desc ? &desc->allocator : NULL;
    if (!out) return pf__diag_set(diag, PF_INVALID_ARGUMENT, NULL, 0, 0, "no output pointer");
    *out = NULL;
    if (!gr) return pf__diag_set(diag, PF_INVALID_ARGUMENT, NULL, 0, 0, "no graph text");
    return parse_both(gr, gr_len, "<graph>", co, co_len, "<coords>", alloc, out, diag);
}

pf_status pf_graph_load_dimacs(const char *gr_path, const char *co_path, const pf_graph_load_desc *desc,
                               pf_map **out, pf_diag *diag)
{
    const pf_allocator *alloc = desc ? &desc->allocator : NULL;
    if (!out) return pf__diag_set(diag, PF_INVALID_ARGUMENT, NULL, 0, 0, "no output pointer");
    *out = NULL;
    pf_allocator a = pf__alloc_resolve(alloc);
    char *g = NULL, *c = NULL;
    size_t gl = 0, cl = 0;
    pf_status st = pf__read_text(gr_path, &a, PF_DIMACS_MAX_FILE_BYTES, ".gr", &g, &gl, diag);
    if (st != PF_OK) return st;
    if (co_path) {
        st = pf__read_text(co_path, &a, PF_DIMACS_MAX_FILE_BYTES, ".co", &c, &cl, diag);
        if (st != PF_OK) {
            pf__free(&a, g, gl + 1);
            return st;
        }
    }
    st = parse_both(g, gl, gr_path, c, cl, co_path, &a, out, diag);
    pf__free(&a, g, gl + 1);
    if (c) pf__free(&a, c, cl + 1);
    return st;
}
