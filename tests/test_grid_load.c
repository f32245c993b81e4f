/* test_grid_load.c - Moving AI .map loader and pf_grid_create: good input, every kind of malformed
 * input (with the line and column the message must name), accessors and allocation failures. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "pathfind.h"
#include "testutil.h"

static pf_status parse(const char *text, pf_map **out, pf_diag *d)
{
    memset(d, 0x5a, sizeof *d); /* garbage: the loader must overwrite it */
    return pf_grid_parse_movingai(text, strlen(text), "t.map", NULL, out, d);
}

/* Expects `text` to fail with `st` at `line` (and `col` when non-zero), with `needle` in the message. */
static void expect_fail(const char *text, pf_status st, uint32_t line, uint32_t col, const char *needle)
{
    pf_map *m = (pf_map *)&m; /* must be reset to NULL */
    pf_diag d;
    pf_status got = parse(text, &m, &d);
    if (got != st || d.line != line || (col && d.column != col) || !strstr(d.msg, needle))
        fprintf(stderr, "input:\n%s\n-> %s line %u col %u: %s\n", text, pf_status_name(got), d.line, d.column, d.msg);
    assert_int_equal(got, st);
    assert_null(m);
    assert_int_equal(d.status, st);
    assert_int_equal(d.line, line);
    if (col) assert_int_equal(d.column, col);
    assert_non_null(strstr(d.msg, needle));
    /* the message names the input and the line: "t.map:LINE:" */
    char prefix[32];
    snprintf(prefix, sizeof prefix, "t.map:%u:", line);
    assert_true(strncmp(d.msg, prefix, strlen(prefix)) == 0);
}

#define HDR(h, w) "type octile\nheight " #h "\nwidth " #w "\nmap\n"

static void test_good_map_and_classes(void **state)
{
    (void)state;
    pf_map *m;
    pf_diag d;
    assert_int_equal(parse(HDR(2, 4) ".GS@\nWTO.\n", &m, &d), PF_OK);
    assert_int_equal(d.status, PF_OK);
    assert_int_equal(pf_map_kind_of(m), PF_MAP_GRID);
    assert_int_equal(pf_grid_width(m), 4);
    assert_int_equal(pf_grid_height(m), 2);
    assert_int_equal(pf_map_node_count(m), 8);
    assert_int_equal(pf_grid_moves(m), PF_MOVES_8_NO_CUT);
    assert_int_equal(pf_grid_weighted(m), 0);
    /* the benchmark's rule: . G S ground, W water, T trees, @ O out of bounds */
    static const uint8_t want[2][4] = {{1, 1, 1, 0}, {2, 3, 0, 1}};
    for (int y = 0; y < 2; y++)
        for (int x = 0; x < 4; x++) assert_int_equal(pf_grid_class(m, x, y), want[y][x]);
    assert_int_equal(pf_grid_class(m, -1, 0), 0);
    assert_int_equal(pf_grid_class(m, 4, 0), 0);
    assert_int_equal(pf_grid_class(m, 0, 2), 0);
    assert_true(pf_grid_cost(m, 0, 0) == 1.0f);
    assert_true(pf_grid_cost(m, 9, 9) == 0.0f);
    assert_int_equal(pf_grid_node(m, 3, 1), 7);
    assert_int_equal(pf_grid_node(m, 4, 1), PF_NODE_NONE);
    assert_int_equal(pf_grid_node(m, 0, -1), PF_NODE_NONE);
    pf_point p = pf_grid_point(m, 6);
    assert_int_equal(p.x, 2);
    assert_int_equal(p.y, 1);
    p = pf_grid_point(m, 8);
    assert_int_equal(p.x, -1);
    assert_int_equal(p.y, -1);
    assert_true(pf_map_mem_size(m) > 8);
    assert_true(pf_map_fingerprint(m) != 0);
    /* graph accessors on a grid */
    assert_int_equal(pf_graph_edge_count(m), 0);
    assert_int_equal(pf_graph_arcs(m, 0, 0, NULL, NULL), 0);
    pf_map_destroy(m);
}

