/* test_jps.c - jump point search: API, fallback, shared tables across threads, sliced search,
 * limits, allocation failure, generation wrap. Costs are checked against the oracle. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pathfind.h"
#include "oracle.h"
#include "search/ctx_internal.h"
#include "testutil.h"
#include "maps.h"

/* 24x12, rooms and doors: corners and forced neighbours in both corner rules */
static const char ROOMS[] = "type octile\nheight 12\nwidth 24\nmap\n"
                            "........@.......@.......\n"
                            "........@.......@.......\n"
                            "........@...............\n"
                            "..@@@...@.......@...T...\n"
                            "........@@@@.@@@@...T...\n"
                            "....................T...\n"
                            "@@@@.@@@@...........T...\n"
                            "........@.......@@@@@@.@\n"
                            "...@....@.......@.......\n"
                            "...@........@...@..WW...\n"
                            "...@....@.......@..WW...\n"
                            "........@..........WW...\n";

#define LOAD(mv) grid_parse(ROOMS, sizeof ROOMS - 1, mv)

static pf_status jsearch(pf_ctx *c, uint32_t s, uint32_t g, pf_algo a, pf_path *p, pf_stats *st)
{
    return pf_search(c, s, g, &(pf_search_desc){.algo = a}, p, st);
}

static void test_all_pairs_both_rules(void **state)
{
    (void)state;
    for (int r = 0; r < 2; r++) {
        pf_map *m = LOAD(r ? PF_MOVES_8_CUT : PF_MOVES_8_NO_CUT);
        assert_true(pf_jps_supported(m));
        pf_ctx *c;
        assert_int_equal(pf_ctx_create(m, NULL, &c), PF_OK);
        uint32_t n = pf_map_node_count(m), cells[512];
        for (uint32_t s = 0; s < n; s += 5) {
            if (!pf_grid_class(m, (int32_t)(s % 24), (int32_t)(s / 24))) continue;
            double *all = oracle_all(m, s, 0);
            for (uint32_t g = 0; g < n; g++) {
                if (!pf_grid_class(m, (int32_t)(g % 24), (int32_t)(g / 24))) continue;
                for (int a = 0; a < 2; a++) {
                    pf_path p = {.nodes = cells, .capacity = 512};
                    pf_stats st;
                    pf_status rs = jsearch(c, s, g, a ? PF_ALGO_JPS_PLUS : PF_ALGO_JPS, &p, &st);
                    if (isinf(all[g])) {
                        assert_int_equal(rs, PF_NO_PATH);
                        continue;
                    }
                    assert_int_equal(rs, PF_OK);
                    assert_true(fabs(st.cost - all[g]) < 1e-9);
                    assert_true(fabs(oracle_path_cost(m, cells, p.len) - all[g]) < 1e-9);
                    assert_int_equal(cells[0], s);
                    assert_int_equal(cells[p.len - 1], g);
                    assert_true(fabs(pf_ctx_cost(c, g) - all[g]) < 1e-9);
                }
            }
            free(all);
        }
        assert_true(pf_ctx_jps_mem_size(c) >= (size_t)pf_map_node_count(m) * 4);
        pf_ctx_destroy(c);
        pf_map_destroy(m);
    }
}

