/* test_prop_table.c - first-move tables against an independent Dijkstra, and incremental updates
 * against full rebuilds on thousands of random edits. Seeds are printed on failure; PF_TEST_SCALE
 * scales the iteration counts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "pathfind.h"
#include "oracle.h"
#include "testutil.h"
#include "maps.h"

static uint64_t rng_state;
static uint32_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 11);
}
static uint32_t rnd_below(uint32_t n) { return rnd() % n; }

/* Integer weights 0..9 (some zero), so every path sum is exact in double and "equal cost" means
 * equal: the update's completeness proof then applies without rounding caveats. */
static double rnd_weight(void) { return (double)rnd_below(10); }

typedef struct edges { pf_edge *e; uint32_t n, cap; } edges;

static void push(edges *l, uint32_t a, uint32_t b, double w)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 64;
        l->e = realloc(l->e, l->cap * sizeof *l->e);
        assert_non_null(l->e);
    }
    l->e[l->n++] = (pf_edge){a, b, w};
}

static void random_graph(edges *l, uint32_t n, uint32_t m)
{
    l->n = 0;
    for (uint32_t i = 0; i < m; i++) {
        uint32_t a = rnd_below(n), b = rnd_below(n);
        if (a == b) b = (b + 1) % n;
        push(l, a, b, rnd_weight());
    }
}

static pf_map *make(const edges *l, uint32_t n)
{
    pf_map *g;
    assert_int_equal(pf_graph_create(&(pf_graph_desc){.node_count = n, .edge_count = l->n, .edges = l->e}, &g), PF_OK);
    return g;
}

/* Every entry is a tight arc (starts a cheapest path) and every table path costs the optimum. */
static void check_against_oracle(const pf_table *t, const pf_map *g, uint64_t seed)
{
    uint32_t n = pf_map_node_count(g);
    uint32_t *buf = malloc((size_t)(n + 1) * sizeof *buf);
    for (uint32_t s = 0; s < n; s++) {
        double *d = oracle_all(g, s, 0);
        for (uint32_t v = 0; v < n; v++) {
            pf_path p = {.nodes = buf, .capacity = n + 1};
            double c;
            pf_status st = pf_table_path(t, s, v, &p, &c);
            if (isinf(d[v])) {
                if (st != PF_NO_PATH) fail_msg("seed %llu: %u->%u unreachable, table says %s", (unsigned long long)seed, s, v, pf_status_name(st));
                continue;
            }
            if (st != PF_OK || c != d[v] || oracle_path_cost(g, buf, p.len) != d[v])
                fail_msg("seed %llu: %u->%u cost %g (status %s), oracle %g", (unsigned long long)seed, s, v, c,
                         pf_status_name(st), d[v]);
        }
        free(d);
    }
    free(buf);
}

static void test_random_graphs_match_dijkstra(void **state)
{
    (void)state;
    int rounds = (int)(60 * env_scale());
    for (int r = 0; r < rounds; r++) {
        uint64_t seed = 0x9E3779B97F4A7C15ull * (uint64_t)(r + 1);
        rng_state = seed;
        uint32_t n = 2 + rnd_below(60), m = rnd_below(5 * n);
        edges l = {0};
        random_graph(&l, n, m);
        pf_map *g = make(&l, n);
        pf_table *t;
        assert_int_equal(pf_table_create(g, &(pf_table_desc){.threads = 1 + (uint32_t)(r % 3)}, &t), PF_OK);
        check_against_oracle(t, g, seed);
        pf_table_destroy(t);
        pf_map_destroy(g);
        free(l.e);
    }
}

