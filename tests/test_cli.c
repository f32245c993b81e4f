/* test_cli.c - every `pathfind` subcommand: --help, a good run and bad input, through the real binary
 * (exit codes, stdout, stderr naming file and line). */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <fcntl.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "pathfind.h"
#include "status_word.h"
#include "run_cli.h"
#include "tmpdir.h"

static char g_out[1 << 16], g_err[1 << 16];

/* Runs the CLI with args (NULL-terminated), captures stdout/stderr; returns the exit code. */
static int run(const char *const *args) { return cli_run(NULL, args, g_out, sizeof g_out, g_err, sizeof g_err); }

#define RUN(...) run((const char *const[]){__VA_ARGS__, NULL})

static const char MAP[] = "type octile\nheight 5\nwidth 6\nmap\n"
                          "......\n"
                          ".@@@@.\n"
                          "......\n"
                          ".WW...\n"
                          "......\n";

static void check_help(const char *cmd)
{
    char usage[64];
    snprintf(usage, sizeof usage, "usage: pathfind %s", cmd);
    assert_int_equal(RUN(cmd, "--help"), 0);
    HAS(g_out, usage);
    HAS(g_out, "example");
    assert_int_equal(RUN(cmd, "-h"), 0);
    HAS(g_out, usage);
}

static void test_top_level(void **state)
{
    (void)state;
    assert_int_equal(RUN("--help"), 0);
    static char top[sizeof g_out];
    snprintf(top, sizeof top, "%s", g_out);
    static const char *const cmds[] = {"demo", "scen", "graph", "path", "gen", "render", "plot"};
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        char line[32];
        snprintf(line, sizeof line, "  %s ", cmds[i]);
        HAS(top, line);
        check_help(cmds[i]);
    }
    assert_int_equal(RUN("--version"), 0);
    HAS(g_out, PF_VERSION_STRING);
    assert_int_equal(run((const char *const[]){NULL}), 2);
    HAS(g_err, "usage");
    assert_int_equal(RUN("frobnicate"), 2);
    HAS(g_err, "unknown command 'frobnicate'");
}

static void test_demo(void **state)
{
    (void)state;
    assert_int_equal(RUN("demo", "--queries", "20", "--seed", "3"), 0);
    HAS(g_out, "check    0 of 20");
    assert_int_equal(RUN("demo", "--queries", "0"), 2);
    HAS(g_err, "--queries");
    const char *bad = write_tmp("bad_demo.map", "type octile\nheight 2\nwidth 2\nmap\n..\n.?\n");
    assert_int_equal(RUN("demo", "--map", bad), 1);
    HAS(g_err, "bad_demo.map:6:2");
    assert_int_equal(RUN("demo", "--bogus"), 2);
}