static void test_fallback_where_unsupported(void **state)
{
    (void)state;
    const pf_moves rules[] = {PF_MOVES_4, PF_MOVES_HEX};
    for (int i = 0; i < 3; i++) {
        pf_map *m;
        if (i < 2) {
            m = LOAD(rules[i]);
        } else {
            float costs[16 * 16];
            for (int k = 0; k < 256; k++) costs[k] = 1.0f + (float)(k % 3);
            assert_int_equal(pf_grid_create(&(pf_grid_desc){.width = 16, .height = 16, .costs = costs}, &m), PF_OK);
        }
        assert_false(pf_jps_supported(m));
        pf_jps_table *t = (pf_jps_table *)1;
        assert_int_equal(pf_jps_table_create(m, NULL, &t), PF_UNSUPPORTED);
        assert_null(t);
        pf_ctx *c;
        assert_int_equal(pf_ctx_create(m, NULL, &c), PF_OK);
        uint32_t cells[512];
        pf_path p = {.nodes = cells, .capacity = 512};
        pf_stats st;
        uint32_t s = pf_grid_node(m, 0, 0), g = pf_grid_node(m, 13, 11 - (i == 2) * 2);
        for (int a = 0; a < 2; a++) {
            assert_int_equal(jsearch(c, s, g, a ? PF_ALGO_JPS_PLUS : PF_ALGO_JPS, &p, &st), PF_OK);
            assert_int_equal(st.detail, PF_DETAIL_FALLBACK); /* said, not silent */
            assert_int_equal(st.algo, PF_ALGO_ASTAR);
            assert_true(fabs(st.cost - oracle_cost(m, s, g)) < 1e-9);
            assert_true(fabs(oracle_path_cost(m, cells, p.len) - st.cost) < 1e-9);
        }
        /* AUTO picks A* on such a map: no fallback said, for a one-cell unit, one under a filter
         * that is today's rule, and a sized one (the last two were flagged: a review) */
        pf_move_filter f;
        memset(&f, 0, sizeof f);
        pf_move_filter_allow(&f, 1, 0.0f);
        /* the sized unit's ends: the first and last cells with room for a 2x2 block */
        uint32_t s2 = PF_NODE_NONE, g2 = PF_NODE_NONE;
        for (uint32_t v = 0; v < pf_map_node_count(m); v++) {
            pf_point pt = pf_grid_point(m, v);
            if (pf_grid_clearance(m, pt.x, pt.y) < 2) continue;
            if (s2 == PF_NODE_NONE) s2 = v;
            g2 = v;
        }
        assert_true(s2 != g2);
        for (int k = 0; k < 3; k++) {
            pf_search_desc d = {.algo = PF_ALGO_AUTO, .filter = k == 1 ? &f : NULL, .unit_size = k == 2 ? 2u : 0u};
            if (k == 2 && i == 1) continue; /* sizes on hex: PF_UNSUPPORTED */
            pf_status r = pf_search(c, k == 2 ? s2 : s, k == 2 ? g2 : g, &d, NULL, &st);
            assert_true(r == PF_OK || (k == 2 && r == PF_NO_PATH)); /* two blocks may lie apart */
            assert_int_equal(st.algo, PF_ALGO_ASTAR);
            assert_int_equal(st.detail & PF_DETAIL_FALLBACK, 0);
        }
        pf_ctx_destroy(c);
        pf_map_destroy(m);
    }
    /* a heuristic JPS does not take (a callback-driven max) falls back too */
    pf_map *m = LOAD(PF_MOVES_8_NO_CUT);
    pf_ctx *c;
    assert_int_equal(pf_ctx_create(m, NULL, &c), PF_OK);
    pf_stats st;
    pf_search_desc d = {.algo = PF_ALGO_JPS, .heuristic = PF_HEUR_MAX, .heuristic_set = 1u << PF_HEUR_OCTILE};
    assert_int_equal(pf_search(c, 0, pf_grid_node(m, 23, 11), &d, NULL, &st), PF_OK);
    assert_int_equal(st.detail, PF_DETAIL_FALLBACK);
    assert_true(fabs(st.cost - oracle_cost(m, 0, pf_grid_node(m, 23, 11))) < 1e-9);
    pf_ctx_destroy(c);
    pf_map_destroy(m);
}

