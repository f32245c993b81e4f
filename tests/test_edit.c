/* test_edit.c - the edit API of living maps: arguments, versions, reading cells back, the sync
 * point (PF_MAP_BUSY both ways), sliced searches that restart on the new version, which paths
 * broke, the edit log, listeners and the EDITS line parser. */
#define _POSIX_C_SOURCE 200809L /* alarm */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "pathfind.h"
#include "pathfind/pf_batch.h"
#include "testutil.h"
#include "maps.h"

/* An open 32x16 grid with a wall at x = 16 that has a door at y = 8. */
static pf_map *walled(pf_moves mv)
{
    uint8_t cells[32 * 16];
    for (int i = 0; i < 32 * 16; i++) cells[i] = (i % 32 == 16 && i / 32 != 8) ? 0 : 1;
    return grid_make(32, 16, mv, cells, NULL);
}

static double cost_of(pf_ctx *c, uint32_t s, uint32_t g, pf_status *st)
{
    pf_stats ps;
    *st = pf_search(c, s, g, NULL, NULL, &ps);
    return ps.cost;
}

static void test_arguments(void **state)
{
    (void)state;
    pf_map *m = walled(PF_MOVES_8_NO_CUT);
    pf_grid_edit e = {.rect = {30, 0, 3, 1}, .cls = 0};
    assert_int_equal(pf_grid_apply_edits(m, &e, 1, NULL), PF_INVALID_ARGUMENT); /* partly outside */
    e.rect = (pf_rect){-1, 0, 1, 1};
    assert_int_equal(pf_grid_apply_edits(m, &e, 1, NULL), PF_INVALID_ARGUMENT);
    e.rect = (pf_rect){0, 0, 1, 1};
    e.what = 4;
    assert_int_equal(pf_grid_apply_edits(m, &e, 1, NULL), PF_INVALID_ARGUMENT);
    e.what = PF_EDIT_COST;
    e.cost = 0.0f;
    assert_int_equal(pf_grid_apply_edits(m, &e, 1, NULL), PF_INVALID_ARGUMENT);
    e.cost = NAN;
    assert_int_equal(pf_grid_apply_edits(m, &e, 1, NULL), PF_INVALID_ARGUMENT);
    assert_int_equal(pf_grid_apply_edits(NULL, &e, 1, NULL), PF_INVALID_ARGUMENT);
    assert_int_equal(pf_grid_apply_edits(m, NULL, 1, NULL), PF_INVALID_ARGUMENT);
    /* a rejected batch of edits changes nothing, even its valid first edit */
    pf_grid_edit two[2] = {{.rect = {0, 0, 2, 2}, .cls = 0}, {.rect = {40, 0, 1, 1}, .cls = 0}};
    uint64_t fp = pf_map_fingerprint(m);
    assert_int_equal(pf_grid_apply_edits(m, two, 2, NULL), PF_INVALID_ARGUMENT);
    assert_int_equal(pf_grid_class(m, 0, 0), 1);
    assert_true(pf_map_fingerprint(m) == fp);
    assert_int_equal(pf_map_version(m), 0);
    /* empty rectangles and zero edits are no-ops */
    pf_grid_edit none = {.rect = {0, 0, 0, 5}};
    assert_int_equal(pf_grid_apply_edits(m, &none, 1, NULL), PF_OK);
    assert_int_equal(pf_grid_apply_edits(m, NULL, 0, NULL), PF_OK);
    assert_int_equal(pf_map_version(m), 0);
    /* NULL and foreign arguments are answered, never dereferenced */
    assert_int_equal(pf_map_version(NULL), 0);
    assert_int_equal(pf_grid_read(NULL, (pf_rect){0, 0, 1, 1}, NULL, NULL), PF_INVALID_ARGUMENT);
    assert_int_equal(pf_grid_component(NULL, 0, 0), 0);
    assert_int_equal(pf_grid_component(m, -1, 0), 0);
    assert_int_equal(pf_grid_same_component(NULL, 0, 0), 0);
    assert_int_equal(pf_grid_component_count(NULL), 0);
    assert_int_equal(pf_grid_path_changed(NULL, 0, NULL, 0), PF_NODE_NONE);
    assert_int_equal(pf_grid_path_changed(m, 0, NULL, 3), PF_NODE_NONE);
    uint32_t cnt = 7;
    assert_int_equal(pf_grid_changes_since(NULL, 0, NULL, 0, &cnt), PF_INVALID_ARGUMENT);
    assert_int_equal(cnt, 0);
    assert_int_equal(pf_grid_changes_since(m, 0, NULL, 0, NULL), PF_INVALID_ARGUMENT);
    assert_int_equal(pf_map_listen(m, NULL, NULL), PF_INVALID_ARGUMENT);
    assert_int_equal(pf_grid_parse_edit(NULL, "rect 0 0 1 1 .", 14, NULL, 1, NULL, NULL, NULL), PF_INVALID_ARGUMENT);
    assert_int_equal(pf_grid_terrain_class('X'), -1);
    assert_int_equal(pf_grid_terrain_class('T'), 3);
    /* graphs cannot be edited */
    pf_map *g;
    pf_edge ed[1] = {{0, 1, 1.0}};
    assert_int_equal(pf_graph_create(&(pf_graph_desc){.node_count = 2, .edge_count = 1, .edges = ed}, &g), PF_OK);
    assert_int_equal(pf_grid_apply_edits(g, &e, 0, NULL), PF_INVALID_ARGUMENT);
    assert_int_equal(pf_grid_read(g, (pf_rect){0, 0, 1, 1}, NULL, NULL), PF_INVALID_ARGUMENT);
    assert_int_equal(pf_grid_component_count(g), 0);
    assert_int_equal(pf_grid_changes_since(g, 0, NULL, 0, &cnt), PF_INVALID_ARGUMENT);
    pf_map_destroy(g);
    pf_map_destroy(m);
}

