/* test_prop_edit.c - living maps: after random sequences of edits (rectangles of 1x1 to 50x50 of
 * every terrain, placed and then removed again), every answer on the edited map equals the answer
 * on a map freshly created from the same cells, bit for bit: fingerprint, weightedness and smallest
 * multiplier, connected components (as a partition), JPS bitmaps and JPS+ distances (shared and
 * per-context copies), A*, JPS, JPS+ searches (status, cost, path, expansions), first-move tables
 * (every entry), and batches (single, deduplicated and group queries, some suspended by a budget
 * when the map changes: restarted, or finished on their version by option); and edits whose
 * rectangle is the whole map, changing few or many cells (JPS+ distances byte for byte). Every move rule,
 * unweighted and weighted grids. Seeds are printed on failure (PF_TEST_SEED replays one);
 * PF_TEST_SCALE scales the number of maps. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pathfind.h"
#include "jps/jps_internal.h"
#include "components_check.h"
#include "table/table_internal.h"
#include "batch_internal.h"
#include "testutil.h"
#include "oracle.h"
#include "maps.h"

static uint64_t g_seed;
static char g_where[200];

static const char TERRAIN[] = ".GSWT@O";

/* The cells as the test's edits make them, kept apart from the map: a fresh copy built from the
 * map's own pf_grid_read would carry any cell the edit wrote wrong into the reference too. */
typedef struct shadow {
    uint32_t w, h;
    pf_moves moves;
    uint8_t *cls;
    float   *cost; /* 1 everywhere while no open cell costs other than 1 (pf_grid.h) */
} shadow;

typedef struct world {
    pf_map *map;             /* edited in place */
    shadow sh;               /* its cells, by the edits made */
    pf_jps_table *jt;        /* shared table following the map (8-connected grids) */
    pf_ctx *ctx_shared;      /* searches with jt attached */
    pf_ctx *ctx_own;         /* builds and follows its own JPS data */
    uint32_t w, h;
    pf_moves moves;
    int weighted;
} world;

/* Cost of a terrain character on weighted worlds ('S' swamp is slow ground). */
static float char_cost(char c) { return c == 'S' ? 3.0f : c == 'G' ? 1.5f : c == 'W' ? 2.0f : 1.0f; }

/* Starts from the map as created, before any edit. */
static void shadow_init(shadow *sh, const pf_map *m)
{
    sh->w = pf_grid_width(m);
    sh->h = pf_grid_height(m);
    sh->moves = pf_grid_moves(m);
    sh->cls = malloc((size_t)sh->w * sh->h);
    sh->cost = malloc((size_t)sh->w * sh->h * sizeof(float));
    assert_int_equal(pf_grid_read(m, (pf_rect){0, 0, sh->w, sh->h}, sh->cls, sh->cost), PF_OK);
}

static void shadow_free(shadow *sh)
{
    free(sh->cls);
    free(sh->cost);
}

static int shadow_weighted(const shadow *sh)
{
    for (size_t i = 0; i < (size_t)sh->w * sh->h; i++)
        if (sh->cls[i] && sh->cost[i] != 1.0f) return 1;
    return 0;
}

/* One pf_grid_apply_edits call of one edit, by pf_grid.h's rules: a grid whose open cells all
 * cost 1 keeps no multiplier, a blocked cell's included. */
static void shadow_edit(shadow *sh, const pf_grid_edit *e)
{
    uint32_t what = e->what ? e->what : PF_EDIT_CLASS;
    for (uint32_t y = 0; y < e->rect.h; y++)
        for (uint32_t x = 0; x < e->rect.w; x++) {
            size_t c = (size_t)((uint32_t)e->rect.y + y) * sh->w + (uint32_t)e->rect.x + x, i = (size_t)y * e->rect.w + x;
            if (what & PF_EDIT_CLASS) sh->cls[c] = e->classes ? e->classes[i] : e->cls;
            if (what & PF_EDIT_COST) sh->cost[c] = e->costs ? e->costs[i] : e->cost;
        }
    if (!shadow_weighted(sh))
        for (size_t i = 0; i < (size_t)sh->w * sh->h; i++) sh->cost[i] = 1.0f;
}

/* The map reads back the shadow's cells, every one. */
static void shadow_check(const shadow *sh, const pf_map *m)
{
    size_t n = (size_t)sh->w * sh->h;
    uint8_t *cls = malloc(n);
    float *cost = malloc(n * sizeof(float));
    assert_int_equal(pf_grid_read(m, (pf_rect){0, 0, sh->w, sh->h}, cls, cost), PF_OK);
    for (size_t i = 0; i < n; i++)
        if (cls[i] != sh->cls[i] || cost[i] != sh->cost[i]) {
            print_message("cell (%zu,%zu): class %u cost %g, the edits made class %u cost %g\n", i % sh->w, i / sh->w,
                          cls[i], (double)cost[i], sh->cls[i], (double)sh->cost[i]);
            PCHECK(cls[i] == sh->cls[i] && cost[i] == sh->cost[i]);
        }
    PCHECK(pf_grid_weighted(m) == shadow_weighted(sh));
    free(cls);
    free(cost);
}

