/* test_table.c - first-move tables: the slides' five-node example (table, and the rows rebuilt and
 * examined after removing A-E), queries, grids, and baked files (round trip and every way a file
 * can be bad). */
#define _POSIX_C_SOURCE 200809L /* mkstemp */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <cmocka.h>
#include <xxhash.h> /* to forge checksums the way the format documents them */
#include "pathfind.h"
#include "oracle.h"
#include "maps.h"
#include "tmpdir.h"
#include "testutil.h" /* test_tracker */

/* ---- the slides' graph ------------------------------------------------------------------------ */
/*
 * A-B-C, A-E, B-E, C-D, D-E, unit costs, undirected (two arcs per edge). The slides break four
 * ties (B->D, C->E, D->B, E->C) in favour of B and E over C and D; our rule takes the smallest arc
 * index, i.e. the smallest node id, so numbering the nodes A B E C D (0..4) reproduces the slides'
 * table exactly. test_slides_natural_numbering checks the A..E numbering too: there the four tie
 * entries legitimately differ and everything else matches.
 */
static const char LETTERS[] = "ABCDE";
static const char *const EDGES[] = {"AB", "AE", "BC", "BE", "CD", "DE"};

static const char *const SLIDES_TABLE[5] = {
    /* to: A B C D E */
    ".BBEE", /* A */
    "A.CEE", /* B */
    "BB.DB", /* C */
    "EEC.E", /* D */
    "ABBD.", /* E */
};
static const char *const SLIDES_AFTER[5] = {".BBBB", "A.CEE", "BB.DB", "EEC.E", "BBBD."};

/* ids[letter - 'A'] = node id */
static pf_map *slides_graph(const uint32_t ids[5], int without_ae)
{
    pf_edge e[12];
    uint32_t m = 0;
    for (size_t i = 0; i < sizeof EDGES / sizeof EDGES[0]; i++) {
        if (without_ae && strcmp(EDGES[i], "AE") == 0) continue;
        uint32_t a = ids[EDGES[i][0] - 'A'], b = ids[EDGES[i][1] - 'A'];
        e[m++] = (pf_edge){a, b, 1.0};
        e[m++] = (pf_edge){b, a, 1.0};
    }
    pf_map *g;
    assert_int_equal(pf_graph_create(&(pf_graph_desc){.node_count = 5, .edge_count = m, .edges = e}, &g), PF_OK);
    return g;
}

static char letter_of(const uint32_t ids[5], uint32_t node)
{
    for (int k = 0; k < 5; k++)
        if (ids[k] == node) return LETTERS[k];
    return '?';
}

static void check_table(const pf_table *t, const uint32_t ids[5], const char *const want[5], int ties_too)
{
    for (int r = 0; r < 5; r++)
        for (int c = 0; c < 5; c++) {
            uint32_t nx = pf_table_next(t, ids[r], ids[c]);
            char got = r == c ? (nx == PF_NODE_NONE ? '.' : '!') : letter_of(ids, nx);
            int tie = (r == 1 && c == 3) || (r == 2 && c == 4) || (r == 3 && c == 1) || (r == 4 && c == 2);
            if (!ties_too && tie) continue;
            if (got != want[r][c]) fail_msg("row %c col %c: got %c, slides say %c", LETTERS[r], LETTERS[c], got, want[r][c]);
        }
}

