/* test_graph_load.c - DIMACS .gr/.co loader and pf_graph_create: good input, parallel arcs, every
 * kind of malformed input (with the line the message must name), allocation failures. */
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

static pf_status parse(const char *gr, const char *co, pf_map **out, pf_diag *d)
{
    memset(d, 0x5a, sizeof *d);
    return pf_graph_parse_dimacs(gr, strlen(gr), co, co ? strlen(co) : 0, NULL, out, d);
}

/* Expects failure `st` at `line`, with `needle` in the message and `who` ("<graph>" or
 * "<coords>") naming the input at its start. */
static void expect_fail(const char *gr, const char *co, pf_status st, uint32_t line, const char *who,
                        const char *needle)
{
    pf_map *m = (pf_map *)&m;
    pf_diag d;
    pf_status got = parse(gr, co, &m, &d);
    if (got != st || d.line != line || !strstr(d.msg, needle) || strncmp(d.msg, who, strlen(who)))
        fprintf(stderr, "gr:\n%s\nco:\n%s\n-> %s line %u: %s\n", gr, co ? co : "(none)", pf_status_name(got),
                d.line, d.msg);
    assert_int_equal(got, st);
    assert_null(m);
    assert_int_equal(d.status, st);
    assert_int_equal(d.line, line);
    assert_non_null(strstr(d.msg, needle));
    char prefix[48];
    snprintf(prefix, sizeof prefix, "%s:%u:", who, line);
    assert_true(strncmp(d.msg, prefix, strlen(prefix)) == 0);
}

static const char GOOD_GR[] = "c tiny graph\nc\np sp 4 6\na 1 2 5\na 2 3 7\na 1 2 3\nc mid comment\n"
                              "a 3 1 0\na 3 4 2\na 1 2 9\n";
static const char GOOD_CO[] = "c coords\np aux sp co 4\nv 1 0 0\nv 3 3 4\nv 2 -3 0\nv 4 3 6\n";

static void test_good_graph_and_parallel_arcs(void **state)
{
    (void)state;
    pf_map *m;
    pf_diag d;
    assert_int_equal(parse(GOOD_GR, NULL, &m, &d), PF_OK);
    assert_int_equal(d.status, PF_OK);
    assert_int_equal(pf_map_kind_of(m), PF_MAP_GRAPH);
    assert_int_equal(pf_map_node_count(m), 4);
    assert_int_equal(pf_graph_edge_count(m), 6);
    assert_int_equal(pf_graph_has_coords(m), 0);
    assert_true(pf_graph_heuristic_scale(m) == 0.0);
    /* the three parallel arcs 1->2 (weights 5, 3, 9) are all kept, sorted by weight */
    const uint32_t *to;
    const double *w;
    assert_int_equal(pf_graph_arcs(m, 0, 0, &to, &w), 3);
    for (int i = 0; i < 3; i++) assert_int_equal(to[i], 1);
    assert_true(w[0] == 3 && w[1] == 5 && w[2] == 9);
    /* reverse adjacency: arcs into node 1 (ids are 0-based: file id - 1) */
    assert_int_equal(pf_graph_arcs(m, 1, 1, &to, &w), 3);
    assert_int_equal(pf_graph_arcs(m, 0, 1, &to, &w), 1);
    assert_int_equal(to[0], 2);
    assert_true(w[0] == 0.0); /* zero weights are allowed */
    assert_int_equal(pf_graph_arcs(m, 3, 0, &to, &w), 0);
    assert_int_equal(pf_graph_arcs(m, 4, 0, &to, &w), 0); /* out of range */
    double x, y;
    assert_int_equal(pf_graph_coords(m, 0, &x, &y), 0);
    /* a search uses the cheapest of the parallel arcs */
    pf_ctx *ctx;
    assert_int_equal(pf_ctx_create(m, NULL, &ctx), PF_OK);
    pf_stats st;
    uint32_t nodes[8];
    pf_path p = {.nodes = nodes, .capacity = 8};
    assert_int_equal(pf_search(ctx, 0, 1, NULL, &p, &st), PF_OK);
    assert_true(st.cost == 3.0);
    assert_int_equal(pf_search(ctx, 2, 1, NULL, &p, &st), PF_OK); /* 3 -> 1 (0) -> 2 (3) */
    assert_true(st.cost == 3.0);
    assert_int_equal(p.len, 3);
    assert_int_equal(pf_search(ctx, 3, 0, NULL, &p, &st), PF_NO_PATH);
    pf_ctx_destroy(ctx);
    pf_map_destroy(m);
}