static void test_line_endings_and_header_order(void **state)
{
    (void)state;
    const char *lf = "type octile\nheight 2\nwidth 3\nmap\n..@\n.T.\n";
    const char *variants[] = {
        "type octile\r\nheight 2\r\nwidth 3\r\nmap\r\n..@\r\n.T.\r\n", /* CRLF (street maps) */
        "type octile\nheight 2\nwidth 3\nmap\n..@\n.T.",              /* no final newline (Berlin) */
        "type octile\r\nheight 2\r\nwidth 3\r\nmap\r\n..@\r\n.T.",     /* both */
        "width 3\nheight 2\ntype octile\nmap\n..@\n.T.\n",             /* header in any order */
        "type  octile\nheight\t2\nwidth 3 \nmap\n..@\n.T.\n",          /* spaces and tabs */
        "type octile\nheight 2\nwidth 3\nmap\n..@\n.T.\n\n\n  \n",     /* trailing blank lines */
    };
    pf_map *ref;
    pf_diag d;
    assert_int_equal(parse(lf, &ref, &d), PF_OK);
    for (size_t i = 0; i < sizeof variants / sizeof variants[0]; i++) {
        pf_map *m;
        pf_status s = parse(variants[i], &m, &d);
        if (s != PF_OK) fprintf(stderr, "variant %zu: %s\n", i, d.msg);
        assert_int_equal(s, PF_OK);
        assert_true(pf_map_fingerprint(m) == pf_map_fingerprint(ref));
        pf_map_destroy(m);
    }
    pf_map_destroy(ref);
}

static void test_bad_header(void **state)
{
    (void)state;
    expect_fail("type grid\nheight 2\nwidth 2\nmap\n..\n..\n", PF_PARSE_ERROR, 1, 0, "octile");
    expect_fail("type octile\nheight two\nwidth 2\nmap\n..\n..\n", PF_PARSE_ERROR, 2, 0, "height");
    expect_fail("type octile\nheight -2\nwidth 2\nmap\n..\n..\n", PF_PARSE_ERROR, 2, 0, "height");
    expect_fail("type octile\nheight 2 3\nwidth 2\nmap\n..\n..\n", PF_PARSE_ERROR, 2, 0, "height");
    expect_fail("type octile junk\nheight 2\nwidth 2\nmap\n..\n..\n", PF_PARSE_ERROR, 1, 13, "after 'type octile'");
    expect_fail("type octile\nheight 2\nwidth\nmap\n..\n..\n", PF_PARSE_ERROR, 3, 0, "width");
    expect_fail("type octile\nheight 2\ndepth 2\nmap\n..\n..\n", PF_PARSE_ERROR, 3, 1, "unknown header line 'depth'");
    /* a header line given twice (the last one won: a review) */
    expect_fail("type octile\nheight 2\nwidth 2\nwidth 3\nmap\n..\n..\n", PF_PARSE_ERROR, 4, 1, "'width' given twice");
    expect_fail("type octile\nheight 2\nheight 2\nwidth 2\nmap\n..\n..\n", PF_PARSE_ERROR, 3, 1, "'height' given twice");
    expect_fail("type octile\nheight 2\nwidth 2\nmap x\n..\n..\n", PF_PARSE_ERROR, 4, 0, "after 'map'");
    expect_fail("type octile\n\nheight 2\nwidth 2\nmap\n..\n..\n", PF_PARSE_ERROR, 2, 1, "empty line");
    expect_fail("type octile\nwidth 2\nmap\n..\n..\n", PF_PARSE_ERROR, 3, 0, "height");
    /* a header that ends before "map": the error is on the line where more was expected */
    expect_fail("type octile\nheight 2\nwidth 2\n", PF_PARSE_ERROR, 4, 0, "end of file");
    expect_fail("type octile\nheight 2\nwidth 2", PF_PARSE_ERROR, 4, 0, "end of file");
}

static void test_empty_input(void **state)
{
    (void)state;
    expect_fail("", PF_PARSE_ERROR, 1, 0, "end of file");
    expect_fail("\n", PF_PARSE_ERROR, 1, 1, "empty line");
    pf_map *m;
    pf_diag d;
    assert_int_equal(pf_grid_parse_movingai(NULL, 0, "t.map", NULL, &m, &d), PF_PARSE_ERROR);
    assert_null(m);
    assert_int_equal(pf_grid_parse_movingai(NULL, 5, "t.map", NULL, &m, &d), PF_INVALID_ARGUMENT);
    assert_int_equal(pf_grid_parse_movingai("x", 1, "t.map", NULL, NULL, &d), PF_INVALID_ARGUMENT);
    /* diag is optional */
    assert_int_equal(pf_grid_parse_movingai("", 0, NULL, NULL, &m, NULL), PF_PARSE_ERROR);
}

