/* test_accel.c - the accelerator's API: creation and what it refuses, PF_ALGO_AUTO's choices and
 * fallbacks, baked files (round trip, and every kind of bad file refused with a message), the
 * context hooks, waypoints, and allocation failures. Answers are checked against the oracle. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define XXH_INLINE_ALL
#include <xxhash.h>
#include "pathfind.h"
#include "testutil.h"
#include "oracle.h"
#include "maps.h"
#include "accel/accel_internal.h"

/* Rooms of 9x9 joined by doors, some water, a few pillars: subgoals, shortcuts and a core. */
static pf_map *rooms_map(uint32_t w, uint32_t h, pf_moves mv, int weighted)
{
    uint8_t *c = malloc((size_t)w * h);
    float *cost = weighted ? malloc((size_t)w * h * sizeof *cost) : NULL;
    uint64_t rs = 5;
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            uint8_t v = (x % 10 == 0 || y % 10 == 0) ? 0 : 1;
            if ((x % 10 == 5 && y % 10 == 0) || (y % 10 == 5 && x % 10 == 0)) v = 1; /* doors */
            if (v && rng_below(&rs, 40) == 0) v = 0;                                 /* pillars */
            if (v && x > w / 2 && y > h / 2 && x < w / 2 + 8 && y < h / 2 + 8) v = 2; /* a pond */
            c[y * w + x] = v;
            if (cost) cost[y * w + x] = 1.0f + (float)(x % 3);
        }
    pf_map *m = grid_make(w, h, mv, c, cost);
    free(c);
    free(cost);
    return m;
}

static void pick(const pf_map *m, uint64_t *rs, uint32_t *s, uint32_t *g)
{
    uint32_t w = pf_grid_width(m), h = pf_grid_height(m);
    do *s = pf_grid_node(m, (int32_t)rng_below(rs, w), (int32_t)rng_below(rs, h));
    while (!pf_grid_class(m, (int32_t)(*s % w), (int32_t)(*s / w)));
    do *g = pf_grid_node(m, (int32_t)rng_below(rs, w), (int32_t)rng_below(rs, h));
    while (!pf_grid_class(m, (int32_t)(*g % w), (int32_t)(*g / w)));
}

/* AUTO's answers on ctx agree with the oracle on n random queries. */
static void agree(pf_ctx *c, const pf_map *m, int n, uint64_t seed)
{
    uint32_t cap = pf_map_node_count(m), *cells = malloc(cap * sizeof *cells);
    uint64_t rs = seed;
    for (int i = 0; i < n; i++) {
        uint32_t s, g;
        pick(m, &rs, &s, &g);
        double want = oracle_cost(m, s, g);
        pf_path p = {.nodes = cells, .capacity = cap};
        pf_stats st;
        pf_status r = pf_search(c, s, g, &(pf_search_desc){.algo = PF_ALGO_AUTO}, &p, &st);
        if (isinf(want)) {
            assert_int_equal(r, PF_NO_PATH);
            continue;
        }
        assert_int_equal(r, PF_OK);
        assert_true(close_to(st.cost, want));
        assert_true(cells[0] == s && cells[p.len - 1] == g);
        assert_true(close_to(oracle_path_cost(m, cells, p.len), want));
    }
    free(cells);
}

static void test_create_and_refuse(void **state)
{
    (void)state;
    pf_accel *a = (pf_accel *)1;
    assert_int_equal(pf_accel_create(NULL, NULL, &a), PF_INVALID_ARGUMENT);
    assert_null(a);
    pf_map *m = rooms_map(64, 48, PF_MOVES_8_NO_CUT, 0);
    assert_int_equal(pf_accel_create(m, NULL, NULL), PF_INVALID_ARGUMENT);
    assert_true(pf_accel_supported(m));
    assert_int_equal(pf_accel_create(m, NULL, &a), PF_OK);
    pf_accel_info i = pf_accel_get_info(a);
    assert_true(i.subgoals > 0 && i.arcs > 0 && i.bytes == pf_accel_mem_size(a));
    assert_true(i.bytes_per_cell > 0 && i.bytes_per_cell < 64);
    pf_accel_destroy(a);
    pf_accel_destroy(NULL);
    pf_map_destroy(m);
    /* corner cutting, 4-connected, hex, weighted grids and graphs: unsupported */
    static const pf_moves other[] = {PF_MOVES_8_CUT, PF_MOVES_4, PF_MOVES_HEX};
    for (int k = 0; k < 3; k++) {
        m = rooms_map(30, 30, other[k], 0);
        assert_false(pf_accel_supported(m));
        assert_int_equal(pf_accel_create(m, NULL, &a), PF_UNSUPPORTED);
        assert_null(a);
        pf_map_destroy(m);
    }
    m = rooms_map(30, 30, PF_MOVES_8_NO_CUT, 1);
    assert_int_equal(pf_accel_create(m, NULL, &a), PF_UNSUPPORTED);
    pf_map_destroy(m);
    pf_edge e[] = {{0, 1, 1.0}};
    assert_int_equal(pf_graph_create(&(pf_graph_desc){.node_count = 2, .edge_count = 1, .edges = e}, &m), PF_OK);
    assert_false(pf_accel_supported(m));
    assert_int_equal(pf_accel_create(m, NULL, &a), PF_UNSUPPORTED);
    pf_map_destroy(m);
}

/* AUTO without an accelerator, on maps the accelerator does not support, and on short queries:
 * always exact, never a fallback (PF_DETAIL_FALLBACK). */
static void test_auto_fallbacks(void **state)
{
    (void)state;
    static const pf_moves mv[] = {PF_MOVES_8_NO_CUT, PF_MOVES_8_CUT, PF_MOVES_4, PF_MOVES_HEX};
    for (int k = 0; k < 4; k++)
        for (int wt = 0; wt < 2; wt++) {
            pf_map *m = rooms_map(70, 50, mv[k], wt);
            pf_ctx *c;
            assert_int_equal(pf_ctx_create(m, NULL, &c), PF_OK);
            agree(c, m, 30, 11u + (uint64_t)k);
            pf_ctx_destroy(c);
            pf_map_destroy(m);
        }
    /* with a JPS+ table attached AUTO reads it */
    pf_map *m = rooms_map(70, 50, PF_MOVES_8_NO_CUT, 0);
    pf_jps_table *t;
    assert_int_equal(pf_jps_table_create(m, NULL, &t), PF_OK);
    pf_ctx *c;
    assert_int_equal(pf_ctx_create(m, NULL, &c), PF_OK);
    assert_int_equal(pf_ctx_use_jps_table(c, t), PF_OK);
    agree(c, m, 30, 3);
    pf_ctx_destroy(c);
    pf_jps_table_destroy(t);
    pf_map_destroy(m);
}