static void test_coordinates(void **state)
{
    (void)state;
    pf_map *m;
    pf_diag d;
    assert_int_equal(parse(GOOD_GR, GOOD_CO, &m, &d), PF_OK);
    assert_int_equal(pf_graph_has_coords(m), 1);
    double x, y;
    assert_int_equal(pf_graph_coords(m, 1, &x, &y), 1);
    assert_true(x == -3 && y == 0);
    assert_int_equal(pf_graph_coords(m, 2, &x, &y), 1);
    assert_true(x == 3 && y == 4);
    assert_int_equal(pf_graph_coords(m, 4, &x, &y), 0);
    /* arc 3->1 has weight 0 over distance 5: the only consistent scale is 0 */
    assert_true(pf_graph_heuristic_scale(m) == 0.0);
    pf_map_destroy(m);
    /* scale: the smallest weight/distance ratio over all arcs, shaved by a few ulps */
    const char *gr = "p sp 3 2\na 1 2 10\na 2 3 30\n";
    const char *co = "p aux sp co 3\nv 1 0 0\nv 2 3 4\nv 3 3 14\n";
    assert_int_equal(parse(gr, co, &m, &d), PF_OK);
    double k = pf_graph_heuristic_scale(m);
    assert_true(k < 2.0 && k > 2.0 * (1 - 1e-9)); /* min(10/5, 30/10) = 2 */
    pf_map_destroy(m);
}

static void test_line_endings(void **state)
{
    (void)state;
    pf_map *ref, *m;
    pf_diag d;
    assert_int_equal(parse(GOOD_GR, GOOD_CO, &ref, &d), PF_OK);
    const char *gr_crlf = "c tiny graph\r\nc\r\np sp 4 6\r\na 1 2 5\r\na 2 3 7\r\na 1 2 3\r\n\r\n"
                          "a 3 1 0\r\na 3 4 2\r\na 1 2 9";
    const char *co_crlf = "p aux sp co 4\r\nv 1 0 0\r\nv 3 3 4\r\nv 2 -3 0\r\nv 4 3 6";
    assert_int_equal(parse(gr_crlf, co_crlf, &m, &d), PF_OK);
    assert_true(pf_map_fingerprint(m) == pf_map_fingerprint(ref));
    pf_map_destroy(m);
    /* edges given in another order build the same map */
    const char *gr_perm = "p sp 4 6\na 1 2 9\na 3 4 2\na 3 1 0\na 1 2 3\na 2 3 7\na 1 2 5\n";
    assert_int_equal(parse(gr_perm, GOOD_CO, &m, &d), PF_OK);
    assert_true(pf_map_fingerprint(m) == pf_map_fingerprint(ref));
    pf_map_destroy(m);
    pf_map_destroy(ref);
}

