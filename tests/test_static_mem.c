/* test_static_mem.c - contexts and batches placed in the caller's memory (pf_ctx_init_static,
 * pf_batch_init_static): the estimate is enough at any alignment and nothing is written past it,
 * less is refused, the answers equal those of allocated objects bit for bit, nothing is allocated
 * after creation (counted two ways: the desc's allocator, which a static object must ignore, and
 * every malloc call made by this executable's code, the library's included, through the linker's
 * --wrap, see tests/CMakeLists.txt; calls inside libc are not seen, hence no qsort in batch.c), fixed
 * capacities fail with their status, and destroy leaves the memory to the caller. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "pathfind.h"
#include "testutil.h"
#include "maps.h"

/* ---- allocation counting ------------------------------------------------------------------- */

/* Every malloc, calloc, realloc and aligned_alloc called from this executable's code, the static
 * library included (the linker sends them here): counted while g_counting is set. */
static atomic_uint g_mallocs;
static atomic_int g_counting;
void *__real_malloc(size_t n);
void *__real_calloc(size_t k, size_t n);
void *__real_realloc(void *p, size_t n);
void *__real_aligned_alloc(size_t a, size_t n);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t k, size_t n);
void *__wrap_realloc(void *p, size_t n);
void *__wrap_aligned_alloc(size_t a, size_t n);
static void counted(void)
{
    if (atomic_load(&g_counting)) atomic_fetch_add(&g_mallocs, 1u);
}
void *__wrap_malloc(size_t n)
{
    counted();
    return __real_malloc(n);
}
void *__wrap_calloc(size_t k, size_t n)
{
    counted();
    return __real_calloc(k, n);
}
void *__wrap_realloc(void *p, size_t n)
{
    counted();
    return __real_realloc(p, n);
}
void *__wrap_aligned_alloc(size_t a, size_t n)
{
    counted();
    return __real_aligned_alloc(a, n);
}

/* The hook a static object is given and must never call. */
static void *hook_alloc(size_t size, size_t align, void *user)
{
    (void)size;
    (void)align;
    ++*(unsigned *)user;
    return NULL;
}
static void hook_free(void *p, size_t size, void *user)
{
    (void)p;
    (void)size;
    ++*(unsigned *)user;
}

/* Starts counting: every allocation from here until allocations() is one too many. */
static void count_from_here(void)
{
    atomic_store(&g_mallocs, 0u);
    atomic_store(&g_counting, 1);
}
static unsigned allocations(void)
{
    atomic_store(&g_counting, 0);
    return atomic_load(&g_mallocs);
}

/* ---- fixtures ------------------------------------------------------------------------------ */

static pf_map *make_grid(uint32_t w, uint32_t h, uint32_t pct, uint64_t seed)
{
    uint8_t *cls = malloc((size_t)w * h);
    for (size_t i = 0; i < (size_t)w * h; i++) cls[i] = lcg_next(&seed) % 100 < pct ? 0 : 1;
    pf_map *m = grid_make(w, h, PF_MOVES_DEFAULT, cls, NULL);
    free(cls);
    return m;
}

/* A buffer of `size` bytes at `offset` past a 64-byte boundary, with guard bytes after it. */
enum { GUARD = 256 };
typedef struct buffer {
    unsigned char *base, *mem;
    size_t         size;
} buffer;
static buffer buffer_make(size_t size, size_t offset)
{
    buffer b;
    b.base = aligned_alloc(64, (size + offset + GUARD + 63) / 64 * 64);
    assert_non_null(b.base);
    b.mem = b.base + offset;
    b.size = size;
    memset(b.mem + size, 0xA5, GUARD);
    return b;
}
static void buffer_free(buffer *b)
{
    for (size_t i = 0; i < GUARD; i++) assert_int_equal(b->mem[b->size + i], 0xA5); /* untouched */
    free(b->base);
}

static const pf_search_desc DESCS[] = {
    {.algo = PF_ALGO_ASTAR},     {.algo = PF_ALGO_DIJKSTRA}, {.algo = PF_ALGO_WASTAR, .weight = 1.5},
    {.algo = PF_ALGO_BFS},       {.algo = PF_ALGO_GREEDY},   {.algo = PF_ALGO_JPS},
    {.algo = PF_ALGO_JPS_PLUS},  {.algo = PF_ALGO_ASTAR, .tie = PF_TIE_FIFO},
};
enum { NDESC = sizeof DESCS / sizeof DESCS[0] };

