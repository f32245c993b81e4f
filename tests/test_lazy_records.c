/* test_lazy_records.c - node records on lazy pages (pf__alloc_lazy): a context made without
 * pre-faulting maps only what its searches touch; pf__ctx_trim gives back the pages a suspended
 * search does not use and pf__ctx_release all of them, and neither changes an answer. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "pathfind.h"
#include "search/ctx_internal.h"
#include "core_batch_internal.h" /* pf__ctx_trim, pf__ctx_release */
#include "jps/jps_internal.h"   /* the jump-point parents */
#include "testutil.h"

#define W 600u
#define H 600u

/* An open field with scattered walls: searches spread over many rows. */
static pf_map *field_of(uint32_t w, uint32_t h)
{
    uint8_t *cells = malloc((size_t)w * h);
    assert_non_null(cells);
    uint64_t seed = 11;
    for (uint32_t i = 0; i < w * h; i++) cells[i] = rng_below(&seed, 100) < 20 ? 0 : 1;
    cells[0] = cells[w * h - 1] = cells[(h / 2) * w + w / 2] = 1;
    pf_map *m;
    assert_int_equal(pf_grid_create(&(pf_grid_desc){.width = w, .height = h, .cells = cells}, &m), PF_OK);
    free(cells);
    return m;
}

static pf_map *field(void) { return field_of(W, H); }

/* Pages of [p, p + bytes) that are mapped now; (size_t)-1 where that cannot be known. */
static size_t mapped_of(void *p, size_t bytes)
{
    size_t ps = pf__page_size(), np = (bytes + ps - 1) / ps, n = 0;
    unsigned char *v = malloc(np);
    assert_non_null(v);
    if (!pf__resident_pages(p, bytes, v)) {
        free(v);
        return (size_t)-1;
    }
    for (size_t i = 0; i < np; i++) n += v[i] & 1u;
    free(v);
    return n;
}

/* Pages of the context's records (their lazy backing pages: nodes_internal.h) mapped now. */
static size_t mapped_pages(const pf_ctx *ctx)
{
    return mapped_of(ctx->nodes.back, (size_t)ctx->nodes.npage * PF__PAGE_BYTES);
}

typedef struct answer {
    pf_status st;
    double    cost;
    uint64_t  expanded;
    uint32_t  len;
    uint32_t  nodes[4096];
} answer;

static void finish(pf_ctx *ctx, answer *a)
{
    pf_path p = {.nodes = a->nodes, .capacity = 4096};
    pf_stats s = {0}; /* left alone when there is no search to read (a blocked cell asked) */
    a->st = pf_search_path(ctx, &p, &s);
    a->cost = s.cost;
    a->expanded = s.expanded;
    a->len = p.len;
}

static void same(const answer *a, const answer *b)
{
    assert_int_equal(a->st, b->st);
    assert_true(a->cost == b->cost);
    assert_int_equal(a->expanded, b->expanded);
    assert_int_equal(a->len, b->len);
    assert_memory_equal(a->nodes, b->nodes, a->len * sizeof a->nodes[0]);
}

/* A search trimmed (and resumed) between its slices answers as one run in a pre-faulted context,
 * also when earlier searches left their records in the context's pages. */
static void test_trim_keeps_the_search(void **state)
{
    (void)state;
    pf_map *m = field();
    pf_ctx *lazy, *ref;
    assert_int_equal(pf_ctx_create(m, &(pf_ctx_desc){.prefault = PF_PREFAULT_NONE}, &lazy), PF_OK);
    assert_int_equal(pf_ctx_create(m, NULL, &ref), PF_OK);
    answer *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    assert_non_null(a);
    assert_non_null(b);
    uint64_t seed = 5;
    for (int k = 0; k < 12; k++) {
        uint32_t s = pf_grid_node(m, rng_below(&seed, W), rng_below(&seed, H));
        uint32_t g = pf_grid_node(m, rng_below(&seed, W), rng_below(&seed, H));
        pf_search_begin(ref, s, g, NULL);
        pf_search_step(ref, 0);
        finish(ref, a);
        pf_status st = pf_search_begin(lazy, s, g, NULL);
        while (st == PF_IN_PROGRESS) {
            pf__ctx_trim(lazy);
            st = pf_search_step(lazy, 500);
        }
        finish(lazy, b);
        same(a, b);
        if (k % 3 == 2) pf__ctx_release(lazy);
    }
    free(a);
    free(b);
    pf_ctx_destroy(lazy);
    pf_ctx_destroy(ref);
    pf_map_destroy(m);
}

