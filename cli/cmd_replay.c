/* cmd_replay.c - `pathfind replay MAP ORDERS`: an order log played frame by frame through a batch,
 * as an engine would (submit the frame's orders, run once with the budget, collect what finished).
 *
 * The order log is parsed whole before the replay (orders.c); a new kind of record gets a case in
 * the frame loop, a new option a row in OPTS.
 */
#define _POSIX_C_SOURCE 200809L /* setenv, execv, clock_gettime */
#define XXH_INLINE_ALL          /* the path hash; no symbols exported */
#include <errno.h>
#include <math.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <xxhash.h>
#include "cli.h"
#include "replay_anim.h"
#include "replay_adopt.h"

static const char *HELP =
    "usage: pathfind replay MAP.map ORDERS [--workers N] [--budget-exp E] [--budget-us U] [--algo NAME]\n"
    "                       [--csv FILE] [--frames-csv FILE] [--slots S] [--moves 4|8|8cut|hex] [--size K] [--prep FILE]\n"
    "                       [--speed S] [--animate FILE.gif [--anim-px N] [--anim-step N]]\n"
    "                       [--classes CHARS [--class-cost C=X[,C=X]]] [--accel-adopt-frames N]\n"
    "                       [--accel-edits check|stale|rebuild] [--prefault default|records|all|none]\n"
    "\n"
    "Replays an order log frame by frame through one batch: each frame submits that frame's lines in\n"
    "file order, runs the batch once with the budget and collects what completed, until every order\n"
    "has completed or been cancelled. A new order for a unit supersedes its pending one.\n"
    "\n"
    "ORDERS is text (at most 256 MiB, lines of at most 4,094 bytes, no NUL byte). The first line is\n"
    "`orders 1`; then one record a line (blank lines and lines starting with # are skipped), FRAME\n"
    "non-decreasing from 0 up to 4294967294 (frames are counted in 64 bits: they never wrap):\n"
    "  FRAME TAG SX SY GX GY PRIORITY [size=K] [partial]\n"
    "                                   an order for unit TAG; PRIORITY urgent, normal or background;\n"
    "                                   size=K: a K x K unit (default --size); partial: toward a goal\n"
    "                                   it cannot reach, the nearest cell it can (status partial)\n"
    "  FRAME TAG cancel                 cancels unit TAG's pending order (no effect if none)\n"
    "  FRAME rect X Y W H C             a map edit: the W x H cells from X, Y become terrain C (. G S\n"
    "                                   ground, W water, T trees, @ O blocked), applied before that\n"
    "                                   frame's orders; pending and suspended searches then answer on\n"
    "                                   the edited map\n"
    "\n"
    "";
/* C11 compilers need take no string longer than 4,095 characters: the help is two */
static const char *HELP2 =
    "The CSV has one row per order line (cancel lines excluded), in file order, with the header\n"
    "  order,tag,submitted,arrived,status,cost,path_len,path_hash\n"
    "order counts order lines from 0; arrived is the frame of completion (or of the cancel); status is\n"
    "ok, no_path, partial, invalid, cancelled or superseded (or limit, oom, overflow, error: another\n"
    "status the library returned, e.g. a sized order on a hex map); cost is printed with %.6f and path_hash is the\n"
    "lowercase hex XXH3-64 of the path's node ids as little-endian uint32 (both - without a path).\n"
    "With an expansion budget (and no time budget) the CSV is the same for any --workers.\n"
    "\n"
    "The last line of stdout is one JSON object: frames, orders, completed, failed (answered with an\n"
    "error status, not counted as completed), cancelled, superseded, accel (1 with an accelerator),\n"
    "how the completed orders were answered (by_ALGO, detail_fallback, detail_accel,\n"
    "detail_accel_stale, detail_short, detail_partial, detail_accel_edited,\n"
    "detail_accel_declined),\n"
    "frame_ms_p50/p99/max and frame_ms_first (submit and run of one frame), queries_per_s (completed\n"
    "orders per second of those frames), urgent/normal/background_lag_p99 and urgent_lag_max (lag = arrived - submitted, in\n"
    "frames, over completed orders), expanded, dropped (expansions thrown away with searches that no\n"
    "spare context could keep at a frame's end or that an edit restarted) and restarted (such\n"
    "searches); with --budget-us,\n"
    "frames_under_90 (frames under 0.9x the budget with orders still pending after them) and\n"
    "frames_over_125 (frames over 1.25x it) and, where the system says what each thread ran (Linux),\n"
    "frames_over_125_offcpu (of those, the frames in which no thread of the process ran on a core for\n"
    "more than 1.25x the budget: the time past it was spent off the cores); peak_rss_kb, edits,\n"
    "edit_cells and edit_us (mean microseconds\n"
    "per edit line, the batch's following included), broken and repaired (delivered paths an edit\n"
    "broke ahead of their unit, checked for its size by pf_grid_path_check, and those pf_path_repair\n"
    "mended from where the unit stands) and repair_us (mean per broken path); with --algo auto and an\n"
    "accelerator: accel_adopt_frames, accel_rebuilds, accel_adoptions (copy_frame, frame, wait_ms,\n"
    "build_s of each), accel_dropped, accel_jps_frames (frames run while it was stale: JPS answered),\n"
    "accel_edited_frames (frames run while it followed edits by its diff),\n"
    "accel_copy_us (mean in-frame copy of the cells per rebuild), accel_wait_ms_max.\n"
    "\n";