static void test_slides_table_and_update(void **state)
{
    (void)state;
    const uint32_t ids[5] = {0, 1, 3, 4, 2}; /* A B C D E -> A=0 B=1 E=2 C=3 D=4 */
    pf_map *g = slides_graph(ids, 0);
    pf_table *t;
    assert_int_equal(pf_table_create(g, &(pf_table_desc){.threads = 1}, &t), PF_OK);
    assert_int_equal(pf_table_entry_bytes(t), 1);
    check_table(t, ids, SLIDES_TABLE, 1);
    /* "From this table we know that E is a first non-starting node on the best path from D to B." */
    assert_int_equal(pf_table_next(t, ids['D' - 'A'], ids['B' - 'A']), ids['E' - 'A']);

    /* remove the connection A-E: open = [A, E]; A and E rebuilt (changed), B and D examined
     * (unchanged), C never looked at */
    pf_map *g2 = slides_graph(ids, 1);
    uint32_t ex[8];
    uint8_t ch[8];
    pf_table_report rep;
    pf_table_update_desc ud = {.rule = PF_TABLE_RULE_SLIDES, .examined = ex, .changed = ch, .capacity = 8};
    assert_int_equal(pf_table_update(t, g2, &ud, &rep), PF_OK);
    assert_int_equal(rep.seeds, 2);
    assert_int_equal(rep.rows_examined, 4);
    assert_int_equal(rep.rows_changed, 2);
    char order[5] = {0};
    for (int i = 0; i < 4; i++) order[i] = letter_of(ids, ex[i]);
    assert_string_equal(order, "AEBD");
    assert_int_equal(ch[0], 1);
    assert_int_equal(ch[1], 1);
    assert_int_equal(ch[2], 0);
    assert_int_equal(ch[3], 0);
    assert_ptr_equal(pf_table_map(t), g2);
    check_table(t, ids, SLIDES_AFTER, 1);

    /* the same result as building from scratch, byte for byte */
    pf_table *full;
    assert_int_equal(pf_table_create(g2, NULL, &full), PF_OK);
    for (uint32_t u = 0; u < 5; u++)
        for (uint32_t v = 0; v < 5; v++) assert_int_equal(pf_table_entry(t, u, v), pf_table_entry(full, u, v));

    /* the tight rule skips B (its old entries never used A), examining A, E, D only */
    pf_table *t2;
    assert_int_equal(pf_table_create(g, NULL, &t2), PF_OK);
    pf_table_report rep2;
    assert_int_equal(pf_table_update(t2, g2, &(pf_table_update_desc){.examined = ex, .capacity = 8}, &rep2), PF_OK);
    assert_int_equal(rep2.rows_examined, 3);
    assert_int_equal(rep2.rows_changed, 2);
    assert_int_equal(rep2.searches, 6);
    for (int i = 0; i < 3; i++) order[i] = letter_of(ids, ex[i]);
    order[3] = 0;
    assert_string_equal(order, "AED");
    check_table(t2, ids, SLIDES_AFTER, 1);

    pf_table_destroy(full);
    pf_table_destroy(t2);
    pf_table_destroy(t);
    pf_map_destroy(g2);
    pf_map_destroy(g);
}

static void test_slides_natural_numbering(void **state)
{
    (void)state;
    const uint32_t ids[5] = {0, 1, 2, 3, 4};
    pf_map *g = slides_graph(ids, 0);
    pf_table *t;
    assert_int_equal(pf_table_create(g, NULL, &t), PF_OK);
    check_table(t, ids, SLIDES_TABLE, 0);
    /* ties go to the smaller id: B->D via C (the slides chose E, an equally short path) */
    assert_int_equal(pf_table_next(t, 1, 3), 2);
    pf_table_destroy(t);
    pf_map_destroy(g);
}

/* ---- queries ------------------------------------------------------------------------------------ */