static void test_auto_with_accel(void **state)
{
    (void)state;
    pf_map *m = rooms_map(120, 90, PF_MOVES_8_NO_CUT, 0);
    pf_accel *a;
    assert_int_equal(pf_accel_create(m, NULL, &a), PF_OK);
    pf_ctx *c;
    assert_int_equal(pf_ctx_create(m, NULL, &c), PF_OK);
    assert_int_equal(pf_ctx_use_accel(c, a), PF_OK);
    assert_true(pf_ctx_accel_mem_size(c) > 0);
    agree(c, m, 200, 17);
    /* a long query is answered by the accelerator: few settled nodes, not a grid search */
    uint32_t s = pf_grid_node(m, 1, 1), g = pf_grid_node(m, 118, 88);
    pf_stats st;
    assert_int_equal(pf_search(c, s, g, &(pf_search_desc){.algo = PF_ALGO_AUTO}, NULL, &st), PF_OK);
    assert_true(close_to(st.cost, oracle_cost(m, s, g)));
    assert_true(pf_ctx_cost(c, g) == st.cost);
    /* limits: a cost bound below the answer, a tiny expansion budget */
    assert_int_equal(pf_search(c, s, g, &(pf_search_desc){.algo = PF_ALGO_AUTO, .max_cost = st.cost - 1}, NULL, NULL),
                     PF_LIMIT_REACHED);
    assert_int_equal(pf_search(c, s, g, &(pf_search_desc){.algo = PF_ALGO_AUTO, .max_expansions = 1}, NULL, NULL),
                     PF_LIMIT_REACHED);
    /* a path too long for the buffer: the length needed, then the path on a second read */
    uint32_t small[4];
    pf_path p = {.nodes = small, .capacity = 4};
    assert_int_equal(pf_search(c, s, g, &(pf_search_desc){.algo = PF_ALGO_AUTO}, &p, &st), PF_BUFFER_TOO_SMALL);
    uint32_t *big = malloc(p.len * sizeof *big);
    pf_path q = {.nodes = big, .capacity = p.len};
    assert_int_equal(pf_search_path(c, &q, NULL), PF_OK);
    assert_int_equal(q.len, p.len);
    assert_true(close_to(oracle_path_cost(m, big, q.len), st.cost));
    free(big);
    /* how each was answered: a short move by A*, a unit of size 2 by A* (a fallback: the hierarchy
     * knows one-cell units), a partial query toward a wall by A* */
    uint32_t n1 = pf_grid_node(m, 3, 1);
    assert_int_equal(pf_search(c, s, n1, &(pf_search_desc){.algo = PF_ALGO_AUTO}, NULL, &st), PF_OK);
    assert_int_equal(st.algo, PF_ALGO_ASTAR);
    assert_int_equal(st.detail, PF_DETAIL_SHORT);
    pf_stats sz;
    pf_status rz = pf_search(c, s, g, &(pf_search_desc){.algo = PF_ALGO_AUTO, .unit_size = 2}, NULL, &sz);
    if (rz == PF_OK) {
        assert_int_equal(sz.algo, PF_ALGO_ASTAR);
        assert_true(sz.detail & PF_DETAIL_FALLBACK);
    }
    assert_int_equal(pf_search(c, s, g, &(pf_search_desc){.algo = PF_ALGO_AUTO}, NULL, &st), PF_OK);
    /* sliced: begin, then steps of one unit until it answers, the same (test_accel_slices has more) */
    assert_int_equal(pf_search_begin(c, s, g, &(pf_search_desc){.algo = PF_ALGO_AUTO}), PF_IN_PROGRESS);
    pf_status sr;
    uint32_t nsteps = 0;
    while ((sr = pf_search_step(c, 1)) == PF_IN_PROGRESS) nsteps++;
    assert_int_equal(sr, PF_OK);
    assert_true(nsteps > 1);
    pf_stats sl;
    assert_int_equal(pf_search_path(c, NULL, &sl), PF_OK);
    assert_true(sl.cost == st.cost && sl.expanded == st.expanded && sl.path_len == st.path_len);
    /* detached: JPS answers, the same cost */
    assert_int_equal(pf_ctx_use_accel(c, NULL), PF_OK);
    pf_stats st2;
    assert_int_equal(pf_search(c, s, g, &(pf_search_desc){.algo = PF_ALGO_AUTO}, NULL, &st2), PF_OK);
    assert_true(close_to(st2.cost, st.cost));
    pf_ctx_destroy(c);
    /* another map's accelerator is refused */
    pf_map *m2 = rooms_map(120, 90, PF_MOVES_8_NO_CUT, 0);
    assert_int_equal(pf_ctx_create(m2, NULL, &c), PF_OK);
    assert_int_equal(pf_ctx_use_accel(c, a), PF_WRONG_MAP);
    assert_int_equal(pf_ctx_use_accel(NULL, a), PF_INVALID_ARGUMENT);
    pf_ctx_destroy(c);
    /* attached at creation, as a JPS table is: the same answer, by the accelerator; refused for
     * another map and by a static context (its query state grows) */
    assert_int_equal(pf_ctx_create(m2, &(pf_ctx_desc){.accel = a}, &c), PF_WRONG_MAP);
    assert_null(c);
    assert_int_equal(pf_ctx_create(m, &(pf_ctx_desc){.accel = a}, &c), PF_OK);
    assert_int_equal(pf_search(c, s, g, &(pf_search_desc){.algo = PF_ALGO_AUTO}, NULL, &st2), PF_OK);
    assert_int_equal(st2.algo, PF_ALGO_AUTO);
    assert_true(st2.detail & PF_DETAIL_ACCEL);
    assert_true(close_to(st2.cost, st.cost));
    pf_ctx_destroy(c);
    size_t need = pf_ctx_estimate(m, NULL);
    void *mem = malloc(need);
    assert_non_null(mem);
    assert_int_equal(pf_ctx_init_static(mem, need, m, &(pf_ctx_desc){.accel = a}, &c), PF_UNSUPPORTED);
    /* attached afterwards, the same answer (it was PF_OUT_OF_MEMORY: nothing is allocated there) */
    assert_int_equal(pf_ctx_init_static(mem, need, m, NULL, &c), PF_OK);
    assert_int_equal(pf_ctx_use_accel(c, a), PF_UNSUPPORTED);
    assert_int_equal(pf_ctx_use_accel(c, NULL), PF_OK);
    pf_ctx_destroy(c); /* the memory stays the caller's */
    free(mem);
    pf_map_destroy(m2);
    pf_accel_destroy(a);
    pf_map_destroy(m);
}

/* Paths are written from the shortcuts' halves as the unpack index (acc->down, acc->halves) places
 * them, or, where it holds none, by a scan of the middle's list: both give the same cells. On this map every
 * shortcut's halves are indexed; with the index cleared the scan writes every one. */
static void test_unpack_index(void **state)
{
    (void)state;
    pf_map *m = rooms_map(120, 90, PF_MOVES_8_NO_CUT, 0);
    pf_accel *a;
    assert_int_equal(pf_accel_create(m, NULL, &a), PF_OK);
    uint32_t shortcuts = 0;
    for (uint32_t i = 0; i < a->narcs; i++) {
        if (a->arcs[i].mid >= PF__ACCEL_FROM_DST) {
            assert_int_equal(a->down[i], PF__ACCEL_DOWN_NONE);
            continue;
        }
        shortcuts++;
        assert_int_not_equal(a->down[i], PF__ACCEL_DOWN_NONE);
        /* the halves: mid -> one end and mid -> the other, in mid's list */
        uint32_t k0 = a->down[i] & PF__ACCEL_DOWN_MASK, k1 = k0 + (a->down[i] >> PF__ACCEL_DOWN_SHIFT) - 128u;
        uint32_t v = a->arcs[i].mid;
        assert_true(k0 >= a->first[v] && k0 < a->first[v + 1] && k1 >= a->first[v] && k1 < a->first[v + 1]);
        assert_int_equal(a->arcs[k1].to, a->arcs[i].to);
        assert_int_equal(a->arcs[k0].a + a->arcs[k1].a, a->arcs[i].a);
        assert_int_equal(a->arcs[k0].b + a->arcs[k1].b, a->arcs[i].b);
        /* each half's bits: an arc of the subgoal graph, and which way its canonical path is legal */
        for (int h = 0; h < 2; h++) {
            uint32_t mid = a->arcs[h ? k1 : k0].mid, bits = (uint32_t)a->halves[i] >> (2 * h) & 3u;
            assert_int_equal(bits & PF__ACCEL_HALF_GRAPH, mid >= PF__ACCEL_FROM_DST ? PF__ACCEL_HALF_GRAPH : 0u);
            assert_int_equal(bits & PF__ACCEL_HALF_SRC, mid == PF__ACCEL_FROM_SRC ? PF__ACCEL_HALF_SRC : 0u);
        }
    }
    assert_true(shortcuts > 0);
    assert_int_equal(shortcuts, pf_accel_get_info(a).shortcuts);
    pf_ctx *c;
    assert_int_equal(pf_ctx_create(m, NULL, &c), PF_OK);
    assert_int_equal(pf_ctx_use_accel(c, a), PF_OK);
    enum { N = 60 };
    uint32_t cap = pf_map_node_count(m), *cells = malloc(cap * sizeof *cells), *want[N], wlen[N], s[N], g[N];
    uint64_t rs = 41;
    uint32_t by_accel = 0;
    for (int i = 0; i < N; i++) {
        pick(m, &rs, &s[i], &g[i]);
        pf_path p = {.nodes = cells, .capacity = cap};
        pf_stats st;
        pf_status r = pf_search(c, s[i], g[i], &(pf_search_desc){.algo = PF_ALGO_AUTO}, &p, &st);
        wlen[i] = r == PF_OK ? p.len : 0;
        want[i] = malloc((wlen[i] + 1u) * sizeof **want);
        memcpy(want[i], cells, wlen[i] * sizeof *cells);
        by_accel += r == PF_OK && st.algo == PF_ALGO_AUTO;
    }
    assert_true(by_accel > N / 2);
    for (uint32_t i = 0; i < a->narcs; i++) a->down[i] = PF__ACCEL_DOWN_NONE;
    for (int i = 0; i < N; i++) {
        pf_path p = {.nodes = cells, .capacity = cap};
        pf_status r = pf_search(c, s[i], g[i], &(pf_search_desc){.algo = PF_ALGO_AUTO}, &p, NULL);
        assert_int_equal(r == PF_OK ? p.len : 0, wlen[i]);
        assert_memory_equal(cells, want[i], wlen[i] * sizeof *cells);
        free(want[i]);
    }
    free(cells);
    pf_ctx_destroy(c);
    pf_accel_destroy(a);
    pf_map_destroy(m);
}