static void test_versions_and_read_back(void **state)
{
    (void)state;
    pf_map *m = walled(PF_MOVES_8_NO_CUT);
    uint64_t fp0 = pf_map_fingerprint(m);
    pf_edit_report rep;
    pf_grid_edit house = {.rect = {4, 4, 4, 4}, .cls = 0};
    assert_int_equal(pf_grid_apply_edits(m, &house, 1, &rep), PF_OK);
    assert_int_equal(rep.changed, 16);
    assert_int_equal(rep.version, 1);
    assert_int_equal(pf_map_version(m), 1);
    assert_true(pf_map_fingerprint(m) != fp0);
    /* the same edit again changes nothing: no new version */
    assert_int_equal(pf_grid_apply_edits(m, &house, 1, &rep), PF_OK);
    assert_int_equal(rep.changed, 0);
    assert_int_equal(pf_map_version(m), 1);
    uint8_t cls[36];
    float cost[36];
    /* an empty rectangle reads nothing, whatever its other side: it ran 2^32 - 1 empty rows
     * (13 s; a review), which the alarm would end */
    alarm(10);
    assert_int_equal(pf_grid_read(m, (pf_rect){5, 5, 0, UINT32_MAX}, cls, cost), PF_OK);
    assert_int_equal(pf_grid_read(m, (pf_rect){5, 5, 0, UINT32_MAX}, cls, cost), PF_OK);
    assert_int_equal(pf_grid_read(m, (pf_rect){5, 5, 0, UINT32_MAX}, cls, cost), PF_OK);
    alarm(0);
    assert_int_equal(pf_grid_read(m, (pf_rect){3, 3, 6, 6}, cls, cost), PF_OK);
    for (int y = 0; y < 6; y++)
        for (int x = 0; x < 6; x++) {
            int inside = x >= 1 && x <= 4 && y >= 1 && y <= 4;
            assert_int_equal(cls[y * 6 + x], inside ? 0 : 1);
            assert_true(cost[y * 6 + x] == 1.0f);
        }
    assert_int_equal(pf_grid_read(m, (pf_rect){30, 0, 3, 1}, cls, NULL), PF_INVALID_ARGUMENT);
    /* taken down again: the first map's fingerprint comes back */
    house.cls = 1;
    assert_int_equal(pf_grid_apply_edits(m, &house, 1, NULL), PF_OK);
    assert_int_equal(pf_map_version(m), 2);
    assert_true(pf_map_fingerprint(m) == fp0);

    /* costs: a slow cell makes the grid weighted; setting it back to 1 makes it unweighted */
    pf_grid_edit swamp = {.rect = {0, 0, 2, 1}, .what = PF_EDIT_COST, .cost = 4.0f};
    assert_int_equal(pf_grid_apply_edits(m, &swamp, 1, NULL), PF_OK);
    assert_true(pf_grid_weighted(m));
    assert_true(pf_grid_cost(m, 1, 0) == 4.0f);
    assert_false(pf_jps_supported(m));
    {
        /* weighted now: every tile's hash changed, not only the edited one's */
        uint8_t cells[32 * 16];
        float costs[32 * 16];
        assert_int_equal(pf_grid_read(m, (pf_rect){0, 0, 32, 16}, cells, costs), PF_OK);
        pf_map *f;
        assert_int_equal(pf_grid_create(&(pf_grid_desc){.width = 32, .height = 16, .cells = cells, .costs = costs}, &f), PF_OK);
        assert_true(pf_map_fingerprint(m) == pf_map_fingerprint(f));
        pf_map_destroy(f);
    }
    swamp.cost = 1.0f;
    assert_int_equal(pf_grid_apply_edits(m, &swamp, 1, NULL), PF_OK);
    assert_false(pf_grid_weighted(m));
    assert_true(pf_jps_supported(m));
    assert_true(pf_map_fingerprint(m) == fp0);
    /* per-cell footprints */
    uint8_t foot[4] = {0, 2, 3, 0};
    pf_grid_edit fe = {.rect = {10, 10, 2, 2}, .classes = foot};
    assert_int_equal(pf_grid_apply_edits(m, &fe, 1, NULL), PF_OK);
    assert_int_equal(pf_grid_class(m, 11, 10), 2);
    assert_int_equal(pf_grid_class(m, 10, 11), 3);
    pf_map_destroy(m);
}