/* A map freshly created from the shadow's cells. */
static pf_map *fresh_copy(const shadow *sh)
{
    return grid_make(sh->w, sh->h, sh->moves, sh->cls, shadow_weighted(sh) ? sh->cost : NULL);
}

/* Components as a partition: the labels of both maps correspond one to one. */
static void check_components(const pf_map *a, const pf_map *b)
{
    uint32_t w = pf_grid_width(a), h = pf_grid_height(a);
    PCHECK(pf_grid_component_count(a) == pf_grid_component_count(b));
    size_t n = (size_t)a->pw * a->ph;
    uint32_t *ab = calloc(n, sizeof(uint32_t)), *ba = calloc(n, sizeof(uint32_t));
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            uint32_t la = pf_grid_component(a, (int32_t)x, (int32_t)y), lb = pf_grid_component(b, (int32_t)x, (int32_t)y);
            PCHECK((la == 0) == (lb == 0));
            PCHECK((la == 0) == (pf_grid_class(a, (int32_t)x, (int32_t)y) == 0));
            if (!la) continue;
            PCHECK(la < n && lb < n);
            if (!ab[la]) ab[la] = lb;
            if (!ba[lb]) ba[lb] = la;
            PCHECK(ab[la] == lb && ba[lb] == la);
        }
    /* the bookkeeping the updates rely on (nodes, edges, sizes) is exact */
    char why[200] = "";
    int consistent = pf__grid_components_check(a, why, sizeof why);
    if (!consistent) print_message("components: %s\n", why);
    PCHECK(consistent);
    free(ab);
    free(ba);
}

/* The parts of `t` that are built equal a fresh build's, bit for bit. */
static void check_jps_data(const pf_jps_table *t, const pf_jps_table *f, const pf_map *m)
{
    PCHECK(t->version == m->version);
    PCHECK(t->fingerprint == m->fingerprint);
    size_t rb = (size_t)m->ph * t->rw * sizeof(uint64_t), cb = (size_t)m->pw * t->cw * sizeof(uint64_t);
    for (int k = 1; k < 256; k++) {
        if (!t->rows[k] || !f->rows[k]) continue;
        PCHECK(memcmp(t->rows[k], f->rows[k], rb) == 0);
        PCHECK(memcmp(t->cols[k], f->cols[k], cb) == 0);
    }
    if (t->dist && f->dist) PCHECK(memcmp(t->dist, f->dist, (size_t)m->pw * m->ph * 16u) == 0);
}

static uint32_t random_open(const pf_map *m, uint64_t *rs)
{
    uint32_t w = pf_grid_width(m), h = pf_grid_height(m);
    for (int tries = 0; tries < 400; tries++) {
        int32_t x = (int32_t)rng_below(rs, w), y = (int32_t)rng_below(rs, h);
        if (pf_grid_class(m, x, y)) return pf_grid_node(m, x, y);
    }
    return PF_NODE_NONE;
}

/* Same query on both contexts: same status, cost bits, path and expansion count. */
static void same_answer(pf_ctx *a, pf_ctx *b, uint32_t s, uint32_t g, pf_algo algo)
{
    static uint32_t pa[1 << 16], pb[1 << 16];
    pf_path xa = {.nodes = pa, .capacity = 1 << 16}, xb = {.nodes = pb, .capacity = 1 << 16};
    pf_stats sa, sb;
    pf_search_desc d = {.algo = algo};
    pf_status ra = pf_search(a, s, g, &d, &xa, &sa), rb = pf_search(b, s, g, &d, &xb, &sb);
    snprintf(g_where + strlen(g_where), 40, " %s %u->%u", pf_algo_name(algo), s, g);
    PCHECK(ra == rb);
    PCHECK(memcmp(&sa.cost, &sb.cost, sizeof sa.cost) == 0);
    PCHECK(sa.expanded == sb.expanded && sa.pushed == sb.pushed);
    PCHECK(xa.len == xb.len);
    PCHECK(memcmp(pa, pb, (size_t)xa.len * sizeof(uint32_t)) == 0);
}

