/* test_alloc_fail.c - make the n-th allocation fail, for every n, along the main paths.
 *
 * Every path below is run once with a counting allocator to learn how many allocations it makes
 * (N), then N more times with allocation n = 1..N failing. Each failing run must return
 * PF_OUT_OF_MEMORY (with NULL outputs and a matching pf_diag for loaders), give every block back
 * with the size it was allocated with (outstanding bytes 0 once the objects are destroyed), and
 * leave things usable: the same operation with the same allocator then succeeds with correct
 * results, and a context whose search ran out of memory answers the next query correctly.
 *
 * Paths: Moving AI map from memory and from a file (file buffer growth), pf_grid_create with costs,
 * context creation on a grid and on a graph, searches whose open list must grow (heap_capacity 1:
 * one-shot, sliced, and a full Dijkstra tree), pf_graph_create with coordinates, DIMACS from memory
 * and from files, .scen from memory (entry array growth) and from a file, a batch frame (dedup,
 * group move, arena growth; with a budget, the spare context and suspended searches), first-move
 * tables (build, load of a baked file, incremental update on a graph).
 */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "pathfind.h"
#include "oracle.h"

/* ---- tracking allocator -------------------------------------------------------------------- */

typedef struct block { void *p; size_t size; } block;

typedef struct tracker {
    block   *live;
    size_t   nlive, cap;
    size_t   bytes;      /* outstanding */
    unsigned calls;      /* allocations attempted while armed */
    unsigned fail_at;    /* 1-based armed call that fails; 0 = none */
    int      armed;      /* only armed calls are counted and may fail */
    unsigned bad_frees;  /* frees of unknown blocks or with the wrong size */
} tracker;

static void *t_alloc(size_t size, size_t align, void *user)
{
    tracker *t = user;
    if (t->armed) {
        t->calls++;
        if (t->fail_at && t->calls == t->fail_at) return NULL;
    }
    if (align < sizeof(void *)) align = sizeof(void *);
    void *p = aligned_alloc(align, (size + align - 1) / align * align);
    if (!p) return NULL;
    if (t->nlive == t->cap) {
        t->cap = t->cap ? t->cap * 2 : 64;
        t->live = realloc(t->live, t->cap * sizeof *t->live);
        if (!t->live) abort();
    }
    t->live[t->nlive++] = (block){p, size};
    t->bytes += size;
    return p;
}

static void t_free(void *p, size_t size, void *user)
{
    tracker *t = user;
    for (size_t i = t->nlive; i-- > 0;) {
        if (t->live[i].p != p) continue;
        if (t->live[i].size != size) t->bad_frees++;
        t->bytes -= t->live[i].size;
        t->live[i] = t->live[--t->nlive];
        free(p);
        return;
    }
    t->bad_frees++;
}

static pf_allocator hooks(tracker *t) { return (pf_allocator){t_alloc, t_free, t}; }

static void tracker_clean(tracker *t)
{
    assert_int_equal(t->nlive, 0);
    assert_int_equal(t->bytes, 0);
    assert_int_equal(t->bad_frees, 0);
}

/* An operation creates its objects through `t`, checks them, destroys them and returns the status.
 * It may disarm `t` for set-up it does not want failed (a context before its search). */
typedef pf_status (*op_fn)(tracker *t, void *arg);

static unsigned g_points; /* allocation points covered by the whole file */

/* Runs `op` with every allocation failing in turn; returns the number of allocation points. */
static unsigned fail_each(const char *name, op_fn op, void *arg)
{
    tracker t = {.armed = 1};
    assert_int_equal(op(&t, arg), PF_OK);
    tracker_clean(&t);
    unsigned total = t.calls;
    assert_true(total > 0);
    for (unsigned n = 1; n <= total; n++) {
        t.calls = 0;
        t.fail_at = n;
        t.armed = 1;
        pf_status st = op(&t, arg);
        if (st != PF_OUT_OF_MEMORY) fail_msg("%s: allocation %u of %u failing gave %s", name, n, total, pf_status_name(st));
        tracker_clean(&t);
        /* still usable: the same allocator, nothing failing */
        t.calls = 0;
        t.fail_at = 0;
        t.armed = 1;
        assert_int_equal(op(&t, arg), PF_OK);
        tracker_clean(&t);
    }
    free(t.live);
    print_message("  %-28s %u allocation points\n", name, total);
    g_points += total;
    return total;
}