/* The scans by the walks' table (accel_jumps.c) list the seeds of a cell as the walking scans do,
 * in the same order: on the rooms (pillars, a pond of another class) and on an open map whose
 * walks run past 127 steps (the table's longest entry); and canonical paths are legal by it where
 * they are by walking. Then AUTO's paths on a map without a core
 * (where queries use the table) are the same cells with the table and without it. */
static void test_jump_scans(void **state)
{
    (void)state;
    uint32_t ow = 400, oh = 300;
    uint8_t *cells = malloc((size_t)ow * oh);
    uint64_t rs = 9;
    for (uint32_t i = 0; i < ow * oh; i++) cells[i] = rng_below(&rs, 900) == 0 ? 0 : (i % ow < 200 ? 1 : 3);
    pf_map *maps[2] = {rooms_map(120, 90, PF_MOVES_8_NO_CUT, 0), grid_make(ow, oh, PF_MOVES_8_NO_CUT, cells, NULL)};
    free(cells);
    enum { CAP = 4096 };
    pf__accel_seed *a = malloc(CAP * sizeof *a), *b = malloc(CAP * sizeof *b);
    uint32_t long_walks = 0;
    pf_accel *acc = NULL;
    for (int k = 0; k < 2; k++) {
        assert_int_equal(pf_accel_create(maps[k], NULL, &acc), PF_OK);
        assert_int_equal(pf__accel_jumps_make(acc), 1);
        const pf__grid_view v = pf__accel_prep_view(acc, maps[k]);
        uint32_t seeds = 0;
        /* every cell of the rooms; on the open map, whose scans sweep thousands of cells each, one
         * in 97 (the test stays seconds, not minutes, under the sanitizers) */
        for (uint32_t c = 0; c < acc->cells; c += k ? 97u : 1u) {
            if (!v.cls[c] || acc->sub[c]) continue;
            for (int fwd = 0; fwd < 2; fwd++) {
                uint32_t n = fwd ? pf__accel_scan_fwd(&v, acc->sub, c, a, CAP) : pf__accel_scan_bwd(&v, acc->sub, c, a, CAP);
                uint32_t m = fwd ? pf__accel_jump_fwd(acc, c, b, CAP) : pf__accel_jump_bwd(acc, c, b, CAP);
                assert_int_equal(m, n);
                assert_true(n <= CAP);
                assert_memory_equal(a, b, n * sizeof *a);
                /* with too little room: the count all the same, the first ones written */
                uint32_t few = fwd ? pf__accel_jump_fwd(acc, c, b, 1) : pf__accel_jump_bwd(acc, c, b, 1);
                assert_int_equal(few, n);
                if (n) assert_memory_equal(a, b, sizeof *a);
                seeds += n;
                for (uint32_t i = 0; i < n; i++) long_walks += a[i].a > 127 || a[i].b > 127;
            }
        }
        assert_true(seeds > 0);
        /* canonical paths between random cells, legal or not, long ones among them */
        uint32_t legal = 0;
        for (int i = 0; i < 20000; i++) {
            uint32_t f = (uint32_t)rng_below(&rs, acc->cells), t = (uint32_t)rng_below(&rs, acc->cells);
            if (!v.cls[f]) continue;
            uint32_t a1 = 0, b1 = 0, a2 = 0, b2 = 0;
            int l1 = pf__accel_cp_legal(&v, f, t, &a1, &b1), l2 = pf__accel_jump_cp_legal(acc, f, t, &a2, &b2);
            assert_int_equal(l1, l2);
            assert_true(a1 == a2 && b1 == b2);
            legal += (uint32_t)l1;
        }
        assert_true(legal > 100);
        if (k == 0) pf_accel_destroy(acc);
    }
    assert_true(long_walks > 0);
    /* the open map's hierarchy has no core: its queries scan by the table (the one its creation
     * made; pf__accel_jumps_make above made the same) */
    assert_int_equal(acc->core, 0);
    assert_non_null(acc->jump);
    pf_ctx *c;
    assert_int_equal(pf_ctx_create(maps[1], NULL, &c), PF_OK);
    assert_int_equal(pf_ctx_use_accel(c, acc), PF_OK);
    enum { N = 40 };
    uint32_t cap = pf_map_node_count(maps[1]), *p1 = malloc(cap * sizeof *p1), *p2 = malloc(cap * sizeof *p2);
    uint32_t by_accel = 0;
    for (int i = 0; i < N; i++) {
        uint32_t s, g;
        do pick(maps[1], &rs, &s, &g); /* mostly in one class: the accelerator answers */
        while (i % 4 && pf_grid_class(maps[1], (int32_t)(s % ow), (int32_t)(s / ow)) !=
                            pf_grid_class(maps[1], (int32_t)(g % ow), (int32_t)(g / ow)));
        pf_path q1 = {.nodes = p1, .capacity = cap}, q2 = {.nodes = p2, .capacity = cap};
        pf_stats st;
        pf_status r1 = pf_search(c, s, g, &(pf_search_desc){.algo = PF_ALGO_AUTO}, &q1, &st);
        by_accel += r1 == PF_OK && st.algo == PF_ALGO_AUTO;
        uint8_t *jump = acc->jump;
        acc->jump = NULL;
        pf_status r2 = pf_search(c, s, g, &(pf_search_desc){.algo = PF_ALGO_AUTO}, &q2, NULL);
        acc->jump = jump;
        assert_int_equal(r1, r2);
        const double want = oracle_cost(maps[1], s, g); /* two classes: some pairs are apart */
        assert_int_equal(r1, isinf(want) ? PF_NO_PATH : PF_OK);
        if (r1 == PF_OK) assert_true(close_to(st.cost, want));
        assert_int_equal(q1.len, q2.len);
        assert_memory_equal(p1, p2, q1.len * sizeof *p1);
    }
    assert_true(by_accel > N / 2);
    free(p1);
    free(p2);
    pf_ctx_destroy(c);
    pf_accel_destroy(acc);
    free(a);
    free(b);
    pf_map_destroy(maps[0]);
    pf_map_destroy(maps[1]);
}

/* Map edits: an accelerator built before an edit is not used after it (the map's fingerprint
 * changed): AUTO answers by JPS, exactly, until an accelerator is built for the edited map. */