static void compare_world(world *wd, uint64_t *rs, uint32_t queries)
{
    const pf_map *m = wd->map;
    shadow_check(&wd->sh, m);
    pf_map *f = fresh_copy(&wd->sh);
    PCHECK(pf_map_fingerprint(m) == pf_map_fingerprint(f));
    PCHECK(pf_grid_weighted(m) == pf_grid_weighted(f));
    PCHECK(m->min_cost == f->min_cost);
    check_components(m, f);
    pf_ctx *fc;
    assert_int_equal(pf_ctx_create(f, NULL, &fc), PF_OK);
    pf_jps_table *fjt = NULL;
    int jps = pf_jps_supported(f);
    if (jps) {
        assert_int_equal(pf_jps_table_create(f, &(pf_jps_desc){.threads = 1}, &fjt), PF_OK);
        assert_int_equal(pf_ctx_use_jps_table(fc, fjt), PF_OK);
        if (wd->jt) check_jps_data(wd->jt, fjt, m);
    }
    for (uint32_t q = 0; q < queries; q++) {
        uint32_t s = random_open(m, rs), g = random_open(m, rs);
        if (s == PF_NODE_NONE || g == PF_NODE_NONE) break;
        g_where[0] = 0;
        snprintf(g_where, 60, "version %llu", (unsigned long long)pf_map_version(m));
        same_answer(wd->ctx_shared, fc, s, g, PF_ALGO_ASTAR);
        if (jps) {
            same_answer(wd->ctx_shared, fc, s, g, PF_ALGO_JPS);
            same_answer(wd->ctx_shared, fc, s, g, PF_ALGO_JPS_PLUS);
            same_answer(wd->ctx_own, fc, s, g, PF_ALGO_JPS);
            same_answer(wd->ctx_own, fc, s, g, PF_ALGO_JPS_PLUS);
        }
        PCHECK(pf_grid_same_component(m, s, g) == pf_grid_same_component(f, s, g));
    }
    if (jps) {
        const pf__jps_ext *x = pf__ctx_ext_get(wd->ctx_own, PF__EXT_JPS);
        if (x) check_jps_data(&x->own, fjt, m);
    }
    pf_ctx_destroy(fc);
    pf_jps_table_destroy(fjt);
    pf_map_destroy(f);
}

/* A map with blobs of every terrain: rocks, water, trees, swamp. */
static pf_map *random_map(uint64_t *rs, uint32_t w, uint32_t h, pf_moves mv, int weighted)
{
    uint8_t *cls = malloc((size_t)w * h);
    float *cost = malloc((size_t)w * h * sizeof(float));
    double density = 0.05 + 0.3 * rng_unit(rs);
    for (uint32_t i = 0; i < w * h; i++) {
        char c = rng_unit(rs) < density ? '@' : '.';
        cls[i] = (uint8_t)pf_grid_terrain_class(c);
        cost[i] = char_cost(c);
    }
    for (int b = 0; b < 6; b++) {
        char c = TERRAIN[rng_below(rs, 7)];
        uint32_t x0 = rng_below(rs, w), y0 = rng_below(rs, h), bw = 1 + rng_below(rs, w / 3 + 1), bh = 1 + rng_below(rs, h / 3 + 1);
        for (uint32_t y = y0; y < y0 + bh && y < h; y++)
            for (uint32_t x = x0; x < x0 + bw && x < w; x++) {
                cls[y * w + x] = (uint8_t)pf_grid_terrain_class(c);
                cost[y * w + x] = char_cost(c);
            }
    }
    pf_map *m = grid_make(w, h, mv, cls, weighted ? cost : NULL);
    free(cls);
    free(cost);
    return m;
}

/* A maze of corridors `cw` cells wide between one-cell walls (a spanning tree of the corridor
 * grid, so closing a corridor cuts it in two): components spread over many 32x32 tiles. */
static pf_map *maze_map(uint64_t *rs, uint32_t w, uint32_t h, pf_moves mv, uint32_t cw)
{
    uint32_t pitch = cw + 1, gw = (w - 1) / pitch, gh = (h - 1) / pitch;
    uint8_t *cls = calloc((size_t)w * h, 1);
    uint8_t *in = calloc((size_t)gw * gh, 1);
    uint32_t *stack = malloc((size_t)gw * gh * sizeof(uint32_t)), top = 0;
    /* carve: randomised depth-first search over the corridor grid */
    stack[top++] = 0;
    in[0] = 1;
    while (top) {
        uint32_t c = stack[top - 1], cx = c % gw, cy = c / gw, opts[4], no = 0;
        if (cx > 0 && !in[c - 1]) opts[no++] = c - 1;
        if (cx + 1 < gw && !in[c + 1]) opts[no++] = c + 1;
        if (cy > 0 && !in[c - gw]) opts[no++] = c - gw;
        if (cy + 1 < gh && !in[c + gw]) opts[no++] = c + gw;
        for (uint32_t y = 0; y < cw; y++)
            for (uint32_t x = 0; x < cw; x++) cls[(1 + cy * pitch + y) * w + 1 + cx * pitch + x] = 1;
        if (!no) {
            top--;
            continue;
        }
        uint32_t n = opts[rng_below(rs, no)], nx = n % gw, ny = n / gw;
        /* open the wall between c and n */
        uint32_t x0 = 1 + (nx < cx ? nx : cx) * pitch, y0 = 1 + (ny < cy ? ny : cy) * pitch;
        uint32_t ww = nx != cx ? 2 * cw + 1 : cw, hh = ny != cy ? 2 * cw + 1 : cw;
        for (uint32_t y = 0; y < hh; y++)
            for (uint32_t x = 0; x < ww; x++) cls[(y0 + y) * w + x0 + x] = 1;
        in[n] = 1;
        stack[top++] = n;
    }
    pf_map *m = grid_make(w, h, mv, cls, NULL);
    free(cls);
    free(in);
    free(stack);
    return m;
}