static void test_path_and_errors(void **state)
{
    (void)state;
    /* 0 -> 1 -> 2 (cost 1 + 1) beats 0 -> 2 (cost 5); 3 is isolated; parallel arcs 1 -> 2 */
    pf_edge e[] = {{0, 1, 1.0}, {1, 2, 3.0}, {1, 2, 1.0}, {0, 2, 5.0}, {2, 0, 1.0}};
    pf_map *g;
    assert_int_equal(pf_graph_create(&(pf_graph_desc){.node_count = 4, .edge_count = 5, .edges = e}, &g), PF_OK);
    pf_table *t;
    assert_int_equal(pf_table_create(g, NULL, &t), PF_OK);
    assert_int_equal(pf_table_node_count(t), 4);
    assert_true(pf_table_mem_size(t) >= 16);
    /* arcs of 0 sorted by target: [0] -> 1, [1] -> 2; arcs of 1: [0] -> 2 (w 1), [1] -> 2 (w 3) */
    assert_int_equal(pf_table_entry(t, 0, 2), 0);
    assert_int_equal(pf_table_entry(t, 1, 2), 0);
    assert_int_equal(pf_table_entry(t, 0, 0), PF_TABLE_AT_GOAL);
    assert_int_equal(pf_table_entry(t, 0, 3), PF_TABLE_NO_ROUTE);
    assert_int_equal(pf_table_entry(t, 9, 0), PF_TABLE_NO_ROUTE);
    assert_int_equal(pf_table_next(t, 0, 2), 1);
    assert_int_equal(pf_table_next(t, 2, 2), PF_NODE_NONE);

    uint32_t nodes[3];
    pf_path p = {.nodes = nodes, .capacity = 3};
    double cost;
    assert_int_equal(pf_table_path(t, 0, 2, &p, &cost), PF_OK);
    assert_int_equal(p.len, 3);
    assert_int_equal(nodes[0], 0);
    assert_int_equal(nodes[1], 1);
    assert_int_equal(nodes[2], 2);
    assert_true(cost == 2.0);
    p.capacity = 2;
    assert_int_equal(pf_table_path(t, 0, 2, &p, NULL), PF_BUFFER_TOO_SMALL);
    assert_int_equal(p.len, 3);
    assert_int_equal(pf_table_path(t, 0, 3, &p, &cost), PF_NO_PATH);
    assert_true(isinf(cost));
    assert_int_equal(pf_table_path(t, 7, 3, NULL, NULL), PF_INVALID_START);
    assert_int_equal(pf_table_path(t, 0, 7, NULL, NULL), PF_INVALID_GOAL);
    assert_int_equal(pf_table_path(t, 2, 2, NULL, &cost), PF_OK);
    assert_true(cost == 0.0);
    assert_int_equal(pf_table_path(NULL, 0, 1, NULL, NULL), PF_INVALID_ARGUMENT);

    /* update argument errors leave the table alone */
    pf_map *other;
    assert_int_equal(pf_graph_create(&(pf_graph_desc){.node_count = 5, .edge_count = 5, .edges = e}, &other), PF_OK);
    assert_int_equal(pf_table_update(t, other, NULL, NULL), PF_INVALID_ARGUMENT);
    assert_int_equal(pf_table_update(t, NULL, NULL, NULL), PF_INVALID_ARGUMENT);
    assert_int_equal(pf_table_update(t, g, &(pf_table_update_desc){.rule = (pf_table_rule)9}, NULL), PF_INVALID_ARGUMENT);
    assert_ptr_equal(pf_table_map(t), g);
    pf_table_report rep;
    assert_int_equal(pf_table_update(t, g, NULL, &rep), PF_OK); /* same map: nothing to do */
    assert_int_equal(rep.seeds, 0);
    assert_int_equal(rep.rows_examined, 0);

    pf_table *bad = (pf_table *)1;
    assert_int_equal(pf_table_create(NULL, NULL, &bad), PF_INVALID_ARGUMENT);
    assert_null(bad);
    pf_table_destroy(NULL);
    pf_map_destroy(other);
    pf_table_destroy(t);
    pf_map_destroy(g);
}

static void test_zero_weight_cycle_is_loop_free(void **state)
{
    (void)state;
    /* 0 <-> 1 at cost 0, both reach 2 at cost 1: "smallest id" alone would send 0 -> 1 -> 0 ...;
     * the hop count sends both straight to 2 */
    pf_edge e[] = {{0, 1, 0.0}, {1, 0, 0.0}, {0, 2, 1.0}, {1, 2, 1.0}, {2, 3, 0.0}, {3, 2, 0.0}};
    pf_map *g;
    assert_int_equal(pf_graph_create(&(pf_graph_desc){.node_count = 4, .edge_count = 6, .edges = e}, &g), PF_OK);
    pf_table *t;
    assert_int_equal(pf_table_create(g, NULL, &t), PF_OK);
    assert_int_equal(pf_table_next(t, 0, 2), 2);
    assert_int_equal(pf_table_next(t, 1, 2), 2);
    assert_int_equal(pf_table_next(t, 0, 3), 2);
    for (uint32_t u = 0; u < 4; u++)
        for (uint32_t v = 0; v < 4; v++) {
            double c;
            pf_status s = pf_table_path(t, u, v, NULL, &c);
            double want = oracle_cost(g, u, v);
            if (isinf(want)) assert_int_equal(s, PF_NO_PATH);
            else {
                assert_int_equal(s, PF_OK);
                assert_true(c == want);
            }
        }
    pf_table_destroy(t);
    pf_map_destroy(g);
}