static void test_bad_gr(void **state)
{
    (void)state;
    const char *G = "<graph>";
    expect_fail("", NULL, PF_PARSE_ERROR, 1, G, "missing 'p sp N M'");
    expect_fail("c only\nc comments\n", NULL, PF_PARSE_ERROR, 3, G, "missing 'p sp N M'");
    expect_fail("p xx 3 1\na 1 2 3\n", NULL, PF_PARSE_ERROR, 1, G, "expected 'p sp N M'");
    expect_fail("a 1 2 3\n", NULL, PF_PARSE_ERROR, 1, G, "expected 'p sp N M'");
    expect_fail("c x\np sp 3\n", NULL, PF_PARSE_ERROR, 2, G, "two counts");
    expect_fail("p sp 3 1 7\na 1 2 3\n", NULL, PF_PARSE_ERROR, 1, G, "two counts");
    expect_fail("p sp 3 -1\n", NULL, PF_PARSE_ERROR, 1, G, "two counts");
    expect_fail("p sp 0 0\n", NULL, PF_PARSE_ERROR, 1, G, "no nodes");
    expect_fail("p sp 2000000000 0\n", NULL, PF_TOO_LARGE, 1, G, "too large");
    expect_fail("p sp 3 1000000\na 1 2 3\n", NULL, PF_PARSE_ERROR, 1, G, "truncated");
    /* arc lines */
    expect_fail("p sp 3 2\na 1 2 3\nb 2 3 4\n", NULL, PF_PARSE_ERROR, 3, G, "expected an arc line");
    expect_fail("p sp 3 2\na 1 2 3\np sp 3 2\n", NULL, PF_PARSE_ERROR, 3, G, "expected an arc line");
    expect_fail("p sp 3 2\na 0 2 3\na 1 2 3\n", NULL, PF_PARSE_ERROR, 2, G, "source id out of range");
    expect_fail("p sp 3 2\na 1 2 3\na 4 2 3\n", NULL, PF_PARSE_ERROR, 3, G, "source id out of range");
    expect_fail("p sp 3 2\na 1 2 3\na 1 4 3\n", NULL, PF_PARSE_ERROR, 3, G, "target id out of range");
    expect_fail("p sp 3 2\na 1 2 3\na 1 0 3\n", NULL, PF_PARSE_ERROR, 3, G, "target id out of range");
    expect_fail("p sp 3 2\na 1 2 3\na 2 3 -4\n", NULL, PF_PARSE_ERROR, 3, G, "negative weight");
    expect_fail("p sp 3 2\na 1 2 3\na 2 3\n", NULL, PF_PARSE_ERROR, 3, G, "bad weight");
    expect_fail("p sp 3 2\na 1 2 3\na 2 3 4.5\n", NULL, PF_PARSE_ERROR, 3, G, "bad weight");
    expect_fail("p sp 3 2\na 1 2 3\na 2 3 x\n", NULL, PF_PARSE_ERROR, 3, G, "bad weight");
    expect_fail("p sp 3 2\na 1 2 3\na -2 3 4\n", NULL, PF_PARSE_ERROR, 3, G, "bad source id");
    expect_fail("p sp 3 2\na 1 2 3\na 2 y 4\n", NULL, PF_PARSE_ERROR, 3, G, "bad target id");
    expect_fail("p sp 3 2\na 1 2 3\na 2 3 4 5\n", NULL, PF_PARSE_ERROR, 3, G, "extra text");
    expect_fail("p sp 3 2\na 1 2 3\na 99999999999999999999999 3 4\n", NULL, PF_PARSE_ERROR, 3, G, "bad source id");
    expect_fail("p sp 3 1\na 1 2 3\na 2 3 4\n", NULL, PF_PARSE_ERROR, 3, G, "more arcs than the 1 announced");
    /* truncated: the missing arc would have been on the next line */
    expect_fail("p sp 3 3\na 1 2 3\na 2 3 4\n", NULL, PF_PARSE_ERROR, 4, G, "truncated: 2 of 3 arcs");
    expect_fail("p sp 3 3\na 1 2 30\na 2 3 40", NULL, PF_PARSE_ERROR, 4, G, "truncated: 2 of 3 arcs");
    /* too few bytes left for the announced arcs: refused at the header, before allocating */
    expect_fail("p sp 3 3\na 1 2 3\na 2 3 4", NULL, PF_PARSE_ERROR, 1, G, "truncated: 3 arcs announced");
    expect_fail("p sp 3 2\na 1 2 3\na 2 3", NULL, PF_PARSE_ERROR, 3, G, "bad weight");
}

/* A header is not an allocation: nodes beyond what the arcs can name (2 per arc, and 4,096 more)
 * must be listed by a .co file (a review: a 16-byte "p sp 33554432 0" made a 268 MB map); counts
 * and weights past 64 bits are PF_TOO_LARGE, as the limits are, not malformed numbers. */