static void test_edge_cases(void **state)
{
    (void)state;
    pf_map *m = LOAD(PF_MOVES_8_NO_CUT);
    pf_ctx *c;
    assert_int_equal(pf_ctx_create(m, NULL, &c), PF_OK);
    uint32_t cells[512];
    pf_path p = {.nodes = cells, .capacity = 512};
    pf_stats st;
    uint32_t s = pf_grid_node(m, 0, 0), g = pf_grid_node(m, 23, 11);
    /* start == goal */
    assert_int_equal(jsearch(c, s, s, PF_ALGO_JPS, &p, &st), PF_OK);
    assert_int_equal(p.len, 1);
    assert_true(st.cost == 0.0);
    /* different terrain classes (ground -> water) never connect */
    assert_int_equal(jsearch(c, s, pf_grid_node(m, 19, 9), PF_ALGO_JPS, &p, &st), PF_NO_PATH);
    assert_int_equal(p.len, 0);
    /* water to water works inside the pond */
    assert_int_equal(jsearch(c, pf_grid_node(m, 19, 9), pf_grid_node(m, 20, 11), PF_ALGO_JPS, &p, &st), PF_OK);
    assert_int_equal(p.len, 3);
    /* blocked start or goal */
    assert_int_equal(jsearch(c, pf_grid_node(m, 8, 0), g, PF_ALGO_JPS, &p, &st), PF_INVALID_START);
    assert_int_equal(jsearch(c, s, pf_grid_node(m, 8, 0), PF_ALGO_JPS_PLUS, &p, &st), PF_INVALID_GOAL);
    /* buffer too small: the needed length, then the same path on a second read */
    double want = oracle_cost(m, s, g);
    pf_path small = {.nodes = cells, .capacity = 3};
    assert_int_equal(jsearch(c, s, g, PF_ALGO_JPS, &small, &st), PF_BUFFER_TOO_SMALL);
    assert_true(small.len > 3);
    p.capacity = small.len;
    assert_int_equal(pf_search_path(c, &p, &st), PF_OK);
    assert_int_equal(p.len, small.len);
    assert_true(fabs(oracle_path_cost(m, cells, p.len) - want) < 1e-9);
    /* points output */
    pf_point pts[512];
    pf_path pp = {.points = pts, .capacity = 512};
    assert_int_equal(jsearch(c, s, g, PF_ALGO_JPS_PLUS, &pp, &st), PF_OK);
    assert_int_equal(pts[0].x, 0);
    assert_int_equal(pts[pp.len - 1].x, 23);
    assert_int_equal(pts[pp.len - 1].y, 11);
    for (uint32_t i = 1; i < pp.len; i++) {
        assert_true(abs(pts[i].x - pts[i - 1].x) <= 1 && abs(pts[i].y - pts[i - 1].y) <= 1);
    }
    /* limits: one expansion is not enough for a long query; a cost cap below the optimum prunes */
    assert_int_equal(pf_search(c, s, g, &(pf_search_desc){.algo = PF_ALGO_JPS, .max_expansions = 1}, &p, &st),
                     PF_LIMIT_REACHED);
    assert_int_equal(pf_search(c, s, g, &(pf_search_desc){.algo = PF_ALGO_JPS_PLUS, .max_cost = want - 1.0}, &p, &st),
                     PF_LIMIT_REACHED);
    assert_int_equal(pf_search(c, s, g, &(pf_search_desc){.algo = PF_ALGO_JPS, .max_cost = want + 0.5}, &p, &st),
                     PF_OK);
    /* trace: jump points in expansion order, start first */
    uint32_t tr[256];
    pf_trace trace = {.nodes = tr, .capacity = 256};
    assert_int_equal(pf_ctx_use_trace(c, &trace), PF_OK);
    assert_int_equal(pf_search(c, s, g, &(pf_search_desc){.algo = PF_ALGO_JPS}, &p, &st), PF_OK);
    assert_int_equal(pf_ctx_use_trace(c, NULL), PF_OK);
    assert_true(trace.len >= 2 && tr[0] == s && tr[trace.len - 1] == g);
    assert_int_equal(trace.total, st.expanded + 1);
    assert_true(st.expanded < 100); /* A* expands most of the 250 open cells here */
    /* every tie rule and heuristic JPS takes gives the optimum; weighted JPS stays within its bound */
    const pf_tie ties[] = {PF_TIE_FIFO, PF_TIE_LIFO, PF_TIE_RANDOM, PF_TIE_DEEPER};
    for (int i = 0; i < 4; i++) {
        pf_search_desc d = {.algo = PF_ALGO_JPS, .tie = ties[i], .tie_seed = 5};
        assert_int_equal(pf_search(c, s, g, &d, &p, &st), PF_OK);
        assert_true(fabs(st.cost - want) < 1e-9);
    }
    const pf_heur hs[] = {PF_HEUR_ZERO, PF_HEUR_CHEBYSHEV, PF_HEUR_EUCLIDEAN};
    for (int i = 0; i < 3; i++) {
        assert_int_equal(pf_search(c, s, g, &(pf_search_desc){.algo = PF_ALGO_JPS_PLUS, .heuristic = hs[i]}, &p, &st),
                         PF_OK);
        assert_true(fabs(st.cost - want) < 1e-9);
    }
    assert_int_equal(pf_search(c, s, g, &(pf_search_desc){.algo = PF_ALGO_JPS, .weight = 2.0}, &p, &st), PF_OK);
    assert_true(st.cost <= 2.0 * want + 1e-9 && st.cost >= want - 1e-9);
    pf_ctx_destroy(c);
    pf_map_destroy(m);
}