static void test_grid_table(void **state)
{
    (void)state;
    static const char text[] = "type octile\nheight 5\nwidth 6\nmap\n......\n.@@@..\n.@..@.\n.@@.@.\n......\n";
    pf_map *map = grid_parse(text, sizeof text - 1, PF_MOVES_DEFAULT);
    pf_table *t;
    assert_int_equal(pf_table_create(map, &(pf_table_desc){.threads = 2}, &t), PF_OK);
    assert_int_equal(pf_table_entry_bytes(t), 1);
    uint32_t n = pf_map_node_count(map);
    uint32_t buf[64];
    for (uint32_t u = 0; u < n; u++)
        for (uint32_t v = 0; v < n; v++) {
            pf_path p = {.nodes = buf, .capacity = 64};
            double c;
            pf_status s = pf_table_path(t, u, v, &p, &c);
            pf_point pu = pf_grid_point(map, u), pv = pf_grid_point(map, v);
            if (!pf_grid_class(map, pu.x, pu.y)) {
                assert_int_equal(s, PF_INVALID_START);
                continue;
            }
            if (!pf_grid_class(map, pv.x, pv.y)) {
                assert_int_equal(s, PF_INVALID_GOAL);
                continue;
            }
            double want = oracle_cost(map, u, v);
            if (isinf(want)) {
                assert_int_equal(s, PF_NO_PATH);
                continue;
            }
            assert_int_equal(s, PF_OK);
            assert_true(fabs(c - want) < 1e-9);
            assert_true(fabs(oracle_path_cost(map, buf, p.len) - want) < 1e-9);
        }
    /* the pocket (2,2) (3,2) (3,3) opens only at the bottom and (2,2) -> (3,3) would cut the
     * corner of (2,3): the way from (2,2) to (0,0) starts east, away from the goal */
    pf_point pts[16];
    pf_path pp = {.points = pts, .capacity = 16};
    assert_int_equal(pf_table_path(t, pf_grid_node(map, 2, 2), pf_grid_node(map, 0, 0), &pp, NULL), PF_OK);
    assert_int_equal(pts[1].x, 3);
    assert_int_equal(pts[1].y, 2);
    assert_int_equal(pts[2].x, 3);
    assert_int_equal(pts[2].y, 3);
    /* a grid table follows its own map's edits: updating to the same map has nothing to do */
    assert_int_equal(pf_table_update(t, map, NULL, NULL), PF_OK);
    pf_table_destroy(t);
    pf_map_destroy(map);
}

/* ---- baked files ------------------------------------------------------------------------------- */

static pf_map *ring(uint32_t n, double w)
{
    pf_edge e[64];
    for (uint32_t i = 0; i < n; i++) {
        e[2 * i] = (pf_edge){i, (i + 1) % n, w};
        e[2 * i + 1] = (pf_edge){(i + 1) % n, i, w * 2};
    }
    pf_map *g;
    assert_int_equal(pf_graph_create(&(pf_graph_desc){.node_count = n, .edge_count = 2 * n, .edges = e}, &g), PF_OK);
    return g;
}

static void expect_load(const void *data, size_t size, const pf_map *map, pf_status want, const char *needle)
{
    pf_table *t = (pf_table *)1;
    pf_diag d = {0};
    pf_status s = pf_table_load_mem(data, size, "mem", map, NULL, &t, &d);
    if (s != want) fail_msg("load: got %s (%s), want %s", pf_status_name(s), d.msg, pf_status_name(want));
    if (s == PF_OK) {
        pf_table_destroy(t);
        return;
    }
    assert_null(t);
    assert_int_equal(d.status, want);
    if (!strstr(d.msg, needle)) fail_msg("message '%s' lacks '%s'", d.msg, needle);
}