/* What a trim keeps follows the search in progress: after a search over the whole map, a small
 * search's trim leaves a small part mapped; a release leaves nothing. Lazy pages exist with the
 * default allocator on Linux; elsewhere the context is an ordinary one and this has nothing to see. */
static void test_pages_trim_gives_back(void **state)
{
    (void)state;
    pf_map *m = field();
    pf_ctx *ctx;
    assert_int_equal(pf_ctx_create(m, &(pf_ctx_desc){.prefault = PF_PREFAULT_NONE}, &ctx), PF_OK);
    if (!ctx->lazy || mapped_pages(ctx) == (size_t)-1) {
        pf_ctx_destroy(ctx);
        pf_map_destroy(m);
        SKIP_BECAUSE("no lazy record pages, or their residency cannot be read (not Linux, or another allocator)");
    }
    size_t total = ((size_t)ctx->nodes.npage * PF__PAGE_BYTES + pf__page_size() - 1) / pf__page_size();
    assert_int_equal(mapped_pages(ctx), 0); /* created: nothing of the records mapped */
    assert_int_equal(pf_search_tree(ctx, pf_grid_node(m, 0, 0), NULL), PF_OK);
    size_t full = mapped_pages(ctx);
    assert_true(full > total / 2);
    /* a short search in the middle, suspended */
    uint32_t mid = pf_grid_node(m, W / 2, H / 2);
    assert_int_equal(pf_search_begin(ctx, mid, pf_grid_node(m, W - 1, H - 1), NULL), PF_IN_PROGRESS);
    assert_int_equal(pf_search_step(ctx, 200), PF_IN_PROGRESS);
    pf__ctx_trim(ctx);
    size_t kept = mapped_pages(ctx);
    assert_true(kept > 0 && kept < full / 8);
    /* it goes on to the right answer */
    assert_int_equal(pf_search_step(ctx, 0), PF_OK);
    pf_stats s;
    assert_int_equal(pf_search_path(ctx, NULL, &s), PF_OK);
    assert_true(isfinite(s.cost));
    pf__ctx_release(ctx);
    assert_int_equal(mapped_pages(ctx), 0);
    assert_true(isinf(pf_ctx_cost(ctx, mid)));
    pf_ctx_destroy(ctx);
    pf_map_destroy(m);
}

/* Released records are all stale, also across the generation wrap (the stamps then read 0). */
static void test_release_and_wrap(void **state)
{
    (void)state;
    pf_map *m = field();
    pf_ctx *ctx, *ref;
    assert_int_equal(pf_ctx_create(m, &(pf_ctx_desc){.prefault = PF_PREFAULT_NONE}, &ctx), PF_OK);
    assert_int_equal(pf_ctx_create(m, NULL, &ref), PF_OK);
    answer *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    assert_non_null(a);
    assert_non_null(b);
    uint32_t gens[] = {PF__GEN_MASK - 1, PF__GEN_MASK, 1};
    uint64_t seed = 9;
    for (size_t gi = 0; gi < 3; gi++) {
        pf_search_tree(ctx, pf_grid_node(m, rng_below(&seed, W), rng_below(&seed, H)), NULL);
        pf__ctx_release(ctx);
        pf__ctx_set_gen(ctx, gens[gi]);
        for (int k = 0; k < 3; k++) {
            uint32_t s = pf_grid_node(m, rng_below(&seed, W), rng_below(&seed, H));
            uint32_t g = pf_grid_node(m, rng_below(&seed, W), rng_below(&seed, H));
            pf_search_begin(ref, s, g, NULL);
            pf_search_step(ref, 0);
            finish(ref, a);
            pf_search_begin(ctx, s, g, NULL);
            pf_search_step(ctx, 0);
            finish(ctx, b);
            same(a, b);
        }
    }
    free(a);
    free(b);
    pf_ctx_destroy(ctx);
    pf_ctx_destroy(ref);
    pf_map_destroy(m);
}