static void test_scen(void **state)
{
    (void)state;
    const char *map = write_tmp("s.map", MAP);
    const char *sc = write_tmp("s.scen", "version 1\n"
                                         "0\ts.map\t6\t5\t0\t0\t5\t0\t5\n"
                                         "0\ts.map\t6\t5\t0\t0\t5\t2\t7\n"
                                         "0\ts.map\t6\t5\t0\t4\t5\t4\t5\n");
    const char *csv = tmp("s.csv");
    assert_int_equal(RUN("scen", map, sc, "--csv", csv), 0);
    HAS(g_out, "\"queries\":3");
    HAS(g_out, "\"mismatches\":0");
    assert_null(strchr(g_err, '\r')); /* no progress bar when stderr is not a terminal */
    char text[4096];
    FILE *f = fopen(csv, "r");
    assert_non_null(f);
    text[fread(text, 1, sizeof text - 1, f)] = '\0';
    fclose(f);
    /* the header is a contract: exactly these ten columns */
    assert_memory_equal(text, "id,bucket,sx,sy,gx,gy,status,cost,expanded,path_len\n", 51);
    HAS(text, "\n1,0,0,0,5,2,ok,7.00000000,");
    /* a map file named in Latin-1 (0xe9, no UTF-8): the JSON says U+FFFD, and stays UTF-8 (it
     * held the raw byte) */
    const char *latin = write_tmp("caf\xe9.map", MAP);
    assert_int_equal(RUN("scen", latin, sc), 0);
    HAS(g_out, "caf\\ufffd.map\"");
    assert_null(strchr(g_out, '\xe9'));
    const char *utf8 = write_tmp("caf\xc3\xa9.map", MAP); /* a name in UTF-8 is written as it is */
    assert_int_equal(RUN("scen", utf8, sc), 0);
    HAS(g_out, "caf\xc3\xa9.map\"");
    assert_int_equal(RUN("scen", map, sc, "--csv", csv, "--csv-us"), 0);
    /* --csv-us without --csv: nothing to add the column to, said (it was accepted silently) */
    assert_int_equal(RUN("scen", map, sc, "--csv-us"), 2);
    HAS(g_err, "--csv-us");
    f = fopen(csv, "r");
    assert_non_null(f);
    text[fread(text, 1, sizeof text - 1, f)] = '\0';
    fclose(f);
    HAS(text, "id,bucket,sx,sy,gx,gy,status,cost,expanded,path_len,us\n");
    /* a wrong listed length is a mismatch and a failure */
    const char *wrong = write_tmp("w.scen", "version 1\n0\ts.map\t6\t5\t0\t0\t5\t0\t7\n");
    assert_int_equal(RUN("scen", map, wrong), 1);
    HAS(g_out, "\"mismatches\":1");
    /* a weight bounds jps and jps+ as it bounds wastar: within weight x the listed length is no
     * mismatch (every weighted JPS run on a real scenario exited 1), above it is */
    const char *near = write_tmp("n.scen", "version 1\n0\ts.map\t6\t5\t0\t0\t5\t0\t4.8\n");
    const char *far = write_tmp("f.scen", "version 1\n0\ts.map\t6\t5\t0\t0\t5\t0\t3\n");
    const char *const weighted[] = {"wastar", "jps", "jps+"};
    for (int k = 0; k < 3; k++) {
        assert_int_equal(RUN("scen", map, near, "--algo", weighted[k], "--weight", "1.5"), 0);
        HAS(g_out, "\"mismatches\":0");
        assert_int_equal(RUN("scen", map, far, "--algo", weighted[k], "--weight", "1.5"), 1);
    }
    assert_int_equal(RUN("scen", map, near, "--algo", "jps"), 1); /* unweighted: exact */
    /* wastar at weight 1 is held to weight x optimal too (it fell to greedy's rule, no bound) */
    assert_int_equal(RUN("scen", map, near, "--algo", "wastar", "--weight", "1"), 1);
    const char *bad = write_tmp("bad.scen", "version 1\n0\ts.map\t6\t5\t0\t0\t5\t0\t5\n0 s.map 6 5 oops\n");
    assert_int_equal(RUN("scen", map, bad), 1);
    HAS(g_err, "bad.scen:3");
    /* an option given twice is refused (the second replaced the first in silence: one CSV of two,
     * the first --edits file dropped), and an option missing its value does not take the next
     * option as a file name (--csv --threads wrote a file named "--threads") */
    const char *csv2 = tmp("s2.csv");
    remove(csv);
    assert_int_equal(RUN("scen", map, sc, "--csv", csv, "--csv", csv2), 2);
    HAS(g_err, "option '--csv' given twice");
    assert_int_equal(access(csv, F_OK), -1);
    assert_int_equal(access(csv2, F_OK), -1);
    assert_int_equal(RUN("scen", map, sc, "--threads", "1", "--threads", "2"), 2);
    assert_int_equal(RUN("scen", map, sc, "--csv", "--threads", "1"), 2);
    HAS(g_err, "'--csv'");
    assert_int_equal(RUN("edit", map, sc, "-o", "--help"), 2);
    /* an output naming an input is refused, the input left whole (the scenario was replaced by
     * its CSV, an order log by the replay's, a map by its accelerator) */
    assert_int_equal(RUN("scen", map, sc, "--csv", sc), 2);
    HAS(g_err, "SCEN and --csv name the same file");
    assert_int_equal(RUN("scen", map, sc), 0);
    assert_int_equal(RUN("prep", map, "-o", map), 2);
    assert_int_equal(RUN("edit", map, sc, "-o", sc), 2);
    assert_int_equal(RUN("graph", sc, sc, "--csv", sc), 2);
    assert_int_equal(RUN("render", map, "0", "0", "5", "0", "-o", map), 2);
    assert_int_equal(RUN("bench", map, sc, "--threads", "0", "-o", sc), 2);
    assert_int_equal(RUN("table", "build", map, "-o", map), 2);
    assert_int_equal(RUN("scen", map, sc), 0);
    HAS(g_out, "\"queries\":3");
    /* numbers that start with '-' are values, not options */
    assert_int_equal(RUN("path", map, "0", "0", "5", "0", "--size", "-1"), 2);
    HAS(g_err, "bad value '-1' for --size");
    assert_int_equal(RUN("scen", map), 2);
    assert_int_equal(RUN("scen", tmp("missing.map"), sc), 1);
    HAS(g_err, "missing.map");
}