static void expect_same(const pf_table *a, const pf_table *b, uint64_t seed, int step)
{
    size_t sa = pf_table_file_size(a), sb = pf_table_file_size(b);
    if (sa != sb) fail_msg("seed %llu step %d: sizes %zu vs %zu", (unsigned long long)seed, step, sa, sb);
    uint8_t *ba = malloc(sa), *bb = malloc(sb);
    assert_int_equal(pf_table_save_mem(a, ba, sa, NULL), PF_OK);
    assert_int_equal(pf_table_save_mem(b, bb, sb, NULL), PF_OK);
    if (memcmp(ba, bb, sa) != 0) {
        uint32_t n = pf_table_node_count(a);
        for (uint32_t u = 0; u < n; u++)
            for (uint32_t v = 0; v < n; v++)
                if (pf_table_entry(a, u, v) != pf_table_entry(b, u, v))
                    fail_msg("seed %llu step %d: entry (%u,%u) updated %u, rebuilt %u", (unsigned long long)seed,
                             step, u, v, pf_table_entry(a, u, v), pf_table_entry(b, u, v));
        fail_msg("seed %llu step %d: files differ", (unsigned long long)seed, step);
    }
    free(ba);
    free(bb);
}

/* One random edit: remove an arc, add one, raise or lower a cost (to 0 sometimes). */
static void random_edit(edges *l, uint32_t n)
{
    uint32_t kind = rnd_below(4);
    if (l->n == 0) kind = 1;
    if (kind == 0) {
        l->e[rnd_below(l->n)] = l->e[l->n - 1];
        l->n--;
    } else if (kind == 1) {
        uint32_t a = rnd_below(n), b = rnd_below(n);
        if (a == b) b = (b + 1) % n;
        push(l, a, b, rnd_weight());
    } else {
        pf_edge *e = &l->e[rnd_below(l->n)];
        e->weight = kind == 2 ? e->weight + 1 + rnd_below(5) : (e->weight > 0 ? (double)rnd_below((uint32_t)e->weight) : 0);
    }
}

static void test_updates_equal_rebuild(void **state)
{
    (void)state;
    int graphs = (int)(40 * env_scale());
    uint64_t total_edits = 0, examined = 0, rows = 0;
    for (int r = 0; r < graphs; r++) {
        uint64_t seed = 0xD1B54A32D192ED03ull * (uint64_t)(r + 7);
        rng_state = seed;
        uint32_t n = 3 + rnd_below(40);
        edges l = {0};
        random_graph(&l, n, n + rnd_below(3 * n));
        pf_map *g = make(&l, n);
        pf_table *t;
        assert_int_equal(pf_table_create(g, NULL, &t), PF_OK);
        for (int step = 0; step < 60; step++) {
            uint32_t batch = rnd_below(8) == 0 ? 1 + rnd_below(4) : 1; /* sometimes several at once */
            for (uint32_t b = 0; b < batch; b++) random_edit(&l, n);
            total_edits += batch;
            pf_map *g2 = make(&l, n);
            pf_table_report rep;
            pf_table_update_desc ud = {.rule = (step & 1) ? PF_TABLE_RULE_SLIDES : PF_TABLE_RULE_TIGHT,
                                       .threads = 1 + (uint32_t)(step % 2)};
            pf_status s = pf_table_update(t, g2, &ud, &rep);
            if (s != PF_OK) fail_msg("seed %llu step %d: update %s", (unsigned long long)seed, step, pf_status_name(s));
            pf_table *full;
            assert_int_equal(pf_table_create(g2, NULL, &full), PF_OK);
            expect_same(t, full, seed, step);
            assert_true(rep.rows_changed <= rep.rows_examined);
            assert_true(rep.rows_examined <= n);
            assert_int_equal(rep.searches, 2 * rep.rows_examined);
            examined += rep.rows_examined;
            rows += n;
            pf_table_destroy(full);
            pf_map_destroy(g);
            g = g2;
        }
        check_against_oracle(t, g, seed);
        pf_table_destroy(t);
        pf_map_destroy(g);
        free(l.e);
    }
    print_message("    %llu edits: updates examined %llu of %llu rows (%.1f%%)\n", (unsigned long long)total_edits,
                  (unsigned long long)examined, (unsigned long long)rows, 100.0 * (double)examined / (double)rows);
    assert_true(total_edits >= (uint64_t)(2000 * env_scale()));
    assert_true(examined < rows); /* the point of the exercise: not everything is rebuilt */
}