/* A fresh context's first short query writes its records on the spare pages made with the
 * context (nodes_internal.h): nothing of the backing is mapped, so the query pays no page fault.
 * A trim and a release make the spares whole again, zeroed, and the answers stay the reference's. */
static void test_first_query_on_spares(void **state)
{
    (void)state;
    pf_map *m = field();
    pf_ctx *ctx, *ref;
    assert_int_equal(pf_ctx_create(m, &(pf_ctx_desc){.prefault = PF_PREFAULT_NONE}, &ctx), PF_OK);
    assert_int_equal(pf_ctx_create(m, NULL, &ref), PF_OK);
    answer *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    assert_non_null(a);
    assert_non_null(b);
    assert_int_equal(ctx->nodes.spare_cap, PF__NODES_SPARE); /* a 600x600 field has more pages */
    assert_int_equal(ctx->nodes.nspare, ctx->nodes.spare_cap);
    const size_t made = pf_ctx_mem_size(ctx); /* the spares are counted from the start */
    uint32_t s = pf_grid_node(m, W / 2, H / 2), g = pf_grid_node(m, W / 2 + 6, H / 2 + 3);
    for (int round = 0; round < 3; round++) {
        /* the next goal the reference reaches (a fifth of the field is walls) */
        for (;;) {
            pf_search_begin(ref, s, g, NULL);
            pf_search_step(ref, 0);
            finish(ref, a);
            if (a->st == PF_OK) break;
            g++;
        }
        pf_search_begin(ctx, s, g, NULL);
        pf_search_step(ctx, 0);
        finish(ctx, b);
        same(a, b);
        assert_int_equal(a->st, PF_OK);
        assert_true(ctx->nodes.taken > 0 && ctx->nodes.taken <= ctx->nodes.spare_cap);
        assert_int_equal(ctx->nodes.nspare + ctx->nodes.taken, ctx->nodes.spare_cap);
        if (ctx->lazy && mapped_pages(ctx) != (size_t)-1) assert_int_equal(mapped_pages(ctx), 0);
        if (ctx->lazy) assert_int_equal(pf_ctx_mem_size(ctx), made);
        /* given back: by a trim once another search left them stale, or by a release */
        if (round == 0) {
            pf_search_begin(ctx, g, g, NULL);
            pf__ctx_trim(ctx);
            assert_true(ctx->nodes.taken <= 1);
        } else {
            pf__ctx_release(ctx);
            assert_int_equal(ctx->nodes.taken, 0);
            assert_int_equal(ctx->nodes.nspare, ctx->nodes.spare_cap);
        }
        s = g;
        g = s + 5u + W * 2u;
    }
    free(a);
    free(b);
    pf_ctx_destroy(ctx);
    pf_ctx_destroy(ref);
    pf_map_destroy(m);
}

/* A graph's parents (4 bytes a node, beside the pages) follow use too: after a search over the
 * whole graph, a short search's trim leaves few of their pages mapped and a release none. */