static void run_world(uint64_t seed, pf_moves mv, int weighted, uint32_t edits)
{
    g_seed = seed;
    uint64_t rs = seed;
    world wd = {0};
    int maze = !weighted && seed % 3 == 0;
    wd.w = maze ? 90 + rng_below(&rs, 150) : 20 + rng_below(&rs, 60);
    wd.h = maze ? 90 + rng_below(&rs, 150) : 20 + rng_below(&rs, 60);
    wd.moves = mv;
    wd.weighted = weighted;
    /* half the weighted worlds start unweighted: the first slow cell makes them weighted (every
     * tile's hash changes), undoing it makes them unweighted again */
    int start_weighted = weighted && (seed & 1);
    wd.map = maze ? maze_map(&rs, wd.w, wd.h, mv, 1 + rng_below(&rs, 4)) : random_map(&rs, wd.w, wd.h, mv, start_weighted);
    shadow_init(&wd.sh, wd.map);
    if (pf_jps_supported(wd.map))
        assert_int_equal(pf_jps_table_create(wd.map, &(pf_jps_desc){.threads = 1}, &wd.jt), PF_OK);
    assert_int_equal(pf_ctx_create(wd.map, NULL, &wd.ctx_shared), PF_OK);
    assert_int_equal(pf_ctx_create(wd.map, NULL, &wd.ctx_own), PF_OK);
    if (wd.jt) assert_int_equal(pf_ctx_use_jps_table(wd.ctx_shared, wd.jt), PF_OK);
    compare_world(&wd, &rs, 10);

    for (uint32_t e = 0; e < edits; e++) {
        /* place a rectangle of one terrain, and often take it away again (the cells it covered
         * come back, read before it was placed) */
        uint32_t rw = 1 + rng_below(&rs, wd.w < 50 ? wd.w : 50), rh = 1 + rng_below(&rs, wd.h < 50 ? wd.h : 50);
        if (rng_below(&rs, 3)) { /* mostly buildings: small */
            rw = 1 + rng_below(&rs, 6);
            rh = 1 + rng_below(&rs, 6);
        }
        if (rw > wd.w) rw = wd.w;
        if (rh > wd.h) rh = wd.h;
        pf_rect r = {(int32_t)rng_below(&rs, wd.w - rw + 1), (int32_t)rng_below(&rs, wd.h - rh + 1), rw, rh};
        char c = TERRAIN[rng_below(&rs, 7)];
        uint8_t *old_cls = malloc((size_t)rw * rh);
        float *old_cost = malloc((size_t)rw * rh * sizeof(float));
        for (uint32_t y = 0; y < rh; y++)
            for (uint32_t x = 0; x < rw; x++) {
                size_t c0 = (size_t)((uint32_t)r.y + y) * wd.w + (uint32_t)r.x + x;
                old_cls[y * rw + x] = wd.sh.cls[c0];
                old_cost[y * rw + x] = wd.sh.cost[c0];
            }
        pf_grid_edit ed = {.rect = r, .cls = (uint8_t)pf_grid_terrain_class(c)};
        if (weighted) {
            ed.what = PF_EDIT_CLASS | PF_EDIT_COST;
            ed.cost = char_cost(c);
        }
        pf_edit_report rep;
        uint64_t v0 = pf_map_version(wd.map);
        assert_int_equal(pf_grid_apply_edits(wd.map, &ed, 1, &rep), PF_OK);
        shadow_edit(&wd.sh, &ed);
        PCHECK(rep.version == pf_map_version(wd.map));
        PCHECK(rep.version == v0 + (rep.changed ? 1u : 0u));
        snprintf(g_where, sizeof g_where, "edit %u: rect %d %d %u %u %c", e, r.x, r.y, r.w, r.h, c);
        if (rng_below(&rs, 4) == 0) compare_world(&wd, &rs, 6);
        if (rng_below(&rs, 2)) {
            pf_grid_edit back = {.rect = r, .what = PF_EDIT_CLASS | (weighted ? PF_EDIT_COST : 0u),
                                 .classes = old_cls, .costs = weighted ? old_cost : NULL};
            assert_int_equal(pf_grid_apply_edits(wd.map, &back, 1, NULL), PF_OK);
            shadow_edit(&wd.sh, &back);
            snprintf(g_where, sizeof g_where, "edit %u undone: rect %d %d %u %u", e, r.x, r.y, r.w, r.h);
            if (rng_below(&rs, 4) == 0) compare_world(&wd, &rs, 6);
        }
        free(old_cls);
        free(old_cost);
    }
    compare_world(&wd, &rs, 20);
    shadow_free(&wd.sh);
    pf_ctx_destroy(wd.ctx_shared);
    pf_ctx_destroy(wd.ctx_own);
    pf_jps_table_destroy(wd.jt);
    pf_map_destroy(wd.map);
}


/* ---- large footprints ---------------------------------------------------------------------------
 *
 * One edit whose rectangle is the whole map (an editor writing back a region it touched in a few
 * places): the JPS+ distances follow around the cells whose class changed, and when that would
 * cost more than a share of a build they are computed again in place, allocating nothing. Either
 * way the shared table and a context's own distances equal a fresh build's, byte for byte. */

typedef struct large_world {
    pf_map *map;
    test_tracker tr;   /* the shared table's allocator */
    pf_jps_table *jt;
    pf_ctx *own;       /* a context with JPS+ distances of its own */
    uint64_t inner;    /* interior cells: a recomputation reports 8 x inner entries per table */
} large_world;