/* Both contexts answer (start, goal, desc) alike: status, stats and path, bit for bit. */
static void expect_same(pf_ctx *a, pf_ctx *b, uint32_t s, uint32_t g, const pf_search_desc *d)
{
    static uint32_t pa[1 << 15], pb[1 << 15];
    pf_path xa = {.nodes = pa, .capacity = 1 << 15}, xb = {.nodes = pb, .capacity = 1 << 15};
    pf_stats sa, sb;
    pf_status ra = pf_search(a, s, g, d, &xa, &sa), rb = pf_search(b, s, g, d, &xb, &sb);
    assert_int_equal(ra, rb);
    assert_memory_equal(&sa, &sb, sizeof sa);
    assert_int_equal(xa.len, xb.len);
    if (ra == PF_OK) assert_memory_equal(pa, pb, xa.len * sizeof *pa);
}

/* ---- contexts ------------------------------------------------------------------------------ */

static void test_ctx_estimate_and_refusal(void **state)
{
    (void)state;
    pf_map *m = make_grid(70, 50, 20, 1);
    assert_int_equal(pf_ctx_estimate(NULL, NULL), 0);
    size_t need = pf_ctx_estimate(m, NULL);
    /* the records (16 bytes a cell) and an open list of one entry per cell (16 bytes) */
    assert_true(need >= pf_map_node_count(m) * 32u);
    size_t small = pf_ctx_estimate(m, &(pf_ctx_desc){.heap_capacity = 64});
    assert_true(small < need);
    pf_ctx *ctx = (pf_ctx *)1;
    /* the estimate is enough at every alignment; one byte less is refused where the alignment
     * slack is all needed (a 64-byte aligned buffer needs 63 bytes less) */
    for (size_t off = 0; off < 64; off += 7) {
        buffer b = buffer_make(need, off);
        assert_int_equal(pf_ctx_init_static(b.mem, need, m, NULL, &ctx), PF_OK);
        uint64_t s = off + 1;
        pf_stats st;
        for (int q = 0; q < 20; q++)
            assert_false(pf_failed(pf_search(ctx, open_cell(m, &s), open_cell(m, &s), NULL, NULL, &st)));
        pf_ctx_destroy(ctx);
        buffer_free(&b);
    }
    buffer b = buffer_make(need, 1); /* 63 bytes to skip to the first line */
    assert_int_equal(pf_ctx_init_static(b.mem, need - 1, m, NULL, &ctx), PF_BUFFER_TOO_SMALL);
    assert_null(ctx);
    assert_int_equal(pf_ctx_init_static(b.mem, 0, m, NULL, &ctx), PF_BUFFER_TOO_SMALL);
    assert_int_equal(pf_ctx_init_static(NULL, need, m, NULL, &ctx), PF_INVALID_ARGUMENT);
    assert_int_equal(pf_ctx_init_static(b.mem, need, NULL, NULL, &ctx), PF_INVALID_ARGUMENT);
    assert_int_equal(pf_ctx_init_static(b.mem, need, m, NULL, NULL), PF_INVALID_ARGUMENT);
    buffer_free(&b);
    buffer a = buffer_make(need - 63, 0); /* aligned: no slack needed */
    assert_int_equal(pf_ctx_init_static(a.mem, need - 63, m, NULL, &ctx), PF_OK);
    pf_ctx_destroy(ctx);
    assert_int_equal(pf_ctx_init_static(a.mem, need - 64, m, NULL, &ctx), PF_BUFFER_TOO_SMALL);
    buffer_free(&a);
    pf_map_destroy(m);
}

/* A sized unit's partial query in a static context (no room for its labels) answers as a dynamic
 * context does: the one-cell scan names a cell the 2x2 unit cannot reach through the one-cell gap,
 * so the search floods and answers with the nearest cell it reached, not PF_NO_PATH. */