static void test_header_is_not_an_allocation(void **state)
{
    (void)state;
    const char *G = "<graph>";
    expect_fail("p sp 33554432 0\n", NULL, PF_PARSE_ERROR, 1, G, "33554432 nodes announced");
    expect_fail("p sp 4097 0\n", NULL, PF_PARSE_ERROR, 1, G, "more than 0 arcs can name");
    expect_fail("p sp 4099 1\na 1 2 3\n", NULL, PF_PARSE_ERROR, 1, G, "at most 2 per arc");
    pf_map *m = NULL;
    pf_diag d;
    assert_int_equal(parse("p sp 4096 0\n", NULL, &m, &d), PF_OK); /* isolated nodes: legal DIMACS */
    assert_int_equal(pf_map_node_count(m), 4096);
    pf_map_destroy(m);
    assert_int_equal(parse("p sp 4098 1\na 1 2 3\n", NULL, &m, &d), PF_OK);
    pf_map_destroy(m);
    /* listed by a .co file, any number of them */
    enum { NN = 9000 };
    static char co[NN * 16 + 64];
    int k = snprintf(co, sizeof co, "p aux sp co %d\n", NN);
    for (int i = 1; i <= NN; i++) k += snprintf(co + k, sizeof co - (size_t)k, "v %d %d 0\n", i, i);
    assert_int_equal(parse("p sp 9000 1\na 1 2 3\n", co, &m, &d), PF_OK);
    assert_int_equal(pf_map_node_count(m), NN);
    pf_map_destroy(m);
    expect_fail("p sp 99999999999999999999999 0\n", NULL, PF_TOO_LARGE, 1, G, "99999999999999999999999 nodes");
    /* leading zeros say nothing of the size (a review: 25 digits of "0...05" were too large) */
    assert_int_equal(parse("p sp 0000000000000000000000003 1\na 1 2 0000000000000000000000007\n", NULL, &m, &d), PF_OK);
    assert_int_equal(pf_map_node_count(m), 3);
    pf_map_destroy(m);
    expect_fail("p sp 3 99999999999999999999999\n", NULL, PF_TOO_LARGE, 1, G, "too large");
    expect_fail("p sp 3 1\na 1 2 9223372036854775808\n", NULL, PF_TOO_LARGE, 2, G, "exceeds 2^53");
    expect_fail("p sp 3 1\na 1 2 1000000000000000000000000000000\n", NULL, PF_TOO_LARGE, 2, G, "exceeds 2^53");
    expect_fail("p sp 3 1\na 1 2 9007199254740993\n", NULL, PF_TOO_LARGE, 2, G, "exceeds 2^53");
    expect_fail("p sp 3 1\na 1 2 -99999999999999999999\n", NULL, PF_PARSE_ERROR, 2, G, "bad weight");
}

static void test_bad_co(void **state)
{
    (void)state;
    const char *gr = "p sp 3 2\na 1 2 3\na 2 3 4\n";
    const char *C = "<coords>";
    expect_fail(gr, "", PF_PARSE_ERROR, 1, C, "missing 'p aux sp co N'");
    expect_fail(gr, "p aux sp 3\nv 1 0 0\n", PF_PARSE_ERROR, 1, C, "expected 'p aux sp co N'");
    expect_fail(gr, "c\np aux sp co 3 3\n", PF_PARSE_ERROR, 2, C, "expected 'p aux sp co N'");
    expect_fail(gr, "p aux sp co 4\nv 1 0 0\n", PF_PARSE_ERROR, 1, C, "coordinates for 4 nodes, graph has 3");
    expect_fail(gr, "p aux sp co 3\nv 1 0 0\nv 2 0 1\nx 3 0 2\n", PF_PARSE_ERROR, 4, C, "expected a node line");
    expect_fail(gr, "p aux sp co 3\nv 1 0 0\nv 4 0 1\nv 3 0 2\n", PF_PARSE_ERROR, 3, C, "node id out of range");
    expect_fail(gr, "p aux sp co 3\nv 0 0 0\n", PF_PARSE_ERROR, 2, C, "node id out of range");
    expect_fail(gr, "p aux sp co 3\nv 1 0 0\nv 1 0 1\nv 3 0 2\n", PF_PARSE_ERROR, 3, C, "node listed twice");
    expect_fail(gr, "p aux sp co 3\nv 1 0 0\nv 2 a 1\n", PF_PARSE_ERROR, 3, C, "bad x coordinate");
    expect_fail(gr, "p aux sp co 3\nv 1 0 0\nv 2 1\n", PF_PARSE_ERROR, 3, C, "bad y coordinate");
    expect_fail(gr, "p aux sp co 3\nv 1 0 0\nv 2 1 2 3\n", PF_PARSE_ERROR, 3, C, "extra text");
    expect_fail(gr, "p aux sp co 3\nv x 0 0\n", PF_PARSE_ERROR, 2, C, "bad node id");
    expect_fail(gr, "p aux sp co 3\nv 1 0 0\nv 2 0 1\n", PF_PARSE_ERROR, 4, C, "truncated: 2 of 3 nodes");
    expect_fail(gr, "p aux sp co 3\r\nv 1 0 0\r\nv 2 0 1", PF_PARSE_ERROR, 4, C, "truncated: 2 of 3 nodes");
    /* far too short for the nodes the graph has: refused at its header, before 17 bytes a node are
     * allocated (a review: 544 MB asked for a 29-byte file beside a graph of 2^25 nodes) */
    expect_fail("p sp 100000 0\n", "p aux sp co 100000\nv 1 0 0\n", PF_PARSE_ERROR, 1, C,
                "truncated: 100000 nodes announced");
    /* a bad .gr is reported before the .co is read */
    expect_fail("p sp 3 1\n", "garbage", PF_PARSE_ERROR, 2, "<graph>", "truncated");
}

