/* fuzz_movingai.c - the Moving AI .map parser (pf_grid_parse_movingai) on arbitrary bytes.
 *
 * The input is the file text itself, so corpus files are real .map files. Each input is parsed twice:
 * with defaults, and with a movement rule, terrain costs and a failing n-th allocation chosen from the
 * input's length (so OOM unwinding inside the parser gets fuzzed too). A map that loads must answer
 * a corner-to-corner query exactly as the independent oracle does.
 */
#include <math.h>
#include "fuzz_common.h"
#include "oracle.h"

static void check_search(const pf_map *map, fuzz_alloc_state *as)
{
    uint32_t n = pf_map_node_count(map);
    if (n > 64 * 64) return; /* the oracle is a plain Dijkstra: keep executions fast */
    uint32_t w = pf_grid_width(map), h = pf_grid_height(map);
    uint32_t first = PF_NODE_NONE, last = PF_NODE_NONE;
    for (uint32_t i = 0; i < n; i++) {
        pf_point p = pf_grid_point(map, i);
        FUZZ_CHECK(p.x >= 0 && (uint32_t)p.x < w && p.y >= 0 && (uint32_t)p.y < h);
        FUZZ_CHECK(pf_grid_node(map, p.x, p.y) == i);
        if (!pf_grid_class(map, p.x, p.y)) continue;
        FUZZ_CHECK(pf_grid_cost(map, p.x, p.y) > 0.0f);
        if (first == PF_NODE_NONE) first = i;
        last = i;
    }
    if (first == PF_NODE_NONE) return;
    pf_ctx *ctx;
    pf_ctx_desc cd = {.allocator = fuzz_alloc_hooks(as), .heap_capacity = 2}; /* forces open-list growth */
    pf_status st = pf_ctx_create(map, &cd, &ctx);
    if (st == PF_OUT_OF_MEMORY) return;
    FUZZ_CHECK(st == PF_OK);
    uint32_t nodes[64 * 64];
    pf_path path = {.nodes = nodes, .capacity = 64 * 64};
    pf_stats stats;
    st = pf_search(ctx, first, last, NULL, &path, &stats);
    double want = oracle_cost(map, first, last);
    if (st == PF_OK) {
        FUZZ_CHECK(isfinite(want));
        FUZZ_CHECK(fabs(stats.cost - want) <= 1e-9 * (1.0 + want));
        FUZZ_CHECK(path.len >= 1 && nodes[0] == first && nodes[path.len - 1] == last);
        FUZZ_CHECK(fabs(oracle_path_cost(map, nodes, path.len) - stats.cost) <= 1e-9 * (1.0 + want));
    } else if (st == PF_NO_PATH) {
        FUZZ_CHECK(!isfinite(want));
        FUZZ_CHECK(path.len == 0);
    } else {
        FUZZ_CHECK(st == PF_OUT_OF_MEMORY);
    }
    pf_ctx_destroy(ctx);
}

static void parse_one(const char *text, size_t size, const pf_grid_load_desc *desc, fuzz_alloc_state *as)
{
    pf_map *map = (pf_map *)&map; /* garbage: the parser must set it */
    pf_diag diag;
    memset(&diag, 0x5a, sizeof diag); /* garbage too */
    pf_status st = pf_grid_parse_movingai(text, size, "fuzz.map", desc, &map, &diag);
    fuzz_check_diag(&diag, st);
    if (st != PF_OK) {
        FUZZ_CHECK(map == NULL);
        FUZZ_CHECK(st == PF_PARSE_ERROR || st == PF_TOO_LARGE || st == PF_OUT_OF_MEMORY);
        return;
    }
    FUZZ_CHECK(map != NULL);
    FUZZ_CHECK(pf_map_kind_of(map) == PF_MAP_GRID);
    FUZZ_CHECK((uint64_t)pf_grid_width(map) * pf_grid_height(map) == pf_map_node_count(map));
    FUZZ_CHECK(pf_grid_width(map) >= 1 && pf_grid_height(map) >= 1);
    /* a file holds at least one byte per cell */
    FUZZ_CHECK(pf_map_node_count(map) <= size);
    FUZZ_CHECK(pf_map_mem_size(map) >= pf_map_node_count(map));
    check_search(map, as);
    pf_map_destroy(map);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    fuzz_alloc_state as = {.max_size = (size_t)1 << 28};

    pf_grid_load_desc d0 = {.allocator = fuzz_alloc_hooks(&as)};
    parse_one(text, size, &d0, &as);
    FUZZ_CHECK(fuzz_alloc_live(&as) == 0 && as.bytes == 0);

    pf_grid_load_desc d1 = {.moves = (pf_moves)(1 + size % 4), .allocator = fuzz_alloc_hooks(&as)};
    d1.char_cost['S'] = 2.5f;
    d1.char_cost['G'] = 0.5f;
    d1.char_cost['T'] = 3.0f;
    as.calls = 0;
    as.fail_at = size % 3 == 0 ? (unsigned)(1 + size / 3 % 8) : 0;
    parse_one(text, size, &d1, &as);
    FUZZ_CHECK(fuzz_alloc_live(&as) == 0 && as.bytes == 0);
    fuzz_alloc_reset(&as);
    return 0;
}