static void test_components(void **state)
{
    (void)state;
    pf_map *m = walled(PF_MOVES_8_NO_CUT);
    uint32_t a = pf_grid_node(m, 2, 2), b = pf_grid_node(m, 28, 2);
    assert_true(pf_grid_same_component(m, a, b));
    assert_int_equal(pf_grid_component_count(m), 1);
    pf_ctx *c;
    assert_int_equal(pf_ctx_create(m, NULL, &c), PF_OK);
    /* closing the door splits the map: the query answers at once, one expansion */
    pf_grid_edit door = {.rect = {16, 8, 1, 1}, .cls = 0};
    assert_int_equal(pf_grid_apply_edits(m, &door, 1, NULL), PF_OK);
    assert_false(pf_grid_same_component(m, a, b));
    assert_int_equal(pf_grid_component_count(m), 2);
    pf_stats ps;
    assert_int_equal(pf_search(c, a, b, NULL, NULL, &ps), PF_NO_PATH);
    assert_true(ps.expanded <= 1);
    door.cls = 1;
    assert_int_equal(pf_grid_apply_edits(m, &door, 1, NULL), PF_OK);
    assert_true(pf_grid_same_component(m, a, b));
    assert_int_equal(pf_grid_component_count(m), 1);
    pf_status st;
    assert_true(isfinite(cost_of(c, a, b, &st)) && st == PF_OK);
    assert_false(pf_grid_same_component(m, a, pf_grid_node(m, 16, 0))); /* blocked */
    assert_false(pf_grid_same_component(m, a, 32 * 16));                /* outside */
    pf_ctx_destroy(c);
    pf_map_destroy(m);
}

/* ---- the sync point ---------------------------------------------------------------------------- */

static pf_map *g_map;
static pf_status g_inner;

static double editing_heuristic(const pf_map *map, uint32_t node, uint32_t goal, void *user)
{
    (void)map, (void)node, (void)goal, (void)user;
    pf_grid_edit e = {.rect = {0, 0, 1, 1}, .cls = 0};
    g_inner = pf_grid_apply_edits(g_map, &e, 1, NULL);
    return 0.0;
}

static pf_ctx *g_ctx;
static void searching_listener(const pf_map *map, const pf_rect *r, uint32_t n, uint64_t version, void *user)
{
    (void)map, (void)r, (void)n, (void)version, (void)user;
    g_inner = pf_search(g_ctx, 0, 1, NULL, NULL, NULL);
}

static void test_busy(void **state)
{
    (void)state;
    g_map = walled(PF_MOVES_8_NO_CUT);
    assert_int_equal(pf_ctx_create(g_map, NULL, &g_ctx), PF_OK);
    /* an edit from inside a search (here its heuristic) is refused */
    g_inner = PF_OK;
    pf_search_desc d = {.heuristic = PF_HEUR_CALLBACK, .heuristic_fn = editing_heuristic};
    assert_int_equal(pf_search(g_ctx, 0, 5, &d, NULL, NULL), PF_OK);
    assert_int_equal(g_inner, PF_MAP_BUSY);
    assert_int_equal(pf_grid_class(g_map, 0, 0), 1);
    assert_int_equal(pf_map_version(g_map), 0);
    /* and a search from inside an edit (here a listener) is refused */
    assert_int_equal(pf_map_listen(g_map, searching_listener, NULL), PF_OK);
    pf_grid_edit e = {.rect = {5, 5, 1, 1}, .cls = 0};
    assert_int_equal(pf_grid_apply_edits(g_map, &e, 1, NULL), PF_OK);
    assert_int_equal(g_inner, PF_MAP_BUSY);
    assert_int_equal(pf_map_unlisten(g_map, searching_listener, NULL), PF_OK);
    assert_int_equal(pf_map_unlisten(g_map, searching_listener, NULL), PF_INVALID_ARGUMENT);
    /* between runs it works */
    assert_int_equal(pf_search(g_ctx, 0, 1, NULL, NULL, NULL), PF_OK);
    pf_ctx_destroy(g_ctx);
    pf_map_destroy(g_map);
}

typedef struct seen {
    int calls;
    uint64_t version;
    pf_rect r[4];
    uint32_t n;
} seen;

static void record(const pf_map *map, const pf_rect *r, uint32_t n, uint64_t version, void *user)
{
    (void)map;
    seen *s = user;
    s->calls++;
    s->version = version;
    s->n = n;
    for (uint32_t i = 0; i < n && i < 4; i++) s->r[i] = r[i];
}

static void test_listener(void **state)
{
    (void)state;
    pf_map *m = walled(PF_MOVES_8_NO_CUT);
    seen s = {0};
    assert_int_equal(pf_map_listen(m, record, &s), PF_OK);
    assert_int_equal(pf_map_listen(NULL, record, &s), PF_INVALID_ARGUMENT);
    /* two edits, one call; rectangles shrink to the cells that changed (row 8 is open but
     * (16, 0..7) are wall already) */
    pf_grid_edit e[2] = {{.rect = {16, 6, 1, 4}, .cls = 0}, {.rect = {0, 0, 2, 2}, .cls = 2}};
    assert_int_equal(pf_grid_apply_edits(m, e, 2, NULL), PF_OK);
    assert_int_equal(s.calls, 1);
    assert_int_equal(s.version, 1);
    assert_int_equal(s.n, 2);
    assert_int_equal(s.r[0].x, 16);
    assert_int_equal(s.r[0].y, 8);
    assert_int_equal(s.r[0].w, 1);
    assert_int_equal(s.r[0].h, 1);
    assert_int_equal(s.r[1].w, 2);
    /* no change, no call */
    assert_int_equal(pf_grid_apply_edits(m, e, 2, NULL), PF_OK);
    assert_int_equal(s.calls, 1);
    pf_map_destroy(m); /* frees the listener registration */
}