static void test_every_prefix_is_rejected(void **state)
{
    (void)state;
    size_t n = strlen(GOOD_GR);
    for (size_t k = 0; k + 1 < n; k++) {
        pf_map *m;
        pf_diag d;
        pf_status s = pf_graph_parse_dimacs(GOOD_GR, k, NULL, 0, NULL, &m, &d);
        /* prefixes that end inside a comment line between whole arcs cannot be told from a file
         * that is complete up to there, except by the arc count, which is always short here */
        assert_int_equal(s, PF_PARSE_ERROR);
        assert_null(m);
        assert_true(d.line >= 1 && d.line <= 11);
    }
    size_t nc = strlen(GOOD_CO);
    for (size_t k = 0; k + 1 < nc; k++) {
        pf_map *m;
        pf_diag d;
        pf_status s = pf_graph_parse_dimacs(GOOD_GR, n, GOOD_CO, k, NULL, &m, &d);
        assert_int_equal(s, PF_PARSE_ERROR);
        assert_null(m);
        assert_true(strncmp(d.msg, "<coords>:", 9) == 0);
    }
}

static void test_files(void **state)
{
    (void)state;
    pf_map *m;
    pf_diag d;
    const char *gr = PF_SOURCE_DIR "/tests/data/tiny.gr", *co = PF_SOURCE_DIR "/tests/data/tiny.co";
    assert_int_equal(pf_graph_load_dimacs(gr, co, NULL, &m, &d), PF_OK);
    assert_int_equal(pf_map_node_count(m), 4);
    assert_int_equal(pf_graph_edge_count(m), 6);
    assert_int_equal(pf_graph_has_coords(m), 1);
    pf_map_destroy(m);
    assert_int_equal(pf_graph_load_dimacs(gr, NULL, NULL, &m, &d), PF_OK);
    assert_int_equal(pf_graph_has_coords(m), 0);
    pf_map_destroy(m);
    assert_int_equal(pf_graph_load_dimacs(gr, PF_SOURCE_DIR "/tests/data/missing.co", NULL, &m, &d), PF_IO_ERROR);
    assert_null(m);
    assert_non_null(strstr(d.msg, "missing.co"));
    assert_int_equal(pf_graph_load_dimacs(PF_SOURCE_DIR "/tests/data/missing.gr", NULL, NULL, &m, &d), PF_IO_ERROR);
    assert_int_equal(pf_graph_load_dimacs(NULL, NULL, NULL, &m, &d), PF_INVALID_ARGUMENT);
    assert_int_equal(pf_graph_load_dimacs(gr, NULL, NULL, NULL, &d), PF_INVALID_ARGUMENT);
    /* errors name the file */
    assert_int_equal(pf_graph_load_dimacs(PF_SOURCE_DIR "/tests/data/bad_weight.gr", NULL, NULL, &m, &d),
                     PF_PARSE_ERROR);
    assert_int_equal(d.line, 4);
    assert_non_null(strstr(d.msg, "bad_weight.gr:4: negative weight"));
    assert_int_equal(pf_graph_parse_dimacs(NULL, 0, NULL, 0, NULL, &m, &d), PF_INVALID_ARGUMENT);
}