static void put_u64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}

static void test_file_round_trip_and_damage(void **state)
{
    (void)state;
    pf_map *g = ring(12, 1.0);
    pf_table *t;
    assert_int_equal(pf_table_create(g, NULL, &t), PF_OK);
    size_t size = 0;
    assert_int_equal(pf_table_save_mem(t, NULL, 0, &size), PF_BUFFER_TOO_SMALL);
    assert_int_equal(size, 64 + 144);
    assert_int_equal(pf_table_file_size(t), size);
    uint8_t *buf = malloc(size), *bad = malloc(size + 8);
    assert_int_equal(pf_table_save_mem(t, buf, size, &size), PF_OK);
    assert_memory_equal(buf, "PFTABLE", 8);
    assert_int_equal(buf[8], PF_TABLE_FILE_VERSION);
    assert_int_equal(buf[32], 1); /* entry width */

    /* file round trip */
    char path[] = "/tmp/pf_table_testXXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(pf_table_save(t, path, NULL), PF_OK);
    pf_table *l;
    pf_diag d;
    assert_int_equal(pf_table_load(path, g, NULL, &l, &d), PF_OK);
    for (uint32_t u = 0; u < 12; u++)
        for (uint32_t v = 0; v < 12; v++) assert_int_equal(pf_table_entry(l, u, v), pf_table_entry(t, u, v));
    pf_table_destroy(l);
    /* a truncated file on disk */
    FILE *f = fopen(path, "wb");
    fwrite(buf, 1, size - 5, f);
    fclose(f);
    assert_int_equal(pf_table_load(path, g, NULL, &l, &d), PF_PARSE_ERROR);
    assert_non_null(strstr(d.msg, "truncated"));
    f = fopen(path, "wb");
    fwrite(buf, 1, 30, f);
    fclose(f);
    assert_int_equal(pf_table_load(path, g, NULL, &l, &d), PF_PARSE_ERROR);
    assert_non_null(strstr(d.msg, "truncated"));
    remove(path);
    assert_int_equal(pf_table_load(path, g, NULL, &l, &d), PF_IO_ERROR);
    assert_non_null(strstr(d.msg, "cannot open"));
    assert_int_equal(pf_table_save(t, "/nonexistent-dir/x.pft", &d), PF_IO_ERROR);

    expect_load(buf, size, g, PF_OK, "");
    /* every truncation length fails cleanly */
    for (size_t k = 0; k < size; k += 7) expect_load(buf, k, g, PF_PARSE_ERROR, "truncated");
    /* trailing bytes */
    memcpy(bad, buf, size);
    expect_load(bad, size + 3, g, PF_PARSE_ERROR, "trailing");
    /* magic */
    memcpy(bad, buf, size);
    bad[0] = 'X';
    expect_load(bad, size, g, PF_PARSE_ERROR, "magic");
    /* version */
    memcpy(bad, buf, size);
    bad[8] = 99;
    expect_load(bad, size, g, PF_UNSUPPORTED, "version 99");
    /* any header bit flip is caught by the header checksum */
    for (size_t k = 12; k < 64; k++) {
        memcpy(bad, buf, size);
        bad[k] ^= 0x10;
        expect_load(bad, size, g, PF_PARSE_ERROR, "header checksum");
    }
    /* payload corruption */
    memcpy(bad, buf, size);
    bad[64 + 17] ^= 1;
    expect_load(bad, size, g, PF_PARSE_ERROR, "payload checksum");
    /* a forged payload with recomputed checksums still cannot name an illegal move */
    memcpy(bad, buf, size);
    bad[64 + 1] = 7; /* entry (0, 1): node 0 has two arcs */
    /* recompute both checksums the way the format documents them */
    put_u64(bad + 48, XXH3_64bits(bad + 64, size - 64));
    put_u64(bad + 56, XXH3_64bits(bad, 56));
    expect_load(bad, size, g, PF_PARSE_ERROR, "not a legal move");
    /* wrong map: same size, other weights -> other fingerprint */
    pf_map *g2 = ring(12, 2.0);
    expect_load(buf, size, g2, PF_WRONG_MAP, "another map");
    pf_map *g3 = ring(13, 1.0);
    expect_load(buf, size, g3, PF_WRONG_MAP, "13 nodes");
    expect_load(NULL, 0, NULL, PF_INVALID_ARGUMENT, "missing");

    pf_map_destroy(g3);
    pf_map_destroy(g2);
    free(bad);
    free(buf);
    pf_table_destroy(t);
    pf_map_destroy(g);
}