static void test_update_widens_entries(void **state)
{
    (void)state;
    /* a star whose hub gains its 255th arc: entries go from 1 to 2 bytes, as a rebuild would */
    const uint32_t n = 300;
    edges l = {0};
    for (uint32_t i = 1; i < 255; i++) push(&l, 0, i, 1.0);
    for (uint32_t i = 1; i < n; i++) push(&l, i, 0, 1.0);
    pf_map *g = make(&l, n);
    pf_table *t;
    assert_int_equal(pf_table_create(g, NULL, &t), PF_OK);
    assert_int_equal(pf_table_entry_bytes(t), 1);
    push(&l, 0, 299, 1.0);
    pf_map *g2 = make(&l, n);
    assert_int_equal(pf_table_update(t, g2, NULL, NULL), PF_OK);
    assert_int_equal(pf_table_entry_bytes(t), 2);
    pf_table *full;
    assert_int_equal(pf_table_create(g2, NULL, &full), PF_OK);
    expect_same(t, full, 0, 0);
    assert_int_equal(pf_table_next(t, 5, 299), 0);
    assert_int_equal(pf_table_next(t, 0, 299), 299);
    pf_table_destroy(full);
    pf_table_destroy(t);
    pf_map_destroy(g2);
    pf_map_destroy(g);
    free(l.e);
}

static void test_thread_counts_give_same_bytes(void **state)
{
    (void)state;
    rng_state = 12345;
    edges l = {0};
    random_graph(&l, 200, 900);
    pf_map *g = make(&l, 200);
    pf_table *a, *b, *c;
    assert_int_equal(pf_table_create(g, &(pf_table_desc){.threads = 1}, &a), PF_OK);
    assert_int_equal(pf_table_create(g, &(pf_table_desc){.threads = 2}, &b), PF_OK);
    assert_int_equal(pf_table_create(g, &(pf_table_desc){.threads = 5}, &c), PF_OK);
    expect_same(a, b, 12345, 1);
    expect_same(a, c, 12345, 2);
    pf_table_destroy(a);
    pf_table_destroy(b);
    pf_table_destroy(c);
    pf_map_destroy(g);
    free(l.e);
}

static void test_movingai_arena(void **state)
{
    (void)state;
    const char *path = PF_SHARED_DATA "/movingai/arena.map";
    SKIP_IF_ABSENT(path);
    pf_map *map = grid_load(path);
    pf_table *t;
    assert_int_equal(pf_table_create(map, NULL, &t), PF_OK);
    uint32_t n = pf_map_node_count(map);
    uint32_t *open = malloc(n * sizeof *open), nopen = 0;
    for (uint32_t v = 0; v < n; v++) {
        pf_point p = pf_grid_point(map, v);
        if (pf_grid_class(map, p.x, p.y)) open[nopen++] = v;
    }
    uint32_t *buf = malloc(n * sizeof *buf);
    rng_state = 777;
    int sources = (int)(40 * env_scale());
    for (int k = 0; k < sources; k++) {
        uint32_t s = open[rnd_below(nopen)];
        double *d = oracle_all(map, s, 0);
        for (uint32_t i = 0; i < nopen; i++) {
            uint32_t v = open[i];
            pf_path p = {.nodes = buf, .capacity = n};
            double c;
            pf_status st = pf_table_path(t, s, v, &p, &c);
            if (isinf(d[v])) {
                assert_int_equal(st, PF_NO_PATH);
                continue;
            }
            if (st != PF_OK || fabs(c - d[v]) > 1e-9 * (1 + d[v]) || fabs(oracle_path_cost(map, buf, p.len) - d[v]) > 1e-9 * (1 + d[v]))
                fail_msg("arena %u->%u: table %g (%s), oracle %g", s, v, c, pf_status_name(st), d[v]);
        }
        free(d);
    }
    free(buf);
    free(open);
    pf_table_destroy(t);
    pf_map_destroy(map);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_graphs_match_dijkstra),
        cmocka_unit_test(test_updates_equal_rebuild),
        cmocka_unit_test(test_update_widens_entries),
        cmocka_unit_test(test_thread_counts_give_same_bytes),
        cmocka_unit_test(test_movingai_arena),
    };
    return RUN_TESTS(tests);
}