static void large_open(large_world *lw, pf_map *m, uint32_t threads)
{
    lw->map = m;
    lw->tr = (test_tracker){.countdown = -1};
    assert_int_equal(pf_jps_table_create(m, &(pf_jps_desc){.allocator = test_tracked(&lw->tr), .threads = threads},
                                         &lw->jt),
                     PF_OK);
    assert_int_equal(pf_ctx_create(m, NULL, &lw->own), PF_OK);
    uint32_t a = random_open(m, &(uint64_t){g_seed});
    assert_true(a != PF_NODE_NONE);
    assert_int_equal(pf_search(lw->own, a, a, &(pf_search_desc){.algo = PF_ALGO_JPS_PLUS}, NULL, NULL), PF_OK);
    const pf__jps_ext *x = pf__ctx_ext_get(lw->own, PF__EXT_JPS);
    assert_true(x && x->own.dist);
    lw->inner = (uint64_t)(pf_grid_width(m)) * pf_grid_height(m);
}

/* Applies one edit of the whole map with the cells of `cls`; returns the report after checking
 * both followers against a fresh build. */
static pf_edit_report large_apply(large_world *lw, const uint8_t *cls, unsigned long *table_allocs)
{
    pf_map *m = lw->map;
    pf_edit_report rep;
    unsigned long calls0 = lw->tr.calls;
    assert_int_equal(pf_grid_apply_edits(m, &(pf_grid_edit){.rect = {0, 0, pf_grid_width(m), pf_grid_height(m)},
                                                            .classes = cls},
                                         1, &rep),
                     PF_OK);
    *table_allocs = lw->tr.calls - calls0;
    shadow sh = {pf_grid_width(m), pf_grid_height(m), pf_grid_moves(m), (uint8_t *)cls, NULL};
    sh.cost = malloc((size_t)sh.w * sh.h * sizeof(float));
    for (size_t i = 0; i < (size_t)sh.w * sh.h; i++) sh.cost[i] = 1.0f; /* unweighted maps */
    shadow_check(&sh, m);
    pf_map *f = fresh_copy(&sh);
    free(sh.cost);
    pf_jps_table *fjt;
    assert_int_equal(pf_jps_table_create(f, &(pf_jps_desc){.threads = 1}, &fjt), PF_OK);
    check_jps_data(lw->jt, fjt, m);
    const pf__jps_ext *x = pf__ctx_ext_get(lw->own, PF__EXT_JPS);
    PCHECK(x->own.dist != NULL);
    check_jps_data(&x->own, fjt, m);
    pf_jps_table_destroy(fjt);
    pf_map_destroy(f);
    return rep;
}

static void large_close(large_world *lw)
{
    pf_ctx_destroy(lw->own);
    pf_jps_table_destroy(lw->jt);
    pf_map_destroy(lw->map);
    PCHECK(lw->tr.live == 0);
}

/* The map's cells, read out, with cells toggled between blocked and open ground: every
 * `every`th, or with every 0 the two opposite corners (the changes span the whole map) and
 * `flips` random ones. */
static uint8_t *large_cells(const pf_map *m, uint64_t *rs, uint32_t flips, uint32_t every)
{
    uint32_t w = pf_grid_width(m), h = pf_grid_height(m);
    const size_t n = (size_t)w * h;
    uint8_t *cls = malloc(n);
    assert_non_null(cls);
    assert_int_equal(pf_grid_read(m, (pf_rect){0, 0, w, h}, cls, NULL), PF_OK);
    if (every)
        for (size_t c = 0; c < n; c += every) cls[c] = cls[c] ? 0 : 1;
    else {
        cls[0] = cls[0] ? 0 : 1;
        cls[n - 1] = cls[n - 1] ? 0 : 1;
        for (uint32_t i = 0; i < flips; i++) {
            size_t c = rng_below(rs, w * h);
            cls[c] = cls[c] ? 0 : 1;
        }
    }
    return cls;
}

static void test_large_footprints(void **state)
{
    (void)state;
    static const pf_moves rules[] = {PF_MOVES_8_NO_CUT, PF_MOVES_8_CUT};
    for (uint32_t i = 0; i < 4; i++) {
        g_seed = 9000u + i;
        uint64_t rs = g_seed;
        large_world lw = {0};
        large_open(&lw, random_map(&rs, 300, 300, rules[i & 1], 0), 1u + (i >> 1));
        unsigned long allocs;
        /* a few cells: their neighbourhoods only (every entry of the footprint's box before) */
        snprintf(g_where, sizeof g_where, "whole map, opposite corners and %u cells changed", i);
        uint8_t *cls = large_cells(lw.map, &rs, i, 0);
        pf_edit_report rep = large_apply(&lw, cls, &allocs);
        PCHECK(rep.changed >= 2u);
        PCHECK(rep.jps_updated < lw.inner); /* two tables: under an eighth of one table's entries */
        free(cls);
        /* every 7th cell: past the budget, computed again in place, nothing allocated */
        snprintf(g_where, sizeof g_where, "whole map, every 7th cell changed");
        cls = large_cells(lw.map, &rs, 0, 7u);
        rep = large_apply(&lw, cls, &allocs);
        PCHECK(rep.jps_updated == 2u * 8u * lw.inner);
        PCHECK(allocs == 0);
        free(cls);
        large_close(&lw);
    }
}