static void test_ctx_sized_partial(void **state)
{
    (void)state;
    static const char *rows[] = {"......@....", "...........", "......@....", "......@...."};
    uint8_t cls[4 * 11];
    for (int y = 0; y < 4; y++)
        for (int x = 0; x < 11; x++) cls[y * 11 + x] = rows[y][x] == '@' ? 0 : 1;
    cls[1 * 11 + 10] = 0; /* the click: a wall past the gap */
    pf_map *m;
    assert_int_equal(pf_grid_create(&(pf_grid_desc){.width = 11, .height = 4, .cells = cls}, &m), PF_OK);
    pf_ctx *dyn, *fix;
    assert_int_equal(pf_ctx_create(m, NULL, &dyn), PF_OK);
    size_t need = pf_ctx_estimate(m, NULL);
    buffer b = buffer_make(need, 0);
    assert_int_equal(pf_ctx_init_static(b.mem, need, m, NULL, &fix), PF_OK);
    const pf_search_desc d = {.unit_size = 2, .partial = 1};
    const uint32_t s = pf_grid_node(m, 0, 1), g = pf_grid_node(m, 10, 1);
    uint32_t pd[64], pf[64];
    pf_path xd = {.nodes = pd, .capacity = 64}, xf = {.nodes = pf, .capacity = 64};
    pf_stats sd, sf;
    assert_int_equal(pf_search(dyn, s, g, &d, &xd, &sd), PF_PARTIAL);
    assert_int_equal(pf_search(fix, s, g, &d, &xf, &sf), PF_PARTIAL);
    assert_true(fabs(sd.cost - sf.cost) < 1e-9);
    assert_int_equal(xd.len, xf.len);
    assert_int_equal(pd[xd.len - 1], pf[xf.len - 1]);
    pf_ctx_destroy(fix);
    pf_ctx_destroy(dyn);
    buffer_free(&b);
    pf_map_destroy(m);
}

static void test_ctx_same_answers_no_allocation(void **state)
{
    (void)state;
    pf_map *m = make_grid(160, 120, 25, 2);
    pf_jps_table *t;
    assert_int_equal(pf_jps_table_create(m, NULL, &t), PF_OK);
    pf_ctx *dyn;
    count_from_here();
    assert_int_equal(pf_ctx_create(m, &(pf_ctx_desc){.jps_table = t}, &dyn), PF_OK);
    assert_true(allocations() >= 3); /* the count sees the library's own mallocs */
    unsigned hook_calls = 0;
    pf_ctx_desc sd = {.allocator = {hook_alloc, hook_free, &hook_calls}, .jps_table = t};
    size_t need = pf_ctx_estimate(m, &sd);
    assert_true(need > pf_ctx_estimate(m, NULL)); /* the JPS search state */
    buffer b = buffer_make(need, 5);
    pf_ctx *fix;
    count_from_here();
    assert_int_equal(pf_ctx_init_static(b.mem, need, m, &sd, &fix), PF_OK);
    uint64_t s = 3;
    int queries = (int)(400 * env_scale());
    for (int q = 0; q < queries; q++) {
        uint32_t a = open_cell(m, &s), g = open_cell(m, &s);
        count_from_here();
        for (int k = 0; k < NDESC; k++) {
            static uint32_t p[1 << 15];
            pf_path x = {.nodes = p, .capacity = 1 << 15};
            pf_stats st;
            pf_status r = pf_search(fix, a, g, &DESCS[k], &x, &st);
            (void)r;
        }
        assert_int_equal(allocations(), 0);
        for (int k = 0; k < NDESC; k++) expect_same(dyn, fix, a, g, &DESCS[k]);
    }
    /* a Dijkstra tree over the whole map: the open list of one entry per node does not fill */
    uint32_t src = open_cell(m, &s);
    count_from_here();
    assert_int_equal(pf_search_tree(fix, src, NULL), PF_OK);
    assert_int_equal(allocations(), 0);
    assert_int_equal(pf_search_tree(dyn, src, NULL), PF_OK);
    for (uint32_t v = 0; v < pf_map_node_count(m); v++) {
        assert_true(pf_ctx_cost(fix, v) == pf_ctx_cost(dyn, v)); /* INFINITY == INFINITY too */
        assert_int_equal(pf_ctx_parent(fix, v), pf_ctx_parent(dyn, v));
    }
    /* detaching and re-attaching the table needs no memory either */
    count_from_here();
    assert_int_equal(pf_ctx_use_jps_table(fix, NULL), PF_OK);
    pf_stats st;
    uint32_t a = open_cell(m, &s), g = open_cell(m, &s);
    assert_int_equal(pf_search(fix, a, g, &(pf_search_desc){.algo = PF_ALGO_JPS}, NULL, &st), PF_OK);
    assert_int_equal(st.algo, PF_ALGO_ASTAR);
    assert_true(st.detail & PF_DETAIL_FALLBACK);
    assert_int_equal(pf_ctx_use_jps_table(fix, t), PF_OK);
    assert_int_equal(allocations(), 0);
    assert_int_equal(pf_search(fix, a, g, &(pf_search_desc){.algo = PF_ALGO_JPS}, NULL, &st), PF_OK);
    assert_int_equal(hook_calls, 0);
    pf_ctx_destroy(fix);
    assert_int_equal(hook_calls, 0); /* destroy freed nothing through the hook ... */
    buffer_free(&b);                 /* ... nor by itself: the buffer is still ours to free */
    pf_ctx_destroy(dyn);
    pf_jps_table_destroy(t);
    pf_map_destroy(m);
}