static const char *HELP3 =
    "  --workers N     worker threads (default 1)\n"
    "  --size K        every unit is K x K cells (1..32), standing on its top-left cell\n"
    "  --classes CHARS every unit may enter this Moving AI terrain (. G S ground, W water, T trees;\n"
    "                  .W: hover units); without it a unit keeps to its start's terrain. Any size\n"
    "                  (its whole block on those terrains); jps and jps+ answer when the terrains\n"
    "                  cost one multiplier (else A*, detail fallback), auto by JPS; partial orders\n"
    "                  by A*.\n"
    "                  Delivered paths are re-checked and repaired after edits for the terrain too\n"
    "  --class-cost C=X[,C=X]  with --classes: the multiplier of a step into terrain C (default 1)\n"
    "  --budget-exp E  expansions per frame, an integer in 0..10^12 (0 = unlimited)\n"
    "  --budget-us U   microseconds per frame, an integer in 0..3600000000 (0 = unlimited): one\n"
    "                  deadline from the first worker's start; completion frames then depend on the\n"
    "                  clock\n"
    "  --algo NAME     astar (default), wastar, dijkstra, bfs, greedy, jps, jps+, theta, auto (the\n"
    "                  accelerator for long moves: read from --prep FILE, else built before frame 0)\n"
    "  --prep FILE     with --algo auto: the accelerator baked by `pathfind prep`\n"
    "  --accel-adopt-frames N  with --algo auto: after an edit a thread also rebuilds the accelerator\n"
    "                  from a copy of the cells; the batch adopts it at the first frame run at or\n"
    "                  after the edit frame + N (waiting for the build there if it is late), so the\n"
    "                  CSV does not depend on the machine (default: none with --accel-edits check,\n"
    "                  60 with stale; 0: rebuilt inside each edit, in the frame)\n"
    "  --accel-edits MODE  with --algo auto: check (default: the accelerator follows the edits by the\n"
    "                  cells that differ from its build's, answering every order it proves on the\n"
    "                  edited map, JPS the others: detail_accel_edited), stale (JPS answers every\n"
    "                  long order until an adoption), rebuild (--accel-adopt-frames 0)\n"
    ;

static const char *HELP4 =
    "  --csv FILE      write the CSV (replaced only once complete)\n"
    "  --frames-csv FILE  one row a frame run: frame,wall_ms,cpu_ms,expanded,pending,busiest_ms,wait_ms\n"
    "                  (the frame's submit and run: wall and process CPU time, expansions, orders\n"
    "                  pending after it, the most CPU time one thread used and the longest one thread\n"
    "                  waited for a core in it; '-': not known)\n"
    "  --slots S       searches kept suspended between frames (default 2; the CSV depends on it),\n"
    "                  and one urgent search more; a spare context (16 bytes a cell) is made when a\n"
    "                  search is first suspended, and S + 1 of them may not pass 16 GiB (at most 262\n"
    "                  slots on a 2000x2000 map)\n"
    "  --moves M       8 = 8-connected without corner cutting (default), 8cut, 4, hex\n"
    "  --prefault P    what the batch's contexts and the repairs' write at creation (pf_prefault):\n"
    "                  default (all), records, all, or none: then the spares hold only the pages their\n"
    "                  suspended searches touch (memory that follows use, page faults inside the frames)\n"
    "  --speed S       nodes of its path a unit moves each frame once its order is answered (default 1;\n"
    "                  0: units stay where their orders were given); edits break and repair the paths\n"
    "                  ahead of the units\n"
    "  --animate FILE  write an animated GIF (giflib): the map with its edits, units as squares of\n"
    "                  their size coloured by priority (pale while their search is in flight), a strip\n"
    "                  with the frame, its time and the searches in flight\n"
    "  --anim-px N     the GIF's longer side at most N pixels (64..4096, default 512)\n"
    "  --anim-step N   one picture every N frames (1..10000, default 1)\n"
    "\n"
    "Unless OMP_WAIT_POLICY or GOMP_SPINCOUNT is set, the replay restarts itself once with\n"
    "OMP_WAIT_POLICY=passive, so idle worker threads sleep between frames instead of spinning.\n"
    "\n"
    "example: pathfind replay maps/demo-512.map orders.txt --workers 2 --budget-exp 20000 --csv out.csv\n";

typedef struct replay_opts {
    const char *map, *orders, *csv, *frames_csv;
    const char *prep;
    long        workers, slots;
    long        budget_exp, budget_us;
    pf_algo     algo;
    pf_moves    moves;
    long        size;
    long        speed;
    const char *animate;
    long        anim_px, anim_step;
    pf_prefault prefault;
    cli_filter  filt; /* --classes, --class-cost */
    long        adopt; /* --accel-adopt-frames */
    int         adopt_given;
    pf_accel_edits accel_edits; /* --accel-edits */
    int         accel_edits_given;
} replay_opts;

typedef int (*opt_fn)(replay_opts *o, const char *arg);

static int opt_workers(replay_opts *o, const char *a) { return cli_parse_int("replay", "--workers", a, 1, 1024, &o->workers); }
static int opt_slots(replay_opts *o, const char *a) { return cli_parse_int("replay", "--slots", a, 1, 1024, &o->slots); }
/* Budgets are whole numbers: 0.5 read as 0 would mean "unlimited". */
static int opt_exp(replay_opts *o, const char *a) { return cli_parse_int("replay", "--budget-exp", a, 0, 1000000000000L, &o->budget_exp); }
static int opt_us(replay_opts *o, const char *a) { return cli_parse_int("replay", "--budget-us", a, 0, 3600000000L, &o->budget_us); }
static int opt_algo(replay_opts *o, const char *a) { return cli_parse_algo("replay", a, &o->algo); }
static int opt_moves(replay_opts *o, const char *a) { return cli_parse_moves("replay", a, &o->moves); }
static int opt_size(replay_opts *o, const char *a) { return cli_parse_int("replay", "--size", a, 1, PF_UNIT_SIZE_MAX, &o->size); }
static int opt_classes(replay_opts *o, const char *a) { return cli_filter_opt("replay", "--classes", a, &o->filt) == 1; }
static int opt_class_cost(replay_opts *o, const char *a) { return cli_filter_opt("replay", "--class-cost", a, &o->filt) == 1; }
static int opt_csv(replay_opts *o, const char *a)
{
    o->csv = a;
    return 1;
}
static int opt_frames_csv(replay_opts *o, const char *a)
{
    o->frames_csv = a;
    return 1;
}
static int opt_prep(replay_opts *o, const char *a)
{
    o->prep = a;
    return 1;
}
static int opt_animate(replay_opts *o, const char *a)
{
    o->animate = a;
    return 1;
}
static int opt_prefault(replay_opts *o, const char *a)
{
    static const char *const names[] = {"default", "records", "all", "none"};
    for (int i = 0; i < 4; i++)
        if (strcmp(a, names[i]) == 0) {
            o->prefault = (pf_prefault)i;
            return 1;
        }
    cli_error("replay", "--prefault: '%s' is not default, records, all or none", a);
    return 0;
}
static int opt_adopt(replay_opts *o, const char *a)
{
    o->adopt_given = 1;
    return cli_parse_int("replay", "--accel-adopt-frames", a, 0, 1000000, &o->adopt);
}