static void test_graph(void **state)
{
    (void)state;
    const char *gr = write_tmp("g.gr", "c tiny\np sp 3 3\na 1 2 5\na 2 3 5\na 1 3 20\n");
    const char *pairs = write_tmp("pairs.txt", "1 3 10\n3 1\n");
    assert_int_equal(RUN("graph", gr, pairs), 0);
    HAS(g_out, "\"queries\":2");
    HAS(g_out, "\"solved\":1"); /* 3 -> 1 has no arc */
    HAS(g_out, "\"mismatches\":0");
    /* scen's answer keys too (docs/cli.md: "the same summary"; they were missing) */
    HAS(g_out, "\"weight\":1,");
    HAS(g_out, "\"by_astar\":2,");
    HAS(g_out, "\"detail_fallback\":0,");
    HAS(g_out, "\"detail_accel_declined\":0}");
    const char *bad = write_tmp("badpairs.txt", "1 3\n1 x\n");
    assert_int_equal(RUN("graph", gr, bad), 1);
    HAS(g_err, "badpairs.txt:2:3: bad target 'x': expected a node id in 1..3");
    /* a fourth column is said as one, where it stands, with what a line holds (it read "expected
     * 's t' with node ids in 1..3" of ids that were fine), as the scen reader says a line's fault */
    static const struct { const char *text, *msg; } lines[] = {
        {"1 3 10\n1  2\t7 x\n", "bp.txt:2:8: unexpected fourth column 'x': expected 's t [expected cost]' (2 or 3 columns)"},
        {"1\n", "bp.txt:1: expected 's t [expected cost]' (2 or 3 columns), found 1"},
        {"4 1\n", "bp.txt:1:1: bad source '4': expected a node id in 1..3"},
        {"1 2 -5\n", "bp.txt:1:5: expected cost '-5' is not a finite number >= 0"},
    };
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        assert_int_equal(RUN("graph", gr, write_tmp("bp.txt", lines[i].text)), 1);
        HAS(g_err, lines[i].msg);
    }
    const char *badgr = write_tmp("bad.gr", "p sp 3 1\na 1 2\n");
    assert_int_equal(RUN("graph", badgr, pairs), 1);
    HAS(g_err, "bad.gr:2");
    assert_int_equal(RUN("graph", gr, pairs, "--algo", "jps"), 2);
    /* the mismatch rules of every algorithm (a review: only the optimal ones were held to them) */
    const char *low = write_tmp("low.txt", "1 3 5\n");    /* below the optimum 10 */
    const char *high = write_tmp("high.txt", "1 3 100\n"); /* far above it */
    assert_int_equal(RUN("graph", gr, low, "--algo", "wastar"), 1); /* 10 > 1.5 x 5 */
    HAS(g_out, "\"mismatches\":1");
    assert_int_equal(RUN("graph", gr, high, "--algo", "wastar"), 0);
    assert_int_equal(RUN("graph", gr, high, "--algo", "greedy"), 1); /* 10 < 100: below an optimum */
    assert_int_equal(RUN("graph", gr, low, "--algo", "bfs"), 0);
    assert_int_equal(RUN("graph", gr, high, "--algo", "dijkstra"), 1);
    /* an output named /dev/stdout (here a file the run's stdout goes to) is that stream: the CSV,
     * then the summary, one after the other (a review: "No such file or directory" through a
     * pipe; to a file, the file replaced under the stream, the summary lost) */
    assert_int_equal(RUN("graph", gr, pairs, "--csv", "/dev/stdout"), 0);
    HAS(g_out, "s,t,status,cost");
    HAS(g_out, "1,3,ok,10.000000");
    HAS(g_out, "\"queries\":2");
    assert_true(strstr(g_out, "1,3,ok") < strstr(g_out, "\"queries\""));
    assert_int_equal(RUN("graph", gr, pairs, "--csv", "/proc/self/fd/1"), 0);
    HAS(g_out, "1,3,ok,10.000000");
    HAS(g_out, "\"queries\":2");
    /* stdout a pipe (popen's) */
    assert_int_equal(cli_run_shell("graph g.gr pairs.txt --csv /dev/stdout", "err.txt", g_out, sizeof g_out), 0);
    HAS(g_out, "1,3,ok,10.000000");
    HAS(g_out, "\"queries\":2");
}

