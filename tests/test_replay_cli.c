/* test_replay_cli.c - `pathfind replay` through the real binary: CSVs identical for 1, 2 and 3
 * workers under an expansion budget on an order log with long orders, squads, cancels and
 * supersedes; the CSV contract (header, statuses, hashes); every completed cost equal to a separate
 * A*; errors in ORDERS named by line. */
#define _GNU_SOURCE /* mkdtemp, sched_setaffinity */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gif_lib.h>
#include <sched.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#define XXH_INLINE_ALL
#include <xxhash.h>
#include "pathfind.h"
#include "testutil.h"
#include "run_cli.h"
#include "tmpdir.h"

static char g_out[1 << 14], g_err[1 << 14];

/* A build under ASan or TSan, by GCC's macros or clang's __has_feature (clang defines neither
 * __SANITIZE_ macro: the TSan-with-OpenMP build is clang's, and a check meant for Release ran
 * there, a CI run) */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define PF_TEST_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define PF_TEST_SANITIZED 1
#endif
#endif
#ifndef PF_TEST_SANITIZED
#define PF_TEST_SANITIZED 0
#endif

/* Runs `pathfind replay ARGS`; returns the exit code, output in g_out and g_err. */
static int replay(const char *args)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "'%s' replay %s >'%s' 2>'%s'", PF_CLI_PATH, args, tmp("out"), tmp("err"));
    int st = system(cmd);
    slurp(tmp("out"), g_out, sizeof g_out);
    slurp(tmp("err"), g_err, sizeof g_err);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

enum { W = 120, H = 100, UNITS = 40 };
static char g_grid[H][W];

static void cell(uint64_t *s, int *x, int *y)
{
    do {
        *x = (int)rng_below(s, W);
        *y = (int)rng_below(s, H);
    } while (g_grid[*y][*x] != '.');
}

/* A map with 20% walls and an order log: short urgent moves, long normal and background moves, a
 * squad of six every 8 frames, cancels and (every unit's later orders) supersedes. */
static void write_inputs(void)
{
    uint64_t s = 2025;
    FILE *f = fopen(tmp("m.map"), "w");
    assert_non_null(f);
    fprintf(f, "type octile\nheight %d\nwidth %d\nmap\n", H, W);
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) g_grid[y][x] = rng_below(&s, 100) < 20 ? '@' : '.';
        fprintf(f, "%.*s\n", W, g_grid[y]);
    }
    fclose(f);
    f = fopen(tmp("o.txt"), "w");
    assert_non_null(f);
    fprintf(f, "orders 1\n# frame tag sx sy gx gy priority, then a comment of more than nine words\n  # indented too\n");
    int px[UNITS], py[UNITS];
    for (int u = 0; u < UNITS; u++) cell(&s, &px[u], &py[u]);
    for (int fr = 0; fr < 30; fr++) {
        int used[UNITS] = {0};
        for (uint32_t k = 3 + rng_below(&s, 6); k > 0; k--) {
            int u = (int)rng_below(&s, UNITS), gx, gy;
            if (used[u]) continue;
            used[u] = 1;
            const char *prio = "urgent";
            if (rng_below(&s, 2)) {
                do {
                    gx = px[u] - 5 + (int)rng_below(&s, 11);
                    gy = py[u] - 5 + (int)rng_below(&s, 11);
                } while (gx < 0 || gy < 0 || gx >= W || gy >= H || g_grid[gy][gx] != '.');
            } else {
                cell(&s, &gx, &gy);
                prio = rng_below(&s, 3) ? "normal" : "background";
            }
            fprintf(f, "%d %d %d %d %d %d %s\n", fr, u, px[u], py[u], gx, gy, prio);
            px[u] = gx;
            py[u] = gy;
        }
        if (fr % 8 == 3) {
            int gx, gy;
            cell(&s, &gx, &gy);
            for (int k = 0; k < 6; k++) {
                int u = (int)rng_below(&s, UNITS);
                if (used[u]) continue;
                used[u] = 1;
                fprintf(f, "%d %d %d %d %d %d normal\n", fr, u, px[u], py[u], gx, gy);
                px[u] = gx;
                py[u] = gy;
            }
        }
        if (fr > 2 && rng_below(&s, 2)) fprintf(f, "%d %u cancel\n", fr, rng_below(&s, UNITS));
    }
    fprintf(f, "31 9999 1 1 2 2 urgent\n31 9999 cancel\n"); /* cancelled in the frame it was given */
    fclose(f);
}

static void test_workers_agree(void **state)
{
    (void)state;
    write_inputs();
    static char csv[3][1 << 16];
    for (int w = 1; w <= 3; w++) {
        char args[512];
        snprintf(args, sizeof args, "'%s' '%s' --workers %d --budget-exp 700 --csv '%s'", tmp("m.map"), tmp("o.txt"), w,
                 tmp("c.csv"));
        assert_int_equal(replay(args), 0);
        slurp(tmp("c.csv"), csv[w - 1], sizeof csv[0]);
        const char *last = strrchr(g_out, '{');
        assert_non_null(last);
        static const char *const keys[] = {"\"frames\":", "\"orders\":", "\"completed\":", "\"cancelled\":",
                                           "\"superseded\":", "\"frame_ms_p50\":", "\"frame_ms_p99\":",
                                           "\"frame_ms_max\":", "\"queries_per_s\":", "\"urgent_lag_p99\":0,",
                                           "\"normal_lag_p99\":", "\"peak_rss_kb\":"};
        for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) HAS(last, keys[k]);
    }
    assert_string_equal(csv[0], csv[1]);
    assert_string_equal(csv[0], csv[2]);
    /* the contract, row by row; costs against a separate A* */
    pf_map *m;
    pf_diag d;
    assert_int_equal(pf_grid_load_movingai(tmp("m.map"), NULL, &m, &d), PF_OK);
    pf_ctx *ctx;
    assert_int_equal(pf_ctx_create(m, NULL, &ctx), PF_OK);
    FILE *of = fopen(tmp("o.txt"), "r");
    char line[256], *save = NULL;
    fgets(line, sizeof line, of);
    fgets(line, sizeof line, of);
    char *row = strtok_r(csv[0], "\n", &save);
    assert_string_equal(row, "order,tag,submitted,arrived,status,cost,path_len,path_hash");
    uint32_t n = 0, late = 0, counts[5] = {0};
    static const char *const words[5] = {"ok", "no_path", "invalid", "cancelled", "superseded"};
    static uint32_t path[W * H];
    while (fgets(line, sizeof line, of)) {
        int fr, sx, sy, gx, gy;
        unsigned long long tag;
        char prio[16];
        if (sscanf(line, "%d %llu %d %d %d %d %15s", &fr, &tag, &sx, &sy, &gx, &gy, prio) != 7) continue;
        row = strtok_r(NULL, "\n", &save);
        assert_non_null(row);
        unsigned order, sub, len;
        unsigned long long t2;
        int arr;
        char status[16], cost[32], hash[32];
        assert_int_equal(sscanf(row, "%u,%llu,%u,%d,%15[^,],%31[^,],%u,%31s", &order, &t2, &sub, &arr, status, cost, &len, hash), 8);
        assert_int_equal(order, n);
        assert_int_equal(t2, tag);
        assert_int_equal(sub, (unsigned)fr);
        assert_true(arr >= fr);
        late += arr > fr;
        int w = 0;
        while (w < 5 && strcmp(status, words[w]) != 0) w++;
        assert_true(w < 5);
        counts[w]++;
        if (strcmp(prio, "urgent") == 0 && w < 3) assert_int_equal(arr, fr); /* urgent: lag 0 */
        if (w == 0) {
            pf_path p = {.nodes = path, .capacity = W * H};
            pf_stats st;
            assert_int_equal(pf_search(ctx, pf_grid_node(m, sx, sy), pf_grid_node(m, gx, gy), NULL, &p, &st), PF_OK);
            if (fabs(strtod(cost, NULL) - st.cost) > 1e-6) fail_msg("row %s: A* %.6f", row, st.cost); /* %.6f */
            assert_int_equal(len, p.len); /* group members may take another path, of the same cost and length */
        } else {
            assert_string_equal(cost, "-");
            assert_string_equal(hash, "-");
        }
        n++;
    }
    fclose(of);
    assert_null(strtok_r(NULL, "\n", &save));
    assert_true(counts[0] > 50);
    assert_true(counts[3] > 0);
    assert_true(counts[4] > 0);
    assert_true(late > 0);
    pf_ctx_destroy(ctx);
    pf_map_destroy(m);
}