static void test_auto_after_edits(void **state)
{
    (void)state;
    pf_map *m = rooms_map(120, 90, PF_MOVES_8_NO_CUT, 0);
    pf_accel *a;
    assert_int_equal(pf_accel_create(m, NULL, &a), PF_OK);
    pf_ctx *c;
    assert_int_equal(pf_ctx_create(m, NULL, &c), PF_OK);
    assert_int_equal(pf_ctx_use_accel(c, a), PF_OK);
    uint32_t s = pf_grid_node(m, 1, 1), g = pf_grid_node(m, 118, 88);
    pf_stats before;
    assert_int_equal(pf_search(c, s, g, &(pf_search_desc){.algo = PF_ALGO_AUTO}, NULL, &before), PF_OK);
    assert_int_equal(before.algo, PF_ALGO_AUTO); /* the result says who answered */
    assert_int_equal(before.detail, PF_DETAIL_ACCEL);
    /* wall up every door of the column x = 50 but one, and a block in the middle */
    pf_grid_edit ed[2] = {{.rect = {50, 0, 1, 70}, .cls = 0}, {.rect = {55, 40, 12, 6}, .cls = 0}};
    assert_int_equal(pf_grid_apply_edits(m, ed, 2, NULL), PF_OK);
    pf_stats after, jps;
    assert_int_equal(pf_search(c, s, g, &(pf_search_desc){.algo = PF_ALGO_AUTO}, NULL, &after), PF_OK);
    assert_true(close_to(after.cost, oracle_cost(m, s, g)));
    assert_true(after.cost > before.cost); /* the edit lengthened it: the old hierarchy would be wrong */
    assert_int_equal(pf_search(c, s, g, &(pf_search_desc){.algo = PF_ALGO_JPS}, NULL, &jps), PF_OK);
    assert_int_equal(after.expanded, jps.expanded); /* JPS answered, not the stale accelerator */
    assert_int_equal(after.algo, PF_ALGO_JPS);         /* and says so: never a silent fallback */
    assert_int_equal(after.detail, PF_DETAIL_ACCEL_STALE);
    agree(c, m, 150, 23);
    /* rebuilt for the edited map, it answers again */
    pf_accel *b;
    assert_int_equal(pf_accel_create(m, NULL, &b), PF_OK);
    assert_int_equal(pf_ctx_use_accel(c, b), PF_OK);
    assert_int_equal(pf_ctx_use_accel(c, a), PF_WRONG_MAP); /* the stale one is refused */
    pf_stats rebuilt;
    assert_int_equal(pf_search(c, s, g, &(pf_search_desc){.algo = PF_ALGO_AUTO}, NULL, &rebuilt), PF_OK);
    assert_true(close_to(rebuilt.cost, after.cost));
    assert_true(rebuilt.expanded != jps.expanded);
    assert_int_equal(rebuilt.detail, PF_DETAIL_ACCEL);
    agree(c, m, 150, 29);
    pf_ctx_destroy(c);
    pf_accel_destroy(b);
    pf_accel_destroy(a);
    pf_map_destroy(m);
}

/* Rows of walls 3 apart, each with one gap at alternating ends: cells a few steps apart across a
 * wall are a whole row apart by path, as in a maze. */
static pf_map *comb_map(uint32_t w, uint32_t h)
{
    uint8_t *c = malloc((size_t)w * h);
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            int wall = y % 4 == 3 && (y / 4 % 2 ? x != 0 : x != w - 1);
            c[y * w + x] = wall ? 0 : 1;
        }
    pf_map *m = grid_make(w, h, PF_MOVES_8_NO_CUT, c, NULL);
    free(c);
    return m;
}

/* A short AUTO move runs A* first and hands over to the accelerator once A* has expanded 64 nodes
 * per octile step (16 on a map dense in subgoals) without reaching the goal: exact either way, the handover said in the stats and
 * its expansions counted; a caller's own limits, or a sliced search, keep their meaning. Short is
 * below 32 octile steps, 64 on a map dense in subgoals, or the desc's short_query. */
static void test_auto_short_hands_over(void **state)
{
    (void)state;
    pf_map *m = comb_map(60, 64);
    pf_accel *a;
    assert_int_equal(pf_accel_create(m, NULL, &a), PF_OK);
    pf_ctx *c;
    assert_int_equal(pf_ctx_create(m, NULL, &c), PF_OK);
    assert_int_equal(pf_ctx_use_accel(c, a), PF_OK);
    uint32_t cap = pf_map_node_count(m), *cells = malloc(cap * sizeof *cells);
    /* across the wall of row 7 (gap at x = 0): 2 octile steps apart, about 110 by path */
    uint32_t s = pf_grid_node(m, 50, 6), g = pf_grid_node(m, 50, 8);
    double want = oracle_cost(m, s, g);
    assert_true(want > 100.0);
    pf_path p = {.nodes = cells, .capacity = cap};
    pf_stats st, as;
    assert_int_equal(pf_search(c, s, g, &(pf_search_desc){.algo = PF_ALGO_AUTO}, &p, &st), PF_OK);
    assert_int_equal(st.algo, PF_ALGO_AUTO);
    assert_int_equal(st.detail, PF_DETAIL_SHORT | PF_DETAIL_ACCEL);
    assert_true(close_to(st.cost, want));
    assert_true(cells[0] == s && cells[p.len - 1] == g);
    assert_true(close_to(oracle_path_cost(m, cells, p.len), want));
    assert_true(close_to(pf_ctx_cost(c, g), want));
    /* A*'s expansions, up to its cap (64 a step: 129), are counted with the accelerator's, and a
     * trace holds both: A*'s nodes, then those of the accelerator alone (short_query 1) */
    uint32_t *tn = malloc(cap * sizeof *tn);
    pf_trace tr = {.nodes = tn, .capacity = cap}, tr1 = tr;
    pf_ctx_use_trace(c, &tr);
    assert_int_equal(pf_search(c, s, g, &(pf_search_desc){.algo = PF_ALGO_AUTO}, NULL, &as), PF_OK);
    pf_ctx_use_trace(c, NULL);
    assert_int_equal(as.expanded, st.expanded);
    pf_accel *a1;
    pf_ctx *c1;
    pf_stats s1;
    assert_int_equal(pf_accel_create(m, &(pf_accel_desc){.short_query = 1}, &a1), PF_OK);
    assert_int_equal(pf_ctx_create(m, NULL, &c1), PF_OK);
    assert_int_equal(pf_ctx_use_accel(c1, a1), PF_OK);
    pf_ctx_use_trace(c1, &tr1);
    assert_int_equal(pf_search(c1, s, g, &(pf_search_desc){.algo = PF_ALGO_AUTO}, NULL, &s1), PF_OK);
    assert_int_equal(s1.detail, PF_DETAIL_ACCEL);
    assert_int_equal(st.expanded, 129u + s1.expanded);
    assert_int_equal(tr.total, 129u + tr1.total);
    assert_int_equal(tr.len, tr.total);
    pf_ctx_destroy(c1);
    pf_accel_destroy(a1);
    free(tn);
    assert_int_equal(pf_search(c, s, g, &(pf_search_desc){.algo = PF_ALGO_ASTAR}, NULL, &as), PF_OK);
    assert_true(as.expanded > st.expanded);
    /* a caller's expansion limit or cost bound: A* to the end, as asked */
    assert_int_equal(pf_search(c, s, g, &(pf_search_desc){.algo = PF_ALGO_AUTO, .max_expansions = 100000}, NULL, &st),
                     PF_OK);
    assert_int_equal(st.algo, PF_ALGO_ASTAR);
    assert_int_equal(st.detail, PF_DETAIL_SHORT);
    assert_int_equal(st.expanded, as.expanded);
    assert_int_equal(pf_search(c, s, g, &(pf_search_desc){.algo = PF_ALGO_AUTO, .max_expansions = 20}, NULL, &st),
                     PF_LIMIT_REACHED);
    assert_int_equal(pf_search(c, s, g, &(pf_search_desc){.algo = PF_ALGO_AUTO, .max_cost = want + 1.0}, NULL, &st),
                     PF_OK);
    assert_int_equal(st.algo, PF_ALGO_ASTAR);
    /* sliced by 20 expansions a step: in progress until the cap, then the accelerator's query, sliced too */
    assert_int_equal(pf_search_begin(c, s, g, &(pf_search_desc){.algo = PF_ALGO_AUTO}), PF_IN_PROGRESS);
    int steps = 0;
    pf_status r;
    while ((r = pf_search_step(c, 20)) == PF_IN_PROGRESS) steps++;
    assert_int_equal(r, PF_OK);
    assert_true(steps >= 6); /* 129 expansions at 20 a step */
    assert_int_equal(pf_search_path(c, NULL, &st), PF_OK);
    assert_int_equal(st.detail, PF_DETAIL_SHORT | PF_DETAIL_ACCEL);
    assert_true(close_to(st.cost, want));
    /* along a row: A* alone, within its cap */
    uint32_t g2 = pf_grid_node(m, 40, 5);
    assert_int_equal(pf_search(c, s, g2, &(pf_search_desc){.algo = PF_ALGO_AUTO}, NULL, &st), PF_OK);
    assert_int_equal(st.algo, PF_ALGO_ASTAR);
    assert_int_equal(st.detail, PF_DETAIL_SHORT);
    /* short moves at random, both ways of answering seen, every one exact */
    uint64_t rs = 41;
    int handed = 0, alone = 0;
    for (int i = 0; i < 300; i++) {
        int32_t x = (int32_t)rng_below(&rs, 60), y = (int32_t)rng_below(&rs, 64);
        int32_t gx = x + (int32_t)rng_below(&rs, 21) - 10, gy = y + (int32_t)rng_below(&rs, 21) - 10;
        if (gx < 0 || gy < 0 || gx >= 60 || gy >= 64 || !pf_grid_class(m, x, y) || !pf_grid_class(m, gx, gy)) continue;
        uint32_t a0 = pf_grid_node(m, x, y), b0 = pf_grid_node(m, gx, gy);
        double w = oracle_cost(m, a0, b0);
        assert_int_equal(pf_search(c, a0, b0, &(pf_search_desc){.algo = PF_ALGO_AUTO}, &p, &st), PF_OK);
        assert_true(close_to(st.cost, w));
        assert_true(close_to(oracle_path_cost(m, cells, p.len), w));
        assert_true(st.detail & PF_DETAIL_SHORT);
        if (st.detail & PF_DETAIL_ACCEL) handed++;
        else alone++;
    }
    assert_true(handed > 10 && alone > 10);
    /* 40 steps is long on this map, whose subgoals are few: the accelerator at once */
    uint32_t far = pf_grid_node(m, 10, 5);
    assert_int_equal(pf_search(c, s, far, &(pf_search_desc){.algo = PF_ALGO_AUTO}, NULL, &st), PF_OK);
    assert_int_equal(st.detail, PF_DETAIL_ACCEL);
    free(cells);
    pf_ctx_destroy(c);
    pf_accel_destroy(a);
    pf_map_destroy(m);
    /* a fifth of the cells blocked at random: a subgoal in most cells' corners, so A* is tried up to
     * 64 steps by default, 32 when the desc says so */
    uint8_t *rc = malloc(100 * 100);
    rs = 7;
    for (int i = 0; i < 100 * 100; i++) rc[i] = rng_below(&rs, 5) ? 1 : 0;
    rc[50 * 100 + 5] = rc[50 * 100 + 50] = 1;
    m = grid_make(100, 100, PF_MOVES_8_NO_CUT, rc, NULL);
    free(rc);
    s = pf_grid_node(m, 5, 50);
    g = pf_grid_node(m, 50, 50);
    want = oracle_cost(m, s, g);
    assert_false(isinf(want));
    pf_accel *dense, *set32;
    assert_int_equal(pf_accel_create(m, NULL, &dense), PF_OK);
    assert_int_equal(pf_accel_create(m, &(pf_accel_desc){.short_query = 32}, &set32), PF_OK);
    assert_true(pf_accel_get_info(dense).subgoals * 10u >= 100u * 100u);
    assert_int_equal(pf_ctx_create(m, NULL, &c), PF_OK);
    assert_int_equal(pf_ctx_use_accel(c, dense), PF_OK);
    assert_int_equal(pf_search(c, s, g, &(pf_search_desc){.algo = PF_ALGO_AUTO}, NULL, &st), PF_OK);
    assert_int_equal(st.algo, PF_ALGO_ASTAR);
    assert_int_equal(st.detail, PF_DETAIL_SHORT);
    assert_true(close_to(st.cost, want));
    assert_int_equal(pf_ctx_use_accel(c, set32), PF_OK);
    assert_int_equal(pf_search(c, s, g, &(pf_search_desc){.algo = PF_ALGO_AUTO}, NULL, &st), PF_OK);
    assert_int_equal(st.detail, PF_DETAIL_ACCEL);
    assert_true(close_to(st.cost, want));
    pf_ctx_destroy(c);
    pf_accel_destroy(set32);
    pf_accel_destroy(dense);
    pf_map_destroy(m);
}

