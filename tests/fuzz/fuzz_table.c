/* fuzz_table.c - baked first-move tables (pf_table_load_mem) from arbitrary bytes.
 *
 * A baked file carries XXH3 checksums of its header and payload, so random bytes stop at the first
 * checksum. To reach the checks behind them, byte 0 picks a mode:
 *   bit 0      map: a 7x5 grid with walls and water (0) or an 8-node graph with parallel arcs (1)
 *   bits 1-2   0: the rest of the input is the file, as is
 *              1: the rest is the file, with both checksums recomputed (a forger's file)
 *              2: the valid baked table of the map, with the rest applied as (offset lo, offset hi,
 *                 xor) triples, then both checksums recomputed
 *              3: the same without recomputing the checksums
 *   bits 3-5   failing allocation number (1..7; 0 = none)
 * A table that loads must answer every pair without crashing or looping: entries are legal arcs,
 * pf_table_path is PF_OK with a legal path (never cheaper than the optimum), PF_NO_PATH or
 * PF_LIMIT_REACHED, and saving it gives back the same bytes. The unmodified file gives optimal costs.
 */
#include <math.h>
#include <xxhash.h>
#include "fuzz_common.h"
#include "oracle.h"

static pf_map *g_maps[2];
static uint8_t *g_baked[2];
static size_t g_baked_size[2];

static void setup(void)
{
    if (g_maps[0]) return;
    static const char grid[] = "type octile\nheight 5\nwidth 7\nmap\n..@....\n.W@.@@.\n.WW.@..\n...T@..\n@......\n";
    FUZZ_CHECK(pf_grid_parse_movingai(grid, sizeof grid - 1, "g", NULL, &g_maps[0], NULL) == PF_OK);
    static const pf_edge e[] = {{0, 1, 2}, {0, 1, 1}, {1, 2, 2}, {2, 3, 0}, {3, 0, 4}, {0, 4, 9}, {4, 5, 1},
                                {5, 4, 1}, {5, 6, 3}, {2, 6, 8}, {6, 2, 1}, {1, 1, 1}};
    FUZZ_CHECK(pf_graph_create(&(pf_graph_desc){.node_count = 8, .edge_count = 12, .edges = e}, &g_maps[1]) == PF_OK);
    for (int k = 0; k < 2; k++) {
        pf_table *t;
        FUZZ_CHECK(pf_table_create(g_maps[k], &(pf_table_desc){.threads = 1}, &t) == PF_OK);
        g_baked_size[k] = pf_table_file_size(t);
        g_baked[k] = malloc(g_baked_size[k]);
        FUZZ_CHECK(pf_table_save_mem(t, g_baked[k], g_baked_size[k], NULL) == PF_OK);
        pf_table_destroy(t);
    }
}

static uint64_t get64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = v << 8 | p[i];
    return v;
}

static void put64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}

/* Recomputes the payload checksum (over what the header says, as far as the bytes go) and the
 * header checksum, as someone forging a file would. */
static void fix_checksums(uint8_t *b, size_t size)
{
    if (size < 64) return;
    uint64_t psize = get64(b + 40);
    size_t avail = size - 64;
    put64(b + 48, XXH3_64bits(b + 64, psize < avail ? (size_t)psize : avail));
    put64(b + 56, XXH3_64bits(b, 56));
}