static void test_graph_create(void **state)
{
    (void)state;
    pf_map *m = (pf_map *)&m;
    pf_edge e[2] = {{0, 1, 1.0}, {1, 2, 2.0}};
    assert_int_equal(pf_graph_create(NULL, &m), PF_INVALID_ARGUMENT);
    assert_null(m);
    assert_int_equal(pf_graph_create(&(pf_graph_desc){.node_count = 3, .edge_count = 2, .edges = e}, NULL),
                     PF_INVALID_ARGUMENT);
    assert_int_equal(pf_graph_create(&(pf_graph_desc){.node_count = 0}, &m), PF_INVALID_ARGUMENT);
    assert_int_equal(pf_graph_create(&(pf_graph_desc){.node_count = 3, .edge_count = 2}, &m), PF_INVALID_ARGUMENT);
    assert_int_equal(pf_graph_create(&(pf_graph_desc){.node_count = PF_MAX_NODES}, &m), PF_TOO_LARGE);
    assert_int_equal(pf_graph_create(&(pf_graph_desc){.node_count = 2, .edge_count = 2, .edges = e}, &m),
                     PF_INVALID_ARGUMENT); /* node 2 out of range */
    double bad[] = {-1.0, NAN, INFINITY, -INFINITY};
    for (int i = 0; i < 4; i++) {
        pf_edge b[1] = {{0, 1, bad[i]}};
        assert_int_equal(pf_graph_create(&(pf_graph_desc){.node_count = 2, .edge_count = 1, .edges = b}, &m),
                         PF_INVALID_ARGUMENT);
        assert_null(m);
    }
    double xy[6] = {0, 0, 1, 1, NAN, 0};
    assert_int_equal(pf_graph_create(&(pf_graph_desc){.node_count = 3, .edge_count = 2, .edges = e, .coords = xy}, &m),
                     PF_INVALID_ARGUMENT);
    /* a graph with nodes and no arcs is fine; so is a self loop */
    pf_edge loop[1] = {{0, 0, 1.0}};
    assert_int_equal(pf_graph_create(&(pf_graph_desc){.node_count = 1, .edge_count = 1, .edges = loop}, &m), PF_OK);
    pf_map_destroy(m);
    assert_int_equal(pf_graph_create(&(pf_graph_desc){.node_count = 5}, &m), PF_OK);
    assert_int_equal(pf_graph_edge_count(m), 0);
    /* grid accessors on a graph */
    assert_int_equal(pf_grid_width(m), 0);
    assert_int_equal(pf_grid_node(m, 0, 0), PF_NODE_NONE);
    pf_map_destroy(m);
}

