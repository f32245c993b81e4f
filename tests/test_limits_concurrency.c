/* test_limits_concurrency.c - the sharing the headers promise, under ThreadSanitizer in the tsan
 * preset: one immutable pf_map searched by many threads at once, each with its own pf_ctx
 * (pf_map.h, pf_search.h), and loaders running concurrently (no global state in the core).
 * Expected answers are computed by the oracle before the threads start and only read afterwards.
 */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "pathfind.h"
#include "oracle.h"
#include "maps.h"

enum { THREADS = 6, QUERIES = 24, W = 48, H = 40 };

typedef struct shared {
    const pf_map *map;
    uint32_t      s[QUERIES], g[QUERIES];
    double        want[QUERIES];
} shared;

typedef struct worker {
    const shared *sh;
    int           id;
    int           failures;
    uint64_t      fingerprint;
} worker;

static void *search_worker(void *arg)
{
    worker *w = arg;
    const shared *sh = w->sh;
    pf_ctx *ctx;
    if (pf_ctx_create(sh->map, &(pf_ctx_desc){.heap_capacity = 4}, &ctx) != PF_OK) {
        w->failures++;
        return NULL;
    }
    uint32_t nodes[W * H];
    for (int round = 0; round < 3; round++)
        for (int k = 0; k < QUERIES; k++) {
            int q = (k + w->id * 5) % QUERIES; /* threads run the queries in different orders */
            pf_path path = {.nodes = nodes, .capacity = W * H};
            pf_stats st;
            pf_search_desc d = {.tie = (pf_tie)(1 + (q + round) % 4), .tie_seed = (uint64_t)q};
            pf_status r = pf_search(ctx, sh->s[q], sh->g[q], &d, &path, &st);
            if (isfinite(sh->want[q])) {
                if (r != PF_OK || fabs(st.cost - sh->want[q]) > 1e-9 * (1 + sh->want[q])) w->failures++;
            } else if (r != PF_NO_PATH) {
                w->failures++;
            }
        }
    w->fingerprint = pf_map_fingerprint(sh->map);
    pf_ctx_destroy(ctx);
    return NULL;
}

static pf_map *make_map(uint32_t seed)
{
    uint8_t cells[W * H];
    float costs[W * H];
    for (uint32_t i = 0; i < W * H; i++) {
        seed = seed * 1664525u + 1013904223u;
        cells[i] = (seed >> 24) < 60 ? 0 : 1;
        costs[i] = 1.0f + (float)((seed >> 8) & 3u);
    }
    return grid_make(W, H, PF_MOVES_DEFAULT, cells, costs);
}

static void test_many_threads_one_map(void **state)
{
    (void)state;
    shared sh;
    pf_map *map = make_map(7);
    sh.map = map;
    uint32_t n = pf_map_node_count(map), seed = 3;
    for (int q = 0; q < QUERIES; q++) {
        seed = seed * 1664525u + 1013904223u;
        uint32_t s = (seed >> 8) % n, g = (seed >> 3) % n;
        pf_point ps = pf_grid_point(map, s), pg = pf_grid_point(map, g);
        while (!pf_grid_class(map, ps.x, ps.y)) ps = pf_grid_point(map, s = (s + 1) % n);
        while (!pf_grid_class(map, pg.x, pg.y)) pg = pf_grid_point(map, g = (g + 1) % n);
        sh.s[q] = s;
        sh.g[q] = g;
        sh.want[q] = oracle_cost(map, s, g);
    }
    pthread_t th[THREADS];
    worker w[THREADS];
    for (int i = 0; i < THREADS; i++) {
        w[i] = (worker){.sh = &sh, .id = i};
        assert_int_equal(pthread_create(&th[i], NULL, search_worker, &w[i]), 0);
    }
    for (int i = 0; i < THREADS; i++) assert_int_equal(pthread_join(th[i], NULL), 0);
    for (int i = 0; i < THREADS; i++) {
        assert_int_equal(w[i].failures, 0);
        assert_true(w[i].fingerprint == pf_map_fingerprint(map));
    }
    pf_map_destroy(map);
}

typedef struct loader { const char *text; size_t len; int ok; } loader;

static void *load_worker(void *arg)
{
    loader *l = arg;
    for (int i = 0; i < 20; i++) {
        pf_map *m;
        pf_diag diag;
        pf_status st = pf_grid_parse_movingai(l->text, l->len, "t", NULL, &m, &diag);
        if (st == PF_OK && pf_grid_width(m) == 5) l->ok++;
        pf_map_destroy(m);
        pf_scen *sc;
        static const char scen[] = "version 1\n0 m 5 4 0 0 4 3 5.24\n";
        if (pf_scen_parse(scen, sizeof scen - 1, "s", NULL, &sc, NULL) == PF_OK && pf_scen_count(sc) == 1) l->ok++;
        pf_scen_destroy(sc);
    }
    return NULL;
}

static void test_concurrent_loaders(void **state)
{
    (void)state;
    static const char text[] = "type octile\nheight 4\nwidth 5\nmap\n.....\n.@@@.\n.@...\n.....\n";
    pthread_t th[THREADS];
    loader l[THREADS];
    for (int i = 0; i < THREADS; i++) {
        l[i] = (loader){text, sizeof text - 1, 0};
        assert_int_equal(pthread_create(&th[i], NULL, load_worker, &l[i]), 0);
    }
    for (int i = 0; i < THREADS; i++) {
        assert_int_equal(pthread_join(th[i], NULL), 0);
        assert_int_equal(l[i].ok, 40);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_many_threads_one_map),
        cmocka_unit_test(test_concurrent_loaders),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