/* A squad of long AUTO moves in a batch whose accelerator answers them is a squad of accelerated
 * queries (each answered by the accelerator, at its optimal cost, on the goal side they share), not
 * a group search, whose backward A* would flood the way; without an accelerator, or with one that
 * does not answer (stale), the squad is a group search (test_accel_squads.c tests squads whole). */
static void test_auto_squads_by_accel(void **state)
{
    (void)state;
    uint8_t cells[90 * 90];
    memset(cells, 1, sizeof cells);
    for (uint32_t y = 10; y < 80; y += 10)
        for (uint32_t x = 5; x < 70; x++) cells[y * 90 + x + (y / 10 % 2) * 15] = 0; /* staggered walls */
    pf_map *m;
    assert_int_equal(pf_grid_create(&(pf_grid_desc){.width = 90, .height = 90, .cells = cells}, &m), PF_OK);
    pf_accel *acc;
    assert_int_equal(pf_accel_create(m, &(pf_accel_desc){.edits = PF_ACCEL_EDITS_STALE}, &acc), PF_OK);
    const uint32_t goal = pf_grid_node(m, 45, 88);
    for (int mode = 0; mode < 3; mode++) { /* with the accelerator; without; with it stale */
        pf_batch *b;
        assert_int_equal(pf_batch_create(m, &(pf_batch_desc){.workers = 1, .accel = mode == 1 ? NULL : acc}, &b), PF_OK);
        if (mode == 2) {
            pf_grid_edit e = {.rect = {0, 0, 1, 1}, .cls = 0};
            assert_int_equal(pf_grid_apply_edits(m, &e, 1, NULL), PF_OK);
        }
        pf_query_id id[8];
        for (uint32_t i = 0; i < 8; i++)
            assert_int_equal(pf_batch_submit(b, &(pf_batch_query){.start = pf_grid_node(m, 2 + 3 * (int32_t)i, 2), .goal = goal,
                                                                   .search = {.algo = PF_ALGO_AUTO}},
                                             &id[i]),
                             PF_OK);
        assert_int_equal(pf_batch_run(b, NULL), PF_OK);
        uint32_t grouped = 0, by_acc = 0;
        for (uint32_t i = 0; i < 8; i++) {
            pf_batch_result r;
            assert_int_equal(pf_batch_get(b, id[i], &r), PF_OK);
            assert_int_equal(r.status, PF_OK);
            assert_true(close_to(r.stats.cost, oracle_cost(m, pf_grid_node(m, 2 + 3 * (int32_t)i, 2), goal)));
            grouped += (r.flags & PF_BATCH_RESULT_GROUPED) != 0;
            by_acc += (r.stats.detail & PF_DETAIL_ACCEL) != 0;
        }
        assert_int_equal(grouped, 8u);
        assert_int_equal(by_acc, mode == 0 ? 8u : 0u);
        pf_batch_destroy(b);
        if (mode == 2) {
            pf_grid_edit e = {.rect = {0, 0, 1, 1}, .cls = 1};
            assert_int_equal(pf_grid_apply_edits(m, &e, 1, NULL), PF_OK);
        }
    }
    pf_accel_destroy(acc);
    pf_map_destroy(m);
}

/* The accelerator's queries keep pf_search.h's contracts as A* does (a review found them broken):
 * a trace holds every node its searches take off their open lists, each an expansion, and ends
 * with the goal (total == expanded + 1); and max_expansions set to what the query needs unlimited
 * still answers (the limit is tested after each side's end, stale entries never counted). On a
 * hierarchy with a core (its three searches) and on one without (both sides at once), every
 * answer checked against the oracle. */
