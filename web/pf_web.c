/*
 * pf_web.c - the browser demo's glue: the public API (core/include, batch/include) exported to
 * JavaScript as flat functions of numbers, since JS cannot build C structs.
 *
 * The page plays frames exactly as `pathfind replay` plays an order log (cli/cmd_replay.c): each
 * frame resets the batch, applies that frame's edits, submits that frame's orders (each superseding
 * the unit's pending one), collects, runs the batch once under an expansion budget, collects again.
 * With one worker, the same spare slots and the same preparation of JPS tables or the accelerator,
 * the native replay of the page's log must answer every order in the same frame with the same
 * status, cost, path length and path hash: the browser test checks exactly that.
 *
 * One demo session at a time: the state is file-scope because the page is one instance.
 */
#include <stdlib.h>
#include <string.h>
#include <emscripten.h>
#include <pathfind.h>
#define XXH_INLINE_ALL /* the path hash of replay's CSV: XXH3 over little-endian node ids */
#include <xxhash.h>
#include "../cli/status_word.h" /* the CLI's words for a status, one table */

#define KEEP EMSCRIPTEN_KEEPALIVE

/* One order of the session, in submission order (replay's CSV row). */
typedef struct web_order {
    pf_query_id id;
    pf_status   status;   /* PF_IN_PROGRESS while pending */
    int32_t     arrived;  /* frame of the answer, -1 while pending */
    uint32_t    flags;    /* pf_batch_result.flags */
    pf_stats    stats;
    uint32_t   *path;     /* [len: len] a copy: the batch's expires at the next reset */
    uint32_t    len;
    uint64_t    hash;
} web_order;

static struct {
    pf_map       *map;
    pf_batch     *batch;
    pf_jps_table *jps;
    pf_accel     *accel;
    pf_ctx       *viewer;     /* replays one search with a trace, for the expanded cells */
    pf_algo       algo;
    web_order    *orders;
    uint32_t      n, cap;
    uint32_t     *trace;      /* [len: node count] */
    uint32_t      trace_len;
    uint8_t      *classes;    /* [len: node count] the map's terrain classes, for drawing */
    char          msg[192];   /* the last error, for the page */
    double        prep_ms;    /* time to make the JPS table or the accelerator */
} W;

static void set_msg(const char *what, pf_status s)
{
    size_t n = strlen(what);
    if (n > sizeof W.msg - 64) n = sizeof W.msg - 64;
    memcpy(W.msg, what, n);
    W.msg[n] = 0;
    if (s != PF_OK) {
        strcat(W.msg, ": ");
        strcat(W.msg, pf_status_str(s));
    }
}

KEEP const char *pfw_message(void) { return W.msg; }

static void drop_session(void)
{
    for (uint32_t i = 0; i < W.n; i++) free(W.orders[i].path);
    W.n = 0;
    W.trace_len = 0;
    pf_batch_destroy(W.batch);
    pf_ctx_destroy(W.viewer);
    pf_accel_destroy(W.accel);
    pf_jps_table_destroy(W.jps);
    W.batch = NULL;
    W.viewer = NULL;
    W.accel = NULL;
    W.jps = NULL;
}

/** Parses a Moving AI map (as `pathfind` loads it: 8 neighbours, no corner cutting). */
KEEP int pfw_load(const char *text, int len, const char *name)
{
    drop_session();
    pf_map_destroy(W.map);
    W.map = NULL;
    free(W.classes);
    free(W.trace);
    W.classes = NULL;
    W.trace = NULL;
    pf_diag dg;
    pf_status s = pf_grid_parse_movingai(text, (size_t)len, name, NULL, &W.map, &dg);
    if (s != PF_OK) {
        set_msg(dg.msg, PF_OK);
        return s;
    }
    uint32_t nodes = pf_map_node_count(W.map);
    W.classes = malloc(nodes);
    W.trace = malloc((size_t)nodes * sizeof *W.trace);
    if (!W.classes || !W.trace) {
        set_msg("map", PF_OUT_OF_MEMORY);
        return PF_OUT_OF_MEMORY;
    }
    W.msg[0] = 0;
    return PF_OK;
}

KEEP int pfw_width(void) { return (int)pf_grid_width(W.map); }
KEEP int pfw_height(void) { return (int)pf_grid_height(W.map); }

/** The terrain classes, row-major, read back after every edit (0 = blocked). */
KEEP const uint8_t *pfw_classes(void)
{
    pf_rect r = {0, 0, (int32_t)pf_grid_width(W.map), (int32_t)pf_grid_height(W.map)};
    return pf_grid_read(W.map, r, W.classes, NULL) == PF_OK ? W.classes : NULL;
}

/** The largest unit (side in cells) whose top-left cell can stand on (x, y). */
KEEP int pfw_clearance(int x, int y) { return pf_grid_clearance(W.map, x, y); }

/**
 * Starts a session: a new batch (one worker, replay's two spare slots) for `algo`, with what
 * `pathfind replay --algo` makes before frame 0 (cli/cmd_prep.c): the accelerator for auto, JPS
 * tables for JPS (bitmaps) and JPS+ (jump distances). Orders of the last session are dropped.
 */