static int opt_accel_edits(replay_opts *o, const char *a)
{
    o->accel_edits_given = 1;
    return cli_parse_accel_edits("replay", a, &o->accel_edits);
}
static int opt_speed(replay_opts *o, const char *a) { return cli_parse_int("replay", "--speed", a, 0, 1000, &o->speed); }
static int opt_anim_px(replay_opts *o, const char *a) { return cli_parse_int("replay", "--anim-px", a, 64, 4096, &o->anim_px); }
static int opt_anim_step(replay_opts *o, const char *a) { return cli_parse_int("replay", "--anim-step", a, 1, 10000, &o->anim_step); }

static const struct { const char *name; opt_fn fn; } OPTS[] = {
    {"--workers", opt_workers}, {"--budget-exp", opt_exp}, {"--budget-us", opt_us}, {"--algo", opt_algo},
    {"--csv", opt_csv},         {"--frames-csv", opt_frames_csv},         {"--slots", opt_slots},    {"--moves", opt_moves},    {"--size", opt_size},
    {"--prep", opt_prep},       {"--speed", opt_speed},    {"--animate", opt_animate}, {"--anim-px", opt_anim_px},
    {"--anim-step", opt_anim_step}, {"--prefault", opt_prefault}, {"--classes", opt_classes},
    {"--class-cost", opt_class_cost}, {"--accel-adopt-frames", opt_adopt}, {"--accel-edits", opt_accel_edits},
};

/* ---- the replay ------------------------------------------------------------------------------ */

typedef struct row {
    uint64_t    tag;
    pf_query_id id;
    uint64_t    submitted;
    int64_t     arrived;  /* -1 while pending; frames count in 64 bits, so arrived >= submitted */
    pf_priority prio;
    pf_status   status;
    double      cost;
    uint32_t    len;
    uint64_t    hash;
    pf_stats    st;       /* how it was answered (pf_stats.algo, .detail) */
    uint32_t    prev;     /* the unit's previous order (UINT32_MAX: none) */
    uint32_t    size;     /* the unit's size */
    uint32_t   *path;     /* the unit's delivered path while it is its latest (edits may break it) */
    uint32_t    plen;
    uint32_t    at;       /* where the unit is on it (it moves --speed nodes a frame) */
    int32_t     sx, sy;   /* where the order was given */
} row;

static uint64_t hash_path(const uint32_t *p, uint32_t n, uint8_t **buf, size_t *cap)
{
    if ((size_t)n * 4u > *cap) {
        size_t nc = (size_t)n * 4u;
        uint8_t *nb = realloc(*buf, nc);
        if (!nb) return 0;
        *buf = nb;
        *cap = nc;
    }
    for (uint32_t i = 0; i < n; i++) /* little-endian whatever the host */
        for (int k = 0; k < 4; k++) (*buf)[4u * i + (uint32_t)k] = (uint8_t)(p[i] >> (8 * k));
    return XXH3_64bits(*buf, (size_t)n * 4u);
}

/* The rows that hold a path a unit is walking: at most one a unit (a delivered path frees the
 * unit's last), so moving the units each frame and checking their paths after an edit cost the
 * units, not every order line of the log times every frame. A row joins when its path is
 * delivered, once (a row completes once; a repair keeps the row), and is dropped by walkers_prune
 * once its path is gone (the unit's next path replaced it, or an edit walled it off). Room for
 * every order row: none joins twice. */
typedef struct walkers { uint32_t *k; uint32_t n; } walkers;

static void walkers_prune(walkers *wk, const row *rows)
{
    uint32_t keep = 0;
    for (uint32_t j = 0; j < wk->n; j++)
        if (rows[wk->k[j]].path) wk->k[keep++] = wk->k[j];
    wk->n = keep;
}