static void test_path(void **state)
{
    (void)state;
    const char *map = write_tmp("p.map", MAP);
    assert_int_equal(RUN("path", map, "0", "0", "5", "2"), 0);
    HAS(g_out, "status: ok");
    HAS(g_out, "cost: 7.000000");
    assert_int_equal(RUN("path", map, "0", "0", "5", "2", "--json"), 0);
    assert_int_equal(g_out[0], '{');
    HAS(g_out, "\"status\":\"ok\"");
    HAS(g_out, "\"path\":[[0,0],");
    assert_int_equal(RUN("path", map, "0", "0", "x", "2"), 2);
    HAS(g_err, "GX");
    assert_int_equal(RUN("path", map, "0", "0", "1", "1"), 1); /* goal on a wall */
    /* --smooth: the row and the column, two segments; Theta*: waypoints in the JSON */
    assert_int_equal(RUN("path", map, "0", "0", "5", "2", "--smooth"), 0);
    HAS(g_out, "smooth_cost: 7.000000");
    HAS(g_out, "waypoints: 0,0 5,0 5,2");
    assert_int_equal(RUN("path", map, "0", "4", "5", "2", "--algo", "theta", "--json"), 0);
    HAS(g_out, "\"smooth_cost\":");
    HAS(g_out, "\"waypoints\":[[0,4],");
    /* a goal on a wall with --partial: the path to the open cell nearest it, exit 0 */
    assert_int_equal(RUN("path", map, "0", "0", "1", "1", "--partial"), 0);
    HAS(g_out, "status: partial");
    HAS(g_out, "cost: 1.000000");
    /* 2x2 units: (3,3) and (4,2) have room, (0,0) has a wall in its block */
    assert_int_equal(RUN("path", map, "3", "3", "4", "2", "--size", "2"), 0);
    HAS(g_out, "cost: 1.414214");
    assert_int_equal(RUN("path", map, "0", "0", "3", "3", "--size", "2"), 1);
    HAS(g_out, "invalid");
    assert_int_equal(RUN("path", map, "3", "3", "4", "2", "--size", "0"), 2);
    HAS(g_err, "--size");
    /* a point off the map: named with the map's size on stderr, exit 2, as table path does
     * (a review: it printed "invalid" on stdout, exit 1) */
    assert_int_equal(RUN("path", map, "0", "0", "6", "2"), 2);
    HAS(g_err, "goal (6,2) is outside the 6x5 map");
    HASNT(g_out, "invalid");
    assert_int_equal(RUN("path", map, "0", "-1", "5", "2"), 2);
    HAS(g_err, "start (0,-1) is outside the 6x5 map");
    assert_int_equal(RUN("path", map, "2", "5", "5", "2", "--json"), 2);
    HAS(g_err, "start (2,5) is outside the 6x5 map");
    assert_int_equal(RUN("path", tmp("nope.map"), "0", "0", "1", "1"), 1);
    HAS(g_err, "nope.map");
}

/* Movement types: a river a walker cannot cross and a hover unit (--classes .W) can, through
 * path, scen, render and replay; bad values are usage errors. */