static void test_ctx_graph(void **state)
{
    (void)state;
    enum { N = 300 };
    pf_edge e[N * 4];
    uint32_t k = 0;
    uint64_t s = 11;
    for (uint32_t v = 0; v < N; v++)
        for (int j = 0; j < 4; j++)
            e[k++] = (pf_edge){v, lcg_next(&s) % N, 1.0 + (double)(lcg_next(&s) % 100)};
    pf_map *m;
    assert_int_equal(pf_graph_create(&(pf_graph_desc){.node_count = N, .edge_count = k, .edges = e}, &m), PF_OK);
    pf_ctx *dyn, *fix;
    assert_int_equal(pf_ctx_create(m, NULL, &dyn), PF_OK);
    size_t need = pf_ctx_estimate(m, NULL);
    assert_true(need >= N * 36u); /* graphs keep a parent array too */
    void *mem = malloc(need);
    assert_int_equal(pf_ctx_init_static(mem, need, m, NULL, &fix), PF_OK);
    for (int q = 0; q < 200; q++) {
        uint32_t a = lcg_next(&s) % N, g = lcg_next(&s) % N;
        expect_same(dyn, fix, a, g, &DESCS[q % 3]);
        expect_same(dyn, fix, g, a, &(pf_search_desc){.reverse = 1});
    }
    pf_ctx_destroy(fix);
    free(mem);
    pf_ctx_destroy(dyn);
    pf_map_destroy(m);
}

static void test_ctx_fixed_capacities(void **state)
{
    (void)state;
    pf_map *m = make_grid(200, 200, 0, 4); /* open: the frontier of a long search is wide */
    pf_ctx_desc d = {.heap_capacity = 16};
    size_t need = pf_ctx_estimate(m, &d);
    void *mem = malloc(need);
    pf_ctx *ctx;
    assert_int_equal(pf_ctx_init_static(mem, need, m, &d, &ctx), PF_OK);
    pf_stats st;
    uint32_t a = pf_grid_node(m, 0, 0), g = pf_grid_node(m, 199, 199), near = pf_grid_node(m, 3, 0);
    count_from_here();
    assert_int_equal(pf_search(ctx, a, g, &(pf_search_desc){.algo = PF_ALGO_DIJKSTRA}, NULL, &st),
                     PF_CAPACITY_EXCEEDED);
    assert_int_equal(pf_search_tree(ctx, a, NULL), PF_CAPACITY_EXCEEDED);
    /* a search that fits still works afterwards, and sliced searches fail the same way */
    assert_int_equal(pf_search(ctx, a, near, NULL, NULL, &st), PF_OK);
    assert_true(fabs(st.cost - 3.0) < 1e-12);
    assert_int_equal(pf_search_begin(ctx, a, g, &(pf_search_desc){.algo = PF_ALGO_DIJKSTRA}), PF_IN_PROGRESS);
    pf_status r;
    while ((r = pf_search_step(ctx, 100)) == PF_IN_PROGRESS) {
    }
    assert_int_equal(r, PF_CAPACITY_EXCEEDED);
    assert_int_equal(allocations(), 0);
    /* no JPS state was placed: JPS runs A* (as on maps JPS does not support), attaching refuses */
    assert_int_equal(pf_search(ctx, a, near, &(pf_search_desc){.algo = PF_ALGO_JPS}, NULL, &st), PF_OK);
    assert_true(st.detail & PF_DETAIL_FALLBACK);
    assert_true(fabs(st.cost - 3.0) < 1e-12);
    pf_jps_table *t;
    assert_int_equal(pf_jps_table_create(m, &(pf_jps_desc){.bitmaps_only = 1}, &t), PF_OK);
    count_from_here();
    assert_int_equal(pf_ctx_use_jps_table(ctx, t), PF_CAPACITY_EXCEEDED);
    assert_int_equal(pf_ctx_use_jps_table(ctx, NULL), PF_OK);
    assert_int_equal(allocations(), 0);
    pf_ctx_destroy(ctx);
    free(mem);
    /* with a bitmaps-only table JPS runs and JPS+ (whose distances it lacks) falls back */
    pf_ctx_desc dj = {.jps_table = t};
    need = pf_ctx_estimate(m, &dj);
    mem = malloc(need);
    assert_int_equal(pf_ctx_init_static(mem, need, m, &dj, &ctx), PF_OK);
    count_from_here();
    assert_int_equal(pf_search(ctx, a, g, &(pf_search_desc){.algo = PF_ALGO_JPS}, NULL, &st), PF_OK);
    assert_int_equal(st.detail, 0);
    assert_int_equal(st.algo, PF_ALGO_JPS);
    assert_int_equal(pf_search(ctx, a, g, &(pf_search_desc){.algo = PF_ALGO_JPS_PLUS}, NULL, &st), PF_OK);
    assert_int_equal(st.detail, PF_DETAIL_FALLBACK);
    assert_int_equal(allocations(), 0);
    assert_true(fabs(st.cost - 199.0 * sqrt(2.0)) < 1e-9);
    pf_ctx_destroy(ctx);
    free(mem);
    /* a table made for another map is refused */
    pf_map *other = make_grid(200, 200, 10, 5);
    assert_int_equal(pf_ctx_init_static(mem = malloc(need), need, other, &dj, &ctx), PF_WRONG_MAP);
    assert_int_equal(pf_ctx_create(other, &dj, &ctx), PF_WRONG_MAP);
    free(mem);
    pf_map_destroy(other);
    pf_jps_table_destroy(t);
    pf_map_destroy(m);
}