typedef struct progress_log { uint32_t calls, last, total, backwards; } progress_log;

static void on_progress(uint32_t done, uint32_t total, void *user)
{
    progress_log *l = user;
    if (done < l->last) l->backwards++;
    l->calls++;
    l->last = done;
    l->total = total;
}

static void test_progress_and_threads(void **state)
{
    (void)state;
    pf_map *g = ring(30, 1.0);
    progress_log log = {0};
    pf_table *a, *b;
    assert_int_equal(pf_table_create(g, &(pf_table_desc){.threads = 1, .progress = on_progress, .progress_user = &log}, &a), PF_OK);
    assert_true(log.calls >= 1);
    assert_int_equal(log.last, 30);
    assert_int_equal(log.total, 30);
    assert_int_equal(log.backwards, 0);
    assert_int_equal(pf_table_create(g, &(pf_table_desc){.threads = 3}, &b), PF_OK);
    size_t sa, sb;
    uint8_t ba[2048], bb[2048];
    assert_int_equal(pf_table_save_mem(a, ba, sizeof ba, &sa), PF_OK);
    assert_int_equal(pf_table_save_mem(b, bb, sizeof bb, &sb), PF_OK);
    assert_int_equal(sa, sb);
    assert_memory_equal(ba, bb, sa);
    pf_table_destroy(a);
    pf_table_destroy(b);
    pf_map_destroy(g);
}

/* A table left stale by an edit it could not follow (out of memory) answers nothing for the
 * edited map, and is not written either: pf_table_save used to write its old rows under the
 * edited map's fingerprint, which pf_table_load then took for a table of the edited map (a path
 * of cost 56 where the map's is 9). The file it would have replaced stays as it was. */
static void test_stale_table_not_saved(void **state)
{
    (void)state;
    float costs[16];
    for (int i = 0; i < 16; i++) costs[i] = 1.0f;
    pf_map *m;
    assert_int_equal(pf_grid_create(&(pf_grid_desc){.width = 8, .height = 2, .moves = PF_MOVES_4, .costs = costs}, &m),
                     PF_OK);
    pf_table *t;
    test_tracker alloc = {.countdown = -1};
    assert_int_equal(pf_table_create(m, &(pf_table_desc){.allocator = test_tracked(&alloc), .threads = 1}, &t),
                     PF_OK);
    const char *file = tmp("stale.pft");
    pf_diag d;
    assert_int_equal(pf_table_save(t, file, &d), PF_OK);
    size_t n0 = 0, n1 = 0;
    char *before = slurp_alloc(file, &n0);
    alloc.countdown = 0; /* every allocation from here fails */
    pf_grid_edit e = {.rect = {3, 0, 1, 1}, .what = PF_EDIT_COST, .cost = 50.0f};
    pf_status st = pf_grid_apply_edits(m, &e, 1, NULL);
    alloc.countdown = -1;
    assert_int_equal(st, PF_OUT_OF_MEMORY);
    double c;
    assert_int_equal(pf_table_path(t, 0, 7, NULL, &c), PF_WRONG_MAP);
    assert_int_equal(pf_table_save(t, file, &d), PF_WRONG_MAP);
    assert_non_null(strstr(d.msg, "stale"));
    char *after = slurp_alloc(file, &n1);
    assert_int_equal(n0, n1);
    assert_memory_equal(before, after, n0);
    pf_table *l;
    assert_int_equal(pf_table_load(file, m, NULL, &l, &d), PF_WRONG_MAP);
    free(before);
    free(after);
    pf_table_destroy(t);
    pf_map_destroy(m);
}