static void test_wrong_sizes(void **state)
{
    (void)state;
    expect_fail(HDR(0, 2) "\n", PF_PARSE_ERROR, 4, 0, "positive");
    expect_fail(HDR(2, 0) "\n", PF_PARSE_ERROR, 4, 0, "positive");
    expect_fail(HDR(2, 3) "...\n..\n", PF_PARSE_ERROR, 6, 3, "row has 2 cells, expected 3");
    expect_fail(HDR(2, 3) "....\n...\n", PF_PARSE_ERROR, 5, 4, "row has 4 cells, expected 3");
    expect_fail(HDR(2, 3) "...\r\n..\r\n", PF_PARSE_ERROR, 6, 3, "row has 2 cells");
    /* truncated: fewer rows than announced (enough bytes left to pass the early check) */
    expect_fail(HDR(3, 2) "..\n..\n\n\n", PF_PARSE_ERROR, 7, 0, "row has 0 cells");
    expect_fail(HDR(3, 2) "..\n....\n", PF_PARSE_ERROR, 6, 3, "row has 4 cells");
    expect_fail(HDR(2, 2) "..\n", PF_PARSE_ERROR, 5, 0, "truncated");
    expect_fail(HDR(3, 1) ".\n.\n", PF_PARSE_ERROR, 7, 0, "truncated: expected 3 rows, found 2");
    expect_fail(HDR(3, 1) ".\n.\n..", PF_PARSE_ERROR, 7, 2, "row has 2 cells");
    expect_fail(HDR(2, 1) ".\n", PF_PARSE_ERROR, 6, 0, "truncated");
    expect_fail(HDR(2, 2) "..\n..\n..\n", PF_PARSE_ERROR, 7, 1, "unexpected data after 2 map rows");
    expect_fail(HDR(2, 2) "..\n..\n\n  x\n", PF_PARSE_ERROR, 8, 3, "unexpected data");
    /* announced sizes far beyond the file: refused before allocating anything */
    expect_fail(HDR(30000, 30000) "..\n", PF_PARSE_ERROR, 5, 0, "truncated");
    expect_fail(HDR(40000, 2) "..\n", PF_TOO_LARGE, 4, 0, "exceeds");
    expect_fail(HDR(2, 99999999999999999999999) "..\n", PF_PARSE_ERROR, 3, 0, "width");
}

static void test_unknown_characters(void **state)
{
    (void)state;
    expect_fail(HDR(2, 4) "....\n..X.\n", PF_PARSE_ERROR, 6, 3, "unknown terrain character 'X'");
    expect_fail(HDR(2, 4) "....\n... \n", PF_PARSE_ERROR, 6, 4, "unknown terrain character ' '");
    expect_fail(HDR(2, 4) "\t...\n....\n", PF_PARSE_ERROR, 5, 1, "unknown terrain byte 0x09");
    expect_fail(HDR(1, 4) "..\xff.\n", PF_PARSE_ERROR, 5, 3, "unknown terrain byte 0xff");
    expect_fail(HDR(1, 2) "g.\n", PF_PARSE_ERROR, 5, 1, "'g'");
    /* a NUL inside the row is a character like any other (the parser is length-based) */
    static const char nul[] = "type octile\nheight 1\nwidth 3\nmap\n.\0.\n";
    pf_map *m;
    pf_diag d;
    assert_int_equal(pf_grid_parse_movingai(nul, sizeof nul - 1, "t.map", NULL, &m, &d), PF_PARSE_ERROR);
    assert_int_equal(d.line, 5);
    assert_int_equal(d.column, 2);
    assert_non_null(strstr(d.msg, "0x00"));
}

static void test_every_prefix_is_rejected(void **state)
{
    (void)state;
    /* every truncation of a good file fails cleanly (never OK with a partial map, never a crash) */
    const char *good = HDR(3, 4) "..@.\n.TT.\nW...\n";
    size_t n = strlen(good);
    for (size_t k = 0; k < n - 1; k++) {
        pf_map *m;
        pf_diag d;
        pf_status s = pf_grid_parse_movingai(good, k, "t.map", NULL, &m, &d);
        assert_int_equal(s, PF_PARSE_ERROR);
        assert_null(m);
        assert_true(d.line >= 1 && d.line <= 7);
    }
    pf_map *m;
    pf_diag d;
    assert_int_equal(pf_grid_parse_movingai(good, n - 1, "t.map", NULL, &m, &d), PF_OK); /* no final newline */
    pf_map_destroy(m);
}