static void test_trace_and_limit(void **state)
{
    (void)state;
    /* a quarter walls at random (the build leaves a core), and the rooms (none) */
    const uint32_t w = 348, h = 338;
    uint8_t *cells = malloc((size_t)w * h);
    uint64_t rs = 12345;
    for (uint32_t i = 0; i < w * h; i++) cells[i] = rng_below(&rs, 1000) < 250 ? 0 : 1;
    pf_map *maps[2] = {grid_make(w, h, PF_MOVES_8_NO_CUT, cells, NULL), rooms_map(120, 90, PF_MOVES_8_NO_CUT, 0)};
    free(cells);
    const int nq = (int)(120 * env_scale()) + 20;
    for (int k = 0; k < 2; k++) {
        const pf_map *m = maps[k];
        pf_accel *a;
        assert_int_equal(pf_accel_create(m, &(pf_accel_desc){.short_query = 1}, &a), PF_OK);
        if (k == 0) assert_true(pf_accel_get_info(a).core > 0);
        else assert_int_equal(pf_accel_get_info(a).core, 0);
        pf_ctx *c;
        assert_int_equal(pf_ctx_create(m, NULL, &c), PF_OK);
        assert_int_equal(pf_ctx_use_accel(c, a), PF_OK);
        uint32_t cap = pf_map_node_count(m), *tn = malloc(cap * sizeof *tn);
        uint64_t qs = 77 + (uint64_t)k;
        int by_accel = 0, limited = 0;
        for (int i = 0; i < nq; i++) {
            uint32_t s, g;
            pick(m, &qs, &s, &g);
            /* every other goal a subgoal (or a core node): a node the sides take off their lists */
            while (i % 2 && !a->sub[pf__map_inner(m, g)]) g = (g + 1u) % cap;
            double want = oracle_cost(m, s, g);
            pf_trace tr = {.nodes = tn, .capacity = cap};
            pf_ctx_use_trace(c, &tr);
            pf_stats st;
            pf_status r = pf_search(c, s, g, &(pf_search_desc){.algo = PF_ALGO_AUTO}, NULL, &st);
            pf_ctx_use_trace(c, NULL);
            if (isinf(want)) {
                assert_int_equal(r, PF_NO_PATH);
                continue;
            }
            assert_int_equal(r, PF_OK);
            assert_true(close_to(st.cost, want));
            if (!(st.detail & PF_DETAIL_ACCEL)) continue;
            by_accel++;
            assert_int_equal(tr.total, st.expanded + 1u);
            assert_int_equal(tr.len, tr.total);
            assert_int_equal(tn[tr.len - 1u], g);
            if (!st.expanded) continue;
            /* exactly the expansions it needs: answered, the same; one fewer: the limit, never
             * passed (the goal coming off a side's list is an expansion of the accelerator's) */
            pf_stats lim;
            r = pf_search(c, s, g, &(pf_search_desc){.algo = PF_ALGO_AUTO, .max_expansions = st.expanded}, NULL, &lim);
            assert_int_equal(r, PF_OK);
            assert_true(close_to(lim.cost, want));
            assert_int_equal(lim.expanded, st.expanded);
            if (st.expanded > 1u) {
                r = pf_search(c, s, g, &(pf_search_desc){.algo = PF_ALGO_AUTO, .max_expansions = st.expanded - 1u}, NULL, &lim);
                assert_int_equal(r, PF_LIMIT_REACHED);
                assert_true(lim.expanded <= st.expanded - 1u);
                limited++;
            }
        }
        assert_true(by_accel > nq / 3);
        assert_true(limited > nq / 4);
        free(tn);
        pf_ctx_destroy(c);
        pf_accel_destroy(a);
        pf_map_destroy(maps[k]);
    }
}

/* An edited map's accelerated query whose answer cannot be proven begins again by JPS in the same
 * call, its expansions counted with JPS's: its trace keeps the accelerator's nodes in front, so
 * total == expanded + 1 holds there too. */
static void test_trace_fall_back(void **state)
{
    (void)state;
    pf_map *m = rooms_map(120, 90, PF_MOVES_8_NO_CUT, 0);
    pf_accel *a;
    assert_int_equal(pf_accel_create(m, &(pf_accel_desc){.edits = PF_ACCEL_EDITS_CHECK}, &a), PF_OK);
    pf_ctx *c;
    assert_int_equal(pf_ctx_create(m, NULL, &c), PF_OK);
    assert_int_equal(pf_ctx_use_accel(c, a), PF_OK);
    uint32_t s = pf_grid_node(m, 1, 1), g = pf_grid_node(m, 118, 88);
    pf_grid_edit ed[2] = {{.rect = {50, 0, 1, 70}, .cls = 0}, {.rect = {55, 40, 12, 6}, .cls = 0}};
    assert_int_equal(pf_grid_apply_edits(m, ed, 2, NULL), PF_OK);
    uint32_t cap = pf_map_node_count(m), *tn = malloc(cap * sizeof *tn);
    pf_trace tr = {.nodes = tn, .capacity = cap};
    pf_ctx_use_trace(c, &tr);
    pf_stats st;
    assert_int_equal(pf_search(c, s, g, &(pf_search_desc){.algo = PF_ALGO_AUTO}, NULL, &st), PF_OK);
    pf_ctx_use_trace(c, NULL);
    assert_true(close_to(st.cost, oracle_cost(m, s, g)));
    print_message("fall back: algo %d detail %#x expanded %u trace %u\n", (int)st.algo, st.detail, st.expanded, tr.total);
    assert_int_equal(tr.total, st.expanded + 1u);
    assert_int_equal(tn[tr.len - 1u], g);
    free(tn);
    pf_ctx_destroy(c);
    pf_accel_destroy(a);
    pf_map_destroy(m);
}

/* An accelerator whose build left over half its subgoals uncontracted (Berlin_0_1024 keeps all
 * 9,914 in its core: slower than JPS+ there) is not used by AUTO, which answered by JPS with no bit
 * saying why (a review): PF_DETAIL_ACCEL_DECLINED, on a context, short and long, and on a batch's
 * squad. Such a core is made here by the count the pick reads (a map that builds one is 1024x1024). */
static void test_auto_declined(void **state)
{
    (void)state;
    pf_map *m = rooms_map(120, 90, PF_MOVES_8_NO_CUT, 0);
    pf_accel *a;
    assert_int_equal(pf_accel_create(m, NULL, &a), PF_OK);
    const uint32_t core = a->core;
    a->core = a->nodes / 2u + 1u; /* over half left uncontracted */
    pf_ctx *c;
    assert_int_equal(pf_ctx_create(m, NULL, &c), PF_OK);
    assert_int_equal(pf_ctx_use_accel(c, a), PF_OK);
    const uint32_t s = pf_grid_node(m, 1, 1), g = pf_grid_node(m, 118, 88), near = pf_grid_node(m, 4, 3);
    pf_stats st, jps;
    assert_int_equal(pf_search(c, s, g, &(pf_search_desc){.algo = PF_ALGO_AUTO}, NULL, &st), PF_OK);
    assert_true(close_to(st.cost, oracle_cost(m, s, g)));
    assert_int_equal(pf_search(c, s, g, &(pf_search_desc){.algo = PF_ALGO_JPS}, NULL, &jps), PF_OK);
    assert_int_equal(st.algo, PF_ALGO_JPS);
    assert_int_equal(st.expanded, jps.expanded);
    assert_int_equal(st.detail, PF_DETAIL_ACCEL_DECLINED);
    assert_int_equal(pf_search(c, s, near, &(pf_search_desc){.algo = PF_ALGO_AUTO}, NULL, &st), PF_OK);
    assert_int_equal(st.algo, PF_ALGO_ASTAR);
    assert_int_equal(st.detail, PF_DETAIL_SHORT | PF_DETAIL_ACCEL_DECLINED);
    /* a squad of a batch */
    pf_batch *b;
    assert_int_equal(pf_batch_create(m, &(pf_batch_desc){.workers = 1, .accel = a}, &b), PF_OK);
    pf_query_id id[4];
    for (uint32_t i = 0; i < 4; i++)
        assert_int_equal(pf_batch_submit(b, &(pf_batch_query){.start = pf_grid_node(m, 1 + (int32_t)i, 1), .goal = g,
                                                               .search = {.algo = PF_ALGO_AUTO}},
                                         &id[i]),
                         PF_OK);
    assert_int_equal(pf_batch_run(b, NULL), PF_OK);
    for (uint32_t i = 0; i < 4; i++) {
        pf_batch_result r;
        assert_int_equal(pf_batch_get(b, id[i], &r), PF_OK);
        assert_int_equal(r.status, PF_OK);
        assert_true(close_to(r.stats.cost, oracle_cost(m, pf_grid_node(m, 1 + (int32_t)i, 1), g)));
        assert_false(r.stats.detail & PF_DETAIL_ACCEL);
        assert_true(r.stats.detail & PF_DETAIL_ACCEL_DECLINED);
    }
    pf_batch_destroy(b);
    /* contracted again, it answers, and the bit is gone */
    a->core = core;
    assert_int_equal(pf_search(c, s, g, &(pf_search_desc){.algo = PF_ALGO_AUTO}, NULL, &st), PF_OK);
    assert_int_equal(st.detail, PF_DETAIL_ACCEL);
    pf_ctx_destroy(c);
    pf_accel_destroy(a);
    pf_map_destroy(m);
}