/* ---- batches ------------------------------------------------------------------------------- */

typedef struct frame_query {
    pf_batch_query q;
    pf_query_id    id;
} frame_query;

/* One frame of mixed queries: singles of several algorithms, identical ones (deduplicated), a
 * same-goal group, JPS, and one with a blocked start. */
static uint32_t make_frame(const pf_map *m, uint64_t *s, frame_query *out, uint32_t n)
{
    uint32_t goal = open_cell(m, s);
    for (uint32_t i = 0; i < n; i++) {
        pf_batch_query q = {.start = open_cell(m, s), .goal = open_cell(m, s), .tag = i};
        if (i % 5 == 0) q.goal = goal;                                   /* a group */
        if (i % 7 == 1) q.search = DESCS[lcg_next(s) % NDESC];
        if (i % 9 == 2 && i > 0) q = (pf_batch_query){.start = out[i - 1].q.start, .goal = out[i - 1].q.goal,
                                                      .search = out[i - 1].q.search, .tag = i}; /* duplicate */
        if (i == n / 2) q.start = UINT32_MAX - 1;                        /* refused: bad start */
        out[i].q = q;
    }
    return n;
}

static void expect_same_result(const pf_batch_result *a, const pf_batch_result *b)
{
    assert_int_equal(a->status, b->status);
    /* which query a budget cuts depends on the threads' timing; nothing else does */
    assert_int_equal(a->flags & ~PF_BATCH_RESULT_SLICED, b->flags & ~PF_BATCH_RESULT_SLICED);
    assert_int_equal(a->tag, b->tag);
    assert_memory_equal(&a->stats, &b->stats, sizeof a->stats);
    assert_int_equal(a->path_len, b->path_len);
    if (a->path_len) assert_memory_equal(a->path, b->path, a->path_len * sizeof *a->path);
}