/* ---- inputs -------------------------------------------------------------------------------- */

static uint32_t lcg(uint32_t *s) { return *s = *s * 1664525u + 1013904223u; }

/* A w x h Moving AI map with ground, swamp, water, trees and walls; caller frees. */
static char *make_map_text(uint32_t w, uint32_t h, size_t *len)
{
    size_t cap = 64 + (size_t)(w + 1) * h;
    char *s = malloc(cap);
    assert_non_null(s);
    int n = snprintf(s, cap, "type octile\nheight %u\nwidth %u\nmap\n", h, w);
    size_t k = (size_t)n;
    uint32_t seed = 12345;
    for (uint32_t y = 0; y < h; y++) {
        for (uint32_t x = 0; x < w; x++) {
            uint32_t r = (lcg(&seed) >> 16) % 100;
            s[k++] = r < 12 ? '@' : r < 16 ? 'T' : r < 19 ? 'W' : r < 30 ? 'S' : '.';
        }
        s[k++] = '\n';
    }
    *len = k;
    return s;
}

static char *make_scen_text(uint32_t lines, size_t *len)
{
    size_t cap = 16 + (size_t)lines * 64;
    char *s = malloc(cap);
    assert_non_null(s);
    size_t k = (size_t)snprintf(s, cap, "version 1\n");
    for (uint32_t i = 0; i < lines; i++)
        k += (size_t)snprintf(s + k, cap - k, "%u\tmaps/t.map\t64\t64\t%u\t%u\t%u\t%u\t%u.5\n", i / 10, i % 64,
                              (i * 7) % 64, (i * 13) % 64, (i * 3) % 64, i);
    *len = k;
    return s;
}

static const char GR[] = "c test graph\np sp 6 9\na 1 2 7\na 1 3 9\na 1 6 14\na 2 3 10\na 2 4 15\n"
                         "a 3 4 11\na 3 6 2\na 4 5 6\na 6 5 9\n";
static const char CO[] = "p aux sp co 6\nv 1 0 0\nv 2 7 0\nv 3 5 5\nv 4 9 9\nv 5 12 15\nv 6 5 12\n";

static char *write_temp(const char *text, size_t len)
{
    char tmpl[] = "/tmp/pf_alloc_fail_XXXXXX";
    int fd = mkstemp(tmpl);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, len), (ssize_t)len);
    close(fd);
    return strdup(tmpl);
}

/* ---- operations ---------------------------------------------------------------------------- */

typedef struct map_arg { const char *text; size_t len; const char *path; uint32_t w, h; } map_arg;

static pf_status check_map_result(pf_status st, pf_map *map, const pf_diag *diag, const map_arg *a)
{
    assert_int_equal(diag->status, st);
    if (st != PF_OK) {
        assert_null(map);
        return st;
    }
    assert_int_equal(pf_grid_width(map), a->w);
    assert_int_equal(pf_grid_height(map), a->h);
    assert_true(pf_grid_weighted(map));
    pf_map_destroy(map);
    return st;
}

static pf_grid_load_desc weighted_load_desc(tracker *t)
{
    pf_grid_load_desc d = {.moves = PF_MOVES_8_NO_CUT, .allocator = hooks(t)};
    d.char_cost['S'] = 3.0f; /* swamp costs more: the cost array is allocated too */
    return d;
}

static pf_status op_parse_map(tracker *t, void *arg)
{
    map_arg *a = arg;
    pf_grid_load_desc d = weighted_load_desc(t);
    pf_map *map = (pf_map *)&map;
    pf_diag diag;
    pf_status st = pf_grid_parse_movingai(a->text, a->len, "mem.map", &d, &map, &diag);
    return check_map_result(st, map, &diag, a);
}