static void test_pages_graph_parents_follow(void **state)
{
    (void)state;
    const uint32_t n = 600000; /* a ring: every node reached by a tree search */
    pf_edge *e = malloc((size_t)n * sizeof *e);
    assert_non_null(e);
    for (uint32_t i = 0; i < n; i++) e[i] = (pf_edge){i, (i + 1) % n, 1.0};
    pf_map *m;
    assert_int_equal(pf_graph_create(&(pf_graph_desc){.node_count = n, .edge_count = n, .edges = e}, &m), PF_OK);
    free(e);
    pf_ctx *c;
    assert_int_equal(pf_ctx_create(m, &(pf_ctx_desc){.prefault = PF_PREFAULT_NONE}, &c), PF_OK);
    const size_t bytes = (size_t)n * sizeof(uint32_t);
    if (!c->lazy || !c->nodes.back_lazy || mapped_of(c->parent, bytes) == (size_t)-1) {
        pf_ctx_destroy(c);
        pf_map_destroy(m);
        SKIP_BECAUSE("no lazy parent pages, or their residency cannot be read (not Linux, or another allocator)");
    }
    assert_int_equal(pf_search_tree(c, 0, NULL), PF_OK);
    const size_t full = mapped_of(c->parent, bytes);
    assert_true(full > bytes / pf__page_size() / 2);
    assert_int_equal(pf_search_begin(c, 5, 10, NULL), PF_IN_PROGRESS);
    assert_int_equal(pf_search_step(c, 0), PF_OK);
    pf__ctx_trim(c);
    assert_true(mapped_of(c->parent, bytes) <= 2);
    assert_true(pf_ctx_parent(c, 10) == 9);
    pf__ctx_release(c);
    assert_int_equal(mapped_of(c->parent, bytes), 0);
    pf_ctx_destroy(c);
    pf_map_destroy(m);
}

/* A user's allocator gets no lazy pages: its records' pages are cleared as they are taken, trim
 * keeps the search going, and release makes every record stale as with lazy pages. */

static void test_user_allocator(void **state)
{
    (void)state;
    pf_map *m = field();
    pf_ctx *ctx, *ref;
    test_tracker user = {.countdown = -1};
    assert_int_equal(pf_ctx_create(m, &(pf_ctx_desc){.prefault = PF_PREFAULT_NONE,
                                                     .allocator = test_tracked(&user)},
                                   &ctx),
                     PF_OK);
    assert_int_equal(ctx->lazy, 0);
    assert_true(user.calls >= 3); /* the context, its records, its open list */
    assert_int_equal(pf_ctx_create(m, NULL, &ref), PF_OK);
    answer *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    assert_non_null(a);
    assert_non_null(b);
    uint32_t s = pf_grid_node(m, 0, 0), g = pf_grid_node(m, W - 1, H - 1);
    pf_search_begin(ref, s, g, NULL);
    pf_search_step(ref, 0);
    finish(ref, a);
    pf_status st = pf_search_begin(ctx, s, g, NULL);
    while (st == PF_IN_PROGRESS) {
        pf__ctx_trim(ctx);
        st = pf_search_step(ctx, 1000);
    }
    finish(ctx, b);
    same(a, b);
    assert_true(pf_ctx_cost(ctx, g) == a->cost);
    pf__ctx_release(ctx);
    assert_true(isinf(pf_ctx_cost(ctx, g)));
    /* and the records taken again are cleared: the same answer after a release */
    pf_search_begin(ctx, s, g, NULL);
    pf_search_step(ctx, 0);
    finish(ctx, b);
    same(a, b);
    free(a);
    free(b);
    pf_ctx_destroy(ctx);
    pf_ctx_destroy(ref);
    pf_map_destroy(m);
}

/* Pages of a lazy context's JPS parents mapped now. */
static size_t parent_pages(const pf_ctx *ctx)
{
    const pf__jps_ext *x = ctx->ext[PF__EXT_JPS];
    size_t ps = pf__page_size(), bytes = (size_t)ctx->count * sizeof(uint32_t), np = (bytes + ps - 1) / ps, n = 0;
    unsigned char *v = malloc(np);
    assert_non_null(v);
    assert_true(pf__resident_pages(x->parent, bytes, v));
    for (size_t i = 0; i < np; i++) n += v[i] & 1u;
    free(v);
    return n;
}