static void test_batch_static(void **state)
{
    (void)state;
    pf_map *m = make_grid(180, 140, 22, 6);
    pf_jps_table *t;
    assert_int_equal(pf_jps_table_create(m, NULL, &t), PF_OK);
    unsigned hook_calls = 0;
    pf_batch_desc d = {.workers = 2, .max_queries = 200, .jps_table = t,
                       .allocator = {hook_alloc, hook_free, &hook_calls}};
    pf_batch_desc dd = d;
    dd.allocator = (pf_allocator){0};
    assert_int_equal(pf_batch_estimate(NULL, &d), 0);
    assert_int_equal(pf_batch_estimate(m, &(pf_batch_desc){.workers = 5000}), 0);
    { /* a JPS table of another map: refused by create and init_static, so no size (it had one) */
        pf_map *other = make_grid(180, 140, 22, 6);
        pf_batch_desc foreign = {.jps_table = t};
        assert_int_equal(pf_batch_estimate(other, &foreign), 0);
        pf_batch *b = NULL;
        assert_int_equal(pf_batch_create(other, &foreign, &b), PF_WRONG_MAP);
        assert_null(b);
        pf_map_destroy(other);
    }
    size_t need = pf_batch_estimate(m, &d);
    /* two workers and two spares, each a context with its JPS state */
    assert_true(need > 4 * pf_ctx_estimate(m, &(pf_ctx_desc){.jps_table = t}));
    buffer buf = buffer_make(need, 1); /* 63 bytes to the first line: all the slack is needed */
    pf_batch *fix, *dyn;
    assert_int_equal(pf_batch_init_static(buf.mem, need - 1, m, &d, &fix), PF_BUFFER_TOO_SMALL);
    assert_null(fix);
    count_from_here();
    assert_int_equal(pf_batch_init_static(buf.mem, need, m, &d, &fix), PF_OK);
    assert_int_equal(allocations(), 0);
    assert_int_equal(pf_batch_create(m, &dd, &dyn), PF_OK);
    assert_int_equal(pf_batch_worker_count(fix), 2);

    enum { N = 150 };
    static frame_query fa[N], fb[N];
    uint64_t s = 21;
    int frames = (int)(6 * env_scale()) + 2;
    for (int f = 0; f < frames; f++) {
        make_frame(m, &s, fa, N);
        memcpy(fb, fa, sizeof fa);
        /* odd frames run with an expansion budget: queries suspend onto the spare contexts */
        pf_batch_budget budget = {.max_expansions = f % 2 ? 3000 : 0};
        count_from_here();
        for (uint32_t i = 0; i < N; i++) assert_int_equal(pf_batch_submit(fix, &fa[i].q, &fa[i].id), PF_OK);
        for (int run = 0; run < 1000 && pf_batch_get_stats(fix).pending; run++)
            assert_int_equal(pf_batch_run(fix, &budget), PF_OK);
        assert_int_equal(allocations(), 0);
        for (uint32_t i = 0; i < N; i++) assert_int_equal(pf_batch_submit(dyn, &fb[i].q, &fb[i].id), PF_OK);
        for (int run = 0; run < 1000 && pf_batch_get_stats(dyn).pending; run++)
            assert_int_equal(pf_batch_run(dyn, &budget), PF_OK);
        assert_int_equal(pf_batch_get_stats(fix).pending, 0);
        for (uint32_t i = 0; i < N; i++) {
            pf_batch_result ra, rb;
            assert_int_equal(pf_batch_get(fix, fa[i].id, &ra), PF_OK);
            assert_int_equal(pf_batch_get(dyn, fb[i].id, &rb), PF_OK);
            expect_same_result(&ra, &rb);
        }
        count_from_here();
        assert_int_equal(pf_batch_reset(fix), PF_OK);
        assert_int_equal(allocations(), 0);
        assert_int_equal(pf_batch_reset(dyn), PF_OK);
    }
    pf_batch_stats bs = pf_batch_get_stats(fix);
    assert_true(bs.grouped > 0 && bs.deduped > 0 && bs.suspended > 0);

    /* max_queries live at once; the next is refused, and a reset makes room again */
    pf_query_id id;
    pf_batch_query q = {.start = open_cell(m, &s), .goal = open_cell(m, &s)};
    count_from_here();
    for (uint32_t i = 0; i < 200; i++) assert_int_equal(pf_batch_submit(fix, &q, &id), PF_OK);
    assert_int_equal(pf_batch_submit(fix, &q, &id), PF_CAPACITY_EXCEEDED);
    assert_int_equal(pf_batch_run(fix, NULL), PF_OK);
    assert_int_equal(pf_batch_submit(fix, &q, &id), PF_CAPACITY_EXCEEDED); /* finished, not expired */
    assert_int_equal(pf_batch_reset(fix), PF_OK);
    assert_int_equal(pf_batch_submit(fix, &q, &id), PF_OK);
    assert_int_equal(pf_batch_run(fix, NULL), PF_OK);
    assert_int_equal(allocations(), 0);
    assert_int_equal(hook_calls, 0);
    pf_batch_destroy(fix);
    assert_int_equal(hook_calls, 0);
    buffer_free(&buf);
    pf_batch_destroy(dyn);
    pf_jps_table_destroy(t);
    pf_map_destroy(m);
}