/* Waypoints: the ends and the turning cells of the full path, for the accelerator and for A*. */
static void test_waypoints(void **state)
{
    (void)state;
    pf_map *m = rooms_map(100, 80, PF_MOVES_8_NO_CUT, 0);
    pf_accel *a;
    assert_int_equal(pf_accel_create(m, &(pf_accel_desc){.short_query = 1}, &a), PF_OK);
    pf_ctx *c;
    assert_int_equal(pf_ctx_create(m, NULL, &c), PF_OK);
    assert_int_equal(pf_ctx_use_accel(c, a), PF_OK);
    uint32_t cap = pf_map_node_count(m), *full = malloc(cap * sizeof *full), *way = malloc(cap * sizeof *way);
    pf_point *pts = malloc(cap * sizeof *pts);
    uint64_t rs = 23;
    for (int i = 0; i < 60; i++) {
        uint32_t s, g;
        pick(m, &rs, &s, &g);
        for (int algo = 0; algo < 2; algo++) {
            pf_algo al = algo ? PF_ALGO_ASTAR : PF_ALGO_AUTO;
            pf_path p = {.nodes = full, .capacity = cap};
            pf_stats st;
            if (pf_search(c, s, g, &(pf_search_desc){.algo = al}, &p, &st) != PF_OK) continue;
            pf_path w = {.nodes = way, .points = pts, .capacity = cap};
            pf_stats sw;
            assert_int_equal(pf_search(c, s, g, &(pf_search_desc){.algo = al, .waypoints = 1}, &w, &sw), PF_OK);
            assert_int_equal(sw.path_len, w.len);
            assert_true(close_to(sw.cost, st.cost));
            /* walking straight between consecutive waypoints gives the full path back */
            uint32_t k = 0, W = pf_grid_width(m);
            assert_int_equal(way[0], full[0]);
            for (uint32_t j = 1; j < w.len; j++) {
                int32_t dx = (int32_t)(way[j] % W) - (int32_t)(way[j - 1] % W);
                int32_t dy = (int32_t)(way[j] / W) - (int32_t)(way[j - 1] / W);
                int32_t n = abs(dx) > abs(dy) ? abs(dx) : abs(dy);
                assert_true(n > 0 && (dx == 0 || abs(dx) == n) && (dy == 0 || abs(dy) == n));
                for (int32_t t = 1; t <= n; t++)
                    assert_int_equal(full[++k], (uint32_t)((int32_t)way[j - 1] + t * (dx / n) + t * (dy / n) * (int32_t)W));
                assert_int_equal(pts[j].x, (int32_t)(way[j] % W));
            }
            assert_int_equal(k + 1, p.len);
        }
    }
    free(full);
    free(way);
    free(pts);
    pf_ctx_destroy(c);
    pf_accel_destroy(a);
    pf_map_destroy(m);
}

/* ---- files ---------------------------------------------------------------------------------- */

static uint8_t *bake(const pf_accel *a, size_t *n)
{
    size_t need = 0;
    assert_int_equal(pf_accel_save_mem(a, NULL, 0, &need), PF_BUFFER_TOO_SMALL);
    assert_int_equal(need, pf_accel_file_size(a));
    uint8_t *b = malloc(need);
    assert_int_equal(pf_accel_save_mem(a, b, need, n), PF_OK);
    return b;
}

/* Rewrites both checksums, as someone editing a file by hand would. */
static void reseal(uint8_t *b, size_t n)
{
    uint64_t ph = XXH3_64bits(b + 64, n - 64);
    for (int i = 0; i < 8; i++) b[48 + i] = (uint8_t)(ph >> (8 * i));
    uint64_t hh = XXH3_64bits(b, 56);
    for (int i = 0; i < 8; i++) b[56 + i] = (uint8_t)(hh >> (8 * i));
}

static pf_status load(const uint8_t *b, size_t n, const pf_map *m, pf_diag *d)
{
    pf_accel *a = (pf_accel *)1;
    pf_status st = pf_accel_load_mem(b, n, "x.pfa", m, NULL, &a, d);
    if (st == PF_OK) pf_accel_destroy(a);
    else assert_null(a);
    assert_int_equal(d->status, st);
    if (st != PF_OK) assert_true(strlen(d->msg) > 0);
    return st;
}

static void test_file_round_trip(void **state)
{
    (void)state;
    pf_map *m = rooms_map(150, 110, PF_MOVES_8_NO_CUT, 0);
    pf_accel *a;
    assert_int_equal(pf_accel_create(m, NULL, &a), PF_OK);
    size_t n;
    uint8_t *b = bake(a, &n);
    pf_accel *r;
    pf_diag d;
    assert_int_equal(pf_accel_load_mem(b, n, "x.pfa", m, NULL, &r, &d), PF_OK);
    size_t n2;
    uint8_t *b2 = bake(r, &n2);
    assert_int_equal(n, n2);
    assert_memory_equal(b, b2, n);
    pf_accel_info ia = pf_accel_get_info(a), ir = pf_accel_get_info(r);
    assert_int_equal(ia.arcs, ir.arcs);
    assert_int_equal(ia.core, ir.core);
    assert_int_equal(ia.shortcuts, ir.shortcuts);
    pf_ctx *c;
    assert_int_equal(pf_ctx_create(m, NULL, &c), PF_OK);
    assert_int_equal(pf_ctx_use_accel(c, r), PF_OK);
    agree(c, m, 60, 31);
    pf_ctx_destroy(c);
    /* through a file, replacing an older one */
    char path[] = "test_accel_tmp.pfa";
    FILE *f = fopen(path, "wb");
    fputs("old", f);
    fclose(f);
    assert_int_equal(pf_accel_save(a, path, &d), PF_OK);
    pf_accel *r2;
    assert_int_equal(pf_accel_load(path, m, NULL, &r2, &d), PF_OK);
    size_t n3;
    uint8_t *b3 = bake(r2, &n3);
    assert_memory_equal(b, b3, n);
    pf_accel_destroy(r2);
    free(b3);
    /* a save that cannot be written leaves nothing behind and says why */
    assert_int_equal(pf_accel_save(a, "no-such-dir/x.pfa", &d), PF_IO_ERROR);
    assert_true(strlen(d.msg) > 0);
    assert_int_equal(pf_accel_load("no-such-file.pfa", m, NULL, &r2, &d), PF_IO_ERROR);
    assert_null(r2);
    remove(path);
    free(b);
    free(b2);
    pf_accel_destroy(r);
    pf_accel_destroy(a);
    pf_map_destroy(m);
}

/* A file whose core node holds an arc to a subgoal outside the core, its canonical path legal and
 * its cost exact, is refused: the query crosses the core on records by core index, and such an arc
 * has none (a memory error in the query before the check). */