/* A table saved over a file keeps that file's mode (written beside it and renamed over it, the
 * new file used to get the process's default mode: a read-only file became writable). */
static void test_save_keeps_mode(void **state)
{
    (void)state;
    pf_map *g = ring(12, 1.0);
    pf_table *t;
    assert_int_equal(pf_table_create(g, NULL, &t), PF_OK);
    const char *file = tmp("mode.pft");
    pf_diag d;
    assert_int_equal(pf_table_save(t, file, &d), PF_OK);
    assert_int_equal(chmod(file, 0640), 0);
    assert_int_equal(pf_table_save(t, file, &d), PF_OK);
    struct stat sb;
    assert_int_equal(stat(file, &sb), 0);
    assert_int_equal(sb.st_mode & 07777, 0640);
    assert_int_equal(chmod(file, 0400), 0);
    assert_int_equal(pf_table_save(t, file, &d), PF_OK);
    assert_int_equal(stat(file, &sb), 0);
    assert_int_equal(sb.st_mode & 07777, 0400);
    pf_table_destroy(t);
    pf_map_destroy(g);
}

/* Saved to /dev/stdout while stdout goes to a file: written through the stream, so what is printed
 * after it follows it in the file (a review: the file was replaced by rename under the stream,
 * and what the program printed after went to the old, unlinked one). */
static void test_save_to_stdout(void **state)
{
    (void)state;
    pf_map *g = ring(12, 1.0);
    pf_table *t;
    assert_int_equal(pf_table_create(g, NULL, &t), PF_OK);
    pf_diag d;
    const char *ref = tmp("ref.pft"), *out = tmp("stdout.bin");
    assert_int_equal(pf_table_save(t, ref, &d), PF_OK);
    size_t want_n = 0;
    char *want = slurp_alloc(ref, &want_n);
    fflush(stdout);
    int saved = dup(1), fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    assert_true(saved >= 0 && fd >= 0);
    assert_true(dup2(fd, 1) == 1);
    close(fd);
    pf_status st = pf_table_save(t, "/dev/stdout", &d);
    fputs("after", stdout);
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    assert_int_equal(st, PF_OK);
    size_t got_n = 0;
    char *got = slurp_alloc(out, &got_n);
    assert_int_equal(got_n, want_n + 5);
    assert_memory_equal(got, want, want_n);
    assert_memory_equal(got + want_n, "after", 5);
    free(want);
    free(got);
    pf_table_destroy(t);
    pf_map_destroy(g);
}

/* An update that narrows the entries (2 bytes to 1: node 0 loses 279 of its 281 arcs) compared
 * its rows' next hops after cutting the old entries to the new width (arc 280 read as arc 24), so
 * it reported a row changed whose next hops had not; the narrowing now comes after the rows are
 * compared. The result is a fresh build's, bit for bit. */