static pf_status op_load_map(tracker *t, void *arg)
{
    map_arg *a = arg;
    pf_grid_load_desc d = weighted_load_desc(t);
    pf_map *map = (pf_map *)&map;
    pf_diag diag;
    pf_status st = pf_grid_load_movingai(a->path, &d, &map, &diag);
    return check_map_result(st, map, &diag, a);
}

static pf_status op_grid_create(tracker *t, void *arg)
{
    (void)arg;
    enum { W = 40, H = 30 };
    static uint8_t cells[W * H];
    static float costs[W * H];
    for (int i = 0; i < W * H; i++) {
        cells[i] = (i % 7 == 3) ? 0 : 1;
        costs[i] = 1.0f + (float)(i % 3);
    }
    pf_grid_desc gd = {.width = W, .height = H, .moves = PF_MOVES_8_CUT, .cells = cells, .costs = costs,
                       .allocator = hooks(t)};
    pf_map *map = (pf_map *)&map;
    pf_status st = pf_grid_create(&gd, &map);
    if (st != PF_OK) {
        assert_null(map);
        return st;
    }
    assert_int_equal(pf_map_node_count(map), W * H);
    pf_map_destroy(map);
    return st;
}

/* Checks one query on `ctx` against the oracle. */
static void check_query(pf_ctx *ctx, uint32_t s, uint32_t g)
{
    const pf_map *map = pf_ctx_map(ctx);
    uint32_t nodes[8192];
    pf_path path = {.nodes = nodes, .capacity = 8192};
    pf_stats st;
    double want = oracle_cost(map, s, g);
    pf_status r = pf_search(ctx, s, g, NULL, &path, &st);
    if (isfinite(want)) {
        assert_int_equal(r, PF_OK);
        assert_true(fabs(st.cost - want) <= 1e-9 * (1 + want));
        assert_true(fabs(oracle_path_cost(map, nodes, path.len) - want) <= 1e-9 * (1 + want));
    } else {
        assert_int_equal(r, PF_NO_PATH);
    }
}

typedef struct ctx_arg { const pf_map *map; uint32_t s, g; uint32_t heap_capacity; int mode; } ctx_arg;

static pf_status op_ctx_create(tracker *t, void *arg)
{
    ctx_arg *a = arg;
    pf_ctx *ctx = (pf_ctx *)&ctx;
    pf_status st = pf_ctx_create(a->map, &(pf_ctx_desc){.allocator = hooks(t)}, &ctx);
    if (st != PF_OK) {
        assert_null(ctx);
        return st;
    }
    check_query(ctx, a->s, a->g);
    pf_ctx_destroy(ctx);
    return st;
}

enum { SEARCH_ONESHOT, SEARCH_SLICED, SEARCH_TREE };

/* The context is made unarmed; only the search's own allocations (open-list growth) are failed. */
static pf_status op_search_growth(tracker *t, void *arg)
{
    ctx_arg *a = arg;
    int armed = t->armed;
    t->armed = 0;
    pf_ctx *ctx;
    assert_int_equal(pf_ctx_create(a->map, &(pf_ctx_desc){.allocator = hooks(t), .heap_capacity = a->heap_capacity},
                                   &ctx), PF_OK);
    t->armed = armed;
    pf_status st;
    pf_stats stats;
    uint32_t nodes[8192];
    pf_path path = {.nodes = nodes, .capacity = 8192};
    if (a->mode == SEARCH_ONESHOT) {
        st = pf_search(ctx, a->s, a->g, NULL, &path, &stats);
        if (st == PF_OUT_OF_MEMORY) {
            assert_int_equal(path.len, 0);
            assert_true(isinf(stats.cost));
        }
    } else if (a->mode == SEARCH_SLICED) {
        st = pf_search_begin(ctx, a->s, a->g, NULL);
        while (st == PF_IN_PROGRESS) st = pf_search_step(ctx, 7);
        if (st == PF_OK) st = pf_search_path(ctx, &path, &stats);
        if (st == PF_OUT_OF_MEMORY) assert_int_equal(pf_search_path(ctx, &path, &stats), PF_OUT_OF_MEMORY);
    } else {
        st = pf_search_tree(ctx, a->s, NULL);
    }
    if (st == PF_OK && a->mode != SEARCH_TREE) {
        double want = oracle_cost(a->map, a->s, a->g);
        assert_true(fabs(stats.cost - want) <= 1e-9 * (1 + want));
    }
    if (st == PF_OK && a->mode == SEARCH_TREE) {
        double *want = oracle_all(a->map, a->s, 0);
        for (uint32_t v = 0; v < pf_map_node_count(a->map); v++) {
            double got = pf_ctx_cost(ctx, v);
            assert_true(isfinite(got) == isfinite(want[v]));
            if (isfinite(got)) assert_true(fabs(got - want[v]) <= 1e-9 * (1 + want[v]));
        }
        free(want);
    }
    if (st == PF_OUT_OF_MEMORY) {
        /* the context that ran out of memory answers the next queries correctly (nothing failing) */
        t->armed = 0;
        check_query(ctx, a->s, a->g);
        check_query(ctx, a->g, a->s);
    }
    t->armed = armed;
    pf_ctx_destroy(ctx);
    return st;
}