static void test_load_desc(void **state)
{
    (void)state;
    pf_map *m;
    pf_diag d;
    const char *t = HDR(2, 3) ".S.\nSS.\n";
    pf_grid_load_desc ld = {.moves = PF_MOVES_4};
    ld.char_cost['S'] = 3.0f;
    assert_int_equal(pf_grid_parse_movingai(t, strlen(t), "t.map", &ld, &m, &d), PF_OK);
    assert_int_equal(pf_grid_moves(m), PF_MOVES_4);
    assert_int_equal(pf_grid_weighted(m), 1);
    assert_true(pf_grid_cost(m, 1, 0) == 3.0f);
    assert_true(pf_grid_cost(m, 0, 0) == 1.0f);
    assert_int_equal(pf_grid_class(m, 1, 0), 1); /* swamp stays ground: only its cost changes */
    uint64_t fp = pf_map_fingerprint(m);
    pf_map_destroy(m);
    /* a cost table whose only entry is 1 is not weighted */
    pf_grid_load_desc one = {0};
    one.char_cost['.'] = 1.0f;
    assert_int_equal(pf_grid_parse_movingai(t, strlen(t), "t.map", &one, &m, &d), PF_OK);
    assert_int_equal(pf_grid_weighted(m), 0);
    assert_true(pf_map_fingerprint(m) != fp);
    pf_map_destroy(m);
    /* moves changes the fingerprint (a search result depends on it) */
    pf_map *m4, *m8;
    pf_grid_load_desc d4 = {.moves = PF_MOVES_4}, d8 = {.moves = PF_MOVES_8_CUT};
    assert_int_equal(pf_grid_parse_movingai(t, strlen(t), NULL, &d4, &m4, &d), PF_OK);
    assert_int_equal(pf_grid_parse_movingai(t, strlen(t), NULL, &d8, &m8, &d), PF_OK);
    assert_true(pf_map_fingerprint(m4) != pf_map_fingerprint(m8));
    pf_map_destroy(m4);
    pf_map_destroy(m8);
    /* bad options */
    pf_grid_load_desc bad = {0};
    bad.char_cost['S'] = -1.0f;
    assert_int_equal(pf_grid_parse_movingai(t, strlen(t), "t.map", &bad, &m, &d), PF_INVALID_ARGUMENT);
    assert_null(m);
    assert_non_null(strstr(d.msg, "'S'"));
    bad.char_cost['S'] = INFINITY;
    assert_int_equal(pf_grid_parse_movingai(t, strlen(t), "t.map", &bad, &m, &d), PF_INVALID_ARGUMENT);
    bad.char_cost['S'] = NAN;
    assert_int_equal(pf_grid_parse_movingai(t, strlen(t), "t.map", &bad, &m, &d), PF_INVALID_ARGUMENT);
    pf_grid_load_desc badm = {.moves = (pf_moves)17};
    assert_int_equal(pf_grid_parse_movingai(t, strlen(t), "t.map", &badm, &m, &d), PF_INVALID_ARGUMENT);
}

static void test_load_file(void **state)
{
    (void)state;
    pf_map *m;
    pf_diag d;
    assert_int_equal(pf_grid_load_movingai(PF_SOURCE_DIR "/tests/data/crlf_nofinal.map", NULL, &m, &d), PF_OK);
    assert_int_equal(pf_grid_width(m), 5);
    assert_int_equal(pf_grid_height(m), 3);
    assert_int_equal(pf_grid_class(m, 4, 2), 2);
    pf_map_destroy(m);
    assert_int_equal(pf_grid_load_movingai(PF_SOURCE_DIR "/tests/data/bad_char.map", NULL, &m, &d), PF_PARSE_ERROR);
    assert_null(m);
    assert_int_equal(d.line, 6);
    assert_int_equal(d.column, 3);
    assert_non_null(strstr(d.msg, "bad_char.map:6:3: unknown terrain character '?'"));
    assert_int_equal(pf_grid_load_movingai(PF_SOURCE_DIR "/tests/data/no_such_file.map", NULL, &m, &d), PF_IO_ERROR);
    assert_null(m);
    assert_int_equal(d.status, PF_IO_ERROR);
    assert_non_null(strstr(d.msg, "no_such_file.map"));
    assert_int_equal(pf_grid_load_movingai(NULL, NULL, &m, &d), PF_INVALID_ARGUMENT);
    assert_int_equal(pf_grid_load_movingai(PF_SOURCE_DIR "/tests/data", NULL, &m, &d) < 0, 1); /* a directory */
    assert_null(m);
}