static void test_sliced_and_wrap(void **state)
{
    (void)state;
    pf_map *m = LOAD(PF_MOVES_8_CUT);
    pf_ctx *c;
    assert_int_equal(pf_ctx_create(m, NULL, &c), PF_OK);
    uint32_t s = pf_grid_node(m, 0, 11), g = pf_grid_node(m, 23, 0);
    uint32_t a[512], b[512];
    pf_path pa = {.nodes = a, .capacity = 512}, pb = {.nodes = b, .capacity = 512};
    pf_stats sa, sb;
    for (int alg = 0; alg < 2; alg++) {
        pf_search_desc d = {.algo = alg ? PF_ALGO_JPS_PLUS : PF_ALGO_JPS};
        assert_int_equal(pf_search(c, s, g, &d, &pa, &sa), PF_OK);
        assert_int_equal(pf_search_begin(c, s, g, &d), PF_IN_PROGRESS);
        pf_status r;
        int steps = 0;
        while ((r = pf_search_step(c, 1)) == PF_IN_PROGRESS) steps++;
        assert_int_equal(r, PF_OK);
        assert_true(steps > 1);
        assert_int_equal(pf_search_path(c, &pb, &sb), PF_OK);
        assert_int_equal(pa.len, pb.len);
        assert_memory_equal(a, b, pa.len * sizeof a[0]);
        assert_int_equal(sa.expanded, sb.expanded);
        /* across the generation wrap: stale stamps must not look live */
        pf__ctx_set_gen(c, PF__GEN_MASK - 1u);
        for (int i = 0; i < 4; i++) {
            assert_int_equal(pf_search(c, s, g, &d, &pb, &sb), PF_OK);
            assert_true(fabs(sb.cost - sa.cost) < 1e-12);
            assert_int_equal(pb.len, pa.len);
        }
    }
    pf_ctx_destroy(c);
    pf_map_destroy(m);
}

/* ---- shared tables and threads ------------------------------------------------------------- */

typedef struct job {
    const pf_map *map;
    const pf_jps_table *table;
    pf_algo algo;
    uint32_t n;
    const uint32_t *qs; /* [2n] */
    double *cost;       /* [n] */
    uint32_t *hash;     /* [n] path fingerprint */
    int ok;
} job;

static void *run_job(void *arg)
{
    job *j = arg;
    pf_ctx *c;
    if (pf_ctx_create(j->map, NULL, &c) != PF_OK) return NULL;
    if (j->table && pf_ctx_use_jps_table(c, j->table) != PF_OK) {
        pf_ctx_destroy(c);
        return NULL;
    }
    uint32_t *cells = malloc(8192 * sizeof *cells);
    for (uint32_t i = 0; i < j->n; i++) {
        pf_path p = {.nodes = cells, .capacity = 8192};
        pf_stats st;
        pf_status r = pf_search(c, j->qs[2 * i], j->qs[2 * i + 1], &(pf_search_desc){.algo = j->algo}, &p, &st);
        j->cost[i] = r == PF_OK ? st.cost : -1.0;
        uint32_t h = 2166136261u;
        for (uint32_t k = 0; k < p.len; k++) h = (h ^ cells[k]) * 16777619u;
        j->hash[i] = h;
    }
    j->ok = pf_ctx_jps_mem_size(c) < (size_t)pf_map_node_count(j->map) * 6 + 8192; /* no private tables */
    free(cells);
    pf_ctx_destroy(c);
    return NULL;
}