static pf_status op_graph_create(tracker *t, void *arg)
{
    (void)arg;
    static const pf_edge e[] = {{0, 1, 7}, {0, 2, 9}, {0, 5, 14}, {1, 2, 10}, {1, 3, 15},
                                {2, 3, 11}, {2, 5, 2}, {3, 4, 6}, {5, 4, 9}};
    static const double xy[] = {0, 0, 7, 0, 5, 5, 9, 9, 12, 15, 5, 12};
    pf_graph_desc gd = {.node_count = 6, .edge_count = 9, .edges = e, .coords = xy, .allocator = hooks(t)};
    pf_map *g = (pf_map *)&g;
    pf_status st = pf_graph_create(&gd, &g);
    if (st != PF_OK) {
        assert_null(g);
        return st;
    }
    assert_int_equal(pf_graph_edge_count(g), 9);
    assert_true(pf_graph_has_coords(g));
    pf_map_destroy(g);
    return st;
}

typedef struct dimacs_arg { const char *gr_path, *co_path; } dimacs_arg;

static pf_status check_dimacs(pf_status st, pf_map *g, const pf_diag *diag)
{
    assert_int_equal(diag->status, st);
    if (st != PF_OK) {
        assert_null(g);
        return st;
    }
    assert_int_equal(pf_map_node_count(g), 6);
    assert_true(fabs(oracle_cost(g, 0, 4) - 20.0) < 1e-12); /* 1 -> 3 -> 6 -> 5: 9 + 2 + 9 */
    pf_map_destroy(g);
    return st;
}

static pf_status op_parse_dimacs(tracker *t, void *arg)
{
    (void)arg;
    pf_allocator a = hooks(t);
    pf_map *g = (pf_map *)&g;
    pf_diag diag;
    pf_status st = pf_graph_parse_dimacs(GR, sizeof GR - 1, CO, sizeof CO - 1, &(pf_graph_load_desc){.allocator = a}, &g, &diag);
    return check_dimacs(st, g, &diag);
}

static pf_status op_load_dimacs(tracker *t, void *arg)
{
    dimacs_arg *d = arg;
    pf_allocator a = hooks(t);
    pf_map *g = (pf_map *)&g;
    pf_diag diag;
    pf_status st = pf_graph_load_dimacs(d->gr_path, d->co_path, &(pf_graph_load_desc){.allocator = a}, &g, &diag);
    return check_dimacs(st, g, &diag);
}

typedef struct scen_arg { const char *text; size_t len; const char *path; uint32_t lines; } scen_arg;

static pf_status check_scen(pf_status st, pf_scen *sc, const pf_diag *diag, const scen_arg *a)
{
    assert_int_equal(diag->status, st);
    if (st != PF_OK) {
        assert_null(sc);
        return st;
    }
    assert_int_equal(pf_scen_count(sc), a->lines);
    assert_int_equal(pf_scen_get(sc, a->lines - 1)->sx, (int32_t)((a->lines - 1) % 64));
    pf_scen_destroy(sc);
    return st;
}