static void test_allocation_failures(void **state)
{
    (void)state;
    int ok = 0;
    for (int n = 0; n < 100 && !ok; n++) {
        test_tracker f = {.countdown = n, .once = 1};
        pf_allocator a = {test_track_alloc, test_track_free, &f};
        pf_map *m;
        pf_diag d;
        pf_status s = pf_graph_parse_dimacs(GOOD_GR, strlen(GOOD_GR), GOOD_CO, strlen(GOOD_CO), &(pf_graph_load_desc){.allocator = a}, &m, &d);
        if (s == PF_OK) {
            ok = 1;
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
    ok = 0;
    for (int n = 0; n < 100 && !ok; n++) {
        test_tracker f = {.countdown = n, .once = 1};
        pf_allocator a = {test_track_alloc, test_track_free, &f};
        pf_map *m;
        pf_diag d;
        pf_status s = pf_graph_load_dimacs(PF_SOURCE_DIR "/tests/data/tiny.gr", PF_SOURCE_DIR "/tests/data/tiny.co",
                                           &(pf_graph_load_desc){.allocator = a}, &m, &d);
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

/* Coordinates past about 1e154 (accepted: any finite value) made dx * dx overflow: an infinite
 * heuristic, or NaN where an arc's length overflowed and the scale fell to 0, and A* answered 10
 * and 11 where the optimum is 3 (a review). Distances are measured by pf__hypot, and coordinates
 * spread past DBL_MAX leave the graph without a heuristic. */
static void test_huge_coordinates(void **state)
{
    (void)state;
    pf_edge e1[] = {{0, 1, 1}, {1, 2, 1}, {2, 3, 1}, {0, 4, 5}, {4, 3, 5}};
    double xy1[] = {-1e154, 0, -0.9e154, 0, 0, 0, 1e154, 0, 0, 1};
    pf_edge e2[] = {{0, 1, 10}, {0, 2, 1}, {2, 1, 1}, {1, 3, 1}, {1, 4, 5}};
    double xy2[] = {0, 0, 1e200, 0, 1, 0, 0, 0, -1e200, 0};
    pf_edge e3[] = {{0, 1, 1}, {1, 2, 1}, {0, 2, 5}};
    double xy3[] = {-1.7e308, 0, 0, 0, 1.7e308, 0}; /* 0 -> 2: a distance past DBL_MAX */
    /* no arc longer than DBL_MAX, but node 1 and the goal 3 further apart: its h was infinite,
     * and A* took the 1e9 arc (a second review) */
    pf_edge e4[] = {{0, 1, 1e8}, {1, 2, 1e8}, {2, 3, 1e8}, {0, 3, 1e9}};
    double xy4[] = {0, 0, -1e308, 0, 0, 1, 1e308, 0};
    const pf_edge *es[] = {e1, e2, e3, e4};
    const double *xys[] = {xy1, xy2, xy3, xy4};
    const uint32_t nn[] = {5, 5, 3, 4}, ne[] = {5, 5, 3, 4}, goal[] = {3, 3, 2, 3};
    for (int k = 0; k < 4; k++) {
        pf_map *g;
        assert_int_equal(pf_graph_create(&(pf_graph_desc){.node_count = nn[k], .edge_count = ne[k], .edges = es[k],
                                                          .coords = xys[k]},
                                         &g),
                         PF_OK);
        assert_true(pf_graph_heuristic_scale(g) >= 0.0 && isfinite(pf_graph_heuristic_scale(g)));
        pf_ctx *c;
        assert_int_equal(pf_ctx_create(g, NULL, &c), PF_OK);
        pf_stats a, d;
        assert_int_equal(pf_search(c, 0, goal[k], &(pf_search_desc){.algo = PF_ALGO_DIJKSTRA}, NULL, &d), PF_OK);
        assert_int_equal(pf_search(c, 0, goal[k], NULL, NULL, &a), PF_OK);
        if (a.cost != d.cost) fail_msg("graph %d: A* %g, Dijkstra %g", k, a.cost, d.cost);
        pf_ctx_destroy(c);
        pf_map_destroy(g);
    }
}

/* The heuristic's scale is the same bits on every machine: lengths by IEEE operations alone, not
 * libm's hypot, whose builds differ in the last bit (glibc x86-64 gave 0x1.591d11a4cbcc6p+0 here,
 * musl, aarch64 and s390x ...cc5p+0, for one fingerprint: a cross-machine review). Checked against
 * the length each host rounds alike, sqrt(dx * dx + dy * dy), on 2,000 random arcs. */
static void test_scale_by_ieee_operations(void **state)
{
    (void)state;
    uint64_t s = 7;
    for (int k = 0; k < 2001; k++) {
        double dx = 0x1.6de142ba3ac76p+9, dy = 0x1.e62a3b0ab15fp+6; /* the review's case first */
        if (k) {
            dx = ((double)(lcg_next(&s) % 2000001u) - 1000000.0) / 997.0;
            dy = ((double)(lcg_next(&s) % 2000001u) - 1000000.0) / 991.0;
        }
        if (dx == 0.0 && dy == 0.0) continue;
        pf_edge e[] = {{0, 1, 1000.0}};
        double xy[] = {0.0, 0.0, dx, dy};
        pf_map *g;
        assert_int_equal(pf_graph_create(&(pf_graph_desc){.node_count = 2, .edge_count = 1, .edges = e, .coords = xy}, &g),
                         PF_OK);
        const double want = 1000.0 / sqrt(dx * dx + dy * dy) * (1.0 - 1e-12);
        if (pf_graph_heuristic_scale(g) != want)
            fail_msg("arc to (%a, %a): scale %a, by IEEE operations %a", dx, dy, pf_graph_heuristic_scale(g), want);
        pf_map_destroy(g);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_huge_coordinates),
        cmocka_unit_test(test_scale_by_ieee_operations),
        cmocka_unit_test(test_good_graph_and_parallel_arcs),
        cmocka_unit_test(test_coordinates),
        cmocka_unit_test(test_line_endings),
        cmocka_unit_test(test_bad_gr),
        cmocka_unit_test(test_bad_co),
        cmocka_unit_test(test_header_is_not_an_allocation),
        cmocka_unit_test(test_every_prefix_is_rejected),
        cmocka_unit_test(test_files),
        cmocka_unit_test(test_graph_create),
        cmocka_unit_test(test_allocation_failures),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