static void test_grid_create(void **state)
{
    (void)state;
    pf_map *m = (pf_map *)&m;
    assert_int_equal(pf_grid_create(NULL, &m), PF_INVALID_ARGUMENT);
    assert_null(m);
    assert_int_equal(pf_grid_create(&(pf_grid_desc){.width = 3, .height = 3}, NULL), PF_INVALID_ARGUMENT);
    assert_int_equal(pf_grid_create(&(pf_grid_desc){.width = 0, .height = 3}, &m), PF_INVALID_ARGUMENT);
    assert_int_equal(pf_grid_create(&(pf_grid_desc){.width = 3, .height = 0}, &m), PF_INVALID_ARGUMENT);
    assert_int_equal(pf_grid_create(&(pf_grid_desc){.width = PF_GRID_MAX_SIDE + 1, .height = 1}, &m), PF_TOO_LARGE);
    assert_int_equal(pf_grid_create(&(pf_grid_desc){.width = PF_GRID_MAX_SIDE, .height = PF_GRID_MAX_SIDE}, &m),
                     PF_TOO_LARGE); /* 2^30 cells: beyond PF_MAX_NODES */
    assert_int_equal(pf_grid_create(&(pf_grid_desc){.width = 3, .height = 3, .moves = (pf_moves)9}, &m),
                     PF_INVALID_ARGUMENT);
    float costs[4] = {1, 2, 1, 1};
    costs[1] = 0.0f;
    assert_int_equal(pf_grid_create(&(pf_grid_desc){.width = 2, .height = 2, .costs = costs}, &m), PF_INVALID_ARGUMENT);
    costs[1] = -1.0f;
    assert_int_equal(pf_grid_create(&(pf_grid_desc){.width = 2, .height = 2, .costs = costs}, &m), PF_INVALID_ARGUMENT);
    costs[1] = NAN;
    assert_int_equal(pf_grid_create(&(pf_grid_desc){.width = 2, .height = 2, .costs = costs}, &m), PF_INVALID_ARGUMENT);
    costs[1] = INFINITY;
    assert_int_equal(pf_grid_create(&(pf_grid_desc){.width = 2, .height = 2, .costs = costs}, &m), PF_INVALID_ARGUMENT);
    assert_null(m);
    costs[1] = 2.5f;
    uint8_t cells[4] = {1, 1, 0, 4};
    assert_int_equal(pf_grid_create(&(pf_grid_desc){.width = 2, .height = 2, .cells = cells, .costs = costs,
                                                    .moves = PF_MOVES_HEX}, &m), PF_OK);
    assert_int_equal(pf_grid_moves(m), PF_MOVES_HEX);
    assert_int_equal(pf_grid_weighted(m), 1);
    assert_true(pf_grid_cost(m, 1, 0) == 2.5f);
    assert_int_equal(pf_grid_class(m, 0, 1), 0);
    assert_int_equal(pf_grid_class(m, 1, 1), 4);
    pf_map_destroy(m);
    /* all-ones costs are dropped: the map is not weighted */
    float ones[4] = {1, 1, 1, 1};
    assert_int_equal(pf_grid_create(&(pf_grid_desc){.width = 2, .height = 2, .costs = ones}, &m), PF_OK);
    assert_int_equal(pf_grid_weighted(m), 0);
    assert_int_equal(pf_grid_class(m, 1, 1), 1); /* cells NULL: all class 1 */
    pf_map_destroy(m);
    pf_map_destroy(NULL); /* NULL-safe */
    assert_int_equal(pf_map_node_count(NULL), 0);
    assert_int_equal(pf_grid_width(NULL), 0);
    assert_int_equal(pf_grid_node(NULL, 0, 0), PF_NODE_NONE);
}

/* ---- allocation failures: fail the n-th allocation, for every n, and check nothing leaks -------- */