static void test_file_core_arc_refused(void **state)
{
    (void)state;
    const uint32_t w = 348, h = 338;
    uint64_t rs = 12345;
    uint8_t *cells = malloc((size_t)w * h);
    for (uint32_t i = 0; i < w * h; i++) cells[i] = rng_below(&rs, 1000) < 250 ? 0 : 1;
    pf_map *m;
    assert_int_equal(pf_grid_create(&(pf_grid_desc){.width = w, .height = h, .cells = cells}, &m), PF_OK);
    free(cells);
    pf_accel *a;
    assert_int_equal(pf_accel_create(m, NULL, &a), PF_OK);
    assert_true(a->core > 0);
    const pf__grid_view mv = pf__grid_view_of(m);
    size_t n = pf_accel_file_size(a), got;
    uint8_t *b = malloc(n);
    int tried = 0;
    for (uint32_t c = 0; c < a->cells && !tried; c++) {
        if (a->sub[c] != 2 || a->first[c] == a->first[c + 1]) continue;
        for (int dy = -6; dy <= 6 && !tried; dy++)
            for (int dx = -6; dx <= 6 && !tried; dx++) {
                uint32_t u = (uint32_t)((int32_t)c + dy * (int32_t)m->pw + dx), sa, sb;
                if (u >= a->cells || a->sub[u] != 1 || m->cls[u] != m->cls[c] || !pf__accel_cp_legal(&mv, c, u, &sa, &sb))
                    continue;
                pf__accel_arc keep = a->arcs[a->first[c]];
                a->arcs[a->first[c]] = (pf__accel_arc){u, PF__ACCEL_FROM_SRC, sa, sb};
                assert_int_equal(pf_accel_save_mem(a, b, n, &got), PF_OK);
                a->arcs[a->first[c]] = keep;
                pf_diag d;
                assert_int_equal(load(b, n, m, &d), PF_PARSE_ERROR);
                assert_non_null(strstr(d.msg, "leaves the core"));
                tried = 1;
            }
    }
    assert_true(tried);
    free(b);
    pf_accel_destroy(a);
    pf_map_destroy(m);
}

static void test_file_refused(void **state)
{
    (void)state;
    pf_map *m = rooms_map(150, 110, PF_MOVES_8_NO_CUT, 0);
    pf_accel *a;
    assert_int_equal(pf_accel_create(m, NULL, &a), PF_OK);
    size_t n;
    uint8_t *b = bake(a, &n), *t = malloc(n + 8);
    pf_diag d;
    assert_int_equal(load(b, n, m, &d), PF_OK);
    /* truncated at every interesting length, trailing bytes */
    assert_int_equal(load(b, 0, m, &d), PF_PARSE_ERROR);
    assert_int_equal(load(b, 63, m, &d), PF_PARSE_ERROR);
    assert_int_equal(load(b, 64, m, &d), PF_PARSE_ERROR);
    assert_int_equal(load(b, n - 1, m, &d), PF_PARSE_ERROR);
    memcpy(t, b, n);
    memset(t + n, 0, 8);
    assert_int_equal(load(t, n + 8, m, &d), PF_PARSE_ERROR);
    /* a flipped bit anywhere: header, offsets, arcs */
    size_t where[] = {3, 20, 30, 45, 60, 64 + 4, n / 2, n - 1};
    for (size_t i = 0; i < sizeof where / sizeof where[0]; i++) {
        memcpy(t, b, n);
        t[where[i]] ^= 0x10;
        assert_true(pf_failed(load(t, n, m, &d)));
    }
    /* another version */
    memcpy(t, b, n);
    t[8] = 99;
    reseal(t, n);
    assert_int_equal(load(t, n, m, &d), PF_UNSUPPORTED);
    /* another map (one cell changed: a stale file after an edit) */
    pf_map *m2;
    {
        uint32_t w = pf_grid_width(m), h = pf_grid_height(m);
        uint8_t *c = malloc((size_t)w * h);
        for (uint32_t y = 0; y < h; y++)
            for (uint32_t x = 0; x < w; x++) c[y * w + x] = pf_grid_class(m, (int32_t)x, (int32_t)y);
        c[5 * w + 5] = c[5 * w + 5] ? 0 : 1;
        assert_int_equal(pf_grid_create(&(pf_grid_desc){.width = w, .height = h, .cells = c}, &m2), PF_OK);
        free(c);
    }
    assert_int_equal(load(b, n, m2, &d), PF_WRONG_MAP);
    assert_non_null(strstr(d.msg, "another map"));
    pf_map_destroy(m2);
    /* resealed edits the checksums cannot catch: the arc checks do */
    const size_t arcs = 64 + ((size_t)152 * 112 + 1) * 4;
    struct {
        size_t   off;
        uint32_t v, x; /* set to v, or xor with x */
    } edits[] = {
        {arcs + 0, 0, 0},           /* the first arc to cell 0 (the blocked border) */
        {arcs + 0, 0xFFFFFFF0u, 0}, /* ... or out of range */
        {arcs + 4, 1u, 0},          /* a middle that is no subgoal */
        {arcs + 8, 0, 1},           /* its cost changed */
        {arcs + 12, 0, 2},          /* likewise */
        {arcs + 16 * 7 + 8, 0, 1},  /* another arc's */
        {64 + 4 * 200, 0xFFFFFFFFu, 0}, /* an offset out of range */
    };
    for (size_t i = 0; i < sizeof edits / sizeof edits[0]; i++) {
        memcpy(t, b, n);
        uint32_t v = edits[i].v;
        if (edits[i].x) v = (uint32_t)t[edits[i].off] ^ edits[i].x;
        for (int k = 0; k < 4 && !edits[i].x; k++) t[edits[i].off + (size_t)k] = (uint8_t)(v >> (8 * k));
        if (edits[i].x) t[edits[i].off] = (uint8_t)v;
        reseal(t, n);
        print_message("edit %zu: ", i);
        assert_int_equal(load(t, n, m, &d), PF_PARSE_ERROR);
        print_message("%s\n", d.msg);
    }
    /* a header that announces a huge payload is refused by size, before any allocation */
    memcpy(t, b, n);
    t[32] = t[33] = t[34] = 0xFF;
    reseal(t, 64);
    assert_int_equal(load(t, n, m, &d), PF_PARSE_ERROR);
    /* missing arguments */
    pf_accel *r;
    assert_int_equal(pf_accel_load_mem(b, n, "x", NULL, NULL, &r, &d), PF_INVALID_ARGUMENT);
    assert_int_equal(pf_accel_load_mem(NULL, 5, "x", m, NULL, &r, &d), PF_INVALID_ARGUMENT);
    assert_int_equal(pf_accel_save(NULL, "x", &d), PF_INVALID_ARGUMENT);
    free(t);
    free(b);
    pf_accel_destroy(a);
    pf_map_destroy(m);
}

/* ---- allocation failures ---------------------------------------------------------------------- */

static void test_alloc_failure(void **state)
{
    (void)state;
    pf_map *m = rooms_map(60, 40, PF_MOVES_8_NO_CUT, 0);
    test_tracker f = {.countdown = -1};
    pf_accel_desc d = {.allocator = {test_track_alloc, test_track_free, &f}};
    pf_accel *a;
    assert_int_equal(pf_accel_create(m, &d, &a), PF_OK);
    size_t n;
    uint8_t *b = bake(a, &n);
    pf_accel_destroy(a);
    assert_int_equal(f.live, 0);
    int failed = 0;
    for (long k = 0; k < 4000; k++) {
        f = (test_tracker){.countdown = k};
        pf_status st = pf_accel_create(m, &d, &a);
        if (st == PF_OK) {
            pf_accel_destroy(a);
            assert_int_equal(f.live, 0);
            break;
        }
        assert_int_equal(st, PF_OUT_OF_MEMORY);
        assert_null(a);
        assert_int_equal(f.live, 0);
        failed++;
    }
    assert_true(failed > 3);
    for (long k = 0; k < 10; k++) {
        f = (test_tracker){.countdown = k};
        pf_diag dg;
        pf_status st = pf_accel_load_mem(b, n, "x", m, &d, &a, &dg);
        if (st == PF_OK) {
            pf_accel_destroy(a);
            break;
        }
        assert_int_equal(st, PF_OUT_OF_MEMORY);
        assert_int_equal(f.live, 0);
    }
    free(b);
    pf_map_destroy(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_create_and_refuse), cmocka_unit_test(test_auto_fallbacks),
        cmocka_unit_test(test_auto_with_accel), cmocka_unit_test(test_unpack_index), cmocka_unit_test(test_jump_scans), cmocka_unit_test(test_auto_after_edits),
        cmocka_unit_test(test_auto_squads_by_accel), cmocka_unit_test(test_auto_declined), cmocka_unit_test(test_auto_short_hands_over),   cmocka_unit_test(test_waypoints), cmocka_unit_test(test_trace_and_limit), cmocka_unit_test(test_trace_fall_back),
        cmocka_unit_test(test_file_round_trip),   cmocka_unit_test(test_file_refused), cmocka_unit_test(test_file_core_arc_refused),
        cmocka_unit_test(test_alloc_failure),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
