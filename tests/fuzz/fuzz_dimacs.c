/* fuzz_dimacs.c - the DIMACS .gr/.co parser (pf_graph_parse_dimacs) on arbitrary bytes.
 *
 * Input layout: the .gr text, then optionally a NUL byte and the .co text (no NUL: no coordinates).
 * A seed is made with `{ cat g.gr; printf '\0'; cat g.co; } > corpus/dimacs/name`.
 * A graph that loads must have consistent arc tables, and on small graphs the forward and reverse
 * searches from node 0 must match the oracle; the parse is repeated with a failing n-th allocation.
 */
#include <math.h>
#include "fuzz_common.h"
#include "oracle.h"

static void check_graph(const pf_map *map, fuzz_alloc_state *as)
{
    uint32_t n = pf_map_node_count(map), m = pf_graph_edge_count(map);
    FUZZ_CHECK(pf_map_kind_of(map) == PF_MAP_GRAPH && n >= 1);
    uint64_t fwd = 0, rev = 0;
    for (uint32_t u = 0; u < n; u++) {
        const uint32_t *to;
        const double *w;
        uint32_t k = pf_graph_arcs(map, u, 0, &to, &w);
        for (uint32_t i = 0; i < k; i++) FUZZ_CHECK(to[i] < n && w[i] >= 0 && isfinite(w[i]));
        fwd += k;
        rev += pf_graph_arcs(map, u, 1, &to, &w);
    }
    FUZZ_CHECK(fwd == m && rev == m);
    FUZZ_CHECK(pf_graph_arcs(map, n, 0, NULL, NULL) == 0);
    if (pf_graph_has_coords(map)) {
        double hs = pf_graph_heuristic_scale(map);
        FUZZ_CHECK(hs >= 0 && isfinite(hs));
    }
    if (n > 512 || m > 4096) return;

    pf_ctx *ctx;
    pf_ctx_desc cd = {.allocator = fuzz_alloc_hooks(as), .heap_capacity = 1};
    pf_status st = pf_ctx_create(map, &cd, &ctx);
    if (st == PF_OUT_OF_MEMORY) return;
    FUZZ_CHECK(st == PF_OK);
    for (int reverse = 0; reverse < 2; reverse++) {
        double *want = oracle_all(map, 0, reverse);
        /* goal-directed search to the last node (Euclidean A* when the graph has coordinates) */
        pf_stats stats;
        uint32_t goal = n - 1;
        st = pf_search(ctx, 0, goal, &(pf_search_desc){.reverse = reverse}, NULL, &stats);
        if (st == PF_OK) FUZZ_CHECK(fabs(stats.cost - want[goal]) <= 1e-9 * (1.0 + want[goal]));
        else if (st == PF_NO_PATH) FUZZ_CHECK(!isfinite(want[goal]));
        else FUZZ_CHECK(st == PF_OUT_OF_MEMORY);
        /* full tree */
        st = pf_search_tree(ctx, 0, &(pf_search_desc){.reverse = reverse});
        if (st == PF_OK)
            for (uint32_t v = 0; v < n; v++) {
                double got = pf_ctx_cost(ctx, v);
                FUZZ_CHECK(isfinite(got) == isfinite(want[v]));
                if (isfinite(got)) FUZZ_CHECK(fabs(got - want[v]) <= 1e-9 * (1.0 + want[v]));
            }
        else FUZZ_CHECK(st == PF_OUT_OF_MEMORY);
        free(want);
    }
    pf_ctx_destroy(ctx);
}

static void parse_one(const char *gr, size_t gl, const char *co, size_t cl, fuzz_alloc_state *as)
{
    pf_allocator a = fuzz_alloc_hooks(as);
    pf_map *map = (pf_map *)&map;
    pf_diag diag;
    memset(&diag, 0x5a, sizeof diag);
    pf_status st = pf_graph_parse_dimacs(gr, gl, co, cl, &(pf_graph_load_desc){.allocator = a}, &map, &diag);
    fuzz_check_diag(&diag, st);
    if (st != PF_OK) {
        FUZZ_CHECK(map == NULL);
        FUZZ_CHECK(st == PF_PARSE_ERROR || st == PF_TOO_LARGE || st == PF_OUT_OF_MEMORY);
        return;
    }
    FUZZ_CHECK(map != NULL);
    FUZZ_CHECK(pf_graph_has_coords(map) == (co != NULL));
    check_graph(map, as);
    pf_map_destroy(map);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *gr = (const char *)data, *co = NULL;
    size_t gl = size, cl = 0;
    const char *nul = memchr(data, '\0', size);
    if (nul) {
        gl = (size_t)(nul - gr);
        co = nul + 1;
        cl = size - gl - 1;
    }
    /* Node counts are announced, not implied by the text: cap single blocks so "p sp 1000000000 0"
     * tests the code paths without paging in gigabytes (the hook fails it: a clean PF_OUT_OF_MEMORY). */
    fuzz_alloc_state as = {.max_size = (size_t)1 << 22};
    parse_one(gr, gl, co, cl, &as);
    FUZZ_CHECK(fuzz_alloc_live(&as) == 0);
    as.calls = 0;
    as.fail_at = (unsigned)(1 + size % 16);
    parse_one(gr, gl, co, cl, &as);
    FUZZ_CHECK(fuzz_alloc_live(&as) == 0);
    fuzz_alloc_reset(&as);
    return 0;
}