static void test_classes(void **state)
{
    (void)state;
    const char *map = write_tmp("river.map", "type octile\nheight 3\nwidth 7\nmap\n"
                                             "..WWW..\n"
                                             "..WWW..\n"
                                             "..WWW..\n");
    assert_int_equal(RUN("path", map, "0", "1", "6", "1"), 0);
    HAS(g_out, "status: no_path");
    assert_int_equal(RUN("path", map, "0", "1", "6", "1", "--classes", ".W"), 0);
    HAS(g_out, "status: ok");
    HAS(g_out, "cost: 6.000000");
    /* three water cells at 2: 3 + 6; JPS answers by A* (two multipliers), and says so */
    assert_int_equal(RUN("path", map, "0", "1", "6", "1", "--classes", "W.", "--class-cost", "W=2", "--algo", "jps"), 0);
    HAS(g_out, "cost: 9.000000");
    HAS(g_out, "fallback");
    /* one multiplier for both classes: JPS itself answers, at twice the unit cost */
    assert_int_equal(RUN("path", map, "0", "1", "6", "1", "--classes", ".W", "--class-cost", ".=2,W=2", "--algo", "jps"), 0);
    HAS(g_out, "cost: 12.000000");
    HAS(g_out, "answered by: jps");
    HASNT(g_out, "fallback");
    /* any of . G S names ground; a ship (W only) cannot start on the bank */
    assert_int_equal(RUN("path", map, "0", "1", "6", "1", "--classes", "GW"), 0);
    HAS(g_out, "cost: 6.000000");
    assert_int_equal(RUN("path", map, "0", "1", "6", "1", "--classes", "W"), 1);
    HAS(g_out, "invalid");
    static const char *const bad[][4] = {
        {"--classes", "X", NULL, NULL},          {"--classes", "@", NULL, NULL},
        {"--classes", "", NULL, NULL},           {"--class-cost", "W=2", NULL, NULL},
        {"--classes", ".W", "--class-cost", "T=2"}, {"--classes", ".W", "--class-cost", "W"},
        {"--classes", ".W", "--class-cost", "W=0"}, {"--classes", ".W", "--class-cost", "W=-1"},
        {"--classes", ".W", "--class-cost", "W=2,"}, {"--classes", ".W", "--class-cost", "W=inf"},
        /* one class given two multipliers (the last one won): by one character, or by two that
         * name the ground */
        {"--classes", ".W", "--class-cost", "W=2,W=3"}, {"--classes", ".W", "--class-cost", ".=2,G=3"},
        /* below a float's normal range (it became 0, read as the default 1, or a subnormal that
         * priced steps at 0), and numbers not as typed (hex, a leading blank) */
        {"--classes", ".W", "--class-cost", "W=1e-50"}, {"--classes", ".W", "--class-cost", "W=1e-40"},
        {"--classes", ".W", "--class-cost", "W=0x10"}, {"--classes", ".W", "--class-cost", "W= 2"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(RUN("path", map, "0", "1", "6", "1", bad[i][0], bad[i][1], bad[i][2], bad[i][3]), 2);
        HAS(g_err, "--class");
    }
    /* a 2x2 hover unit: its block over the bank and the river; steps into water at 2 */
    assert_int_equal(RUN("path", map, "0", "1", "5", "1", "--classes", ".W", "--class-cost", "W=2", "--size", "2"), 0);
    HAS(g_out, "cost: 8.000000");
    assert_int_equal(RUN("path", map, "0", "1", "5", "1", "--classes", "W", "--size", "2"), 1);
    assert_int_equal(RUN("path", map, "0", "1", "6", "1", "--classes", ".W", "--smooth"), 2);
    /* --smooth reads the whole path: with --waypoints it was given only the turns, and pulled a
     * different, shorter line than --smooth alone (a review) */
    assert_int_equal(RUN("path", map, "0", "1", "6", "1", "--waypoints", "--smooth"), 2);
    const char *scen = write_tmp("river.scen", "version 1\n0\triver.map\t7\t3\t0\t1\t6\t1\t6\n");
    assert_int_equal(RUN("scen", map, scen), 1); /* the listed length is a mismatch for a walker */
    HAS(g_out, "\"solved\":0");
    assert_int_equal(RUN("scen", map, scen, "--classes", ".W"), 0);
    HAS(g_out, "\"solved\":1");
    assert_int_equal(RUN("scen", map, scen, "--classes", ".W", "--threads", "2", "--algo", "auto"), 0);
    HAS(g_out, "\"solved\":1");
    HAS(g_out, "\"by_jps\":1"); /* one multiplier: auto's jump points, through a batch */
    HAS(g_out, "\"detail_fallback\":0");
    assert_int_equal(RUN("scen", map, scen, "--classes", ".W", "--class-cost", "W=2", "--threads", "2", "--algo", "auto"), 0);
    HAS(g_out, "\"solved\":1");
    HAS(g_out, "\"detail_fallback\":1");
    assert_int_equal(RUN("scen", map, scen, "--class-cost", "W=3"), 2);
    const char *png = tmp("river.png");
    assert_int_equal(RUN("render", map, "0", "1", "6", "1", "--classes", ".W", "--class-cost", "W=1.5", "--json", "-o", png), 0);
    HAS(g_out, "\"status\":\"ok\"");
    assert_int_equal(RUN("render", map, "0", "1", "6", "1", "--classes", "Q", "-o", png), 2);
    const char *orders = write_tmp("river.orders", "orders 1\n0 7 0 1 6 1 normal\n");
    const char *csv = tmp("river.csv");
    assert_int_equal(RUN("replay", map, orders, "--csv", csv), 0);
    HAS(g_out, "\"completed\":1");
    char buf[512];
    slurp(csv, buf, sizeof buf);
    HAS(buf, "no_path");
    assert_int_equal(RUN("replay", map, orders, "--classes", ".W", "--class-cost", "W=2", "--csv", csv), 0);
    slurp(csv, buf, sizeof buf);
    HAS(buf, ",ok,9.000000,");
    assert_int_equal(RUN("replay", map, orders, "--classes", ".W", "--class-cost", "X=2"), 2);
}

static void test_gen(void **state)
{
    (void)state;
    const char *out = tmp("gen.map");
    assert_int_equal(RUN("gen", "--width", "40", "--height", "30", "--seed", "5", "-o", out), 0);
    pf_map *m;
    pf_diag d;
    assert_int_equal(pf_grid_load_movingai(out, NULL, &m, &d), PF_OK);
    assert_int_equal(pf_grid_width(m), 40);
    assert_int_equal(pf_grid_height(m), 30);
    pf_map_destroy(m);
    assert_int_equal(RUN("gen", "--width", "3", "-o", out), 2);
    HAS(g_err, "--width");
    assert_int_equal(RUN("gen", "--width", "40"), 2); /* no -o */
    assert_int_equal(RUN("gen", "-o", tmp("no/such/dir.map")), 1);
    HAS(g_err, "cannot write");
}

/* The CLI writes its outputs with the library's pf__out_open (one copy of that code, not two):
 * its own messages, a new file's mode from the umask (not the temporary file's 0600), a replaced
 * file's mode kept, a link followed and kept, and no temporary file left behind. */
static void test_out_files(void **state)
{
    (void)state;
    char want[512];
    const char *missing = tmp("no/such/dir.map");
    assert_int_equal(RUN("gen", "-o", missing), 1);
    snprintf(want, sizeof want, "cannot write '%s': No such file or directory", missing);
    HAS(g_err, want);
    assert_int_equal(RUN("gen", "-o", g_dir), 1);
    snprintf(want, sizeof want, "cannot write '%s': it is a directory", g_dir);
    HAS(g_err, want);
    const char *la = tmp("loop_a.map"), *lb = tmp("loop_b.map");
    assert_int_equal(symlink(lb, la), 0);
    assert_int_equal(symlink(la, lb), 0);
    assert_int_equal(RUN("gen", "-o", la), 1);
    snprintf(want, sizeof want, "cannot write '%s': a loop of symbolic links, or one too long to follow", la);
    HAS(g_err, want);
    /* a new file: 0666 less the umask, as fopen makes it */
    const char *fresh = tmp("fresh.map");
    mode_t old = umask(027);
    int rc = RUN("gen", "--width", "20", "--height", "20", "-o", fresh);
    umask(old);
    assert_int_equal(rc, 0);
    struct stat sb;
    assert_int_equal(stat(fresh, &sb), 0);
    assert_int_equal(sb.st_mode & 07777, 0640);
    /* replaced: its mode stays (a read-only one too) */
    assert_int_equal(chmod(fresh, 0444), 0);
    assert_int_equal(RUN("gen", "--width", "30", "--height", "20", "-o", fresh), 0);
    assert_int_equal(stat(fresh, &sb), 0);
    assert_int_equal(sb.st_mode & 07777, 0444);
    /* through a dangling link: the file it names is made, the link stays a link */
    const char *link = tmp("link.map");
    assert_int_equal(symlink("named.map", link), 0);
    assert_int_equal(RUN("gen", "--width", "20", "--height", "20", "-o", link), 0);
    assert_int_equal(lstat(link, &sb), 0);
    assert_true(S_ISLNK(sb.st_mode));
    assert_int_equal(stat(tmp("named.map"), &sb), 0);
    assert_true(S_ISREG(sb.st_mode) && sb.st_size > 0);
    /* /dev/null: written in place, never replaced */
    assert_int_equal(RUN("gen", "--width", "20", "--height", "20", "-o", "/dev/null"), 0);
    assert_int_equal(stat("/dev/null", &sb), 0);
    assert_true(S_ISCHR(sb.st_mode));
    char out[256];
    assert_int_equal(cli_run_shell("gen --width 20 --height 20 -o /dev/stdout", "gen.err", g_out, sizeof g_out), 0);
    HAS(g_out, "type octile");
    snprintf(out, sizeof out, "ls -a '%s' | grep -c '\\.tmp-' || true", g_dir);
    FILE *ls = popen(out, "r");
    assert_non_null(ls);
    int left = -1;
    assert_int_equal(fscanf(ls, "%d", &left), 1);
    pclose(ls);
    assert_int_equal(left, 0);
}

static void test_status_word(void **state)
{
    (void)state;
    /* every status has its word, the batch's too (cli/status_word.c: one table for the CLI's
     * commands, replay and the browser demo; the commands wrote "error" for the batch's) */
    assert_string_equal(cli_status_word(PF_OK), "ok");
    assert_string_equal(cli_status_word(PF_NO_PATH), "no_path");
    assert_string_equal(cli_status_word(PF_LIMIT_REACHED), "limit");
    assert_string_equal(cli_status_word(PF_INVALID_GOAL), "invalid");
    assert_string_equal(cli_status_word(PF_CANCELLED), "cancelled");
    assert_string_equal(cli_status_word(PF_SUPERSEDED), "superseded");
    assert_string_equal(cli_status_word(PF_IN_PROGRESS), "pending");
    assert_string_equal(cli_status_word(PF_IO_ERROR), "error");
}

static void test_render(void **state)
{
    (void)state;
    const char *map = write_tmp("r.map", MAP);
    const char *png = tmp("r.png");
    assert_int_equal(RUN("render", map, "0", "0", "5", "4", "--algo", "astar,dijkstra", "-o", png), 0);
    HAS(g_out, "wrote");
    struct stat sb;
    assert_int_equal(stat(png, &sb), 0);
    assert_true(sb.st_size > 100);
    assert_int_equal(RUN("render", map, "0", "0", "1", "1", "-o", png), 1);
    HAS(g_err, "blocked");
    /* waypoints: the smoothed A* path along the row and down (3 of them), Theta*'s own */
    assert_int_equal(RUN("render", map, "0", "0", "5", "2", "--algo", "astar,theta", "--smooth", "--json", "-o", png), 0);
    HAS(g_out, "\"algo\":\"astar\"");
    HAS(g_out, "\"path_len\":3,");
    HAS(g_out, "\"algo\":\"theta\"");
}

static void test_plot(void **state)
{
    (void)state;
    const char *csv = write_tmp("astar.csv", "id,bucket,sx,sy,gx,gy,status,cost,expanded,path_len,us\n"
                                             "0,0,1,1,5,5,ok,5.6,6,5,1.5\n"
                                             "1,0,1,1,9,5,ok,9.6,12,9,3.0\n"
                                             "2,0,1,1,1,2,no_path,-1,40,0,9.0\n");
    const char *js = write_tmp("bench.json", "{\"algo\":\"batch\",\"runs\":[{\"threads\":1,\"qps\":100},\n"
                                             "{\"threads\":2,\"qps\":190}],\"frame_ms\":[1.0,1.5,2.0]}\n"
                                             "{\"algo\":\"other\",\"threads\":4,\"us_per_query\":2.5}\n");
    const char *dir = tmp("plots");
    /* without gnuplot: data and scripts, a clear message, exit 0 */
    setenv("PF_GNUPLOT", "/nonexistent/gnuplot", 1);
    assert_int_equal(RUN("plot", csv, js, "--out", dir, "--json"), 0);
    unsetenv("PF_GNUPLOT");
    HAS(g_err, "gnuplot not found");
    HAS(g_out, "\"kind\":\"query_us\",\"png\":null,\"points\":2,"); /* the no_path row is skipped */
    HAS(g_out, "\"kind\":\"threads_qps\",\"png\":null,\"points\":3,");
    HAS(g_out, "\"kind\":\"frame_ms\",\"png\":null,\"points\":3,");
    char text[4096];
    FILE *f = fopen(tmp("plots/threads_qps.dat"), "r");
    assert_non_null(f);
    text[fread(text, 1, sizeof text - 1, f)] = '\0';
    fclose(f);
    HAS(text, "# series batch\n1 100\n2 190\n");
    HAS(text, "# series other\n4 400000\n"); /* 1e6 / 2.5 us */
    /* --out DIR/: the files it names are DIR/x, not DIR//x (a review) */
    char dir_slash[4096];
    snprintf(dir_slash, sizeof dir_slash, "%s/", dir);
    setenv("PF_GNUPLOT", "/nonexistent/gnuplot", 1);
    assert_int_equal(RUN("plot", csv, js, "--out", dir_slash), 0);
    unsetenv("PF_GNUPLOT");
    HAS(g_out, "plots/query_us.dat");
    HASNT(g_out, "//");
    HASNT(g_err, "//");
    /* with gnuplot (when installed): real PNGs */
    if (access("/usr/bin/gnuplot", X_OK) == 0) {
        setenv("PF_GNUPLOT", "/usr/bin/gnuplot", 1);
        assert_int_equal(RUN("plot", csv, js, "--out", dir), 0);
        unsetenv("PF_GNUPLOT");
        png_image im;
        memset(&im, 0, sizeof im);
        im.version = PNG_IMAGE_VERSION;
        assert_true(png_image_begin_read_from_file(&im, tmp("plots/query_us.png")));
        assert_int_equal(im.width, 800);
        assert_int_equal(im.height, 500);
        png_image_free(&im);
        /* a picture is written as every output (docs/cli.md, files written): the mode of the file
         * it replaces, through a link (a review: mkstemp's 0600, and a link replaced by a file) */
        struct stat sb;
        assert_int_equal(chmod(tmp("plots/query_us.png"), 0640), 0);
        assert_int_equal(unlink(tmp("plots/frame_ms.png")), 0);
        assert_int_equal(symlink("frames-elsewhere.png", tmp("plots/frame_ms.png")), 0);
        setenv("PF_GNUPLOT", "/usr/bin/gnuplot", 1);
        assert_int_equal(RUN("plot", csv, js, "--out", dir), 0);
        unsetenv("PF_GNUPLOT");
        assert_int_equal(stat(tmp("plots/query_us.png"), &sb), 0);
        assert_int_equal(sb.st_mode & 07777, 0640);
        assert_int_equal(lstat(tmp("plots/frame_ms.png"), &sb), 0);
        assert_true(S_ISLNK(sb.st_mode));
        assert_int_equal(stat(tmp("plots/frames-elsewhere.png"), &sb), 0);
        assert_true(S_ISREG(sb.st_mode) && sb.st_size > 0);
    } else {
        print_message("gnuplot not installed: only the skip path of `pathfind plot` was checked\n");
    }
    /* gnuplot failing: exit 1 and no half-printed JSON object (a review: `{"out":...,"plots":[`) */
    setenv("PF_GNUPLOT", "/bin/false", 1);
    assert_int_equal(RUN("plot", csv, js, "--out", dir, "--json"), 1);
    unsetenv("PF_GNUPLOT");
    HAS(g_err, "gnuplot failed");
    HASNT(g_out, "{");
    /* bad input names file, line and column */
    const char *bad = write_tmp("bad.json", "{\"algo\":\"a\",\n \"runs\": [1, 2,, 3]}\n");
    assert_int_equal(RUN("plot", bad, "--out", dir), 1);
    HAS(g_err, "bad.json:2:");
    const char *badcsv = write_tmp("bad.csv", "path_len,us\n3,1.0\n4,fast\n");
    assert_int_equal(RUN("plot", badcsv, "--out", dir), 1);
    HAS(g_err, "bad.csv:3: column us: 'fast' is not a number");
    const char *nothing = write_tmp("nothing.json", "{\"hello\":1}\n");
    assert_int_equal(RUN("plot", nothing, "--out", dir), 1);
    HAS(g_err, "no plottable data");
    assert_int_equal(RUN("plot", csv), 2); /* no --out */
    assert_int_equal(RUN("plot", tmp("missing.csv"), "--out", dir), 1);
    HAS(g_err, "missing.csv");
}

static void test_bench(void **state)
{
    (void)state;
    check_help("bench");
    const char *map = write_tmp("b.map", MAP);
    const char *sc = write_tmp("b.scen", "version 1\n"
                                         "0\tb.map\t6\t5\t0\t0\t5\t0\t5\n"
                                         "0\tb.map\t6\t5\t0\t0\t5\t2\t7\n"
                                         "0\tb.map\t6\t5\t0\t4\t5\t4\t5\n");
    const char *js = tmp("b.json");
    assert_int_equal(RUN("bench", map, sc, "--algo", "astar,jps,dijkstra", "--threads", "1,2", "--frames", "3", "-o", js), 0);
    char text[16384];
    FILE *f = fopen(js, "r");
    assert_non_null(f);
    text[fread(text, 1, sizeof text - 1, f)] = '\0';
    fclose(f);
    HAS(text, "{\"algo\":\"jps\",\"path_len\":8,\"cost\":7.000000,"); /* (0,0) -> (5,2): round the wall */
    HAS(text, "{\"algo\":\"dijkstra\",\"queries\":3,\"solved\":3,\"mismatches\":0,\"checked\":true,");
    HAS(text, "{\"algo\":\"astar\",\"threads\":2,");
    HAS(text, "{\"label\":\"2 threads\",\"frame_ms\":[");
    HAS(text, ",\"weight\":1},{\"algo\":\"jps\",\"queries\":3,"); /* each one's weight: 1 but for wastar */
    HAS(text, "\"frame_queries\":3,\"weight\":1}");
    /* wastar runs with the documented default weight, 1.5 (it ran with 2.0), and says so */
    assert_int_equal(RUN("bench", map, sc, "--algo", "wastar", "--threads", "1", "--frames", "1", "-o", js), 0);
    f = fopen(js, "r");
    assert_non_null(f);
    text[fread(text, 1, sizeof text - 1, f)] = '\0';
    fclose(f);
    HAS(text, "\"algo\":\"wastar\",\"queries\":3,");
    HAS(text, "\"weight\":1.5}");
    HAS(text, "{\"algo\":\"wastar\",\"threads\":1,");
    HAS(text, "\"frame_queries\":3,\"weight\":1.5}");
    HASNT(text, "\"weight\":2");
    /* what it writes, pathfind plot reads (gnuplot disabled: data files only) */
    setenv("PF_GNUPLOT", "/nonexistent/gnuplot", 1);
    assert_int_equal(RUN("bench", map, sc, "--threads", "0", "--plot", tmp("bplots")), 0);
    unsetenv("PF_GNUPLOT");
    HAS(g_err, "gnuplot not found");
    HAS(g_out, "data  ");
    assert_int_equal(access(tmp("bplots/bench.json"), R_OK), 0);
    assert_int_equal(access(tmp("bplots/query_us.dat"), R_OK), 0);
    /* a wrong listed length fails the run; bad options and files are named */
    const char *wrong = write_tmp("bw.scen", "version 1\n0\tb.map\t6\t5\t0\t0\t5\t0\t7\n");
    assert_int_equal(RUN("bench", map, wrong, "--threads", "0"), 1);
    HAS(g_err, "differ from the optimal lengths");
    assert_int_equal(RUN("bench", map, sc, "--algo", "astar,nope"), 2);
    HAS(g_err, "nope");
    assert_int_equal(RUN("bench", map, sc, "--threads", "1,x"), 2);
    /* one line says what is wrong (an item's own "bad value" line came first) */
    assert_int_equal(RUN("bench", map, sc, "--threads", "-1"), 2);
    HAS(g_err, "bad --threads list '-1'");
    assert_ptr_equal(strchr(g_err, '\n'), g_err + strlen(g_err) - 1);
    /* empty items: ",,," ran no batch and "1,,2" read as "1,2", exit 0 (a review) */
    assert_int_equal(RUN("bench", map, sc, "--threads", ",,,"), 2);
    assert_int_equal(RUN("bench", map, sc, "--threads", "1,,2"), 2);
    assert_int_equal(RUN("bench", map, sc, "--threads", "2,"), 2);
    assert_int_equal(RUN("bench", map), 2);
    assert_int_equal(RUN("bench", map, tmp("missing.scen")), 1);
    HAS(g_err, "missing.scen");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_top_level), cmocka_unit_test(test_demo), cmocka_unit_test(test_scen),
        cmocka_unit_test(test_graph),     cmocka_unit_test(test_path), cmocka_unit_test(test_classes), cmocka_unit_test(test_gen), cmocka_unit_test(test_out_files),
        cmocka_unit_test(test_status_word),
        cmocka_unit_test(test_render),    cmocka_unit_test(test_plot), cmocka_unit_test(test_bench),
    };
    return cmocka_run_group_tests(tests, tmpdir_setup, tmpdir_teardown);
}