/* The JSON number after `key` in the last JSON line. */
static double json_num(const char *key)
{
    const char *last = strrchr(g_out, '{');
    assert_non_null(last);
    const char *p = strstr(last, key);
    if (!p) fail_msg("no %s in %s", key, last);
    return strtod(p + strlen(key), NULL);
}

/* The rows of a --frames-csv file. busiest < 0: "-" (the system does not say). */
typedef struct {
    unsigned long long frame, expanded;
    double             wall, cpu, busiest, wait;
    unsigned           pending;
} csv_frame;

/* always_pending: orders stay pending from frame 0 to the last (under an expansion budget each
 * frame's orders come before the earlier ones are answered): a frame runs only after one that left
 * orders pending. */
static unsigned read_frames_csv(const char *path, csv_frame *rows, unsigned cap, int always_pending)
{
    static char fcsv[1 << 16];
    slurp(path, fcsv, sizeof fcsv);
    char *save = NULL, *row = strtok_r(fcsv, "\n", &save);
    assert_string_equal(row, "frame,wall_ms,cpu_ms,expanded,pending,busiest_ms,wait_ms");
    unsigned n = 0;
    while ((row = strtok_r(NULL, "\n", &save))) {
        assert_true(n < cap);
        csv_frame *r = &rows[n];
        char busy[32], wait[32];
        assert_int_equal(sscanf(row, "%llu,%lf,%lf,%llu,%u,%31[^,],%31s", &r->frame, &r->wall, &r->cpu, &r->expanded,
                                &r->pending, busy, wait),
                         7);
        assert_true(n == 0 || r->frame > rows[n - 1].frame);
        assert_true(r->wall >= 0.0 && r->cpu >= 0.0);
        if (n && always_pending) assert_true(rows[n - 1].pending > 0);
        /* "-": the system does not say, and then of both */
        assert_int_equal(strcmp(busy, "-") == 0, strcmp(wait, "-") == 0);
        r->busiest = strcmp(busy, "-") == 0 ? -1.0 : strtod(busy, NULL);
        r->wait = strcmp(wait, "-") == 0 ? -1.0 : strtod(wait, NULL);
        if (strcmp(busy, "-") != 0) assert_true(r->busiest >= 0.0 && r->wait >= 0.0);
        n++;
    }
    assert_true(n > 0);
    assert_int_equal(rows[n - 1].pending, 0);
    return n;
}

/* The CSV and the JSON print the same frame times to 0.001 ms: `got` (the JSON's count of frames
 * whose time is on one side of a bound) lies between the counts the rounding allows. */
#define ROUNDED 0.0005
static void count_between(unsigned got, unsigned lo, unsigned hi, const char *what)
{
    if (got < lo || got > hi) fail_msg("%s: the JSON says %u, the CSV's rows %u..%u", what, got, lo, hi);
}

/* --frames-csv: one row per frame run, in order; orders are pending after every frame but the
 * last, and the JSON's figures are those of the rows: the frame count, the expansions, the slowest
 * and the first frame's time. Under an expansion budget the run is the same for any --workers (the
 * rows' expansions and pending orders, the JSON's expanded, dropped and restarted); under a time
 * budget the JSON counts the rows outside its bounds. */