static void test_shared_table_threads(void **state)
{
    (void)state;
    /* a 300x300 random grid with walls */
    enum { W = 300, H = 300, N = 60, T = 4 };
    uint8_t *cells = malloc(W * H);
    uint64_t x = 12345;
    for (int i = 0; i < W * H; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        cells[i] = ((x >> 40) % 100) < 25 ? 0 : 1;
    }
    for (int y = 0; y < H; y++) cells[y * W + 150] = (y % 37) ? 0 : 1;
    pf_map *m;
    assert_int_equal(pf_grid_create(&(pf_grid_desc){.width = W, .height = H, .cells = cells}, &m), PF_OK);
    free(cells);
    pf_jps_table *t;
    assert_int_equal(pf_jps_table_create(m, &(pf_jps_desc){.threads = 2}, &t), PF_OK);
    assert_true(pf_jps_table_mem_size(t) >= (size_t)W * H * 16);
    /* the same table from one thread: identical bytes (thread count does not matter) */
    pf_jps_table *t1;
    assert_int_equal(pf_jps_table_create(m, &(pf_jps_desc){.threads = 1}, &t1), PF_OK);
    assert_int_equal(pf_jps_table_mem_size(t1), pf_jps_table_mem_size(t));

    uint32_t qs[2 * N];
    for (int i = 0; i < 2 * N; i++) {
        do {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            qs[i] = (uint32_t)((x >> 33) % (W * H));
        } while (!pf_grid_class(m, (int32_t)(qs[i] % W), (int32_t)(qs[i] / W)));
    }
    for (int a = 0; a < 2; a++) {
        pf_algo algo = a ? PF_ALGO_JPS_PLUS : PF_ALGO_JPS;
        double ref_cost[N];
        uint32_t ref_hash[N];
        job ref = {m, NULL, algo, N, qs, ref_cost, ref_hash, 0};
        run_job(&ref); /* private data, serial */
        double cost[T][N];
        uint32_t hash[T][N];
        job jobs[T];
        pthread_t th[T];
        for (int i = 0; i < T; i++) {
            jobs[i] = (job){m, (i & 1) ? t1 : t, algo, N, qs, cost[i], hash[i], 0};
            assert_int_equal(pthread_create(&th[i], NULL, run_job, &jobs[i]), 0);
        }
        for (int i = 0; i < T; i++) pthread_join(th[i], NULL);
        for (int i = 0; i < T; i++) {
            assert_true(jobs[i].ok);
            assert_memory_equal(cost[i], ref_cost, sizeof ref_cost);
            assert_memory_equal(hash[i], ref_hash, sizeof ref_hash);
        }
        for (int q = 0; q < N; q++) {
            double want = oracle_cost(m, qs[2 * q], qs[2 * q + 1]);
            assert_true(isinf(want) ? ref_cost[q] < 0 : fabs(ref_cost[q] - want) < 1e-6);
        }
    }
    /* a table belongs to its map */
    pf_map *other;
    assert_int_equal(pf_grid_create(&(pf_grid_desc){.width = 8, .height = 8}, &other), PF_OK);
    pf_ctx *c;
    assert_int_equal(pf_ctx_create(other, NULL, &c), PF_OK);
    assert_int_equal(pf_ctx_use_jps_table(c, t), PF_WRONG_MAP);
    assert_int_equal(pf_ctx_use_jps_table(c, NULL), PF_OK);
    assert_int_equal(pf_ctx_use_jps_table(NULL, t), PF_INVALID_ARGUMENT);
    pf_jps_table *tn = (pf_jps_table *)1;
    assert_int_equal(pf_jps_table_create(NULL, NULL, &tn), PF_INVALID_ARGUMENT);
    assert_null(tn);
    assert_int_equal(pf_jps_table_create(m, NULL, NULL), PF_INVALID_ARGUMENT);
    /* a bitmaps-only table serves JPS; JPS+ then builds the distances privately */
    pf_jps_table *tb;
    assert_int_equal(pf_jps_table_create(other, &(pf_jps_desc){.bitmaps_only = 1}, &tb), PF_OK);
    assert_int_equal(pf_ctx_use_jps_table(c, tb), PF_OK);
    pf_stats st;
    assert_int_equal(pf_search(c, 0, 63, &(pf_search_desc){.algo = PF_ALGO_JPS}, NULL, &st), PF_OK);
    assert_true(fabs(st.cost - 7.0 * sqrt(2.0)) < 1e-9);
    size_t before = pf_ctx_jps_mem_size(c);
    assert_int_equal(pf_search(c, 0, 63, &(pf_search_desc){.algo = PF_ALGO_JPS_PLUS}, NULL, &st), PF_OK);
    assert_true(pf_ctx_jps_mem_size(c) >= before + 64 * 16);
    assert_true(fabs(st.cost - 7.0 * sqrt(2.0)) < 1e-9);
    pf_ctx_destroy(c);
    pf_jps_table_destroy(tb);
    pf_jps_table_destroy(t);
    pf_jps_table_destroy(t1);
    pf_jps_table_destroy(NULL);
    pf_map_destroy(other);
    pf_map_destroy(m);
}

/* ---- allocation failure ------------------------------------------------------------------ */

/* AUTO without an accelerator picks the same search on every context: JPS+ only with a table of
 * distances attached, never with distances a context built for itself by an earlier JPS+ query
 * (a batch's workers answered one query by JPS+ on one and JPS on another, whichever had run a
 * JPS+ query: other expansions, another run under a budget; a review). */