KEEP int pfw_session(int algo)
{
    drop_session();
    if (!W.map) return PF_INVALID_ARGUMENT;
    W.algo = (pf_algo)algo;
    double t0 = emscripten_get_now();
    pf_status s = PF_OK;
    if (W.algo == PF_ALGO_AUTO && pf_accel_supported(W.map)) {
        /* following the demo's edits, as replay's does (rebuilt by each edit) */
        s = pf_accel_create(W.map, &(pf_accel_desc){.edits = PF_ACCEL_EDITS_REBUILD}, &W.accel);
    } else if ((W.algo == PF_ALGO_JPS || W.algo == PF_ALGO_JPS_PLUS || W.algo == PF_ALGO_AUTO) &&
               pf_jps_supported(W.map)) {
        if (pf_jps_table_create(W.map, &(pf_jps_desc){.bitmaps_only = W.algo == PF_ALGO_JPS}, &W.jps) != PF_OK)
            W.jps = NULL; /* as replay: searches build their own */
    }
    W.prep_ms = emscripten_get_now() - t0;
    if (s != PF_OK) {
        set_msg("cannot build the accelerator", s);
        return s;
    }
    s = pf_batch_create(W.map, &(pf_batch_desc){.workers = 1, .suspend_slots = 2, .jps_table = W.jps, .accel = W.accel},
                        &W.batch);
    if (s == PF_OK) s = pf_ctx_create(W.map, NULL, &W.viewer);
    if (s == PF_OK && W.jps) s = pf_ctx_use_jps_table(W.viewer, W.jps);
    if (s == PF_OK && W.accel) s = pf_ctx_use_accel(W.viewer, W.accel);
    if (s != PF_OK) set_msg("session", s);
    return s;
}

KEEP double pfw_prep_ms(void) { return W.prep_ms; }

/** Frame step 1: answers of the last frame expire (their paths were copied at collection). */
KEEP int pfw_reset(void) { return W.batch ? pf_batch_reset(W.batch) : PF_INVALID_ARGUMENT; }

/** Frame step 2: one edit line of replay's log ("rect X Y W H C"), parsed and checked by the library. */
KEEP int pfw_edit(const char *line)
{
    pf_grid_edit ed;
    char ch;
    pf_diag dg;
    pf_status s = pf_grid_parse_edit(W.map, line, strlen(line), "page", 1, &ed, &ch, &dg);
    if (s != PF_OK) {
        set_msg(dg.msg, PF_OK);
        return s;
    }
    s = pf_grid_apply_edits(W.map, &ed, 1, NULL);
    if (s != PF_OK) set_msg("edit", s);
    return s;
}

/** Frame step 3: an order; returns its index (replay's `order` column) or -1 (pfw_message says why). */
KEEP int pfw_submit(double tag, int sx, int sy, int gx, int gy, int priority, int size)
{
    if (!W.batch) return -1;
    if (W.n == W.cap) {
        uint32_t nc = W.cap ? W.cap * 2u : 256u;
        web_order *no = realloc(W.orders, nc * sizeof *no);
        if (!no) {
            set_msg("orders", PF_OUT_OF_MEMORY);
            return -1;
        }
        W.orders = no;
        W.cap = nc;
    }
    web_order *o = &W.orders[W.n];
    *o = (web_order){.status = PF_IN_PROGRESS, .arrived = -1, .stats = {.cost = -1.0}};
    pf_batch_query q = {.start = pf_grid_node(W.map, sx, sy),
                        .goal = pf_grid_node(W.map, gx, gy),
                        .search = {.algo = W.algo, .unit_size = (uint32_t)size},
                        .tag = (uint64_t)tag,
                        .priority = (pf_priority)priority,
                        .flags = PF_QUERY_SUPERSEDE};
    pf_status s = pf_batch_submit(W.batch, &q, &o->id);
    if (s != PF_OK) {
        set_msg("submit", s);
        return -1;
    }
    return (int)W.n++;
}

static uint64_t hash_path(const uint32_t *p, uint32_t n)
{
    uint8_t *buf = malloc((size_t)n * 4u);
    if (!buf) return 0;
    for (uint32_t i = 0; i < n; i++)
        for (int k = 0; k < 4; k++) buf[4u * i + (uint32_t)k] = (uint8_t)(p[i] >> (8 * k));
    uint64_t h = XXH3_64bits(buf, (size_t)n * 4u);
    free(buf);
    return h;
}

/** Frame steps 4 and 6: reads what the batch answered; returns how many orders are still pending. */
KEEP int pfw_collect(int frame)
{
    int pending = 0;
    for (uint32_t i = 0; i < W.n; i++) {
        web_order *o = &W.orders[i];
        if (o->arrived >= 0) continue;
        pf_batch_result r;
        if (pf_batch_get(W.batch, o->id, &r) != PF_OK || r.status == PF_IN_PROGRESS) {
            pending++;
            continue;
        }
        o->arrived = frame;
        o->status = r.status;
        o->flags = r.flags;
        o->stats = r.stats;
        o->len = r.path ? r.path_len : 0;
        if (o->len) {
            o->path = malloc((size_t)o->len * sizeof *o->path);
            if (!o->path) {
                o->len = 0;
                set_msg("path", PF_OUT_OF_MEMORY);
                continue;
            }
            memcpy(o->path, r.path, (size_t)o->len * sizeof *o->path);
            o->hash = hash_path(o->path, o->len);
        }
    }
    return pending;
}