static pf_status op_parse_scen(tracker *t, void *arg)
{
    scen_arg *a = arg;
    pf_allocator al = hooks(t);
    pf_scen *sc = (pf_scen *)&sc;
    pf_diag diag;
    pf_status st = pf_scen_parse(a->text, a->len, "mem.scen", &(pf_scen_load_desc){.allocator = al}, &sc, &diag);
    return check_scen(st, sc, &diag, a);
}

static pf_status op_load_scen(tracker *t, void *arg)
{
    scen_arg *a = arg;
    pf_allocator al = hooks(t);
    pf_scen *sc = (pf_scen *)&sc;
    pf_diag diag;
    pf_status st = pf_scen_load(a->path, &(pf_scen_load_desc){.allocator = al}, &sc, &diag);
    return check_scen(st, sc, &diag, a);
}


/* ---- batch and tables ---------------------------------------------------------------------- */

typedef struct batch_arg { const pf_map *map; pf_ctx *ref; const pf_batch_budget *budget; } batch_arg;

/* One frame of queries through a batch: duplicates (dedup), one shared goal (a group move), long and
 * short queries, a tiny path arena that must grow, and with a budget, suspended searches on spare
 * contexts. A failure may come from create, submit, run or a single result; after one, the same
 * batch is run again with allocation working and must answer every query correctly. */
static pf_status op_batch(tracker *t, void *arg)
{
    batch_arg *a = arg;
    pf_batch *b = (pf_batch *)&b;
    pf_status st = pf_batch_create(a->map, &(pf_batch_desc){.allocator = hooks(t), .workers = 1, .arena_bytes = 64,
                                                            .group_min = 3, .suspend_slots = 1}, &b);
    if (st != PF_OK) {
        assert_null(b);
        return st;
    }
    enum { N = 24 };
    pf_batch_query q[N];
    pf_query_id id[N];
    uint32_t n = pf_map_node_count(a->map), seed = 99, open[N * 2], k = 0;
    while (k < N * 2) {
        uint32_t v = lcg(&seed) % n;
        pf_point p = pf_grid_point(a->map, v);
        if (pf_grid_class(a->map, p.x, p.y) == 1) open[k++] = v;
    }
    pf_status worst = PF_OK;
    for (uint32_t i = 0; i < N; i++) {
        q[i] = (pf_batch_query){.start = open[2 * i], .goal = i % 4 == 0 ? open[1] : open[2 * i + 1], .tag = i};
        if (i % 6 == 5) q[i] = q[i - 1]; /* a duplicate */
        q[i].tag = i;
        st = pf_batch_submit(b, &q[i], &id[i]);
        if (st == PF_OUT_OF_MEMORY) {
            worst = st;
            t->fail_at = 0; /* the rest of the op runs with allocation working */
            st = pf_batch_submit(b, &q[i], &id[i]);
        }
        assert_int_equal(st, PF_OK);
    }
    for (int round = 0; round < 2; round++) {
        for (int run = 0; pf_batch_get_stats(b).pending; run++) {
            assert_true(run < 1000);
            st = pf_batch_run(b, a->budget);
            if (st == PF_OUT_OF_MEMORY) {
                worst = st;
                t->fail_at = 0;
                continue; /* pending queries stay queued */
            }
            assert_int_equal(st, PF_OK);
        }
        int again = 0;
        for (uint32_t i = 0; i < N; i++) {
            pf_batch_result r;
            assert_int_equal(pf_batch_get(b, id[i], &r), PF_OK);
            assert_int_equal(r.tag, i);
            if (r.status == PF_OUT_OF_MEMORY) {
                /* only the failing allocation may cost a result; resubmit it once allocation works */
                assert_true(round == 0);
                worst = PF_OUT_OF_MEMORY;
                t->fail_at = 0;
                assert_int_equal(pf_batch_submit(b, &q[i], &id[i]), PF_OK);
                again = 1;
                continue;
            }
            double want = oracle_cost(a->map, q[i].start, q[i].goal);
            if (!isfinite(want)) {
                assert_int_equal(r.status, PF_NO_PATH);
                continue;
            }
            assert_int_equal(r.status, PF_OK);
            assert_true(fabs(r.stats.cost - want) <= 1e-9 * (1 + want));
            assert_true(fabs(oracle_path_cost(a->map, r.path, r.path_len) - want) <= 1e-9 * (1 + want));
        }
        if (!again) break;
    }
    pf_batch_destroy(b);
    /* A spare context that cannot be made is absorbed, as pf_batch.h documents (the query restarts
     * and the spare is made on a later run): every answer above was still checked. */
    if (worst == PF_OK && t->fail_at && t->calls >= t->fail_at) worst = PF_OUT_OF_MEMORY;
    return worst;
}