static void test_frames_csv(void **state)
{
    (void)state;
    write_inputs();
    enum { CAP = 4096 };
    static csv_frame rows[CAP], rows1[CAP];
    char args[512];
    /* an output naming an input is refused, the order log and the map left whole */
    snprintf(args, sizeof args, "'%s' '%s' --frames-csv '%s'", tmp("m.map"), tmp("o.txt"), tmp("o.txt"));
    assert_int_equal(replay(args), 2);
    snprintf(args, sizeof args, "'%s' '%s' --csv '%s'", tmp("m.map"), tmp("o.txt"), tmp("m.map"));
    assert_int_equal(replay(args), 2);
    snprintf(args, sizeof args, "'%s' '%s' --workers 2 --budget-exp 700 --frames-csv '%s'", tmp("m.map"), tmp("o.txt"),
             tmp("f.csv"));
    assert_int_equal(replay(args), 0);
    const unsigned n = read_frames_csv(tmp("f.csv"), rows, CAP, 1);
    unsigned long long sum = 0;
    double wmax = 0.0;
    for (unsigned i = 0; i < n; i++) {
        sum += rows[i].expanded;
        if (rows[i].wall > wmax) wmax = rows[i].wall;
    }
    assert_int_equal(n, (unsigned long long)json_num("\"frames\":"));
    assert_int_equal(sum, (unsigned long long)json_num("\"expanded\":"));
    assert_true(fabs(json_num("\"frame_ms_max\":") - wmax) < 2 * ROUNDED);
    assert_true(fabs(json_num("\"frame_ms_first\":") - rows[0].wall) < 2 * ROUNDED);
    const double dropped = json_num("\"dropped\":"), restarted = json_num("\"restarted\":");
    assert_true(dropped <= (double)sum);         /* thrown-away expansions were expansions */
    assert_true(dropped == 0.0 || restarted > 0); /* ... of searches that were thrown away */
    /* one worker: the same frames with the same orders pending after each (the orders CSV is
     * the same for any --workers; two workers expand more in a frame, so not the expansions) */
    snprintf(args, sizeof args, "'%s' '%s' --workers 1 --budget-exp 700 --frames-csv '%s'", tmp("m.map"), tmp("o.txt"),
             tmp("f1.csv"));
    assert_int_equal(replay(args), 0);
    assert_int_equal(read_frames_csv(tmp("f1.csv"), rows1, CAP, 1), n);
    for (unsigned i = 0; i < n; i++) {
        assert_int_equal(rows1[i].frame, rows[i].frame);
        assert_int_equal(rows1[i].pending, rows[i].pending);
    }
    /* ... and one worker again: the same expansions in every frame, and the same thrown away */
    const double exp1 = json_num("\"expanded\":"), dropped1 = json_num("\"dropped\":"),
                 restarted1 = json_num("\"restarted\":");
    assert_true(dropped1 <= exp1 && (dropped1 == 0.0 || restarted1 > 0));
    assert_int_equal(replay(args), 0);
    assert_int_equal(read_frames_csv(tmp("f1.csv"), rows, CAP, 1), n);
    for (unsigned i = 0; i < n; i++) assert_int_equal(rows[i].expanded, rows1[i].expanded);
    assert_true(json_num("\"expanded\":") == exp1);
    assert_true(json_num("\"dropped\":") == dropped1);
    assert_true(json_num("\"restarted\":") == restarted1);

    /* a time budget of 2 ms: under 90% (1.8 ms) with orders pending after it, over 125% (2.5 ms),
     * and of those over, the frames no thread of which ran for more than 2.5 ms */
    snprintf(args, sizeof args, "'%s' '%s' --workers 2 --budget-us 2000 --frames-csv '%s'", tmp("m.map"), tmp("o.txt"),
             tmp("t.csv"));
    assert_int_equal(replay(args), 0);
    const unsigned nt = read_frames_csv(tmp("t.csv"), rows, CAP, 0);
    assert_int_equal(nt, (unsigned long long)json_num("\"frames\":"));
    unsigned under[2] = {0}, over[2] = {0}, offcpu[2] = {0}, told = 0;
    for (unsigned i = 0; i < nt; i++) {
        const csv_frame *r = &rows[i];
        under[0] += r->pending && r->wall < 1.8 - ROUNDED;
        under[1] += r->pending && r->wall < 1.8 + ROUNDED;
        over[0] += r->wall > 2.5 + ROUNDED;
        over[1] += r->wall > 2.5 - ROUNDED;
        told += r->busiest >= 0.0;
        if (r->busiest >= 0.0) {
            offcpu[0] += r->wall > 2.5 + ROUNDED && r->busiest <= 2.5 - ROUNDED;
            offcpu[1] += r->wall > 2.5 - ROUNDED && r->busiest <= 2.5 + ROUNDED;
        }
    }
    count_between((unsigned)json_num("\"frames_under_90\":"), under[0], under[1], "frames_under_90");
    count_between((unsigned)json_num("\"frames_over_125\":"), over[0], over[1], "frames_over_125");
    const char *last = strrchr(g_out, '{');
    if (strstr(last, "\"frames_over_125_offcpu\":")) { /* the system said, for every frame */
        assert_int_equal(told, nt);
        count_between((unsigned)json_num("\"frames_over_125_offcpu\":"), offcpu[0], offcpu[1], "frames_over_125_offcpu");
    } else {
        assert_true(rows[nt - 1].busiest < 0.0); /* it stopped saying (or never did) */
    }
}

/* A frame over its time budget is told from one in which the batch did too much: two workers
 * pinned to one core take turns, so each waits while the other runs and frames run over the
 * budget in wall time, but no thread runs on the core for more than 1.25x the budget (the batch
 * checks its clock every few expansions): frames_over_125_offcpu counts every frame over, and the
 * CSV says each frame's busiest thread and longest wait. Needs Linux's schedstat (skipped
 * without). */
static void test_frames_wait_for_a_core(void **state)
{
    (void)state;
    FILE *ss = fopen("/proc/self/schedstat", "r");
    if (!ss) SKIP_BECAUSE("/proc/self/schedstat: no per-thread scheduler figures on this system");
    fclose(ss);
    cpu_set_t one, was;
    assert_int_equal(sched_getaffinity(0, sizeof was, &was), 0);
    CPU_ZERO(&one);
    CPU_SET(sched_getcpu() >= 0 ? sched_getcpu() : 0, &one);
    assert_int_equal(sched_setaffinity(0, sizeof one, &one), 0); /* inherited by the replay */
    /* an open 300x300 map and 24 crossings at frame 0: more work than a 4 ms budget holds, for
     * both workers, for several frames */
    enum { N = 300 };
    FILE *f = fopen(tmp("big.map"), "w");
    assert_non_null(f);
    fprintf(f, "type octile\nheight %d\nwidth %d\nmap\n", N, N);
    for (int y = 0; y < N; y++) {
        for (int x = 0; x < N; x++) fputc(x == N / 2 && y > 10 ? '@' : '.', f);
        fputc('\n', f);
    }
    fclose(f);
    f = fopen(tmp("big.txt"), "w");
    assert_non_null(f);
    fprintf(f, "orders 1\n");
    for (int u = 0; u < 24; u++) fprintf(f, "0 %d %d %d %d %d normal\n", u, 2 + u, N - 1 - u, N - 3 - u, 20 + u);
    fclose(f);
    char args[512];
    snprintf(args, sizeof args, "'%s' '%s' --workers 2 --budget-us 4000 --frames-csv '%s'", tmp("big.map"),
             tmp("big.txt"), tmp("w.csv"));
    int rc = replay(args);
    assert_int_equal(sched_setaffinity(0, sizeof was, &was), 0);
    assert_int_equal(rc, 0);
    const double over = json_num("\"frames_over_125\":"), waiting = json_num("\"frames_over_125_offcpu\":");
    assert_true(waiting <= over);
#if !PF_TEST_SANITIZED
    /* every frame over was time off the core (a sanitizer's build does its serial part of a
     * frame, outside the batch's clock, several times slower) */
    assert_true(over - waiting < 0.5);
#endif
    static char fcsv[1 << 16];
    slurp(tmp("w.csv"), fcsv, sizeof fcsv);
    char *save = NULL, *row = strtok_r(fcsv, "\n", &save);
    double waited = 0.0;
    unsigned frames = 0;
    while ((row = strtok_r(NULL, "\n", &save))) {
        const char *w = strrchr(row, ',');
        assert_non_null(w);
        assert_true(strcmp(w + 1, "-") != 0); /* the system says: every frame has its figures */
        waited += strtod(w + 1, NULL);
        frames++;
    }
    assert_true(frames >= 3);
    assert_true(waited > 1.0); /* two workers on one core: each waited for the other */
}

/* A lone order's hash is the XXH3-64 of its path's node ids as little-endian uint32. */
/* Reads row `row` of a CSV: status and cost (-1 for "-"). */
static void csv_row(const char *csv, unsigned row, char *status, double *cost, unsigned *arrived)
{
    const char *p = csv;
    for (unsigned k = 0; k <= row; k++) p = strchr(p, '\n') + 1; /* past the header and k rows */
    unsigned order, sub, len;
    unsigned long long tag;
    char c[32], hash[32];
    assert_int_equal(sscanf(p, "%u,%llu,%u,%u,%15[^,],%31[^,],%u,%31s", &order, &tag, &sub, arrived, status, c, &len, hash), 8);
    assert_int_equal(order, row);
    *cost = strcmp(c, "-") == 0 ? -1.0 : strtod(c, NULL);
}

/* The game's language (issue 26, part 5): edit lines applied between frames, before that frame's
 * orders, with the batch following the map (searches in flight answer on the edited map); orders
 * with size=K and partial. The CSV is the same for 1, 2 and 3 workers under an expansion budget,
 * and every answer is what a search on the edited map gives. */