/** Frame step 5: one run under an expansion budget, driven through the job-system entry points
 *  (the page has one thread: the one worker runs every job). */
KEEP int pfw_run(double budget_expansions)
{
    pf_batch_budget bud = {.max_expansions = (uint64_t)budget_expansions};
    pf_status s = pf_batch_prepare(W.batch, &bud);
    if (s != PF_OK) {
        set_msg("prepare", s);
        return s;
    }
    uint32_t jobs = pf_batch_job_count(W.batch);
    for (uint32_t j = 0; j < jobs && s == PF_OK; j++) s = pf_batch_run_job(W.batch, j, 0);
    pf_status f = pf_batch_finish(W.batch);
    if (s == PF_OK) s = f;
    if (s != PF_OK) set_msg("run", s);
    return s;
}

/** Batch counters for the panel: 0 expanded, 1 pending, 2 searches, 3 deduped, 4 grouped,
 *  5 suspended, 6 restarted, 7 completed. */
KEEP double pfw_stat(int which)
{
    pf_batch_stats st = pf_batch_get_stats(W.batch);
    const uint64_t v[] = {st.expanded, st.pending, st.searches, st.deduped, st.grouped, st.suspended,
                          st.restarted, st.completed};
    return which >= 0 && which < 8 ? (double)v[which] : -1.0;
}

static const web_order *order_at(int i) { return i >= 0 && (uint32_t)i < W.n ? &W.orders[i] : NULL; }

KEEP int pfw_order_status(int i) { return order_at(i) ? order_at(i)->status : PF_INVALID_ARGUMENT; }
KEEP int pfw_order_arrived(int i) { return order_at(i) ? order_at(i)->arrived : -1; }
KEEP int pfw_order_flags(int i) { return order_at(i) ? (int)order_at(i)->flags : 0; }
KEEP double pfw_order_cost(int i) { return order_at(i) ? order_at(i)->stats.cost : -1.0; }
KEEP int pfw_order_expanded(int i) { return order_at(i) ? (int)order_at(i)->stats.expanded : 0; }
KEEP int pfw_order_algo(int i) { return order_at(i) ? (int)order_at(i)->stats.algo : 0; }
KEEP int pfw_order_len(int i) { return order_at(i) ? (int)order_at(i)->len : 0; }
KEEP const uint32_t *pfw_order_path(int i) { return order_at(i) ? order_at(i)->path : NULL; }
/* the hash in two halves: a JS number holds 53 bits */
KEEP double pfw_order_hash_hi(int i) { return order_at(i) ? (double)(order_at(i)->hash >> 32) : 0.0; }
KEEP double pfw_order_hash_lo(int i) { return order_at(i) ? (double)(order_at(i)->hash & 0xffffffffu) : 0.0; }

/**
 * The cells a search expands, in order: the batch takes no trace (its workers would write it
 * concurrently), so the page replays the order's search alone on the viewer context, with the
 * session's tables, and paces the picture by the expansions the batch spent each frame.
 * Returns the number of nodes taken off the open list (pfw_trace_nodes holds them).
 */
KEEP int pfw_trace(int sx, int sy, int gx, int gy, int size)
{
    W.trace_len = 0;
    if (!W.viewer) return 0;
    pf_trace tr = {.nodes = W.trace, .capacity = pf_map_node_count(W.map)};
    pf_search_desc d = {.algo = W.algo, .unit_size = (uint32_t)size};
    pf_ctx_use_trace(W.viewer, &tr);
    pf_search(W.viewer, pf_grid_node(W.map, sx, sy), pf_grid_node(W.map, gx, gy), &d, NULL, NULL);
    pf_ctx_use_trace(W.viewer, NULL);
    W.trace_len = tr.len;
    return (int)tr.len;
}

KEEP const uint32_t *pfw_trace_nodes(void) { return W.trace; }

/** Index of the first node of `path` a unit of `size` can no longer follow; -1 when all still can. */
KEEP int pfw_path_check(const uint32_t *path, int len, int size)
{
    uint32_t at = pf_grid_path_check(W.map, path, (uint32_t)len, &(pf_path_check_desc){.unit_size = (uint32_t)size});
    return at == PF_NODE_NONE ? -1 : (int)at;
}

KEEP const char *pfw_status_name(int s) { return pf_status_name((pf_status)s); }
KEEP const char *pfw_algo_name(int a) { return pf_algo_name((pf_algo)a); }

/** An order's status as `pathfind replay` writes it in its CSV (the CLI's one table: cli/status_word.c). */
KEEP const char *pfw_order_word(int i)
{
    if (!order_at(i)) return "error";
    return cli_status_word(order_at(i)->status);
}