static void test_batch_fixed_arena(void **state)
{
    (void)state;
    pf_map *m = make_grid(300, 40, 0, 8);
    pf_batch_desc d = {.workers = 1, .max_queries = 8, .arena_bytes = 256, .flags = PF_BATCH_NO_DEDUP};
    size_t need = pf_batch_estimate(m, &d);
    void *mem = malloc(need);
    pf_batch *b;
    assert_int_equal(pf_batch_init_static(mem, need, m, &d, &b), PF_OK);
    /* 64 cells of path fit in 256 bytes, 300 do not: that query alone fails */
    pf_query_id shortq, longq, other;
    count_from_here();
    assert_int_equal(pf_batch_submit(b, &(pf_batch_query){.start = pf_grid_node(m, 0, 0),
                                                           .goal = pf_grid_node(m, 20, 0)}, &shortq), PF_OK);
    assert_int_equal(pf_batch_submit(b, &(pf_batch_query){.start = pf_grid_node(m, 0, 1),
                                                           .goal = pf_grid_node(m, 299, 1)}, &longq), PF_OK);
    assert_int_equal(pf_batch_submit(b, &(pf_batch_query){.start = pf_grid_node(m, 0, 2),
                                                           .goal = pf_grid_node(m, 30, 2)}, &other), PF_OK);
    assert_int_equal(pf_batch_run(b, NULL), PF_OK);
    assert_int_equal(allocations(), 0);
    pf_batch_result r;
    assert_int_equal(pf_batch_get(b, longq, &r), PF_OK);
    assert_int_equal(r.status, PF_OUT_OF_MEMORY);
    assert_int_equal(pf_batch_get(b, shortq, &r), PF_OK);
    assert_int_equal(r.status, PF_OK);
    assert_int_equal(r.path_len, 21);
    assert_int_equal(pf_batch_get(b, other, &r), PF_OK);
    assert_int_equal(r.status, PF_OK);
    assert_int_equal(r.path_len, 31);
    pf_batch_destroy(b);
    free(mem);
    pf_map_destroy(m);
}

/* A group search on a worker whose open list is full reports PF_CAPACITY_EXCEEDED, as a single
 * search does, and marks the query grouped (not PF_OUT_OF_MEMORY: nothing could have grown). */
static void test_batch_group_capacity(void **state)
{
    (void)state;
    pf_map *m = make_grid(200, 200, 0, 3);
    pf_batch_desc d = {.workers = 1, .max_queries = 8, .heap_capacity = 16, .flags = PF_BATCH_NO_DEDUP};
    size_t need = pf_batch_estimate(m, &d);
    void *mem = malloc(need);
    pf_batch *b;
    assert_int_equal(pf_batch_init_static(mem, need, m, &d, &b), PF_OK);
    pf_query_id id[6];
    for (uint32_t i = 0; i < 6; i++)
        assert_int_equal(pf_batch_submit(b, &(pf_batch_query){.start = pf_grid_node(m, i, 0),
                                                               .goal = pf_grid_node(m, 190, 190)}, &id[i]), PF_OK);
    assert_int_equal(pf_batch_run(b, NULL), PF_OK);
    for (uint32_t i = 0; i < 6; i++) {
        pf_batch_result r;
        assert_int_equal(pf_batch_get(b, id[i], &r), PF_OK);
        assert_true(r.flags & PF_BATCH_RESULT_GROUPED);
        assert_int_equal(r.status, PF_CAPACITY_EXCEEDED);
    }
    pf_batch_destroy(b);
    free(mem);
    pf_map_destroy(m);
}

/* Maps under 1,024 padded cells (a second review): JPS's path buffer asked for 1,024 entries where
 * the context in caller memory has the cell count carved, and every JPS and JPS+ query answered
 * PF_OUT_OF_MEMORY; static batches the same. Sizes from 3x3 to 30x30, against heap contexts. */
static void test_small_maps_jps(void **state)
{
    (void)state;
    for (uint32_t side = 3; side <= 30; side += 3) {
        pf_map *m = make_grid(side, side, 15, side);
        pf_jps_table *t;
        assert_int_equal(pf_jps_table_create(m, NULL, &t), PF_OK);
        pf_ctx *dyn, *fix;
        assert_int_equal(pf_ctx_create(m, &(pf_ctx_desc){.jps_table = t}, &dyn), PF_OK);
        pf_ctx_desc sd = {.jps_table = t};
        size_t need = pf_ctx_estimate(m, &sd);
        buffer b = buffer_make(need, 0);
        assert_int_equal(pf_ctx_init_static(b.mem, need, m, &sd, &fix), PF_OK);
        uint64_t s = side;
        for (int q = 0; q < 20; q++) {
            uint32_t a = open_cell(m, &s), g = open_cell(m, &s);
            for (int k = 0; k < NDESC; k++) expect_same(dyn, fix, a, g, &DESCS[k]);
            pf_stats st;
            pf_status r = pf_search(fix, a, g, &(pf_search_desc){.algo = PF_ALGO_JPS}, NULL, &st);
            assert_true(r == PF_OK || r == PF_NO_PATH);
        }
        pf_ctx_destroy(fix);
        buffer_free(&b);
        /* a static batch of JPS queries on the same map */
        pf_batch_desc bd = {.workers = 1, .max_queries = 8, .jps_table = t};
        size_t bneed = pf_batch_estimate(m, &bd);
        buffer bb = buffer_make(bneed, 0);
        pf_batch *batch;
        assert_int_equal(pf_batch_init_static(bb.mem, bneed, m, &bd, &batch), PF_OK);
        uint32_t a = open_cell(m, &s), g = open_cell(m, &s);
        pf_batch_query bq = {.start = a, .goal = g, .search = {.algo = PF_ALGO_JPS}};
        pf_query_id id;
        assert_int_equal(pf_batch_submit(batch, &bq, &id), PF_OK);
        assert_int_equal(pf_batch_run(batch, NULL), PF_OK);
        pf_batch_result res;
        assert_int_equal(pf_batch_get(batch, id, &res), PF_OK);
        pf_stats want;
        pf_status wr = pf_search(dyn, a, g, &(pf_search_desc){.algo = PF_ALGO_JPS}, NULL, &want);
        if (res.status != wr) fail_msg("%ux%u batch: %s, a heap context: %s", side, side, pf_status_name(res.status),
                                       pf_status_name(wr));
        pf_batch_destroy(batch);
        buffer_free(&bb);
        pf_ctx_destroy(dyn);
        pf_jps_table_destroy(t);
        pf_map_destroy(m);
    }
}