static void test_edits_sizes_partial(void **state)
{
    (void)state;
    FILE *f = fopen(tmp("e.map"), "w");
    assert_non_null(f);
    fprintf(f, "type octile\nheight 40\nwidth 60\nmap\n");
    for (int y = 0; y < 40; y++) fprintf(f, "%s\n", "............................................................");
    fclose(f);
    f = fopen(tmp("e.txt"), "w");
    assert_non_null(f);
    fputs("orders 1\n"
          "0 1 0 0 59 0 normal\n"          /* crosses where the wall goes up at frame 1 */
          "0 2 0 10 50 10 normal size=2\n" /* a 2x2 unit, across it too */
          "1 rect 30 0 1 35 @\n"           /* a wall with a gap at the bottom */
          "2 rect 10 30 3 3 @\n"           /* a block */
          "3 3 5 31 11 31 urgent partial\n" /* into the block: the nearest cell */
          "3 4 5 35 11 31 normal\n"         /* into it without partial: invalid */
          "4 rect 7 25 1 15 @\n",           /* across unit 3's path, ahead of it: broken, repaired */
          f);
    fclose(f);
    static char csv[3][4096];
    for (int w = 1; w <= 3; w++) {
        char args[512];
        snprintf(args, sizeof args, "'%s' '%s' --workers %d --budget-exp 20 --csv '%s'", tmp("e.map"), tmp("e.txt"), w,
                 tmp("e.csv"));
        assert_int_equal(replay(args), 0);
        HAS(g_out, "\"edits\":3,\"edit_cells\":59,");
        HAS(g_out, "\"broken\":1,\"repaired\":1,");
        slurp(tmp("e.csv"), csv[w - 1], sizeof csv[0]);
    }
    assert_string_equal(csv[0], csv[1]);
    assert_string_equal(csv[0], csv[2]);
    /* a movement type (ground and water, water dear; the map is ground): paths are re-checked and
     * repaired for it too, the answers the same for 1 and 3 workers */
    static char fcsv[2][4096];
    for (int w = 1; w <= 3; w += 2) {
        char args[512];
        snprintf(args, sizeof args, "'%s' '%s' --workers %d --budget-exp 20 --classes .W --class-cost W=3 --csv '%s'",
                 tmp("e.map"), tmp("e.txt"), w, tmp("e.csv"));
        assert_int_equal(replay(args), 0);
        HAS(g_out, "\"broken\":1,\"repaired\":1,");
        slurp(tmp("e.csv"), fcsv[w / 2], sizeof fcsv[0]);
    }
    assert_string_equal(fcsv[0], fcsv[1]);
    /* the answers of searches on the map with both edits */
    pf_map *m;
    pf_diag d;
    assert_int_equal(pf_grid_load_movingai(tmp("e.map"), NULL, &m, &d), PF_OK);
    pf_grid_edit ed[2] = {{.rect = {30, 0, 1, 35}, .cls = 0}, {.rect = {10, 30, 3, 3}, .cls = 0}};
    assert_int_equal(pf_grid_apply_edits(m, ed, 2, NULL), PF_OK);
    pf_ctx *ctx;
    assert_int_equal(pf_ctx_create(m, NULL, &ctx), PF_OK);
    pf_stats st;
    char status[16];
    double cost;
    unsigned arr;
    csv_row(csv[0], 0, status, &cost, &arr);
    assert_string_equal(status, "ok");
    assert_true(arr >= 2); /* 20 expansions a frame: it was in flight during both edits */
    assert_int_equal(pf_search(ctx, pf_grid_node(m, 0, 0), pf_grid_node(m, 59, 0), NULL, NULL, &st), PF_OK);
    assert_true(fabs(cost - st.cost) < 1e-6 && cost > 70.0); /* around the wall, not along the row (59) */
    csv_row(csv[0], 1, status, &cost, &arr);
    assert_string_equal(status, "ok");
    assert_int_equal(pf_search(ctx, pf_grid_node(m, 0, 10), pf_grid_node(m, 50, 10), &(pf_search_desc){.unit_size = 2},
                               NULL, &st),
                     PF_OK);
    assert_true(fabs(cost - st.cost) < 1e-6);
    csv_row(csv[0], 2, status, &cost, &arr);
    assert_string_equal(status, "partial");
    assert_int_equal(arr, 3);
    assert_int_equal(pf_search(ctx, pf_grid_node(m, 5, 31), pf_grid_node(m, 11, 31), &(pf_search_desc){.partial = 1},
                               NULL, &st),
                     PF_PARTIAL);
    assert_true(fabs(cost - st.cost) < 1e-6);
    csv_row(csv[0], 3, status, &cost, &arr);
    assert_string_equal(status, "invalid");
    pf_ctx_destroy(ctx);
    pf_map_destroy(m);
    /* edit lines are checked against the map, naming the line */
    f = fopen(tmp("bad.txt"), "w");
    assert_non_null(f);
    fputs("orders 1\n0 rect 50 0 20 1 @\n", f);
    fclose(f);
    char args[512];
    snprintf(args, sizeof args, "'%s' '%s'", tmp("e.map"), tmp("bad.txt"));
    assert_int_equal(replay(args), 1);
    HAS(g_err, "bad.txt:2:");
}

/* The same log with --algo auto and an accelerator (pathfind prep): its long orders and squads are
 * answered by accelerated queries sliced across frames by a budget of 100 expansions (accel_query.c,
 * SLICES), and the CSV is still the same for 1, 2 and 3 workers. */
static void test_workers_agree_auto(void **state)
{
    (void)state;
    write_inputs();
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "'%s' prep '%s' -o '%s' >/dev/null", PF_CLI_PATH, tmp("m.map"), tmp("m.pfa"));
    assert_int_equal(system(cmd), 0);
    static char csv[3][1 << 16];
    for (int w = 1; w <= 3; w++) {
        char args[768];
        snprintf(args, sizeof args, "'%s' '%s' --workers %d --budget-exp 100 --algo auto --prep '%s' --csv '%s'", tmp("m.map"),
                 tmp("o.txt"), w, tmp("m.pfa"), tmp("c.csv"));
        assert_int_equal(replay(args), 0);
        slurp(tmp("c.csv"), csv[w - 1], sizeof csv[0]);
        const char *acc = strstr(g_out, "\"detail_accel\":");
        assert_non_null(acc);
        assert_true(atoi(acc + strlen("\"detail_accel\":")) > 10); /* the accelerator answered */
    }
    assert_string_equal(csv[0], csv[1]);
    assert_string_equal(csv[0], csv[2]);
}

/* replay --animate: one picture a frame, the map's size at most --anim-px, the first picture whole
 * and every later one laid over it; the bundled demo (300 units, 90 frames of orders, buildings)
 * under 3 MB. A run that fails leaves no file. */