static void test_auto_pick_has_no_past(void **state)
{
    (void)state;
    pf_map *m = grid_walled_40();
    pf_ctx *fresh, *used;
    assert_int_equal(pf_ctx_create(m, NULL, &fresh), PF_OK);
    assert_int_equal(pf_ctx_create(m, NULL, &used), PF_OK);
    const uint32_t s = pf_grid_node(m, 2, 2), g = pf_grid_node(m, 3, 37);
    pf_stats a, b;
    assert_int_equal(pf_search(used, s, g, &(pf_search_desc){.algo = PF_ALGO_JPS_PLUS}, NULL, &a), PF_OK);
    assert_int_equal(a.algo, PF_ALGO_JPS_PLUS);
    const pf_search_desc ad = {.algo = PF_ALGO_AUTO};
    assert_int_equal(pf_search(fresh, s, g, &ad, NULL, &a), PF_OK);
    assert_int_equal(pf_search(used, s, g, &ad, NULL, &b), PF_OK);
    assert_int_equal(a.algo, b.algo);
    assert_int_equal(a.algo, PF_ALGO_JPS);
    assert_int_equal(a.expanded, b.expanded);
    assert_true(a.cost == b.cost);
    /* a table with distances attached: JPS+ on both */
    pf_jps_table *t;
    assert_int_equal(pf_jps_table_create(m, NULL, &t), PF_OK);
    assert_int_equal(pf_ctx_use_jps_table(fresh, t), PF_OK);
    assert_int_equal(pf_ctx_use_jps_table(used, t), PF_OK);
    assert_int_equal(pf_search(fresh, s, g, &ad, NULL, &a), PF_OK);
    assert_int_equal(pf_search(used, s, g, &ad, NULL, &b), PF_OK);
    assert_int_equal(a.algo, PF_ALGO_JPS_PLUS);
    assert_int_equal(b.algo, PF_ALGO_JPS_PLUS);
    assert_int_equal(a.expanded, b.expanded);
    pf_ctx_destroy(fresh);
    pf_ctx_destroy(used);
    pf_jps_table_destroy(t);
    pf_map_destroy(m);
}

static void test_allocation_failure(void **state)
{
    (void)state;
    pf_map *m = LOAD(PF_MOVES_8_NO_CUT);
    uint32_t s = 0, g = pf_grid_node(m, 23, 11);
    double want = oracle_cost(m, s, g);
    int saw_oom = 0, saw_ok = 0;
    for (int budget = 0; budget < 16; budget++) {
        test_tracker f = {.countdown = budget};
        pf_allocator a = {test_track_alloc, test_track_free, &f};
        pf_ctx *c;
        if (pf_ctx_create(m, &(pf_ctx_desc){.allocator = a}, &c) == PF_OK) {
            for (int alg = 0; alg < 2; alg++) {
                pf_stats st;
                pf_status r = pf_search(c, s, g, &(pf_search_desc){.algo = alg ? PF_ALGO_JPS_PLUS : PF_ALGO_JPS},
                                        NULL, &st);
                if (r == PF_OUT_OF_MEMORY) saw_oom = 1;
                else {
                    assert_int_equal(r, PF_OK);
                    assert_true(fabs(st.cost - want) < 1e-9);
                    saw_ok = 1;
                }
            }
            pf_ctx_destroy(c);
        }
        assert_int_equal(f.live, 0);
        test_tracker ft = {.countdown = budget};
        pf_jps_table *t;
        pf_status r = pf_jps_table_create(m, &(pf_jps_desc){.allocator = {test_track_alloc, test_track_free, &ft}}, &t);
        assert_true(r == PF_OK || r == PF_OUT_OF_MEMORY);
        pf_jps_table_destroy(r == PF_OK ? t : NULL);
        assert_int_equal(ft.live, 0);
    }
    assert_true(saw_oom && saw_ok);
    pf_map_destroy(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_all_pairs_both_rules), cmocka_unit_test(test_fallback_where_unsupported),
        cmocka_unit_test(test_edge_cases),           cmocka_unit_test(test_sliced_and_wrap),
        cmocka_unit_test(test_shared_table_threads), cmocka_unit_test(test_allocation_failure),
        cmocka_unit_test(test_auto_pick_has_no_past),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