typedef struct table_arg { const pf_map *map, *edited; } table_arg;

/* Every pair's table path costs what the oracle says on `map`. */
static void check_table(const pf_table *tb, const pf_map *map)
{
    uint32_t n = pf_map_node_count(map), nodes[1024];
    for (uint32_t u = 0; u < n; u++) {
        double *want = oracle_all(map, u, 0);
        for (uint32_t v = 0; v < n; v++) {
            pf_path p = {.nodes = nodes, .capacity = 1024};
            double cost;
            pf_status st = pf_table_path(tb, u, v, &p, &cost);
            if (!isfinite(want[v])) {
                assert_true(st == PF_NO_PATH || st == PF_INVALID_START || st == PF_INVALID_GOAL);
                continue;
            }
            assert_int_equal(st, PF_OK);
            assert_true(fabs(cost - want[v]) <= 1e-9 * (1 + want[v]));
        }
        free(want);
    }
}

/* Build (serial and two threads), bake to memory, load back, and (graphs) an incremental update;
 * a failed update must leave the table answering for its old map. */
static pf_status op_table(tracker *t, void *arg)
{
    table_arg *a = arg;
    pf_table *tb = (pf_table *)&tb;
    pf_status st = pf_table_create(a->map, &(pf_table_desc){.allocator = hooks(t), .threads = 1}, &tb);
    if (st != PF_OK) {
        assert_null(tb);
        return st;
    }
    check_table(tb, a->map);
    pf_status worst = PF_OK;
    size_t size = pf_table_file_size(tb);
    uint8_t *buf = malloc(size);
    assert_int_equal(pf_table_save_mem(tb, buf, size, NULL), PF_OK);
    pf_table *back = (pf_table *)&back;
    pf_diag diag;
    st = pf_table_load_mem(buf, size, "mem.pft", a->map, &(pf_table_desc){.allocator = hooks(t)}, &back, &diag);
    free(buf);
    if (st != PF_OK) {
        assert_int_equal(st, PF_OUT_OF_MEMORY);
        assert_int_equal(diag.status, PF_OUT_OF_MEMORY);
        assert_null(back);
        worst = st;
    } else {
        check_table(back, a->map);
        pf_table_destroy(back);
    }
    if (a->edited && worst == PF_OK) {
        st = pf_table_update(tb, a->edited, NULL, NULL);
        if (st == PF_OK) {
            check_table(tb, a->edited);
        } else {
            assert_int_equal(st, PF_OUT_OF_MEMORY);
            assert_ptr_equal(pf_table_map(tb), a->map);
            check_table(tb, a->map);
            worst = st;
        }
    }
    pf_table_destroy(tb);
    return worst;
}

/* ---- tests --------------------------------------------------------------------------------- */