/* A failed pf_batch_init_static (a JPS table of another map) left the batch, in the caller's
 * memory, following the map: the next edit called into that memory after the caller reused it
 * (a review: ASan heap-use-after-free). The memory is scribbled over here before the edit. And in
 * caller memory the size limits count the contexts it carves (about 32 bytes a cell), not a heap
 * batch's (16): 200 spare slots on 2000x2000 asked for 24 GiB and passed the 16 GiB limit. */
static void test_batch_static_refusals(void **state)
{
    (void)state;
    pf_map *m = make_grid(40, 30, 20, 9), *other = make_grid(40, 30, 20, 10);
    pf_jps_table *t, *own;
    assert_int_equal(pf_jps_table_create(other, NULL, &t), PF_OK);
    assert_int_equal(pf_jps_table_create(m, NULL, &own), PF_OK);
    pf_batch_desc bd = {.workers = 1, .max_queries = 8, .jps_table = t};
    assert_int_equal(pf_batch_estimate(m, &bd), 0); /* refused: no size */
    size_t need = pf_batch_estimate(m, &(pf_batch_desc){.workers = 1, .max_queries = 8, .jps_table = own});
    assert_true(need > 0); /* the room the batch would take with a table of its map */
    unsigned char *mem = malloc(need);
    assert_non_null(mem);
    pf_batch *b;
    assert_int_equal(pf_batch_init_static(mem, need, m, &bd, &b), PF_WRONG_MAP);
    assert_null(b);
    memset(mem, 0x5A, need);
    free(mem);
    assert_int_equal(pf_grid_apply_edits(m, &(pf_grid_edit){.rect = {1, 1, 2, 2}, .cls = 0}, 1, NULL), PF_OK);
    pf_jps_table_destroy(t);
    pf_jps_table_destroy(own);
    pf_map_destroy(other);
    pf_map_destroy(m);

    pf_map *big;
    assert_int_equal(pf_grid_create(&(pf_grid_desc){.width = 2000, .height = 2000}, &big), PF_OK);
    pf_batch_desc many = {.suspend_slots = 200};
    assert_int_equal(pf_batch_check(big, &many, NULL), PF_OK); /* heap spares: made lazily, 16 B a cell */
    assert_int_equal(pf_batch_estimate(big, &many), 0);
    assert_int_equal(pf_batch_init_static(NULL, 0, big, &many, &b), PF_TOO_LARGE);
    pf_batch_desc wide = {.workers = 200};
    assert_int_equal(pf_batch_init_static(NULL, 0, big, &wide, &b), PF_TOO_LARGE);
    assert_true(pf_batch_estimate(big, &(pf_batch_desc){.suspend_slots = 100}) > 0);
    pf_map_destroy(big);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ctx_estimate_and_refusal), cmocka_unit_test(test_ctx_same_answers_no_allocation),
        cmocka_unit_test(test_ctx_graph),                cmocka_unit_test(test_ctx_fixed_capacities),
        cmocka_unit_test(test_batch_static),             cmocka_unit_test(test_batch_fixed_arena),
        cmocka_unit_test(test_batch_group_capacity),      cmocka_unit_test(test_ctx_sized_partial),
        cmocka_unit_test(test_small_maps_jps),            cmocka_unit_test(test_batch_static_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