/* Few changed cells whose walks spend the budget: seeds well under it, rewritten lines over it
 * (walls dropped on open ground rewrite their rows, columns and diagonals to the border). The
 * update gives way to a recomputation part-way, and the result is still exact. */
static void test_large_walks(void **state)
{
    (void)state;
    static const pf_moves rules[] = {PF_MOVES_8_NO_CUT, PF_MOVES_8_CUT};
    for (uint32_t i = 0; i < 2; i++) {
        g_seed = 9100u + i;
        uint64_t rs = g_seed;
        const uint32_t side = 300;
        uint8_t *open = malloc((size_t)side * side);
        assert_non_null(open);
        memset(open, 1, (size_t)side * side);
        large_world lw = {0};
        large_open(&lw, grid_make(side, side, rules[i], open, NULL), 1);
        free(open);
        unsigned long allocs;
        snprintf(g_where, sizeof g_where, "60 walls on open ground");
        uint8_t *cls = large_cells(lw.map, &rs, 58, 0);
        pf_edit_report rep = large_apply(&lw, cls, &allocs);
        PCHECK(rep.jps_updated == 2u * 8u * lw.inner);
        PCHECK(allocs > 0); /* it did start seed by seed */
        free(cls);
        large_close(&lw);
    }
}

/* A table whose allocator refuses everything after its build still follows an edit: the seeds it
 * cannot allocate give way to the recomputation in place (the table went stale before). */
static void test_large_no_memory(void **state)
{
    (void)state;
    g_seed = 9200;
    uint64_t rs = g_seed;
    large_world lw = {0};
    large_open(&lw, random_map(&rs, 120, 90, PF_MOVES_8_NO_CUT, 0), 1);
    lw.tr.countdown = 0;
    unsigned long allocs;
    snprintf(g_where, sizeof g_where, "allocator refusing, 3 cells changed");
    uint8_t *cls = large_cells(lw.map, &rs, 1, 0);
    pf_edit_report rep = large_apply(&lw, cls, &allocs);
    PCHECK(lw.tr.fails > 0);
    PCHECK(rep.jps_updated >= 8u * lw.inner);
    free(cls);
    lw.tr.countdown = -1;
    large_close(&lw);
}

/* ---- first-move tables ------------------------------------------------------------------------- */

static void run_table_world(uint64_t seed, pf_moves mv, int weighted)
{
    g_seed = seed;
    uint64_t rs = seed;
    uint32_t w = 6 + rng_below(&rs, 14), h = 6 + rng_below(&rs, 14);
    pf_map *m = random_map(&rs, w, h, mv, weighted);
    shadow sh;
    shadow_init(&sh, m);
    pf_table *t;
    assert_int_equal(pf_table_create(m, &(pf_table_desc){.threads = 1 + (uint32_t)(seed & 1)}, &t), PF_OK);
    for (uint32_t e = 0; e < 16; e++) {
        uint32_t rw = 1 + rng_below(&rs, 4), rh = 1 + rng_below(&rs, 4);
        pf_rect r = {(int32_t)rng_below(&rs, w - rw + 1), (int32_t)rng_below(&rs, h - rh + 1), rw, rh};
        char c = TERRAIN[rng_below(&rs, 7)];
        pf_grid_edit ed = {.rect = r, .cls = (uint8_t)pf_grid_terrain_class(c), .cost = char_cost(c),
                           .what = PF_EDIT_CLASS | (weighted ? PF_EDIT_COST : 0u)};
        /* the same update between two separate maps (pf_table_update of grids) */
        pf_map *prev = fresh_copy(&sh);
        pf_table *pt;
        assert_int_equal(pf_table_create(prev, NULL, &pt), PF_OK);
        assert_int_equal(pf_grid_apply_edits(m, &ed, 1, NULL), PF_OK);
        shadow_edit(&sh, &ed);
        snprintf(g_where, sizeof g_where, "table, edit %u: rect %d %d %u %u %c", e, r.x, r.y, r.w, r.h, c);
        shadow_check(&sh, m);
        pf_map *f = fresh_copy(&sh);
        pf_table *ft;
        assert_int_equal(pf_table_create(f, NULL, &ft), PF_OK);
        PCHECK(pf_table_map(t) == m);
        PCHECK(t->version == pf_map_version(m));
        PCHECK(t->width == ft->width && t->bytes == ft->bytes);
        PCHECK(memcmp(t->data, ft->data, t->bytes) == 0);
        PCHECK(pf_table_update(pt, f, NULL, NULL) == PF_OK);
        PCHECK(memcmp(pt->data, ft->data, t->bytes) == 0);
        pf_table_destroy(pt);
        pf_map_destroy(prev);
        uint32_t a = random_open(m, &rs), b = random_open(m, &rs);
        if (a != PF_NODE_NONE && b != PF_NODE_NONE) {
            double ca, cb;
            PCHECK(pf_table_path(t, a, b, NULL, &ca) == pf_table_path(ft, a, b, NULL, &cb));
            PCHECK(memcmp(&ca, &cb, sizeof ca) == 0);
        }
        pf_table_destroy(ft);
        pf_map_destroy(f);
    }
    shadow_free(&sh);
    pf_table_destroy(t);
    pf_map_destroy(m);
}