/* A one-shot listener: it unlistens itself (and a second one unlistens another) while the edit
 * calls it. The edit's loop read the freed entry (ASan: heap-use-after-free; a crash without it,
 * from a review); now the entries wait, silent, until every user has been called. A context
 * after them follows the edit as ever. */
typedef struct once {
    int calls;
    const pf_map *map;
    pf_map_edit_fn drop; /* unlisten (drop, drop_user) when first called */
    void *drop_user;
} once;

static void once_fn(const pf_map *map, const pf_rect *r, uint32_t n, uint64_t version, void *user)
{
    (void)r, (void)n, (void)version;
    once *o = user;
    o->calls++;
    if (!o->drop) return;
    assert_int_equal(pf_map_unlisten(map, o->drop, o->drop_user), PF_OK);
    o->drop = NULL; /* once */
}

static void test_listener_unlistens_itself(void **state)
{
    (void)state;
    pf_map *m = walled(PF_MOVES_8_NO_CUT);
    once a = {0}, b = {0};
    seen s = {0}, t = {0};
    a.drop = once_fn, a.drop_user = &a;   /* itself */
    b.drop = record, b.drop_user = &t;    /* the listener after it */
    assert_int_equal(pf_map_listen(m, once_fn, &a), PF_OK);
    assert_int_equal(pf_map_listen(m, record, &s), PF_OK);
    assert_int_equal(pf_map_listen(m, once_fn, &b), PF_OK);
    assert_int_equal(pf_map_listen(m, record, &t), PF_OK);
    pf_ctx *c;
    assert_int_equal(pf_ctx_create(m, NULL, &c), PF_OK);
    pf_grid_edit e = {.rect = {0, 0, 2, 2}, .cls = 2};
    assert_int_equal(pf_grid_apply_edits(m, &e, 1, NULL), PF_OK);
    assert_int_equal(a.calls, 1);
    assert_int_equal(s.calls, 1);
    assert_int_equal(b.calls, 1);
    assert_int_equal(t.calls, 0); /* unlistened by b before its turn */
    /* gone: neither is called again, nor found */
    e.cls = 1;
    assert_int_equal(pf_grid_apply_edits(m, &e, 1, NULL), PF_OK);
    assert_int_equal(a.calls, 1);
    assert_int_equal(b.calls, 2);
    assert_int_equal(s.calls, 2);
    assert_int_equal(t.calls, 0);
    assert_int_equal(pf_map_unlisten(m, once_fn, &a), PF_INVALID_ARGUMENT);
    assert_int_equal(pf_map_unlisten(m, record, &t), PF_INVALID_ARGUMENT);
    /* the context followed both edits */
    pf_stats st;
    assert_int_equal(pf_search(c, pf_grid_node(m, 0, 0), pf_grid_node(m, 1, 1), NULL, NULL, &st), PF_OK);
    pf_ctx_destroy(c);
    pf_map_destroy(m);
}

/* ---- searches follow the map -------------------------------------------------------------------- */

static void test_sliced_restart(void **state)
{
    (void)state;
    pf_map *m = walled(PF_MOVES_8_NO_CUT);
    pf_ctx *c, *fresh;
    assert_int_equal(pf_ctx_create(m, NULL, &c), PF_OK);
    uint32_t a = pf_grid_node(m, 1, 1), b = pf_grid_node(m, 30, 14);
    assert_int_equal(pf_search_begin(c, a, b, NULL), PF_IN_PROGRESS);
    assert_int_equal(pf_search_step(c, 20), PF_IN_PROGRESS);
    /* a building next to the door: the suspended search starts again on the new cells */
    pf_grid_edit e = {.rect = {12, 2, 3, 4}, .cls = 0};
    assert_int_equal(pf_grid_apply_edits(m, &e, 1, NULL), PF_OK);
    pf_status st;
    while ((st = pf_search_step(c, 20)) == PF_IN_PROGRESS) {
    }
    assert_int_equal(st, PF_OK);
    pf_stats ps;
    assert_int_equal(pf_search_path(c, NULL, &ps), PF_OK);
    assert_int_equal(pf_ctx_create(m, NULL, &fresh), PF_OK);
    pf_stats want;
    assert_int_equal(pf_search(fresh, a, b, NULL, NULL, &want), PF_OK);
    assert_true(ps.cost == want.cost);
    assert_true(ps.expanded == want.expanded);
    /* a finished search's path is gone once the map changed */
    e.rect = (pf_rect){0, 15, 1, 1};
    assert_int_equal(pf_grid_apply_edits(m, &e, 1, NULL), PF_OK);
    assert_int_equal(pf_search_path(c, NULL, &ps), PF_MAP_CHANGED);
    /* a restart whose goal is now walled in reports it */
    assert_int_equal(pf_search_begin(c, a, b, NULL), PF_IN_PROGRESS);
    e.rect = (pf_rect){30, 14, 1, 1};
    assert_int_equal(pf_grid_apply_edits(m, &e, 1, NULL), PF_OK);
    assert_int_equal(pf_search_step(c, 0), PF_INVALID_GOAL);
    pf_ctx_destroy(fresh);
    pf_ctx_destroy(c);
    pf_map_destroy(m);
}