static void check_table(const pf_table *t, const pf_map *map, int pristine)
{
    uint32_t n = pf_map_node_count(map);
    FUZZ_CHECK(pf_table_node_count(t) == n && pf_table_map(t) == map);
    uint32_t nodes[64];
    for (uint32_t u = 0; u < n; u++) {
        double *want = oracle_all(map, u, 0);
        for (uint32_t v = 0; v < n; v++) {
            uint32_t e = pf_table_entry(t, u, v);
            uint32_t next = pf_table_next(t, u, v);
            FUZZ_CHECK(next == PF_NODE_NONE || next < n);
            if (e != PF_TABLE_NO_ROUTE && e != PF_TABLE_AT_GOAL) FUZZ_CHECK(next != PF_NODE_NONE);
            pf_path path = {.nodes = nodes, .capacity = 64};
            double cost;
            pf_status st = pf_table_path(t, u, v, &path, &cost);
            if (st == PF_OK) {
                FUZZ_CHECK(path.len >= 1 && nodes[0] == u && nodes[path.len - 1] == v);
                double pc = oracle_path_cost(map, nodes, path.len);
                /* the walk pays the arcs the entries name; a forged entry may name a dearer
                 * parallel arc than the oracle's cheapest, never a missing one */
                FUZZ_CHECK(isfinite(pc) && isfinite(cost) && cost >= pc - 1e-9 * (1 + pc));
                FUZZ_CHECK(cost >= want[v] - 1e-9 * (1 + want[v]));
                if (pristine) FUZZ_CHECK(fabs(cost - want[v]) <= 1e-9 * (1 + want[v]));
            } else {
                FUZZ_CHECK(st == PF_NO_PATH || st == PF_LIMIT_REACHED || st == PF_INVALID_START ||
                           st == PF_INVALID_GOAL);
                FUZZ_CHECK(isinf(cost));
                if (pristine && st == PF_NO_PATH) FUZZ_CHECK(!isfinite(want[v]));
            }
        }
        free(want);
    }
    FUZZ_CHECK(pf_table_entry(t, n, 0) == PF_TABLE_NO_ROUTE && pf_table_next(t, 0, n) == PF_NODE_NONE);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    setup();
    if (size == 0) return 0;
    int k = data[0] & 1, mode = (data[0] >> 1) & 3;
    unsigned fail = (data[0] >> 3) & 7;
    const pf_map *map = g_maps[k];
    uint8_t *file;
    size_t fsize;
    if (mode <= 1) {
        fsize = size - 1;
        file = malloc(fsize ? fsize : 1);
        memcpy(file, data + 1, fsize);
        if (mode == 1) fix_checksums(file, fsize);
    } else {
        fsize = g_baked_size[k];
        file = malloc(fsize);
        memcpy(file, g_baked[k], fsize);
        for (size_t i = 1; i + 2 < size; i += 3) file[(data[i] | (size_t)data[i + 1] << 8) % fsize] ^= data[i + 2];
        if (mode == 2) fix_checksums(file, fsize);
    }
    int pristine = fsize == g_baked_size[k] && memcmp(file, g_baked[k], fsize) == 0;

    fuzz_alloc_state as = {.fail_at = fail, .max_size = (size_t)1 << 24};
    pf_table_desc d = {.allocator = fuzz_alloc_hooks(&as), .threads = 1};
    pf_table *t = (pf_table *)&t;
    pf_diag diag;
    memset(&diag, 0x5a, sizeof diag);
    pf_status st = pf_table_load_mem(file, fsize, "fuzz.pft", map, &d, &t, &diag);
    fuzz_check_diag(&diag, st);
    if (st == PF_OK) {
        FUZZ_CHECK(t != NULL);
        check_table(t, map, pristine);
        /* a file that loads is canonical: saving gives the same bytes back */
        size_t need = 0;
        uint8_t *again = malloc(fsize);
        FUZZ_CHECK(pf_table_save_mem(t, again, fsize, &need) == PF_OK && need == fsize);
        FUZZ_CHECK(memcmp(again, file, fsize) == 0);
        free(again);
        pf_table_destroy(t);
    } else {
        FUZZ_CHECK(t == NULL);
        FUZZ_CHECK(st == PF_PARSE_ERROR || st == PF_UNSUPPORTED || st == PF_WRONG_MAP || st == PF_TOO_LARGE ||
                   st == PF_OUT_OF_MEMORY);
        if (pristine && !fail) FUZZ_CHECK(!"the table's own baked file was rejected");
    }
    FUZZ_CHECK(fuzz_alloc_live(&as) == 0);
    fuzz_alloc_reset(&as);
    free(file);
    return 0;
}