static void test_animate(void **state)
{
    (void)state;
    write_inputs();
    char args[640];
    snprintf(args, sizeof args, "'%s' '%s' --budget-exp 700 --speed 2 --animate '%s' --anim-px 240", tmp("m.map"),
             tmp("o.txt"), tmp("a.gif"));
    assert_int_equal(replay(args), 0);
    unsigned frames = 0;
    const char *fp = strstr(g_out, "\"frames\":");
    assert_non_null(fp);
    frames = (unsigned)strtoul(fp + 9, NULL, 10);
    int err = 0;
    GifFileType *g = DGifOpenFileName(tmp("a.gif"), &err);
    assert_non_null(g);
    assert_int_equal(DGifSlurp(g), GIF_OK);
    assert_int_equal((unsigned)g->ImageCount, frames);
    assert_int_equal(g->SWidth, 240);      /* 120 cells at 2 pixels each */
    assert_int_equal(g->SHeight, 12 + 200); /* the strip and 100 rows */
    assert_int_equal(g->SavedImages[0].ImageDesc.Width, 240);
    for (int i = 1; i < g->ImageCount; i++) {
        const GifImageDesc *d = &g->SavedImages[i].ImageDesc;
        assert_true(d->Left + d->Width <= 240 && d->Top + d->Height <= 212);
    }
    DGifCloseFile(g, &err);
    /* a bad log: exit 1, no GIF */
    FILE *f = fopen(tmp("bad.txt"), "w");
    assert_non_null(f);
    fputs("orders 1\n0 1 0 0 1\n", f);
    fclose(f);
    snprintf(args, sizeof args, "'%s' '%s' --animate '%s'", tmp("m.map"), tmp("bad.txt"), tmp("b.gif"));
    assert_int_equal(replay(args), 1);
    assert_int_not_equal(access(tmp("b.gif"), F_OK), 0);
    /* two outputs on one file: refused (exit 2) before the run */
    snprintf(args, sizeof args, "'%s' '%s' --csv '%s' --frames-csv '%s'", tmp("m.map"), tmp("none.txt"), tmp("x.csv"),
             tmp("x.csv"));
    f = fopen(tmp("none.txt"), "w");
    assert_non_null(f);
    fputs("orders 1\n", f);
    fclose(f);
    assert_int_equal(replay(args), 2);
    assert_non_null(strstr(g_err, "name the same file"));
    /* ... and named two ways while it does not exist yet: "DIR/./y.csv" and "DIR/y.csv", or a
     * dangling link to it (they escaped: the frames CSV replaced the orders CSV, exit 0, a review) */
    char dotted[600], link[600];
    snprintf(dotted, sizeof dotted, "%s/./y.csv", tmp(""));
    snprintf(args, sizeof args, "'%s' '%s' --csv '%s' --frames-csv '%s'", tmp("m.map"), tmp("none.txt"), tmp("y.csv"),
             dotted);
    assert_int_not_equal(access(tmp("y.csv"), F_OK), 0);
    assert_int_equal(replay(args), 2);
    assert_non_null(strstr(g_err, "name the same file"));
    snprintf(link, sizeof link, "%s", tmp("y-link.csv"));
    assert_int_equal(symlink("y.csv", link), 0);
    snprintf(args, sizeof args, "'%s' '%s' --csv '%s' --frames-csv '%s'", tmp("m.map"), tmp("none.txt"), link,
             tmp("y.csv"));
    assert_int_equal(replay(args), 2);
    assert_non_null(strstr(g_err, "name the same file"));
    assert_int_not_equal(access(tmp("y.csv"), F_OK), 0);
    /* a log without orders: nothing to animate, said (it exited 1 without a word: a review) */
    f = fopen(tmp("none.txt"), "w");
    assert_non_null(f);
    fputs("orders 1\n", f);
    fclose(f);
    snprintf(args, sizeof args, "'%s' '%s' --animate '%s'", tmp("m.map"), tmp("none.txt"), tmp("n.gif"));
    assert_int_equal(replay(args), 1);
    assert_non_null(strstr(g_err, "no frame to animate"));
    assert_int_not_equal(access(tmp("n.gif"), F_OK), 0);
    /* the README's animation */
    snprintf(args, sizeof args,
             "'%s/maps/demo-512.map' '%s/maps/demo-orders.txt' --budget-exp 60000 --workers 2 --speed 3 --animate '%s'",
             PF_SOURCE_DIR, PF_SOURCE_DIR, tmp("demo.gif"));
    assert_int_equal(replay(args), 0);
    struct stat sb;
    assert_int_equal(stat(tmp("demo.gif"), &sb), 0);
    if (sb.st_size > 3 * 1024 * 1024) fail_msg("the demo animation is %lld bytes", (long long)sb.st_size);
    HAS(g_out, "\"orders\":593,");
}

/* --animate with --csv: every output is written and flushed before any replaces its target. The
 * GIF was renamed before the CSV was written, so a CSV on a full disk left a new GIF over the old
 * one (a review). The CSV goes to a link to /dev/full, never to the device itself. */
static void test_outputs_all_or_none(void **state)
{
    (void)state;
    write_inputs();
    FILE *f = fopen(tmp("k.gif"), "w");
    assert_non_null(f);
    fputs("the old picture\n", f);
    fclose(f);
    unlink(tmp("full.csv"));
    assert_int_equal(symlink("/dev/full", tmp("full.csv")), 0);
    char args[640];
    snprintf(args, sizeof args, "'%s' '%s' --budget-exp 700 --speed 2 --animate '%s' --csv '%s'", tmp("m.map"),
             tmp("o.txt"), tmp("k.gif"), tmp("full.csv"));
    assert_int_equal(replay(args), 1);
    HAS(g_err, "error writing");
    char gif[64];
    slurp(tmp("k.gif"), gif, sizeof gif);
    assert_string_equal(gif, "the old picture\n");
    unlink(tmp("full.csv"));
    /* the same with the CSV writable: both replaced */
    snprintf(args, sizeof args, "'%s' '%s' --budget-exp 700 --speed 2 --animate '%s' --csv '%s'", tmp("m.map"),
             tmp("o.txt"), tmp("k.gif"), tmp("k.csv"));
    assert_int_equal(replay(args), 0);
    slurp(tmp("k.gif"), gif, sizeof gif);
    assert_memory_equal(gif, "GIF89a", 6);
    assert_int_equal(access(tmp("k.csv"), F_OK), 0);
    /* the GIF on a full disk: said once, with the reason ("writing the GIF failed: write error"
     * came first) */
    unlink(tmp("full.gif"));
    assert_int_equal(symlink("/dev/full", tmp("full.gif")), 0);
    snprintf(args, sizeof args, "'%s' '%s' --budget-exp 700 --speed 2 --animate '%s'", tmp("m.map"), tmp("o.txt"),
             tmp("full.gif"));
    assert_int_equal(replay(args), 1);
    HAS(g_err, "error writing");
    HAS(g_err, "No space left on device");
    assert_ptr_equal(strchr(g_err, '\n'), g_err + strlen(g_err) - 1);
    unlink(tmp("full.gif"));
}