static void test_jps_follows(void **state)
{
    (void)state;
    pf_map *m = walled(PF_MOVES_8_NO_CUT);
    pf_jps_table *t;
    assert_int_equal(pf_jps_table_create(m, NULL, &t), PF_OK);
    pf_ctx *c;
    assert_int_equal(pf_ctx_create(m, NULL, &c), PF_OK);
    assert_int_equal(pf_ctx_use_jps_table(c, t), PF_OK);
    uint32_t a = pf_grid_node(m, 1, 8), b = pf_grid_node(m, 30, 8);
    pf_stats ps;
    pf_search_desc jp = {.algo = PF_ALGO_JPS_PLUS};
    assert_int_equal(pf_search(c, a, b, &jp, NULL, &ps), PF_OK);
    assert_true(fabs(ps.cost - 29.0) < 1e-9);
    /* a water pool on the straight line: the new class gets its bitmaps, the distances follow */
    pf_grid_edit pool = {.rect = {8, 6, 3, 5}, .cls = 2};
    assert_int_equal(pf_grid_apply_edits(m, &pool, 1, NULL), PF_OK);
    assert_int_equal(pf_ctx_use_jps_table(c, t), PF_OK); /* still made for this map */
    pf_status st;
    double want = cost_of(c, a, b, &st);
    assert_int_equal(st, PF_OK);
    assert_int_equal(pf_search(c, a, b, &jp, NULL, &ps), PF_OK);
    assert_true(ps.cost == want);
    pf_search_desc j = {.algo = PF_ALGO_JPS};
    assert_int_equal(pf_search(c, pf_grid_node(m, 8, 6), pf_grid_node(m, 10, 10), &j, NULL, &ps), PF_OK);
    pf_ctx_destroy(c);
    pf_jps_table_destroy(t);
    pf_map_destroy(m);
}

/* ---- which paths broke ------------------------------------------------------------------------------- */

static void test_path_changed(void **state)
{
    (void)state;
    pf_map *m = walled(PF_MOVES_8_NO_CUT);
    pf_ctx *c;
    assert_int_equal(pf_ctx_create(m, NULL, &c), PF_OK);
    uint32_t nodes[128];
    pf_path p = {.nodes = nodes, .capacity = 128};
    assert_int_equal(pf_search(c, pf_grid_node(m, 1, 1), pf_grid_node(m, 10, 10), NULL, &p, NULL), PF_OK);
    uint64_t v = pf_map_version(m);
    assert_int_equal(pf_grid_path_changed(m, v, nodes, p.len), PF_NODE_NONE);
    /* far away: untouched */
    pf_grid_edit far = {.rect = {25, 1, 2, 2}, .cls = 0};
    assert_int_equal(pf_grid_apply_edits(m, &far, 1, NULL), PF_OK);
    assert_int_equal(pf_grid_path_changed(m, v, nodes, p.len), PF_NODE_NONE);
    /* the path runs diagonally from (1,1) to (10,10): a cell beside a diagonal step breaks it
     * (no corner cutting) although the path does not enter it */
    pf_grid_edit side = {.rect = {6, 5, 1, 1}, .cls = 0};
    assert_int_equal(pf_grid_apply_edits(m, &side, 1, NULL), PF_OK);
    uint32_t i = pf_grid_path_changed(m, v, nodes, p.len);
    assert_true(i != PF_NODE_NONE);
    assert_int_equal(pf_grid_point(m, nodes[i]).x, 5);
    /* asked from the version after the first edit, the answer is the same; from the newest, none */
    assert_int_equal(pf_grid_path_changed(m, v + 1, nodes, p.len), i);
    assert_int_equal(pf_grid_path_changed(m, pf_map_version(m), nodes, p.len), PF_NODE_NONE);
    pf_rect rs[4];
    uint32_t n;
    assert_int_equal(pf_grid_changes_since(m, v, rs, 4, &n), PF_OK);
    assert_int_equal(n, 2);
    assert_int_equal(rs[0].x, 25);
    assert_int_equal(rs[1].x, 6);
    assert_int_equal(pf_grid_changes_since(m, v, rs, 1, &n), PF_BUFFER_TOO_SMALL);
    assert_int_equal(n, 2);
    /* past the log (4096 rectangles), answers come from 16x16 blocks: still never a missed change */
    for (int k = 0; k < 4200; k++) {
        pf_grid_edit t = {.rect = {30, 15, 1, 1}, .cls = (uint8_t)(k & 1)};
        assert_int_equal(pf_grid_apply_edits(m, &t, 1, NULL), PF_OK);
    }
    assert_int_equal(pf_grid_changes_since(m, v, rs, 4, &n), PF_LIMIT_REACHED);
    assert_true(pf_grid_path_changed(m, v, nodes, p.len) != PF_NODE_NONE);
    pf_ctx_destroy(c);
    pf_map_destroy(m);
}