static void test_map_loaders(void **state)
{
    (void)state;
    map_arg a = {.w = 70, .h = 50};
    char *text = make_map_text(a.w, a.h, &a.len);
    a.text = text;
    fail_each("grid_parse_movingai", op_parse_map, &a);
    /* a file over 64 KiB: the file reader's buffer must grow */
    map_arg b = {.w = 300, .h = 240};
    char *big = make_map_text(b.w, b.h, &b.len);
    char *path = write_temp(big, b.len);
    b.path = path;
    assert_true(b.len > (1u << 16));
    fail_each("grid_load_movingai (file)", op_load_map, &b);
    unlink(path);
    free(path);
    free(big);
    free(text);
    fail_each("grid_create (costs)", op_grid_create, NULL);
}

static pf_map *demo_map(void)
{
    size_t len;
    char *text = make_map_text(70, 50, &len);
    pf_map *map;
    assert_int_equal(pf_grid_parse_movingai(text, len, "demo", NULL, &map, NULL), PF_OK);
    free(text);
    return map;
}

/* Two open cells far apart in the same component. */
static void far_pair(const pf_map *map, uint32_t *s, uint32_t *g)
{
    uint32_t n = pf_map_node_count(map);
    double *d = NULL;
    for (uint32_t i = 0; i < n && !d; i++) {
        pf_point p = pf_grid_point(map, i);
        if (pf_grid_class(map, p.x, p.y) != 1) continue;
        *s = i;
        d = oracle_all(map, i, 0);
    }
    assert_non_null(d);
    double best = -1;
    for (uint32_t i = 0; i < n; i++)
        if (isfinite(d[i]) && d[i] > best) {
            best = d[i];
            *g = i;
        }
    free(d);
    assert_true(best > 40);
}

static void test_contexts(void **state)
{
    (void)state;
    pf_map *map = demo_map();
    ctx_arg a = {.map = map};
    far_pair(map, &a.s, &a.g);
    fail_each("ctx_create (grid)", op_ctx_create, &a);

    pf_map *g;
    assert_int_equal(pf_graph_parse_dimacs(GR, sizeof GR - 1, CO, sizeof CO - 1, NULL, &g, NULL), PF_OK);
    ctx_arg b = {.map = g, .s = 0, .g = 4};
    fail_each("ctx_create (graph)", op_ctx_create, &b);
    pf_map_destroy(g);
    pf_map_destroy(map);
}

static void test_search_heap_growth(void **state)
{
    (void)state;
    pf_map *map = demo_map();
    ctx_arg a = {.map = map, .heap_capacity = 1, .mode = SEARCH_ONESHOT};
    far_pair(map, &a.s, &a.g);
    unsigned n1 = fail_each("search (heap_capacity 1)", op_search_growth, &a);
    a.mode = SEARCH_SLICED;
    unsigned n2 = fail_each("sliced search (heap 1)", op_search_growth, &a);
    a.mode = SEARCH_TREE;
    unsigned n3 = fail_each("search_tree (heap 1)", op_search_growth, &a);
    /* the open list doubled several times from one entry */
    assert_true(n1 >= 4 && n2 >= 4 && n3 >= 4);
    pf_map_destroy(map);
}

static void test_graph_and_dimacs(void **state)
{
    (void)state;
    fail_each("graph_create (coords)", op_graph_create, NULL);
    fail_each("graph_parse_dimacs (+co)", op_parse_dimacs, NULL);
    char *gp = write_temp(GR, sizeof GR - 1), *cp = write_temp(CO, sizeof CO - 1);
    dimacs_arg d = {gp, cp};
    fail_each("graph_load_dimacs (files)", op_load_dimacs, &d);
    unlink(gp);
    unlink(cp);
    free(gp);
    free(cp);
}

static void test_scen(void **state)
{
    (void)state;
    scen_arg a = {.lines = 600}; /* entry array grows 256 -> 512 -> 1024 */
    char *text = make_scen_text(a.lines, &a.len);
    a.text = text;
    fail_each("scen_parse", op_parse_scen, &a);
    char *path = write_temp(text, a.len);
    a.path = path;
    fail_each("scen_load (file)", op_load_scen, &a);
    unlink(path);
    free(path);
    free(text);
}