static void test_allocation_failures(void **state)
{
    (void)state;
    const char *t = HDR(3, 4) "..@.\n.SS.\nW...\n";
    int ok = 0;
    for (int n = 0; n < 64 && !ok; n++) {
        test_tracker f = {.countdown = n, .once = 1};
        pf_grid_load_desc ld = {.allocator = {test_track_alloc, test_track_free, &f}};
        ld.char_cost['S'] = 2.0f;
        pf_map *m;
        pf_diag d;
        pf_status s = pf_grid_parse_movingai(t, strlen(t), "t.map", &ld, &m, &d);
        if (s == PF_OK) {
            ok = 1;
            assert_int_equal(pf_grid_weighted(m), 1);
            pf_map_destroy(m);
        } else {
            assert_int_equal(s, PF_OUT_OF_MEMORY);
            assert_int_equal(d.status, PF_OUT_OF_MEMORY);
            assert_null(m);
        }
        assert_int_equal(f.live, 0);
        assert_int_equal(f.bytes, 0);
    }
    assert_true(ok);
    /* the file loader reads through the same allocator */
    ok = 0;
    for (int n = 0; n < 64 && !ok; n++) {
        test_tracker f = {.countdown = n, .once = 1};
        pf_grid_load_desc ld = {.allocator = {test_track_alloc, test_track_free, &f}};
        pf_map *m;
        pf_diag d;
        pf_status s = pf_grid_load_movingai(PF_SOURCE_DIR "/tests/data/crlf_nofinal.map", &ld, &m, &d);
        if (s == PF_OK) {
            ok = 1;
            pf_map_destroy(m);
        } else {
            assert_int_equal(s, PF_OUT_OF_MEMORY);
        }
        assert_int_equal(f.live, 0);
        assert_int_equal(f.bytes, 0);
    }
    assert_true(ok);
}

/* Baked files carry the map's fingerprint and are refused where it differs, so it must be the
 * same value on every host. It hashes numbers as their little-endian bytes (hash_le_internal.h):
 * hashed from memory, s390x (big-endian) got b718d7c0f0984c48, d6508166c57ba2e6, 0c4a8b0a74b06f2a
 * here and refused every .pfa, .pft and .pfp made elsewhere (a cross-machine review). These values
 * are x86-64's, i386's and s390x's (checked under qemu-s390x); a change of the fingerprint's hashing
 * would also make every file users baked stale, which this catches. */
static void test_fingerprint_of_every_host(void **state)
{
    (void)state;
    static uint8_t cls[70 * 50]; /* two tiles across: the hash of tile hashes */
    static float cost[70 * 50];
    for (int i = 0; i < 70 * 50; i++) {
        cls[i] = (uint8_t)((i * 7 + i / 70) % 11 == 0 ? 0 : 1 + (i % 13 == 0) + (i % 17 == 0));
        cost[i] = 1.0f + (float)(i % 5) * 0.25f;
    }
    pf_map *a, *b, *g;
    assert_int_equal(pf_grid_create(&(pf_grid_desc){.width = 70, .height = 50, .cells = cls}, &a), PF_OK);
    assert_int_equal(pf_grid_create(&(pf_grid_desc){.width = 70, .height = 50, .cells = cls, .costs = cost}, &b), PF_OK);
    pf_edge e[] = {{0, 1, 1.5}, {1, 2, 2.25}, {2, 0, 3.0}, {0, 2, 10.0}};
    double xy[] = {0.0, 0.0, 1.0, 0.5, -2.0, 3.25};
    assert_int_equal(pf_graph_create(&(pf_graph_desc){.node_count = 3, .edge_count = 4, .edges = e, .coords = xy}, &g),
                     PF_OK);
    assert_true(pf_map_fingerprint(a) == UINT64_C(0x36fe7a57c1e00205));
    assert_true(pf_map_fingerprint(b) == UINT64_C(0x45db180b108b5053));
    assert_true(pf_map_fingerprint(g) == UINT64_C(0x6a1d62a91893e1b4));
    pf_map_destroy(a);
    pf_map_destroy(b);
    pf_map_destroy(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fingerprint_of_every_host),
        cmocka_unit_test(test_good_map_and_classes),
        cmocka_unit_test(test_line_endings_and_header_order),
        cmocka_unit_test(test_bad_header),
        cmocka_unit_test(test_empty_input),
        cmocka_unit_test(test_wrong_sizes),
        cmocka_unit_test(test_unknown_characters),
        cmocka_unit_test(test_every_prefix_is_rejected),
        cmocka_unit_test(test_load_desc),
        cmocka_unit_test(test_load_file),
        cmocka_unit_test(test_grid_create),
        cmocka_unit_test(test_allocation_failures),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