/* ---- the EDITS line format ------------------------------------------------------------------------- */

static void test_parse(void **state)
{
    (void)state;
    pf_map *m = walled(PF_MOVES_8_NO_CUT);
    pf_grid_edit e;
    char ch;
    pf_diag dg;
    const char *ok = "rect 3 4 5 6 W";
    assert_int_equal(pf_grid_parse_edit(m, ok, strlen(ok), "e.txt", 7, &e, &ch, &dg), PF_OK);
    assert_int_equal(e.rect.x, 3);
    assert_int_equal(e.rect.h, 6);
    assert_int_equal(e.cls, 2);
    assert_int_equal(ch, 'W');
    const char *crlf = "rect 3 4 5 6 W\r\n"; /* a line of a CR LF file, its end included (a review) */
    assert_int_equal(pf_grid_parse_edit(m, crlf, strlen(crlf), "e.txt", 7, &e, &ch, &dg), PF_OK);
    assert_int_equal(e.cls, 2);
    const char *blank = "   # a comment";
    assert_int_equal(pf_grid_parse_edit(m, blank, strlen(blank), "e.txt", 8, &e, &ch, &dg), PF_OK);
    assert_int_equal(e.rect.w, 0);
    const char *outside = "rect 30 0 3 1 @";
    assert_int_equal(pf_grid_parse_edit(m, outside, strlen(outside), "e.txt", 9, &e, &ch, &dg), PF_INVALID_ARGUMENT);
    assert_non_null(strstr(dg.msg, "e.txt:9"));
    assert_non_null(strstr(dg.msg, "outside"));
    assert_int_equal(pf_grid_parse_edit(NULL, outside, strlen(outside), "e.txt", 9, &e, &ch, &dg), PF_OK);
    const char *bad[] = {"rect 1 2 3 4", "rect 1 2 0 4 .", "rect 1 2 3 4 X", "rect a 2 3 4 .", "box 1 2 3 4 .",
                         "rect 1 2 3 4 . extra", "rect 1 2 3 4 ..", "rect 1 2 -3 4 ."};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(pf_grid_parse_edit(m, bad[i], strlen(bad[i]), "e.txt", 3, &e, &ch, &dg), PF_PARSE_ERROR);
        assert_non_null(strstr(dg.msg, "e.txt:3"));
    }
    pf_map_destroy(m);
}


/* ---- batches follow -------------------------------------------------------------------------------- */

static void batch_follow(uint32_t flags)
{
    pf_map *m = walled(PF_MOVES_8_NO_CUT);
    pf_batch *b;
    assert_int_equal(pf_batch_create(m, &(pf_batch_desc){.workers = 1, .flags = flags}, &b), PF_OK);
    uint32_t a = pf_grid_node(m, 1, 1), g = pf_grid_node(m, 30, 14);
    pf_ctx *c;
    assert_int_equal(pf_ctx_create(m, NULL, &c), PF_OK);
    pf_stats before, after;
    assert_int_equal(pf_search(c, a, g, NULL, NULL, &before), PF_OK);
    pf_query_id id;
    assert_int_equal(pf_batch_submit(b, &(pf_batch_query){.start = a, .goal = g}, &id), PF_OK);
    assert_int_equal(pf_batch_run(b, &(pf_batch_budget){.max_expansions = 20}), PF_OK);
    pf_batch_result r;
    assert_int_equal(pf_batch_get(b, id, &r), PF_OK);
    assert_int_equal(r.status, PF_IN_PROGRESS); /* suspended */
    /* an edit between prepare and finish is refused */
    pf_grid_edit e = {.rect = {18, 4, 1, 11}, .cls = 0};
    assert_int_equal(pf_batch_prepare(b, &(pf_batch_budget){.max_expansions = 1}), PF_OK);
    assert_int_equal(pf_grid_apply_edits(m, &e, 1, NULL), PF_MAP_BUSY);
    for (uint32_t j = 0; j < pf_batch_job_count(b); j++) assert_int_equal(pf_batch_run_job(b, j, 0), PF_OK);
    assert_int_equal(pf_batch_finish(b), PF_OK);
    /* an edit that changes no cell (open cells set open again) finishes nothing, even with
     * PF_BATCH_FINISH_ON_EDIT: no version to finish before (a review) */
    pf_grid_edit same = {.rect = {18, 4, 1, 11}, .cls = 1};
    assert_int_equal(pf_grid_apply_edits(m, &same, 1, NULL), PF_OK);
    assert_int_equal(pf_map_version(m), 0);
    assert_int_equal(pf_batch_get(b, id, &r), PF_OK);
    assert_int_equal(r.status, PF_IN_PROGRESS);
    /* a wall across the way to the goal, from a version 1 on */
    assert_int_equal(pf_grid_apply_edits(m, &e, 1, NULL), PF_OK);
    assert_int_equal(pf_search(c, a, g, NULL, NULL, &after), PF_OK);
    assert_true(after.cost > before.cost);
    assert_int_equal(pf_batch_get(b, id, &r), PF_OK);
    if (flags & PF_BATCH_FINISH_ON_EDIT) {
        /* finished inside the edit, on the version it started on */
        assert_int_equal(r.status, PF_OK);
        assert_int_equal(r.map_version, 0);
        assert_true(r.stats.cost == before.cost);
        assert_int_equal(pf_batch_get_stats(b).restarted, 0);
    } else {
        assert_int_equal(r.status, PF_IN_PROGRESS);
        assert_int_equal(pf_batch_get_stats(b).restarted, 1);
        assert_int_equal(pf_batch_run(b, NULL), PF_OK);
        assert_int_equal(pf_batch_get(b, id, &r), PF_OK);
        assert_int_equal(r.status, PF_OK);
        assert_int_equal(r.map_version, 1);
        assert_true(r.stats.cost == after.cost);
    }
    /* the path's version tells whether a later edit broke it */
    assert_int_equal(pf_grid_path_changed(m, r.map_version, r.path, r.path_len),
                     r.map_version == 0 ? pf_grid_path_changed(m, 0, r.path, r.path_len) : PF_NODE_NONE);
    assert_int_equal(pf_batch_get_stats(b).pending, 0);
    pf_ctx_destroy(c);
    pf_batch_destroy(b);
    pf_map_destroy(m);
}