static void test_update_narrowing_report(void **state)
{
    (void)state;
    enum { K = 280 };
    pf_edge e[K + 1];
    for (int i = 0; i < K; i++) e[i] = (pf_edge){0, 1, 1.0}; /* 280 parallel arcs 0 -> 1 */
    e[K] = (pf_edge){0, 2, 1.0};                              /* arc 280: 0 -> 2 */
    pf_map *g1, *g2;
    assert_int_equal(pf_graph_create(&(pf_graph_desc){.node_count = 3, .edge_count = K + 1, .edges = e}, &g1), PF_OK);
    e[1] = e[K]; /* one arc 0 -> 1 and the arc 0 -> 2 */
    assert_int_equal(pf_graph_create(&(pf_graph_desc){.node_count = 3, .edge_count = 2, .edges = e}, &g2), PF_OK);
    pf_table *t, *fresh;
    assert_int_equal(pf_table_create(g1, NULL, &t), PF_OK);
    assert_int_equal(pf_table_entry_bytes(t), 2);
    assert_int_equal(pf_table_next(t, 0, 2), 2);
    uint32_t ex[8];
    uint8_t ch[8];
    pf_table_report rep;
    assert_int_equal(pf_table_update(t, g2, &(pf_table_update_desc){.examined = ex, .changed = ch, .capacity = 8}, &rep),
                     PF_OK);
    assert_int_equal(pf_table_entry_bytes(t), 1);
    assert_int_equal(pf_table_next(t, 0, 2), 2);
    assert_int_equal(rep.rows_changed, 0);
    for (uint32_t i = 0; i < rep.rows_examined && i < 8; i++) assert_int_equal(ch[i], 0);
    assert_int_equal(pf_table_create(g2, NULL, &fresh), PF_OK);
    size_t a = pf_table_file_size(t), b = pf_table_file_size(fresh);
    assert_int_equal(a, b);
    uint8_t *ba = malloc(a), *bb = malloc(b);
    assert_int_equal(pf_table_save_mem(t, ba, a, NULL), PF_OK);
    assert_int_equal(pf_table_save_mem(fresh, bb, b, NULL), PF_OK);
    assert_memory_equal(ba, bb, a);
    free(ba);
    free(bb);
    pf_table_destroy(fresh);
    pf_table_destroy(t);
    pf_map_destroy(g1);
    pf_map_destroy(g2);
}

/* Saving through links: a chain aa -> bb -> cc (cc missing) makes cc and leaves both links
 * links (bb was replaced by a file: one level followed); a loop la -> lb -> la is refused and
 * stays a loop (lb was replaced, exit 0: a review). */
static void test_save_through_link_chains(void **state)
{
    (void)state;
    pf_map *g = ring(12, 1.0);
    pf_table *t;
    assert_int_equal(pf_table_create(g, NULL, &t), PF_OK);
    assert_int_equal(symlink("bb", tmp("aa")), 0);
    assert_int_equal(symlink("cc", tmp("bb")), 0);
    pf_diag d;
    assert_int_equal(pf_table_save(t, tmp("aa"), &d), PF_OK);
    struct stat sb;
    assert_int_equal(lstat(tmp("aa"), &sb), 0);
    assert_true(S_ISLNK(sb.st_mode));
    assert_int_equal(lstat(tmp("bb"), &sb), 0);
    assert_true(S_ISLNK(sb.st_mode));
    assert_int_equal(lstat(tmp("cc"), &sb), 0);
    assert_true(S_ISREG(sb.st_mode));
    pf_table *back;
    assert_int_equal(pf_table_load(tmp("aa"), g, NULL, &back, &d), PF_OK);
    pf_table_destroy(back);
    assert_int_equal(symlink("lb", tmp("la")), 0);
    assert_int_equal(symlink("la", tmp("lb")), 0);
    assert_int_equal(pf_table_save(t, tmp("la"), &d), PF_IO_ERROR);
    assert_non_null(strstr(d.msg, "loop"));
    assert_int_equal(lstat(tmp("lb"), &sb), 0);
    assert_true(S_ISLNK(sb.st_mode));
    pf_table_destroy(t);
    pf_map_destroy(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_slides_table_and_update),
        cmocka_unit_test(test_slides_natural_numbering),
        cmocka_unit_test(test_path_and_errors),
        cmocka_unit_test(test_zero_weight_cycle_is_loop_free),
        cmocka_unit_test(test_grid_table),
        cmocka_unit_test(test_file_round_trip_and_damage),
        cmocka_unit_test(test_progress_and_threads),
        cmocka_unit_test(test_stale_table_not_saved),
        cmocka_unit_test(test_save_keeps_mode), cmocka_unit_test(test_save_to_stdout),
        cmocka_unit_test(test_update_narrowing_report),
        cmocka_unit_test(test_save_through_link_chains),
    };
    return cmocka_run_group_tests(tests, tmpdir_setup, tmpdir_teardown);
}