static void test_path_hash(void **state)
{
    (void)state;
    FILE *f = fopen(tmp("s.map"), "w");
    fprintf(f, "type octile\nheight 3\nwidth 4\nmap\n....\n.@@.\n....\n");
    fclose(f);
    f = fopen(tmp("s.txt"), "w");
    fprintf(f, "orders 1\n0 1 0 0 3 0 normal\n0 2 0 0 1 1 normal\n");
    fclose(f);
    char args[512];
    snprintf(args, sizeof args, "'%s' '%s' --csv '%s'", tmp("s.map"), tmp("s.txt"), tmp("s.csv"));
    assert_int_equal(replay(args), 0);
    static char csv[4096];
    slurp(tmp("s.csv"), csv, sizeof csv);
    uint8_t bytes[16] = {0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0}; /* nodes 0,1,2,3: the top row */
    char want[128];
    snprintf(want, sizeof want, "0,1,0,0,ok,3.000000,4,%016llx\n", (unsigned long long)XXH3_64bits(bytes, 16));
    HAS(csv, want);
    HAS(csv, "1,2,0,0,invalid,-,0,-\n"); /* (1,1) is a wall */
    /* 2x2 units: the wall is in (0,0)'s footprint, so the first order cannot start */
    snprintf(args, sizeof args, "'%s' '%s' --size 2 --csv '%s'", tmp("s.map"), tmp("s.txt"), tmp("s.csv"));
    assert_int_equal(replay(args), 0);
    slurp(tmp("s.csv"), csv, sizeof csv);
    HAS(csv, "0,1,0,0,invalid,-,0,-\n");
}

/* The lags are over completed orders (the help): 99 urgent orders from off the map fail at once
 * (lag 0) and must not hide the one long urgent order's lag behind them in the p99. */
static void test_lag_over_completed(void **state)
{
    (void)state;
    FILE *f = fopen(tmp("l.map"), "w");
    assert_non_null(f);
    fprintf(f, "type octile\nheight 64\nwidth 64\nmap\n");
    for (int y = 0; y < 64; y++) fprintf(f, "%.64s\n", y == 32 ? "@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@." :
                                         "................................................................");
    fclose(f);
    f = fopen(tmp("l.txt"), "w");
    assert_non_null(f);
    fputs("orders 1\n0 1 0 0 0 63 urgent\n", f);
    for (int u = 2; u <= 100; u++) fprintf(f, "0 %d -1 -1 5 5 urgent\n", u);
    fclose(f);
    char args[512];
    snprintf(args, sizeof args, "'%s' '%s' --budget-exp 20", tmp("l.map"), tmp("l.txt"));
    assert_int_equal(replay(args), 0);
    HAS(g_out, "\"completed\":1,\"failed\":99,");
    double p99 = json_num("\"urgent_lag_p99\":"), max = json_num("\"urgent_lag_max\":");
    assert_true(max > 1.0); /* the long order waited several frames */
    assert_true(p99 == max); /* one completed order: its lag is every percentile */
}

static void test_bad_orders(void **state)
{
    (void)state;
    static const struct { const char *text, *msg; } cases[] = {
        {"order 1\n0 1 0 0 1 1 urgent\n", "o.txt:1: expected the header 'orders 1'"},
        {"orders 1\n0 1 0 0 1 1 hasty\n", "o.txt:2: priority must be urgent, normal or background, not 'hasty'"},
        {"orders 1\n3 1 0 0 1 1 urgent\n\n2 1 0 0 1 1 urgent\n", "o.txt:4: frame goes backwards '2'"},
        {"orders 1\n0 1 0 x 1 1 urgent\n", "o.txt:2: bad coordinate 'x'"},
        /* strtol skipped a leading \v or \f (the split leaves them in a token): refused like a space */
        {"orders 1\n0 1 \v0 0 1 1 urgent\n", "o.txt:2: bad coordinate '\\x0b0'"},
        {"orders 1\n0 rect \f1 1 2 2 @\n", "o.txt:2: bad number '\\x0c1'"},
        /* bytes that are not UTF-8 are escaped as the controls are (they were echoed as read) */
        {"orders 1\n0 1 0 0 1 1 \xff\xc3urg\xc3\xa9nt\n", "o.txt:2: priority must be urgent, normal or background, "
                                                     "not '\\xff\\xc3urg\xc3\xa9nt'"},
        {"orders 1\n0 move 1 1 2 2 0\n", "o.txt:2: unknown record kind 'move'"},
        {"orders 1\n0 rect 1 1 2 2 0\n", "o.txt:2:16: unknown terrain"}, /* '0' is no terrain: checked on the map */
        /* the map's checks name the column as typed on the log's line (they named one of a
         * rewritten text: 10 here) */
        {"orders 1\n123456   rect   0   0   -007   5   @\n", "o.txt:2:25: W must be a positive integer"},
        {"orders 1\n7\trect 1 1 2 2 Q\n", "o.txt:2:16: unknown terrain 'Q'"},
        {"orders 1\n0 rect 1 1 2 2\n", "o.txt:2: expected FRAME rect X Y W H C"},
        {"orders 1\n0 1 0 0 1 1 urgent size=0\n", "o.txt:2: bad size 'size=0'"},
        {"orders 1\n0 1 0 0 1 1 urgent size=33\n", "o.txt:2: bad size 'size=33'"},
        {"orders 1\n0 1 0 0 1 1 urgent fast\n", "o.txt:2: expected size=K or partial after the priority, not 'fast'"},
        {"orders 1\n0 1 0 0 1 1 urgent partial partial\n", "o.txt:2: expected size=K or partial"},
        {"orders 1\n0 1 cancel now\n", "o.txt:2: unexpected text after cancel 'now'"},
        {"orders 1\n-1 1 0 0 1 1 urgent\n", "o.txt:2: bad frame number '-1'"},
        {"orders 1\n0 1 0 0 1 urgent\n", "o.txt:2: expected FRAME TAG SX SY GX GY PRIORITY"},
        {"", "o.txt:1: empty file"},
    };
    FILE *f = fopen(tmp("t.map"), "w");
    fprintf(f, "type octile\nheight 3\nwidth 4\nmap\n....\n....\n....\n");
    fclose(f);
    char args[512];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        f = fopen(tmp("o.txt"), "w");
        fputs(cases[i].text, f);
        fclose(f);
        snprintf(args, sizeof args, "'%s' '%s' --csv '%s'", tmp("t.map"), tmp("o.txt"), tmp("never.csv"));
        assert_int_equal(replay(args), 1);
        HAS(g_err, cases[i].msg);
        assert_int_not_equal(access(tmp("never.csv"), F_OK), 0);
    }
    /* an edit off the map is said as soon as the map is loaded, before anything is made for the
     * run (here the accelerator --prep would read, from a file that does not exist) and before
     * frame 0: it used to be found at its frame, the run up to it wasted */
    f = fopen(tmp("o.txt"), "w");
    fputs("orders 1\n0 1 0 0 1 1 urgent\n9 rect 3 0 5 1 @\n", f);
    fclose(f);
    snprintf(args, sizeof args, "'%s' '%s' --algo auto --prep '%s'", tmp("t.map"), tmp("o.txt"), tmp("missing.pfa"));
    assert_int_equal(replay(args), 1);
    HAS(g_err, "o.txt:3: rectangle 3 0 5 1 is partly outside the 4x3 map");
    HASNT(g_err, "missing.pfa");
    snprintf(args, sizeof args, "'%s' '%s' --workers 0", tmp("t.map"), tmp("o.txt"));
    assert_int_equal(replay(args), 2);
    assert_int_equal(replay("--help"), 0);
    HAS(g_out, "order,tag,submitted,arrived,status,cost,path_len,path_hash");
    snprintf(args, sizeof args, "'%s' '%s'", tmp("t.map"), tmp("missing.txt"));
    assert_int_equal(replay(args), 1);
    HAS(g_err, "missing.txt");
}