static void test_batch_restart(void **state)
{
    (void)state;
    batch_follow(0);
}

static void test_batch_finish_on_edit(void **state)
{
    (void)state;
    batch_follow(PF_BATCH_FINISH_ON_EDIT);
}

/* A table on a small grid: every edit runs its incremental update. */
static void test_table_follows(void **state)
{
    (void)state;
    pf_map *m = walled(PF_MOVES_8_NO_CUT);
    pf_table *t;
    assert_int_equal(pf_table_create(m, NULL, &t), PF_OK);
    uint32_t a = pf_grid_node(m, 2, 2), b = pf_grid_node(m, 28, 2);
    double c0, c1;
    assert_int_equal(pf_table_path(t, a, b, NULL, &c0), PF_OK);
    pf_grid_edit door = {.rect = {16, 8, 1, 1}, .cls = 0};
    assert_int_equal(pf_grid_apply_edits(m, &door, 1, NULL), PF_OK);
    assert_int_equal(pf_table_path(t, a, b, NULL, &c1), PF_NO_PATH);
    door.cls = 1;
    assert_int_equal(pf_grid_apply_edits(m, &door, 1, NULL), PF_OK);
    assert_int_equal(pf_table_path(t, a, b, NULL, &c1), PF_OK);
    assert_true(c0 == c1);
    assert_int_equal(pf_table_update(t, m, NULL, NULL), PF_OK);
    pf_table_destroy(t);
    pf_map_destroy(m);
}


/* ---- allocation failures inside an edit ------------------------------------------------------------ */

/* Every allocation an edit makes fails in turn: the edit reports PF_OUT_OF_MEMORY or succeeds,
 * nothing leaks, and once memory is back the map and what follows it agree with a fresh map. */
static void test_edit_out_of_memory(void **state)
{
    (void)state;
    int reached_ok = 0;
    for (long n = 0; n < 400 && !reached_ok; n++) {
        test_tracker f = {.countdown = -1, .once = 1};
        pf_allocator al = {test_track_alloc, test_track_free, &f};
        uint8_t cells[96 * 80];
        for (int i = 0; i < 96 * 80; i++) cells[i] = (i % 96 == 40 && i / 96 != 30) ? 0 : 1;
        pf_map *m;
        assert_int_equal(pf_grid_create(&(pf_grid_desc){.width = 96, .height = 80, .cells = cells, .allocator = al}, &m),
                         PF_OK);
        pf_jps_table *t;
        assert_int_equal(pf_jps_table_create(m, &(pf_jps_desc){.allocator = al, .threads = 1}, &t), PF_OK);
        pf_ctx *c;
        assert_int_equal(pf_ctx_create(m, &(pf_ctx_desc){.allocator = al}, &c), PF_OK);
        assert_int_equal(pf_ctx_use_jps_table(c, t), PF_OK);
        /* close the door (a cut), grow a forest over the wall (new class, new bitmaps), weight */
        pf_grid_edit e[3] = {{.rect = {40, 28, 1, 5}, .cls = 0},
                             {.rect = {35, 10, 12, 12}, .cls = 3},
                             {.rect = {60, 60, 4, 4}, .what = PF_EDIT_COST, .cost = 2.0f}};
        f.countdown = n;
        pf_status st = pf_grid_apply_edits(m, e, 3, NULL);
        f.countdown = -1;
        assert_true(st == PF_OK || st == PF_OUT_OF_MEMORY);
        reached_ok = st == PF_OK && f.fails == 0;
        /* memory is back: one more edit (it rebuilds dropped components), then compare */
        pf_grid_edit more = {.rect = {10, 10, 2, 2}, .cls = 0};
        assert_int_equal(pf_grid_apply_edits(m, &more, 1, NULL), PF_OK);
        uint8_t cls[96 * 80];
        float cost[96 * 80];
        assert_int_equal(pf_grid_read(m, (pf_rect){0, 0, 96, 80}, cls, cost), PF_OK);
        pf_map *fresh;
        assert_int_equal(pf_grid_create(&(pf_grid_desc){.width = 96, .height = 80, .cells = cls,
                                                        .costs = pf_grid_weighted(m) ? cost : NULL},
                                        &fresh),
                         PF_OK);
        assert_true(pf_map_fingerprint(m) == pf_map_fingerprint(fresh));
        assert_int_equal(pf_grid_component_count(m), pf_grid_component_count(fresh));
        pf_ctx *fc;
        assert_int_equal(pf_ctx_create(fresh, NULL, &fc), PF_OK);
        uint32_t a = pf_grid_node(m, 2, 2), b = pf_grid_node(m, 90, 70);
        pf_stats s1, s2;
        pf_status r1 = pf_search(c, a, b, NULL, NULL, &s1), r2 = pf_search(fc, a, b, NULL, NULL, &s2);
        assert_int_equal(r1, r2);
        assert_true(s1.cost == s2.cost || (isinf(s1.cost) && isinf(s2.cost)));
        assert_int_equal(s1.expanded, s2.expanded); /* the early unreachable answer is back too */
        /* the shared table followed, or says it could not */
        pf_status jr = pf_search(c, a, b, &(pf_search_desc){.algo = PF_ALGO_JPS_PLUS}, NULL, &s1);
        if (st == PF_OK) assert_int_equal(jr, r2 == PF_OK && pf_jps_supported(m) ? PF_OK : jr);
        else assert_true(jr == r2 || jr == PF_WRONG_MAP);
        pf_ctx_destroy(fc);
        pf_map_destroy(fresh);
        pf_ctx_destroy(c);
        pf_jps_table_destroy(t);
        pf_map_destroy(m);
        assert_int_equal(f.live, 0);
    }
    assert_true(reached_ok);
}