static void test_batch(void **state)
{
    (void)state;
    pf_map *map = demo_map();
    pf_ctx *ref;
    assert_int_equal(pf_ctx_create(map, NULL, &ref), PF_OK);
    batch_arg a = {.map = map, .ref = ref};
    unsigned n1 = fail_each("batch run", op_batch, &a);
    pf_batch_budget budget = {.max_expansions = 200};
    a.budget = &budget;
    unsigned n2 = fail_each("batch run (budget, spares)", op_batch, &a);
    assert_true(n2 > n1); /* the spare context is made on the first budgeted run */
    pf_ctx_destroy(ref);
    pf_map_destroy(map);
}

static void test_tables(void **state)
{
    (void)state;
    size_t len;
    char *text = make_map_text(20, 16, &len);
    pf_map *grid;
    assert_int_equal(pf_grid_parse_movingai(text, len, "small", NULL, &grid, NULL), PF_OK);
    free(text);
    table_arg a = {.map = grid};
    fail_each("table build/bake/load (grid)", op_table, &a);
    static const char GR2[] = "p sp 6 9\na 1 2 7\na 1 3 9\na 1 6 14\na 2 3 10\na 2 4 15\n"
                              "a 3 4 1\na 3 6 20\na 4 5 6\na 6 5 9\n";
    pf_map *g, *g2;
    assert_int_equal(pf_graph_parse_dimacs(GR, sizeof GR - 1, NULL, 0, NULL, &g, NULL), PF_OK);
    assert_int_equal(pf_graph_parse_dimacs(GR2, sizeof GR2 - 1, NULL, 0, NULL, &g2, NULL), PF_OK);
    table_arg b = {.map = g, .edited = g2};
    fail_each("table build/bake/load/update (graph)", op_table, &b);
    pf_map_destroy(g2);
    pf_map_destroy(g);
    pf_map_destroy(grid);
}

static int report(void **state)
{
    (void)state;
    print_message("allocation points covered: %u\n", g_points);
    return 0;
}

/* One hook without the other: the object is not made (PF_OUT_OF_MEMORY) and the hook given is
 * never called; every creator made it with malloc and free behind the engine's allocator, the
 * hook given ignored (a review). */
static void test_half_allocator(void **state)
{
    (void)state;
    tracker t = {0};
    t.armed = 1;
    const pf_allocator halves[2] = {{t_alloc, NULL, &t}, {NULL, t_free, &t}};
    for (int k = 0; k < 2; k++) {
        pf_map *m = (pf_map *)&m;
        assert_int_equal(pf_grid_create(&(pf_grid_desc){.width = 8, .height = 8, .allocator = halves[k]}, &m),
                         PF_OUT_OF_MEMORY);
        assert_null(m);
        assert_int_equal(pf_grid_create(&(pf_grid_desc){.width = 8, .height = 8}, &m), PF_OK);
        pf_ctx *c = (pf_ctx *)&c;
        assert_int_equal(pf_ctx_create(m, &(pf_ctx_desc){.allocator = halves[k]}, &c), PF_OUT_OF_MEMORY);
        assert_null(c);
        pf_batch *b = (pf_batch *)&b;
        assert_int_equal(pf_batch_create(m, &(pf_batch_desc){.allocator = halves[k]}, &b), PF_OUT_OF_MEMORY);
        assert_null(b);
        pf_gen_ctx *g = (pf_gen_ctx *)&g;
        assert_int_equal(pf_gen_ctx_create(&(pf_gen_ctx_desc){.allocator = halves[k]}, &g), PF_OUT_OF_MEMORY);
        assert_null(g);
        pf_map_destroy(m);
    }
    assert_int_equal(t.calls, 0);
    assert_int_equal(t.bad_frees, 0);
    tracker_clean(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_half_allocator),
        cmocka_unit_test(test_map_loaders),
        cmocka_unit_test(test_contexts),
        cmocka_unit_test(test_search_heap_growth),
        cmocka_unit_test(test_graph_and_dimacs),
        cmocka_unit_test(test_scen),
        cmocka_unit_test(test_batch),
        cmocka_unit_test(test_tables),
    };
    return cmocka_run_group_tests(tests, NULL, report);
}