static int setup(void **state)
{
    return tmpdir_setup(state);
}

static int teardown(void **state)
{
    return tmpdir_teardown(state);
}

/* The 80x60 map of the edit tests: a wall at x = 40 with a gap at its bottom, and posts. */
static void write_walled_map(void)
{
    FILE *f = fopen(tmp("p.map"), "w");
    assert_non_null(f);
    fprintf(f, "type octile\nheight 60\nwidth 80\nmap\n");
    for (int y = 0; y < 60; y++) {
        char row[81];
        for (int x = 0; x < 80; x++) row[x] = (x == 40 && y < 55) || (y % 12 == 6 && x % 9 == 4) ? '@' : '.';
        row[80] = '\0';
        fprintf(f, "%s\n", row);
    }
    fclose(f);
}

/* Two CSVs agree on every row's order, tag, submitted, status and cost (arrival frames differ between
 * algorithms under a budget, and paths among equal-cost ones). */
static void same_costs(const char *pa, const char *pb)
{
    for (int row = 0;; row++) {
        const char *ea = strchr(pa, '\n'), *eb = strchr(pb, '\n');
        if (!ea || !eb) {
            assert_true(!ea && !eb);
            return;
        }
        unsigned oa, ob;
        unsigned long long ta, tb, sa, sb;
        long long aa, ab;
        char sta[16], stb[16], ca[32] = "", cb[32] = "";
        if (row > 0) {
            assert_int_equal(sscanf(pa, "%u,%llu,%llu,%lld,%15[^,],%31[^,]", &oa, &ta, &sa, &aa, sta, ca), 6);
            assert_int_equal(sscanf(pb, "%u,%llu,%llu,%lld,%15[^,],%31[^,]", &ob, &tb, &sb, &ab, stb, cb), 6);
            if (oa != ob || ta != tb || sa != sb || strcmp(sta, stb) != 0 || strcmp(ca, cb) != 0)
                fail_msg("row %d differs:\n%.*s\n%.*s", row, (int)(ea - pa), pa, (int)(eb - pb), pb);
        }
        pa = ea + 1;
        pb = eb + 1;
    }
}

/* replay --algo auto --prep FILE with edit lines and --accel-adopt-frames 0: the accelerator follows
 * every edit (rebuilt inside it), so orders after an edit are answered by it (detail_accel, never
 * detail_accel_stale) and at A*'s costs, order by order. The wall moves its gap from one end to the
 * other: the old hierarchy's routes through the first gap would be wrong. */
static void test_prep_follows_edits(void **state)
{
    (void)state;
    write_walled_map();
    FILE *f = fopen(tmp("p.txt"), "w");
    assert_non_null(f);
    fputs("orders 1\n"
          "0 1 0 0 79 0 normal\n"
          "0 2 2 30 77 20 normal\n"
          "1 rect 40 55 1 5 @\n"  /* the gap at the bottom closes ... */
          "1 rect 40 0 1 4 .\n"   /* ... and one opens at the top */
          "1 3 0 59 79 59 normal\n"
          "1 4 79 58 1 50 normal\n"
          "2 rect 20 0 4 4 @\n"   /* a building beside the new gap's approach */
          "2 5 1 10 78 10 normal\n"
          "2 6 0 0 79 0 normal\n"
          "3 rect 20 0 4 4 .\n"   /* gone again */
          "3 7 0 0 79 0 normal\n",
          f);
    fclose(f);
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "'%s' prep '%s' -o '%s' >/dev/null", PF_CLI_PATH, tmp("p.map"), tmp("p.pfa"));
    assert_int_equal(system(cmd), 0);
    char args[640];
    snprintf(args, sizeof args, "'%s' '%s' --algo auto --prep '%s' --accel-adopt-frames 0 --csv '%s'", tmp("p.map"),
             tmp("p.txt"), tmp("p.pfa"), tmp("pa.csv"));
    assert_int_equal(replay(args), 0);
    HAS(g_out, "\"completed\":7,");
    HAS(g_out, "\"edit_cells\":41,");
    HAS(g_out, "\"detail_accel\":7,\"detail_accel_stale\":0");
    snprintf(args, sizeof args, "'%s' '%s' --algo astar --csv '%s'", tmp("p.map"), tmp("p.txt"), tmp("pb.csv"));
    assert_int_equal(replay(args), 0);
    static char a[1 << 12], b[1 << 12];
    slurp(tmp("pa.csv"), a, sizeof a);
    slurp(tmp("pb.csv"), b, sizeof b);
    same_costs(a, b);
}

/* replay --algo auto --prep FILE with edit lines, off the frame, --accel-edits stale: after the edits of
 * frame 5 JPS answers (detail_accel_stale) while a thread rebuilds; a building at frame 7 makes that
 * rebuild stale before its frame (9), where it is dropped and the next one starts, adopted at 13.
 * The CSV is the same for 1, 2 and 3 workers under an expansion budget, and every cost is A*'s
 * (unbudgeted: each order answered on the map of its frame). */
/* The order log of the tests below: edits at frames 5 and 7, three orders every frame. */
static void write_adopt_orders(void)
{
    write_walled_map();
    FILE *f = fopen(tmp("q.txt"), "w");
    assert_non_null(f);
    fputs("orders 1\n", f);
    for (int fr = 0; fr < 20; fr++) {
        if (fr == 5) fputs("5 rect 40 55 1 5 @\n5 rect 40 0 1 4 .\n", f);
        if (fr == 7) fputs("7 rect 20 0 4 4 @\n", f);
        /* long moves across the wall, and one short one, every frame */
        fprintf(f, "%d %d 0 %d 79 %d normal\n", fr, 3 * fr, (fr * 7) % 60, (fr * 13 + 5) % 60);
        fprintf(f, "%d %d 79 %d 2 %d urgent\n", fr, 3 * fr + 1, (fr * 11 + 3) % 60, (fr * 5 + 1) % 60);
        fprintf(f, "%d %d 50 %d 55 %d background\n", fr, 3 * fr + 2, 10 + fr, 12 + fr);
    }
    fclose(f);
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "'%s' prep '%s' -o '%s' >/dev/null", PF_CLI_PATH, tmp("p.map"), tmp("p.pfa"));
    assert_int_equal(system(cmd), 0);
}