/* JPS's jump-point parents (4 bytes a cell) live on lazy pages in a lazy context: a trim keeps the
 * pages of the search's live records and the answers stay those of a pre-faulted context; a
 * release gives back all of them. The map is big enough (over a million cells) for the parents to
 * be mapped by the library. */
static void test_pages_jps_parents_follow(void **state)
{
    (void)state;
    const uint32_t w = 1100, h = 1000;
    pf_map *m = field_of(w, h);
    pf_ctx *lazy, *ref;
    assert_int_equal(pf_ctx_create(m, &(pf_ctx_desc){.prefault = PF_PREFAULT_NONE}, &lazy), PF_OK);
    assert_int_equal(pf_ctx_create(m, NULL, &ref), PF_OK);
    const pf_search_desc jps = {.algo = PF_ALGO_JPS};
    /* a crossing maps parents over much of the map */
    assert_int_equal(pf_search(lazy, pf_grid_node(m, 0, 0), pf_grid_node(m, (int32_t)w - 1, (int32_t)h - 1), &jps,
                               NULL, NULL),
                     PF_OK);
    const pf__jps_ext *x = lazy->ext[PF__EXT_JPS];
    assert_non_null(x);
    if (!lazy->lazy || !x->parent_lazy) { /* not Linux, or another allocator: nothing to see */
        pf_ctx_destroy(lazy);
        pf_ctx_destroy(ref);
        pf_map_destroy(m);
        SKIP_BECAUSE("no lazy JPS parent pages (not Linux, or another allocator)");
    }
    size_t full = parent_pages(lazy);
    assert_true(full > 0);
    answer *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    assert_non_null(a);
    assert_non_null(b);
    uint64_t seed = 9;
    for (int k = 0; k < 8; k++) {
        /* short ones in the middle first: a trim then leaves a small part of the parents mapped */
        int32_t r = k < 2 ? 40 : (int32_t)w / 2;
        uint32_t s = pf_grid_node(m, (int32_t)w / 2, (int32_t)h / 2), g;
        for (;;) {
            int32_t gx = (int32_t)w / 2 - r + (int32_t)rng_below(&seed, (uint32_t)(2 * r)),
                    gy = (int32_t)h / 2 - r + (int32_t)rng_below(&seed, (uint32_t)(2 * r));
            g = pf_grid_node(m, gx, gy);
            if (pf_grid_class(m, gx, gy)) break;
        }
        pf_status rs = pf_search_begin(ref, s, g, &jps);
        if (rs == PF_IN_PROGRESS) pf_search_step(ref, 0);
        finish(ref, a);
        pf_status st = pf_search_begin(lazy, s, g, &jps);
        int sliced = 0;
        while (st == PF_IN_PROGRESS) {
            pf__ctx_trim(lazy);
            if (k == 0 && sliced++ == 1) {
                size_t kept = parent_pages(lazy);
                assert_true(kept > 0 && kept < full / 8);
            }
            st = pf_search_step(lazy, k == 0 ? 5 : 50);
        }
        if (k == 0) assert_true(sliced >= 2);
        finish(lazy, b);
        same(a, b);
    }
    pf__ctx_release(lazy);
    assert_int_equal(parent_pages(lazy), 0);
    free(a);
    free(b);
    pf_ctx_destroy(lazy);
    pf_ctx_destroy(ref);
    pf_map_destroy(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_trim_keeps_the_search),
        cmocka_unit_test(test_pages_trim_gives_back),
        cmocka_unit_test(test_release_and_wrap),
        cmocka_unit_test(test_first_query_on_spares),
        cmocka_unit_test(test_pages_graph_parents_follow),
        cmocka_unit_test(test_user_allocator),
        cmocka_unit_test(test_pages_jps_parents_follow),
    };
    return RUN_TESTS(tests);
}