/* Reads the results of the pending rows; keeps the rest pending (compacted in place). */
static uint32_t collect(pf_batch *b, row *rows, uint32_t *pend, uint32_t npend, uint64_t frame, uint8_t **hb,
                        size_t *hcap, walkers *wk)
{
    uint32_t keep = 0;
    for (uint32_t k = 0; k < npend; k++) {
        row *w = &rows[pend[k]];
        pf_batch_result r;
        if (pf_batch_get(b, w->id, &r) != PF_OK || r.status == PF_IN_PROGRESS) {
            pend[keep++] = pend[k];
            continue;
        }
        w->arrived = (int64_t)frame;
        w->status = r.status;
        w->cost = r.stats.cost;
        w->st = r.stats;
        w->len = r.path ? r.path_len : 0;
        w->hash = w->len ? hash_path(r.path, r.path_len, hb, hcap) : 0;
        if (w->len > 1 && (w->path = malloc((size_t)w->len * sizeof *w->path)) != NULL) {
            /* the unit's path now: the one it had before is no longer followed */
            memcpy(w->path, r.path, (size_t)w->len * sizeof *w->path);
            w->plen = w->len;
            w->at = 0;
            wk->k[wk->n++] = pend[k];
            for (uint32_t q = w->prev; q != UINT32_MAX; q = rows[q].prev)
                if (rows[q].path) {
                    free(rows[q].path);
                    rows[q].path = NULL;
                    break;
                }
        }
    }
    return keep;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double pct(double *v, uint32_t n, double p)
{
    if (n == 0) return 0.0;
    qsort(v, n, sizeof *v, cmp_double);
    uint32_t i = (uint32_t)(p * (n - 1) + 0.5);
    return v[i < n ? i : n - 1];
}

static int write_csv(FILE *f, const row *rows, uint32_t n)
{
    int ok = fputs("order,tag,submitted,arrived,status,cost,path_len,path_hash\n", f) >= 0;
    for (uint32_t i = 0; ok && i < n; i++) {
        const row *w = &rows[i];
        ok = fprintf(f, "%u,%llu,%llu,%lld,%s,", i, (unsigned long long)w->tag, (unsigned long long)w->submitted,
                     (long long)w->arrived,
                     cli_status_word(w->status)) > 0;
        if (ok && w->len) ok = fprintf(f, "%.6f,%u,%016llx\n", w->cost, w->len, (unsigned long long)w->hash) > 0;
        else if (ok) ok = fputs("-,0,-\n", f) >= 0;
    }
    return ok;
}

/* One run's figures, for --frames-csv. */
typedef struct frame_fig {
    uint64_t frame, expanded;
    double   wall_ms, cpu_ms, busiest_ms, wait_ms; /* busiest_ms, wait_ms < 0: not known */
    uint32_t pending;
} frame_fig;

static int write_frames_csv(FILE *f, const frame_fig *ff, uint32_t n)
{
    int ok = fputs("frame,wall_ms,cpu_ms,expanded,pending,busiest_ms,wait_ms\n", f) >= 0;
    for (uint32_t i = 0; ok && i < n; i++) {
        ok = fprintf(f, "%llu,%.3f,%.3f,%llu,%u,", (unsigned long long)ff[i].frame, ff[i].wall_ms, ff[i].cpu_ms,
                     (unsigned long long)ff[i].expanded, ff[i].pending) > 0;
        if (ok) ok = ff[i].busiest_ms < 0.0 ? fputs("-,-\n", f) >= 0
                                           : fprintf(f, "%.3f,%.3f\n", ff[i].busiest_ms, ff[i].wait_ms) > 0;
    }
    return ok;
}

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* An edit record as the library's edit: it checks the rectangle against the map and the terrain
 * character, and names the line (FILE:LINE:) when it refuses. 0 with a message. */
static int parse_edit(const pf_map *map, const char *path, const cli_order *r, pf_grid_edit *ed)
{
    /* the record again, each field where it stood on its line (blanks before it): the library's
     * message names the columns of the log, not of a rewritten text. A number is written as read
     * ("-007" as -7), never longer than typed, so no field reaches the next one's column */
    char text[4200];
    const int32_t v[4] = {r->sx, r->sy, r->w, r->h};
    int n = 0;
    for (int k = 0; k < 6; k++) {
        while (n < r->ecol[k] && n < 4096) text[n++] = ' ';
        n += k == 0 ? snprintf(text + n, sizeof text - (size_t)n, "rect ")
                    : k < 5 ? snprintf(text + n, sizeof text - (size_t)n, "%d ", (int)v[k - 1])
                            : snprintf(text + n, sizeof text - (size_t)n, "%c", r->terrain);
    }
    char ch;
    pf_diag dg;
    if (pf_grid_parse_edit(map, text, (size_t)n, path, r->line, ed, &ch, &dg) != PF_OK) {
        cli_error("replay", "%s", dg.msg);
        return 0;
    }
    return 1;
}

/* Every edit record checked against the map as soon as it is loaded (orders.c reads the log
 * before it), before the accelerator is read or built and before frame 0: a bad line found only
 * at its frame wasted the run up to it. */
static int check_edits(const pf_map *map, const char *path, const cli_orders *lg)
{
    pf_grid_edit ed;
    for (uint32_t k = 0; k < lg->n; k++)
        if (lg->r[k].kind == CLI_EDIT && !parse_edit(map, path, &lg->r[k], &ed)) return 0;
    return 1;
}

/* Applies an edit record to the map between frames; the batch follows the map (pending and
 * suspended searches answer on the edited map). */
static int apply_edit(pf_map *map, const char *path, const cli_order *r, double *seconds, uint64_t *cells)
{
    pf_grid_edit ed;
    if (!parse_edit(map, path, r, &ed)) return 0;
    pf_edit_report rep;
    double t0 = cli_now();
    pf_status st = pf_grid_apply_edits(map, &ed, 1, &rep);
    *seconds += cli_now() - t0;
    if (st != PF_OK) {
        cli_error("replay", "%s:%u: edit failed: %s", path, r->line, pf_status_str(st));
        return 0;
    }
    *cells += rep.changed;
    return 1;
}

/* After a frame's edits: every unit's delivered path is checked ahead of the unit against the
 * edited map (pf_grid_path_check, for the unit's size and terrain filter); a broken one is repaired by pf_path_repair
 * from where the unit stands. */
/* The repairs' context is written at creation as the batch's are (--prefault): with none, its 64 MB
 * of records on a 2000x2000 map are not all resident for a few local repairs. */
typedef struct repairs { pf_ctx *ctx; pf_prefault prefault; uint64_t broken, repaired; double seconds; } repairs;

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static int check_paths(pf_map *map, row *rows, walkers *wk, const pf_search_desc *sd, repairs *rp)
{
    /* in order-line order, as when every row was walked: the repairs share one context */
    walkers_prune(wk, rows);
    qsort(wk->k, wk->n, sizeof *wk->k, cmp_u32);
    for (uint32_t j = 0; j < wk->n; j++) {
        row *w = &rows[wk->k[j]];
        pf_path_check_desc cd = {.unit_size = w->size, .filter = sd->filter};
        double t0 = cli_now();
        /* only what lies ahead of the unit matters */
        if (pf_grid_path_check(map, w->path + w->at, w->plen - w->at, &cd) == PF_NODE_NONE) {
            rp->seconds += cli_now() - t0;
            continue;
        }
        rp->broken++;
        if (!rp->ctx && pf_ctx_create(map, &(pf_ctx_desc){.prefault = rp->prefault}, &rp->ctx) != PF_OK) return 0;
        uint32_t cap = w->plen * 2u + 64u;
        uint32_t *np = malloc((size_t)cap * sizeof *np);
        if (!np) return 0;
        pf_search_desc d = *sd;
        d.unit_size = w->size;
        pf_path out = {.nodes = np, .capacity = cap};
        pf_status st = pf_path_repair(rp->ctx, w->path, w->plen, w->at, &d, &out, NULL);
        if (st == PF_BUFFER_TOO_SMALL) {
            uint32_t *g = realloc(np, (size_t)out.len * sizeof *np);
            if (!g) {
                free(np);
                return 0;
            }
            np = g;
            out = (pf_path){.nodes = np, .capacity = out.len};
            st = pf_path_repair(rp->ctx, w->path, w->plen, w->at, &d, &out, NULL);
        }
        rp->seconds += cli_now() - t0;
        free(w->path);
        w->path = NULL;
        if (st == PF_OK) { /* the unit follows the repaired path from now on, from where it stands */
            rp->repaired++;
            w->path = np;
            w->plen = out.len;
            w->at = 0;
        } else {
            free(np); /* walled off: the unit has no path until its next order */
        }
    }
    return 1;
}

/* libgomp spins its idle threads for a few milliseconds after each parallel run (pf_batch.h, OPENMP
 * WAIT POLICY): between frames that burns CPU, and on a busy machine a spinning team wakes slowly
 * (measured here with other jobs running: 2-worker frame p50 24-28 ms spinning, 0.09 ms passive).
 * libgomp reads the policy only when it is loaded, so a replay that was not given one restarts
 * itself once with OMP_WAIT_POLICY=passive; a policy set by the user is kept. */
static void prefer_passive_wait(int argc, char **argv)
{
    if (getenv("OMP_WAIT_POLICY") || getenv("GOMP_SPINCOUNT")) return;
    char **nargv = malloc(((size_t)argc + 2u) * sizeof *nargv);
    if (!nargv || setenv("OMP_WAIT_POLICY", "passive", 1) != 0) {
        free(nargv);
        return;
    }
    nargv[0] = (char *)"pathfind";
    for (int i = 0; i < argc; i++) nargv[i + 1] = argv[i];
    nargv[argc + 1] = NULL;
    fflush(NULL);
    execv("/proc/self/exe", nargv); /* returns only on failure: go on with the inherited policy */
    unsetenv("OMP_WAIT_POLICY");
    free(nargv);
}

/* Checks the batch's sizes before anything is made for it. A --slots or --workers the map cannot
 * hold is a number out of its range, as 0 or 2000 would be: a usage error (*rc = 2) that says the
 * bound for this map (pf_batch_bounds_for). 0 with a message. */
static int check_batch(const pf_map *map, const pf_batch_desc *bd, const replay_opts *o, int *rc)
{
    pf_diag diag, bdiag;
    if (pf_batch_check(map, bd, &diag) == PF_OK) return 1;
    pf_batch_bounds lim;
    if (pf_batch_bounds_for(map, bd, &lim, &bdiag) != PF_OK) { /* another field: said as it is */
        cli_error("replay", "%s", diag.msg);
        return 0;
    }
    /* workers first, as pf_batch_check refuses them first */
    const int slots = (uint64_t)o->workers <= lim.max_workers;
    const long given = slots ? o->slots : o->workers, most = slots ? lim.max_suspend_slots : lim.max_workers;
    const char *opt = slots ? "--slots" : "--workers";
    if (given <= most) { /* neither count is at fault */
        cli_error("replay", "%s", diag.msg);
        return 0;
    }
    if (most < 1) { /* not even one fits: the map is too large, not the number */
        cli_error("replay", "%s %ld: %s", opt, given, diag.msg);
        return 0;
    }
    cli_error("replay", "bad value '%ld' for %s (expected an integer in 1..%ld on this map: %s)", given, opt, most,
              diag.msg);
    *rc = 2;
    return 0;
}

int pf_cli_replay(int argc, char **argv)
{
    replay_opts o = {.workers = 1, .slots = 2, .moves = PF_MOVES_8_NO_CUT, .speed = 1, .anim_px = 512, .anim_step = 1,
                     .adopt = -1, .accel_edits = PF_ACCEL_EDITS_CHECK};
    const char *pos[2] = {0};
    int npos = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (cli_is_help(a)) {
            fputs(HELP, stdout);
            fputs(HELP2, stdout);
            fputs(HELP3, stdout);
            fputs(HELP4, stdout);
            return 0;
        }
        size_t k = 0;
        while (k < sizeof OPTS / sizeof OPTS[0] && strcmp(a, OPTS[k].name) != 0) k++;
        if (k < sizeof OPTS / sizeof OPTS[0] && cli_has_value(argc, argv, i)) {
            if (!OPTS[k].fn(&o, argv[++i])) return 2;
        } else if (a[0] == '-' && a[1]) {
            cli_error("replay", "unknown or incomplete option '%s' (see --help)", a);
            return 2;
        } else if (npos < 2) {
            pos[npos++] = a;
        } else {
            cli_error("replay", "unexpected argument '%s'", a);
            return 2;
        }
    }
    if (npos != 2) {
        fputs(HELP, stderr);
        fputs(HELP2, stderr);
        fputs(HELP3, stderr);
        fputs(HELP4, stderr);
        return 2;
    }
    if (!cli_check_moves("replay", o.moves, o.algo, 0, o.size)) return 2;
    const pf_move_filter *flt;
    if (!cli_filter_done("replay", &o.filt, &flt)) return 2;
    if (flt && o.algo == PF_ALGO_THETA) {
        cli_error("replay", "--classes goes with grid paths (not theta)");
        return 2;
    }
    if (o.prep && o.algo != PF_ALGO_AUTO) {
        cli_error("replay", "--prep is read by --algo auto only");
        return 2;
    }
    if (cli_out_same("replay", "--csv", o.csv, "--frames-csv", o.frames_csv) ||
        cli_out_same("replay", "--csv", o.csv, "--animate", o.animate) ||
        cli_out_same("replay", "--frames-csv", o.frames_csv, "--animate", o.animate))
        return 2;
    if ((o.adopt_given || o.accel_edits_given) && o.algo != PF_ALGO_AUTO) {
        cli_error("replay", "%s goes with --algo auto only", o.adopt_given ? "--accel-adopt-frames" : "--accel-edits");
        return 2;
    }
    /* rebuilt inside each edit: --accel-adopt-frames 0 says it too. Following by the diff needs no
     * rebuild (a building that comes down leaves the diff again), so check rebuilds off the frame
     * only when N is given: a late build makes the adopting frame wait, and the log runs faster
     * than a game's 60 frames a second. Stale mode rebuilds every 60 frames by default. */
    if (o.adopt_given && o.accel_edits_given && (o.accel_edits == PF_ACCEL_EDITS_REBUILD) != (o.adopt == 0)) {
        cli_error("replay", "--accel-adopt-frames %ld with --accel-edits %s: 0 rebuilds inside each edit (rebuild mode), "
                  "N >= 1 off the frame (check or stale)", o.adopt, o.accel_edits == PF_ACCEL_EDITS_REBUILD ? "rebuild"
                  : o.accel_edits == PF_ACCEL_EDITS_CHECK ? "check" : "stale");
        return 2;
    }
    if (o.accel_edits == PF_ACCEL_EDITS_REBUILD) o.adopt = 0;
    else if (!o.adopt_given) o.adopt = o.accel_edits == PF_ACCEL_EDITS_CHECK ? -1 : 60;
    if (cli_args_only) return 0;
    prefer_passive_wait(argc, argv);
    o.map = pos[0];
    o.orders = pos[1];
    {
        const char *const in_opts[] = {"MAP", "ORDERS", "--prep"}, *const ins[] = {o.map, o.orders, o.prep};
        if (cli_out_names_input("replay", "--csv", o.csv, 3, in_opts, ins) ||
            cli_out_names_input("replay", "--frames-csv", o.frames_csv, 3, in_opts, ins) ||
            cli_out_names_input("replay", "--animate", o.animate, 3, in_opts, ins))
            return 2;
    }
    cli_orders lg = {0};
    if (!cli_orders_read(o.orders, &lg)) return 1;
    /* the outputs are opened (temporary files beside them) before the run, so that one that cannot
     * be written is said before a long run, not after it; each replaces its target only when both
     * are complete */
    cli_out csv_out = {0}, fr_out = {0};
    if (o.csv && !cli_out_open(&csv_out, "replay", o.csv)) {
        cli_orders_free(&lg);
        return 1;
    }
    if (o.frames_csv && !cli_out_open(&fr_out, "replay", o.frames_csv)) {
        cli_out_close(&csv_out, "replay", 0);
        cli_orders_free(&lg);
        return 1;
    }
    pf_diag diag;
    pf_map *map;
    if (pf_grid_load_movingai(o.map, &(pf_grid_load_desc){.moves = o.moves}, &map, &diag) != PF_OK) {
        cli_error("replay", "%s", diag.msg);
        cli_out_close(&fr_out, "replay", 0);
        cli_out_close(&csv_out, "replay", 0);
        cli_orders_free(&lg);
        return 1;
    }
    int rc = 1;
    pf_batch *b = NULL;
    cli_prep prep = {0};
    repairs rp = {.prefault = o.prefault};
    cli_anim *anim = NULL;
    cli_anim_unit *units = NULL;
    cli_adopt *adopt = NULL;
    row *rows = calloc(lg.orders ? lg.orders : 1, sizeof *rows);
    uint32_t *pend = malloc((lg.orders ? lg.orders : 1) * sizeof *pend);
    walkers wk = {.k = malloc((lg.orders ? lg.orders : 1) * sizeof *wk.k)};
    frame_fig *ff = NULL;
    cli_waits *waits = NULL; /* each frame's wait for a core, where the system says (Linux) */
    double *ft = NULL, *lag = malloc((lg.orders ? lg.orders : 1) * sizeof *lag);
    uint8_t *hb = NULL;
    size_t hcap = 0;
    uint32_t nft = 0, ftcap = 0;
    if (!rows || !pend || !wk.k || !lag) goto oom;
    if (!check_edits(map, o.orders, &lg)) goto done;
    /* the size most sized orders have: each worker's labels (and JPS's bitmaps) for it are made
     * before frame 0, not by the first such order inside it (filtered units have their own) */
    uint32_t by_size[PF_UNIT_SIZE_MAX + 1] = {0}, unit_size = 0;
    for (uint32_t k = 0; k < lg.n && !flt; k++) {
        uint32_t z = lg.r[k].kind != CLI_ORDER ? 0 : lg.r[k].size ? lg.r[k].size : (uint32_t)o.size;
        if (z > 1 && z <= PF_UNIT_SIZE_MAX && ++by_size[z] > by_size[unit_size]) unit_size = z;
    }
    /* spares are made as searches are first suspended (a game pays for the slots it uses), never
     * all up front: 64 slots and one order cost one spare context at most */
    pf_batch_desc bd = {.workers = (uint32_t)o.workers, .suspend_slots = (uint32_t)o.slots, .prefault = o.prefault,
                        .reserve = {.algos = 1u << o.algo, .unit_size = unit_size}};
    /* checked before the accelerator is built for the batch (minutes on a large map) */
    if (!check_batch(map, &bd, &o, &rc)) goto done;
    /* JPS tables or the accelerator, made once before frame 0 (a game bakes them at load time) */
    /* with N frames, the accelerator follows an edit by its diff (or, --accel-edits stale, goes
     * stale) and a rebuild made off the frame is adopted N frames later (replay_adopt.c), emptying
     * the diff; with 0 it is rebuilt inside each edit */
    const pf_accel_edits aedits = o.adopt != 0 ? o.accel_edits : PF_ACCEL_EDITS_REBUILD;
    if (!cli_prep_make_edits("replay", map, o.algo, o.prep, aedits, &prep))
        goto done;
    bd.jps_table = prep.jps;
    bd.accel = prep.accel;
    pf_status st = pf_batch_create(map, &bd, &b);
    if (st != PF_OK) {
        cli_error("replay", "%s", pf_status_str(st));
        goto done;
    }
    if (!(adopt = cli_adopt_open(o.adopt != 0 ? prep.accel : NULL, o.adopt > 0 ? (uint64_t)o.adopt : 0, aedits)))
        goto oom;
    pf_batch_budget bud = {.max_expansions = (uint64_t)o.budget_exp, .max_us = (uint64_t)o.budget_us};
    pf_search_desc sd = {.algo = o.algo, .unit_size = (uint32_t)o.size, .filter = flt};
    uint32_t npend = 0, i = 0;
    uint64_t frame = lg.n ? lg.r[0].frame : 0;
    double busy = 0.0;
    uint64_t completed = 0, failed = 0, cancelled = 0, superseded = 0, edits = 0, edit_cells = 0;
    double edit_s = 0.0;
    uint32_t short_frames = 0, long_frames = 0, long_waiting = 0;
    /* read before and after each frame, outside its time; a frame goes on without it when the
     * memory cannot be had */
    if (o.budget_us || o.frames_csv) waits = malloc(2 * sizeof *waits);
    int waits_ok = waits != NULL && cli_waits_read(&waits[0]);
    cli_answers answers = {0};
    const uint64_t first_frame = frame;
    /* the repairs' context is made at load, as a game would, not inside the first frame an edit
     * breaks a path in (64 MB of records on a 2000x2000 map) */
    for (uint32_t k = 0; k < lg.n && !rp.ctx; k++)
        if (lg.r[k].kind == CLI_EDIT && pf_ctx_create(map, &(pf_ctx_desc){.prefault = rp.prefault}, &rp.ctx) != PF_OK)
            goto oom;
    if (o.animate) {
        if (!(units = malloc((lg.orders ? lg.orders : 1) * sizeof *units))) goto oom;
        /* a picture every 4 hundredths of a second: a 60 Hz game's frames at about a third of the speed */
        if (!(anim = cli_anim_open("replay", o.animate, map, o.anim_px, 4))) goto done;
    }
    uint64_t moved = frame; /* units have moved up to this frame */
    for (;;) {
        walkers_prune(&wk, rows);
        int moving = 0; /* a unit is still on its way: only an animation runs on for it */
        for (uint32_t j = 0; anim && o.speed && j < wk.n && !moving; j++)
            moving = rows[wk.k[j]].at + 1 < rows[wk.k[j]].plen;
        if (i >= lg.n && !npend && !moving) break;
        /* idle frames: nothing to run (and, when animating, nobody moving) */
        if (npend == 0 && i < lg.n && lg.r[i].frame > frame && !moving) frame = lg.r[i].frame;
        /* units move along their paths up to this frame */
        for (uint32_t j = 0; o.speed && j < wk.n; j++) {
            row *w = &rows[wk.k[j]];
            uint64_t to = w->at + (frame - moved) * (uint64_t)o.speed;
            w->at = to < w->plen ? (uint32_t)to : w->plen - 1;
        }
        moved = frame;
        pf_batch_reset(b);
        /* the frame's edits first, between runs, then its orders */
        uint64_t edits_before = edits;
        for (uint32_t k = i; k < lg.n && lg.r[k].frame == frame; k++)
            if (lg.r[k].kind == CLI_EDIT) {
                if (!apply_edit(map, o.orders, &lg.r[k], &edit_s, &edit_cells)) goto done;
                edits++;
            }
        if (edits != edits_before && !check_paths(map, rows, &wk, &sd, &rp)) goto oom;
        /* outside the frame's time: the wait for a late rebuild is in accel_wait_ms_max */
        if (!cli_adopt_frame(adopt, b, map, frame)) goto done;
        if (waits_ok) waits_ok = cli_waits_read(&waits[0]);
        double t0 = cli_now(), c0 = o.frames_csv ? cpu_now() : 0.0;
        uint64_t x0 = pf_batch_get_stats(b).expanded;
        for (; i < lg.n && lg.r[i].frame == frame; i++) {
            const cli_order *r = &lg.r[i];
            if (r->kind == CLI_EDIT) continue;
            if (r->kind == CLI_CANCEL) {
                if (r->row != UINT32_MAX && rows[r->row].arrived < 0) pf_batch_cancel(b, rows[r->row].id);
                continue;
            }
            row *w = &rows[r->row];
            *w = (row){.tag = r->tag, .submitted = frame, .arrived = -1, .prio = r->prio, .prev = r->prev,
                       .size = r->size ? r->size : (o.size ? (uint32_t)o.size : 1u), .sx = r->sx, .sy = r->sy};
            pf_batch_query q = {.start = pf_grid_node(map, r->sx, r->sy), .goal = pf_grid_node(map, r->gx, r->gy),
                                .search = sd, .tag = r->tag, .priority = r->prio, .flags = PF_QUERY_SUPERSEDE};
            if (r->size) q.search.unit_size = r->size;
            if (r->partial) q.search.partial = 1;
            if ((st = pf_batch_submit(b, &q, &w->id)) != PF_OK) {
                /* the one size limit a submit has: name it, not just "a documented size limit" */
                if (st == PF_TOO_LARGE)
                    cli_error("replay", "%s:%u: more than %u queries in one frame's batch (PF_BATCH_MAX_QUERIES: the "
                              "orders given in the frame, those still pending and those cancelled or superseded in "
                              "it)", o.orders, r->line, (unsigned)PF_BATCH_MAX_QUERIES);
                else cli_error("replay", "%s:%u: %s", o.orders, r->line, pf_status_str(st));
                goto done;
            }
            pend[npend++] = r->row;
        }
        npend = collect(b, rows, pend, npend, frame, &hb, &hcap, &wk); /* cancelled and superseded */
        if ((st = pf_batch_run(b, &bud)) != PF_OK) {
            cli_error("replay", "frame %llu: %s", (unsigned long long)frame, pf_status_str(st));
            goto done;
        }
        double dt = cli_now() - t0;
        double dc = o.frames_csv ? cpu_now() - c0 : 0.0;
        if (waits_ok) waits_ok = cli_waits_read(&waits[1]);
        double busiest_ms = -1.0, wait_ms = -1.0;
        if (waits_ok) cli_waits_frame(&waits[0], &waits[1], &busiest_ms, &wait_ms);
        busy += dt;
        cli_adopt_after_run(adopt);
        if (nft == ftcap) {
            ftcap = ftcap ? ftcap * 2u : 1024u;
            double *n = realloc(ft, ftcap * sizeof *ft);
            if (!n) goto oom;
            ft = n;
            if (o.frames_csv) {
                frame_fig *nf = realloc(ff, ftcap * sizeof *ff);
                if (!nf) goto oom;
                ff = nf;
            }
        }
        npend = collect(b, rows, pend, npend, frame, &hb, &hcap, &wk);
        if (o.frames_csv)
            ff[nft] = (frame_fig){.frame = frame, .expanded = pf_batch_get_stats(b).expanded - x0, .wall_ms = dt * 1e3,
                                  .cpu_ms = dc * 1e3, .busiest_ms = busiest_ms, .wait_ms = wait_ms, .pending = npend};
        ft[nft++] = dt * 1e3;
        /* the time budget's two bounds: used while work remains, and not overrun */
        if (o.budget_us && npend && dt * 1e6 < 0.9 * (double)o.budget_us) short_frames++;
        if (o.budget_us && dt * 1e6 > 1.25 * (double)o.budget_us) {
            long_frames++;
            /* over, but no thread of the frame ran for more than 1.25x the budget: the rest was
             * spent off the cores (waiting for one behind other programs, or the workers' own on
             * fewer cores), not in the batch's work */
            if (busiest_ms >= 0.0 && busiest_ms * 1e3 <= 1.25 * (double)o.budget_us) long_waiting++;
        }
        if (anim && (frame - first_frame) % (uint64_t)o.anim_step == 0) {
            uint32_t nu = 0;
            for (uint32_t k = 0; k < lg.orders; k++) {
                const row *w = &rows[k];
                int waiting = w->arrived < 0 && w->submitted <= frame && w->status == PF_OK;
                if (!w->path && !waiting) continue;
                pf_point p = w->path ? pf_grid_point(map, w->path[w->at]) : (pf_point){w->sx, w->sy};
                units[nu++] = (cli_anim_unit){p.x, p.y, w->size, w->prio, !w->path};
            }
            if (!cli_anim_picture(anim, map, units, nu, frame, dt * 1e3, npend)) goto done;
        }
        frame++;
    }
    for (uint32_t k = 0; k < lg.orders; k++) {
        int gone = rows[k].status == PF_CANCELLED || rows[k].status == PF_SUPERSEDED;
        failed += !gone && pf_failed(rows[k].status);
        completed += !gone && !pf_failed(rows[k].status);
        if (!gone && !pf_failed(rows[k].status)) cli_answers_add(&answers, &rows[k].st);
        cancelled += rows[k].status == PF_CANCELLED;
        superseded += rows[k].status == PF_SUPERSEDED;
    }
    {
        /* every output (the GIF, the CSVs) written and flushed before any replaces its target: a
         * full disk or a GIF without a frame is found before the first rename, and then none is
         * renamed (the GIF was renamed before the CSVs were written: a review) */
        int wrote = !anim || cli_anim_finish(anim);
        wrote = wrote && (!o.csv || write_csv(csv_out.f, rows, lg.orders)) &&
                (!o.frames_csv || write_frames_csv(fr_out.f, ff, nft));
        if (wrote && o.csv && fflush(csv_out.f) != 0) wrote = 0;
        if (wrote && o.frames_csv && fflush(fr_out.f) != 0) wrote = 0;
        /* then the renames (cli_out_close says which file failed and why); all complete or none
         * replaces its target, but for a rename itself failing after an earlier one */
        if (o.csv) wrote = cli_out_close(&csv_out, "replay", wrote) && wrote;
        if (o.frames_csv) wrote = cli_out_close(&fr_out, "replay", wrote) && wrote;
        if (anim) wrote = cli_anim_close(anim, wrote) && wrote;
        anim = NULL;
        if (!wrote) goto done;
    }
    double lagp[3], lagmax = 0.0;
    for (int p = 0; p < 3; p++) {
        pf_priority want = p == 0 ? PF_PRIORITY_URGENT : (p == 1 ? PF_PRIORITY_NORMAL : PF_PRIORITY_BACKGROUND);
        uint32_t n = 0;
        /* over completed orders, as the help says: a failed one (e.g. an invalid start, answered
         * at once) is no lag */
        for (uint32_t k = 0; k < lg.orders; k++)
            if (rows[k].prio == want && rows[k].status != PF_CANCELLED && rows[k].status != PF_SUPERSEDED &&
                !pf_failed(rows[k].status)) {
                lag[n++] = (double)(rows[k].arrived - rows[k].submitted);
                if (p == 0 && lag[n - 1] > lagmax) lagmax = lag[n - 1];
            }
        lagp[p] = pct(lag, n, 0.99);
    }
    double fmax = 0.0;
    for (uint32_t k = 0; k < nft; k++) fmax = ft[k] > fmax ? ft[k] : fmax;
    double first_ms = nft ? ft[0] : 0.0; /* before pct sorts them */
    double p50 = pct(ft, nft, 0.5), p99 = pct(ft, nft, 0.99);
    printf("{\"frames\":%u,\"orders\":%u,\"completed\":%llu,\"failed\":%llu,\"cancelled\":%llu,\"superseded\":%llu,"
           "\"frame_ms_p50\":%.3f,\"frame_ms_p99\":%.3f,\"frame_ms_max\":%.3f,\"queries_per_s\":%.1f,"
           "\"urgent_lag_p99\":%.0f,\"urgent_lag_max\":%.0f,\"normal_lag_p99\":%.0f,\"background_lag_p99\":%.0f,"
           "\"workers\":%ld,\"budget_exp\":%ld,\"budget_us\":%ld,\"accel\":%d,\"prep_s\":%.6f,\"expanded\":%llu,"
           "\"peak_rss_kb\":%ld",
           nft, lg.orders, (unsigned long long)completed, (unsigned long long)failed, (unsigned long long)cancelled,
           (unsigned long long)superseded, p50, p99, fmax, busy > 0.0 ? (double)completed / busy : 0.0, lagp[0],
           lagmax, lagp[1], lagp[2], o.workers, o.budget_exp, o.budget_us, prep.accel != NULL, prep.prep_s,
           (unsigned long long)pf_batch_get_stats(b).expanded, cli_peak_rss_kb());
    printf(",\"frame_ms_first\":%.3f", first_ms);
    pf_batch_stats bst = pf_batch_get_stats(b);
    printf(",\"dropped\":%llu,\"restarted\":%llu", (unsigned long long)bst.dropped,
           (unsigned long long)bst.restarted);
    if (o.budget_us) printf(",\"frames_under_90\":%u,\"frames_over_125\":%u", short_frames, long_frames);
    if (o.budget_us && waits_ok) printf(",\"frames_over_125_offcpu\":%u", long_waiting);
    printf(",\"edits\":%llu,\"edit_cells\":%llu,\"edit_us\":%.3f,\"broken\":%llu,\"repaired\":%llu,\"repair_us\":%.3f",
           (unsigned long long)edits, (unsigned long long)edit_cells, edits ? edit_s * 1e6 / (double)edits : 0.0,
           (unsigned long long)rp.broken, (unsigned long long)rp.repaired,
           rp.broken ? rp.seconds * 1e6 / (double)rp.broken : 0.0);
    if (prep.accel) cli_adopt_json(stdout, adopt);
    cli_answers_json(stdout, &answers);
    printf("}\n");
    rc = 0;
    goto done;
oom:
    cli_error("replay", "out of memory");
done:
    cli_out_close(&fr_out, "replay", 0); /* not written: the temporary files go, the targets stay */
    cli_out_close(&csv_out, "replay", 0);
    cli_anim_close(anim, 0);
    free(units);
    pf_batch_destroy(b);
    cli_adopt_close(adopt); /* after the batch, which may use its accelerator */
    cli_prep_free(&prep);
    pf_ctx_destroy(rp.ctx);
    for (uint32_t k = 0; rows && k < lg.orders; k++) free(rows[k].path);
    pf_map_destroy(map);
    free(rows);
    free(pend);
    free(wk.k);
    free(ft);
    free(ff);
    free(waits);
    free(lag);
    free(hb);
    cli_orders_free(&lg);
    return rc;
}