/* An edit that ran out of memory in the component update dropped the labels (pf_grid_component 0,
 * partial queries flooding): the next call brings them back even when it changes no cell (only
 * an edit that changed one did, a review). A checkerboard of isolated cells makes thousands of
 * components at once, so the update must grow its arrays. */
static void test_dropped_labels_come_back(void **state)
{
    (void)state;
    int dropped = 0;
    for (long n = 0; n < 200 && !dropped; n++) {
        test_tracker f = {.countdown = -1, .once = 1};
        pf_allocator al = {test_track_alloc, test_track_free, &f};
        pf_map *m;
        assert_int_equal(pf_grid_create(&(pf_grid_desc){.width = 96, .height = 80, .allocator = al}, &m), PF_OK);
        uint8_t board[80 * 60];
        for (int i = 0; i < 80 * 60; i++) board[i] = (uint8_t)((i % 80 + i / 80) & 1);
        pf_grid_edit e = {.rect = {8, 10, 80, 60}, .classes = board};
        f.countdown = n;
        pf_status st = pf_grid_apply_edits(m, &e, 1, NULL);
        f.countdown = -1;
        assert_true(st == PF_OK || st == PF_OUT_OF_MEMORY);
        if (st == PF_OUT_OF_MEMORY && pf_grid_component_count(m) == 0 && pf_grid_class(m, 9, 10) == 1) {
            dropped = 1;
            pf_grid_edit same = {.rect = {0, 0, 2, 2}, .cls = 1}; /* open already: no cell changes */
            pf_edit_report rep;
            assert_int_equal(pf_grid_apply_edits(m, &same, 1, &rep), PF_OK);
            assert_int_equal(rep.changed, 0);
            pf_map *fresh;
            uint8_t cls[96 * 80];
            assert_int_equal(pf_grid_read(m, (pf_rect){0, 0, 96, 80}, cls, NULL), PF_OK);
            assert_int_equal(pf_grid_create(&(pf_grid_desc){.width = 96, .height = 80, .cells = cls}, &fresh), PF_OK);
            assert_int_equal(pf_grid_component_count(m), pf_grid_component_count(fresh));
            assert_true(pf_grid_component(m, 9, 10) != 0);
            assert_int_equal(pf_grid_same_component(m, pf_grid_node(m, 0, 0), pf_grid_node(m, 95, 79)), 1);
            pf_map_destroy(fresh);
        }
        pf_map_destroy(m);
        assert_int_equal(f.live, 0);
    }
    assert_true(dropped);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_arguments),  cmocka_unit_test(test_versions_and_read_back),
        cmocka_unit_test(test_components), cmocka_unit_test(test_busy),
        cmocka_unit_test(test_listener),   cmocka_unit_test(test_listener_unlistens_itself), cmocka_unit_test(test_sliced_restart),
        cmocka_unit_test(test_jps_follows), cmocka_unit_test(test_path_changed),
        cmocka_unit_test(test_parse),      cmocka_unit_test(test_batch_restart),
        cmocka_unit_test(test_batch_finish_on_edit), cmocka_unit_test(test_table_follows),
        cmocka_unit_test(test_edit_out_of_memory), cmocka_unit_test(test_dropped_labels_come_back),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