static void test_tables(void **state)
{
    (void)state;
    static const pf_moves rules[] = {PF_MOVES_8_NO_CUT, PF_MOVES_8_CUT, PF_MOVES_4, PF_MOVES_HEX};
    uint32_t n = (uint32_t)(8 * env_scale()) + 1;
    for (uint32_t i = 0; i < n; i++) run_table_world(5000u + i, rules[i % 4], (int)(i / 4) & 1);
}

/* ---- batches ------------------------------------------------------------------------------------- */

/* A batch made before the edits keeps its queries across them: every answer must be the answer
 * of a fresh search on a fresh copy of the version it was found on (exactly, without groups and
 * deduplication; the same cost and a legal path of that cost otherwise). */
static void run_batch_world(uint64_t seed, uint32_t flags)
{
    g_seed = seed;
    uint64_t rs = seed;
    uint32_t w = 40 + rng_below(&rs, 40), h = 40 + rng_below(&rs, 40);
    pf_map *m = random_map(&rs, w, h, PF_MOVES_8_NO_CUT, 0);
    pf_map *snap[64] = {0}; /* snap[v]: a fresh copy of version v */
    shadow sh;
    shadow_init(&sh, m);
    snap[0] = fresh_copy(&sh);
    pf_batch *b;
    assert_int_equal(pf_batch_create(m, &(pf_batch_desc){.workers = 2, .flags = flags, .group_min = 3}, &b), PF_OK);
    enum { NQ = 80 };
    pf_query_id ids[NQ];
    uint32_t qs[NQ], qg[NQ];
    uint32_t goal = random_open(m, &rs);
    for (uint32_t i = 0; i < NQ; i++) {
        qs[i] = random_open(m, &rs);
        qg[i] = i % 3 ? goal : random_open(m, &rs); /* two in three share a goal: groups */
        if (i % 11 == 10) { /* duplicates */
            qs[i] = qs[i - 1];
            qg[i] = qg[i - 1];
        }
        assert_int_equal(pf_batch_submit(b, &(pf_batch_query){.start = qs[i], .goal = qg[i], .tag = i}, &ids[i]), PF_OK);
    }
    /* budgeted runs, with edits between them, until every query is answered */
    uint32_t version = 0;
    for (int round = 0; round < 200 && pf_batch_get_stats(b).pending; round++) {
        assert_int_equal(pf_batch_run(b, &(pf_batch_budget){.max_expansions = 150 + rng_below(&rs, 400)}), PF_OK);
        if (version < 60 && rng_below(&rs, 2)) {
            uint32_t rw = 1 + rng_below(&rs, 6), rh = 1 + rng_below(&rs, 6), kind = rng_below(&rs, 10);
            pf_rect r = {(int32_t)rng_below(&rs, w - rw + 1), (int32_t)rng_below(&rs, h - rh + 1), rw, rh};
            pf_point gp = pf_grid_point(m, goal);
            if (kind < 3) { /* on the shared goal: walls it in, or opens it again */
                r = (pf_rect){gp.x > 0 ? gp.x - 1 : 0, gp.y > 0 ? gp.y - 1 : 0, 3, 3};
                if ((uint32_t)r.x + 3 > w || (uint32_t)r.y + 3 > h) r.w = r.h = 1;
            } else if (kind < 6) { /* near it, where the group searches run */
                int32_t x = gp.x - 8 + (int32_t)rng_below(&rs, 17), y = gp.y - 8 + (int32_t)rng_below(&rs, 17);
                x = x < 0 ? 0 : x + (int32_t)rw > (int32_t)w ? (int32_t)(w - rw) : x;
                y = y < 0 ? 0 : y + (int32_t)rh > (int32_t)h ? (int32_t)(h - rh) : y;
                r.x = x;
                r.y = y;
            }
            char c = rng_below(&rs, 2) ? '@' : '.';
            pf_grid_edit ed = {.rect = r, .cls = (uint8_t)pf_grid_terrain_class(c)};
            /* a run in progress refuses the edit (a small budget: searches stay suspended) */
            assert_int_equal(pf_batch_prepare(b, &(pf_batch_budget){.max_expansions = 64}), PF_OK);
            assert_int_equal(pf_grid_apply_edits(m, &ed, 1, NULL), PF_MAP_BUSY);
            for (uint32_t j = 0; j < pf_batch_job_count(b); j++) assert_int_equal(pf_batch_run_job(b, j, j & 1), PF_OK);
            assert_int_equal(pf_batch_finish(b), PF_OK);
            /* with a search suspended at the edit, it restarts (or, by option, finishes first) */
            uint64_t restarted0 = pf_batch_get_stats(b).restarted, suspended_now = 0;
            for (uint32_t k = 0; k < b->njobs; k++) suspended_now += b->jobs[k].state == PF__J_SUSPENDED;
            pf_edit_report rep;
            assert_int_equal(pf_grid_apply_edits(m, &ed, 1, &rep), PF_OK);
            shadow_edit(&sh, &ed);
            if (rep.changed) {
                version++;
                snprintf(g_where, sizeof g_where, "batch, edit to version %u: rect %d %d %u %u %c", version, r.x, r.y,
                         r.w, r.h, c);
                shadow_check(&sh, m);
                snap[version] = fresh_copy(&sh);
                uint64_t restarted = pf_batch_get_stats(b).restarted - restarted0;
                PCHECK(restarted == (flags & PF_BATCH_FINISH_ON_EDIT ? 0u : suspended_now));
                for (uint32_t k = 0; k < b->njobs; k++) PCHECK(b->jobs[k].state != PF__J_SUSPENDED);
            }
        }
    }
    PCHECK(pf_batch_get_stats(b).pending == 0);
    pf_ctx *fc[64] = {0};
    static uint32_t pa[1 << 14];
    for (uint32_t i = 0; i < NQ; i++) {
        pf_batch_result r;
        assert_int_equal(pf_batch_get(b, ids[i], &r), PF_OK);
        snprintf(g_where, sizeof g_where, "batch query %u (%u -> %u) on version %llu", i, qs[i], qg[i],
                 (unsigned long long)r.map_version);
        PCHECK(r.map_version <= version && snap[r.map_version]);
        pf_map *f = snap[r.map_version];
        if (!fc[r.map_version]) assert_int_equal(pf_ctx_create(f, NULL, &fc[r.map_version]), PF_OK);
        pf_path p = {.nodes = pa, .capacity = 1 << 14};
        pf_stats st;
        pf_status want = pf_search(fc[r.map_version], qs[i], qg[i], NULL, &p, &st);
        PCHECK(r.status == want);
        if (want != PF_OK) continue;
        PCHECK(close_to(r.stats.cost, st.cost));
        PCHECK(close_to(oracle_path_cost(f, r.path, r.path_len), st.cost));
        if (flags & PF_BATCH_NO_GROUPS && flags & PF_BATCH_NO_DEDUP) {
            PCHECK(memcmp(&r.stats.cost, &st.cost, sizeof st.cost) == 0);
            PCHECK(r.path_len == p.len && memcmp(r.path, pa, (size_t)p.len * sizeof(uint32_t)) == 0);
            PCHECK(r.stats.expanded == st.expanded);
        }
    }
    for (uint32_t v = 0; v < 64; v++) {
        pf_ctx_destroy(fc[v]);
        pf_map_destroy(snap[v]);
    }
    shadow_free(&sh);
    pf_batch_destroy(b);
    pf_map_destroy(m);
}