static void test_prep_adopts_off_frame(void **state)
{
    (void)state;
    write_adopt_orders();
    static char csv[3][1 << 13], json[sizeof g_out];
    for (int w = 1; w <= 3; w++) {
        char args[768];
        snprintf(args, sizeof args,
                 "'%s' '%s' --algo auto --prep '%s' --accel-adopt-frames 4 --accel-edits stale --workers %d --budget-exp 400 "
                 "--csv '%s'",
                 tmp("p.map"), tmp("q.txt"), tmp("p.pfa"), w, tmp("qa.csv"));
        assert_int_equal(replay(args), 0);
        slurp(tmp("qa.csv"), csv[w - 1], sizeof csv[0]);
        if (w == 1) snprintf(json, sizeof json, "%s", g_out);
        HAS(g_out, "\"accel_adopt_frames\":4,\"accel_rebuilds\":2,\"accel_adoptions\":[{\"copy_frame\":9,\"frame\":13,");
        HAS(g_out, "\"accel_dropped\":1,\"accel_jps_frames\":8,");
    }
    assert_string_equal(csv[0], csv[1]);
    assert_string_equal(csv[0], csv[2]);
    /* both kinds of answer happened: JPS for the stale one, the accelerator before and after */
    const char *st = strstr(json, "\"detail_accel_stale\":");
    assert_non_null(st);
    assert_true(atoi(st + strlen("\"detail_accel_stale\":")) > 0);
    const char *ac = strstr(json, "\"detail_accel\":");
    assert_non_null(ac);
    assert_true(atoi(ac + strlen("\"detail_accel\":")) > 0);
    /* unbudgeted, every order is answered in its own frame, on the map A* sees then */
    char args[640];
    snprintf(args, sizeof args, "'%s' '%s' --algo auto --prep '%s' --accel-adopt-frames 4 --accel-edits stale --csv '%s'",
             tmp("p.map"), tmp("q.txt"), tmp("p.pfa"), tmp("qa.csv"));
    assert_int_equal(replay(args), 0);
    HAS(g_out, "\"accel_jps_frames\":8,");
    snprintf(args, sizeof args, "'%s' '%s' --algo astar --csv '%s'", tmp("p.map"), tmp("q.txt"), tmp("qb.csv"));
    assert_int_equal(replay(args), 0);
    static char a[1 << 13], b[1 << 13];
    slurp(tmp("qa.csv"), a, sizeof a);
    slurp(tmp("qb.csv"), b, sizeof b);
    same_costs(a, b);
    /* --accel-adopt-frames is auto's */
    snprintf(args, sizeof args, "'%s' '%s' --algo jps --accel-adopt-frames 3", tmp("p.map"), tmp("q.txt"));
    assert_int_equal(replay(args), 2);
    HAS(g_err, "--accel-adopt-frames goes with --algo auto only");
}

/* The same log by default (--accel-edits check): between adoptions the accelerator follows the
 * edits by its diff, so no frame is stale; the rebuild copied at frame 5 is adopted at 9 although
 * the building of frame 7 came after its copy (its diff holds the building), and the next one,
 * copied at 9, at 13. Orders it cannot prove on the edited map are JPS's, said (detail_accel_edited).
 * The CSV is the same for 1, 2 and 3 workers under an expansion budget, every cost is A*'s. */
static void test_prep_follows_by_diff(void **state)
{
    (void)state;
    write_adopt_orders();
    static char csv[3][1 << 13], json[sizeof g_out];
    for (int w = 1; w <= 3; w++) {
        char args[768];
        snprintf(args, sizeof args,
                 "'%s' '%s' --algo auto --prep '%s' --accel-adopt-frames 4 --workers %d --budget-exp 400 --csv '%s'",
                 tmp("p.map"), tmp("q.txt"), tmp("p.pfa"), w, tmp("qa.csv"));
        assert_int_equal(replay(args), 0);
        slurp(tmp("qa.csv"), csv[w - 1], sizeof csv[0]);
        if (w == 1) snprintf(json, sizeof json, "%s", g_out);
        HAS(g_out, "\"accel_rebuilds\":2,\"accel_adoptions\":[{\"copy_frame\":5,\"frame\":9,");
        HAS(g_out, "{\"copy_frame\":9,\"frame\":13,");
        HAS(g_out, "\"accel_dropped\":0,\"accel_jps_frames\":0,\"accel_edited_frames\":8,");
        HAS(g_out, "\"detail_accel_stale\":0,");
    }
    assert_string_equal(csv[0], csv[1]);
    assert_string_equal(csv[0], csv[2]);
    const char *ed = strstr(json, "\"detail_accel_edited\":");
    assert_non_null(ed);
    assert_true(atoi(ed + strlen("\"detail_accel_edited\":")) > 0);
    char args[640];
    snprintf(args, sizeof args, "'%s' '%s' --algo auto --prep '%s' --accel-adopt-frames 4 --csv '%s'", tmp("p.map"),
             tmp("q.txt"), tmp("p.pfa"), tmp("qa.csv"));
    assert_int_equal(replay(args), 0);
    snprintf(args, sizeof args, "'%s' '%s' --algo astar --csv '%s'", tmp("p.map"), tmp("q.txt"), tmp("qb.csv"));
    assert_int_equal(replay(args), 0);
    static char a[1 << 13], b[1 << 13];
    slurp(tmp("qa.csv"), a, sizeof a);
    slurp(tmp("qb.csv"), b, sizeof b);
    same_costs(a, b);
    /* without --accel-adopt-frames, check never rebuilds: the diff alone, every cost still A*'s */
    snprintf(args, sizeof args, "'%s' '%s' --algo auto --prep '%s' --csv '%s'", tmp("p.map"), tmp("q.txt"), tmp("p.pfa"),
             tmp("qa.csv"));
    assert_int_equal(replay(args), 0);
    HAS(g_out, "\"accel_adopt_frames\":0,\"accel_rebuilds\":0,\"accel_adoptions\":[],");
    HAS(g_out, "\"detail_accel_stale\":0,");
    slurp(tmp("qa.csv"), a, sizeof a);
    same_costs(a, b);
    /* the two options must agree on where the rebuild happens */
    snprintf(args, sizeof args, "'%s' '%s' --algo auto --accel-edits check --accel-adopt-frames 0", tmp("p.map"),
             tmp("q.txt"));
    assert_int_equal(replay(args), 2);
    HAS(g_err, "--accel-adopt-frames 0 with --accel-edits check");
    snprintf(args, sizeof args, "'%s' '%s' --algo auto --accel-edits rebuild --accel-adopt-frames 5", tmp("p.map"),
             tmp("q.txt"));
    assert_int_equal(replay(args), 2);
    HAS(g_err, "--accel-adopt-frames 5 with --accel-edits rebuild");
    snprintf(args, sizeof args, "'%s' '%s' --algo auto --accel-edits sometimes", tmp("p.map"), tmp("q.txt"));
    assert_int_equal(replay(args), 2);
    HAS(g_err, "--accel-edits: unknown mode 'sometimes'");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_workers_agree),
        cmocka_unit_test(test_workers_agree_auto),
        cmocka_unit_test(test_path_hash),
        cmocka_unit_test(test_frames_csv),
        cmocka_unit_test(test_frames_wait_for_a_core),
        cmocka_unit_test(test_edits_sizes_partial),
        cmocka_unit_test(test_animate),
        cmocka_unit_test(test_outputs_all_or_none),
        cmocka_unit_test(test_bad_orders),
        cmocka_unit_test(test_lag_over_completed),
        cmocka_unit_test(test_prep_follows_edits),
        cmocka_unit_test(test_prep_adopts_off_frame), cmocka_unit_test(test_prep_follows_by_diff),
    };
    return RUN_TESTS_WITH(tests, setup, teardown);
}