static void test_batches(void **state)
{
    (void)state;
    uint32_t n = (uint32_t)(6 * env_scale()) + 1;
    for (uint32_t i = 0; i < n; i++) {
        run_batch_world(7000u + i, 0);
        run_batch_world(7100u + i, PF_BATCH_FINISH_ON_EDIT);
        run_batch_world(7200u + i, PF_BATCH_NO_GROUPS | PF_BATCH_NO_DEDUP);
        run_batch_world(7300u + i, PF_BATCH_NO_GROUPS | PF_BATCH_NO_DEDUP | PF_BATCH_FINISH_ON_EDIT);
    }
}

static uint64_t base_seed(void)
{
    const char *e = getenv("PF_TEST_SEED");
    return e ? strtoull(e, NULL, 10) : 0;
}

static void run_rule(pf_moves mv, int weighted)
{
    uint64_t fixed = base_seed();
    if (fixed) {
        run_world(fixed, mv, weighted, 60);
        return;
    }
    uint32_t worlds = (uint32_t)(12 * env_scale()) + 1;
    for (uint32_t i = 0; i < worlds; i++) run_world(1000u * (uint64_t)mv + 17u * i + (weighted ? 7u : 0u) + 1u, mv, weighted, 60);
}

static void test_8_no_cut(void **state) { (void)state; run_rule(PF_MOVES_8_NO_CUT, 0); }
static void test_8_cut(void **state) { (void)state; run_rule(PF_MOVES_8_CUT, 0); }
static void test_4(void **state) { (void)state; run_rule(PF_MOVES_4, 0); }
static void test_hex(void **state) { (void)state; run_rule(PF_MOVES_HEX, 0); }
static void test_8_weighted(void **state) { (void)state; run_rule(PF_MOVES_8_NO_CUT, 1); }
static void test_4_weighted(void **state) { (void)state; run_rule(PF_MOVES_4, 1); }

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_8_no_cut), cmocka_unit_test(test_8_cut),      cmocka_unit_test(test_4),
        cmocka_unit_test(test_hex),      cmocka_unit_test(test_8_weighted), cmocka_unit_test(test_4_weighted),
        cmocka_unit_test(test_tables),   cmocka_unit_test(test_batches),    cmocka_unit_test(test_large_footprints),
        cmocka_unit_test(test_large_walks), cmocka_unit_test(test_large_no_memory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
