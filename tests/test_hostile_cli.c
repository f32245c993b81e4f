/* test_hostile_cli.c - hostile input through the `pathfind` binary (issue 14): each test names the
 * defect it guards, runs the real executable (tests/test_cli.c's way), and checks the exit code, the
 * message and that nothing was destroyed or run that should not have been.
 *
 * Runs that used to hang or grow without bound carry an alarm and an address-space limit, so on a
 * build with the defect they fail instead of stalling the suite. Nothing here writes to /dev/full
 * itself: outputs go to a link to it, so a build that removes its output removes only the link.
 */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "pathfind.h"
#include "cli.h"
#include "plot.h"
#include "run_cli.h"
#include "tmpdir.h"

static char g_out[1 << 16], g_err[1 << 16];

/* How a run is confined (run_cli.h); every run here goes in g_dir, with an alarm of 60 s where it
 * names none. */
typedef cli_confine confine;

static int run_in(const confine *c, const char *const *args)
{
    confine in = *c;
    in.cwd = g_dir;
    if (!in.alarm_s) in.alarm_s = 60;
    return cli_run(&in, args, g_out, sizeof g_out, g_err, sizeof g_err);
}

#define RUN(...) run_in(&(confine){0}, (const char *const[]){__VA_ARGS__, NULL})
#define RUN_IN(c, ...) run_in(&(c), (const char *const[]){__VA_ARGS__, NULL})

static int exists(const char *path)
{
    struct stat sb;
    return lstat(path, &sb) == 0;
}

static void no_raw_controls(const char *s)
{
    for (const char *p = s; *p; p++)
        if (((unsigned char)*p < 0x20 && *p != '\n') || *p == 0x7f) fail_msg("raw control byte 0x%02x in:\n%s", *p, s);
}

/* A link to /dev/full: a write to it fails for want of space; removing it removes only the link. */
static const char *full_link(const char *name)
{
    const char *p = tmp(name);
    unlink(p);
    assert_int_equal(symlink("/dev/full", p), 0);
    return p;
}

static const char MAP[] = "type octile\nheight 5\nwidth 6\nmap\n"
                          "......\n"
                          ".@@@@.\n"
                          "......\n"
                          ".WW...\n"
                          "......\n";
static const char SCEN[] = "version 1\n"
                           "0\ts.map\t6\t5\t0\t0\t5\t0\t5\n"
                           "0\ts.map\t6\t5\t0\t0\t5\t2\t7\n";
static const char GR[] = "p sp 3 3\na 1 2 5\na 2 3 5\na 1 3 20\n";

/* ---- 1. plot: every value read is untrusted ----------------------------------------------------- */

static void test_plot_values_untrusted(void **state)
{
    (void)state;
    setenv("PF_GNUPLOT", "/nonexistent/gnuplot", 1);
    static const char *const jsons[] = {
        "{\"algo\":\"a\",\"frame_ms\":[1,2,-5000,3]}\n",      /* the issue's: a negative bucket index */
        "{\"algo\":\"a\",\"frame_ms\":[1,2,1e999]}\n",        /* inf */
        "{\"algo\":\"a\",\"frame_us\":[-1]}\n",
        "{\"algo\":\"a\",\"path_len\":-3,\"us\":1}\n",
        "{\"algo\":\"a\",\"path_len\":3,\"us\":-1}\n",
        "{\"algo\":\"a\",\"threads\":0,\"qps\":10}\n",
        "{\"algo\":\"a\",\"threads\":2,\"qps\":-10}\n",
        "{\"algo\":\"a\",\"threads\":2,\"us_per_query\":0}\n",
        "{\"algo\":\"a\",\"frame_ms\":[-inf]}\n",             /* not JSON: strtod alone would take it */
    };
    for (size_t i = 0; i < sizeof jsons / sizeof jsons[0]; i++) {
        const char *f = write_tmp("bad.json", jsons[i]);
        int rc = RUN("plot", f, "--out", tmp("pl"));
        if (rc != 1) fail_msg("input %zu: exit %d, stderr:\n%s", i, rc, g_err);
        HAS(g_err, "bad.json:1:");
    }
    static const char *const csvs[] = {"frame_ms\n1\n-1e300\n", "path_len,us\n3,1\n4,-2\n", "path_len,us\n3,nan\n",
                                       "threads,qps\n0,5\n", "frame_ms\n1\ninf\n"};
    for (size_t i = 0; i < sizeof csvs / sizeof csvs[0]; i++) {
        const char *f = write_tmp("bad.csv", csvs[i]);
        int rc = RUN("plot", f, "--out", tmp("pl"));
        if (rc != 1) fail_msg("csv %zu: exit %d, stderr:\n%s", i, rc, g_err);
        HAS(g_err, "bad.csv:");
    }
    /* huge but valid values still plot (the histogram's index is clamped, not trusted) */
    const char *f = write_tmp("huge.json", "{\"algo\":\"a\",\"frame_ms\":[0,1e-300,1.7e308,4.9e-324]}\n");
    assert_int_equal(RUN("plot", f, "--out", tmp("pl")), 0);
    unsetenv("PF_GNUPLOT");
}

/* ---- 12. plot: 200,000 array items are not grown one at a time -------------------------------- */

static unsigned long g_reallocs;
void *__real_realloc(void *p, size_t n);
void *__wrap_realloc(void *p, size_t n)
{
    g_reallocs++;
    return __real_realloc(p, n);
}

static void test_plot_large_array(void **state)
{
    (void)state;
    const char *f = tmp("frames.json");
    FILE *fp = fopen(f, "w");
    assert_non_null(fp);
    fputs("{\"algo\":\"a\",\"frame_ms\":[", fp);
    for (int i = 0; i < 200000; i++) fprintf(fp, "%s%d", i ? "," : "", i % 50);
    fputs("]}\n", fp);
    fclose(fp);
    setenv("PF_GNUPLOT", "/nonexistent/gnuplot", 1);
    char *argv[] = {"plot", (char *)f, "--out", (char *)tmp("big"), NULL};
    int saved = dup(1), null = open("/dev/null", O_WRONLY);
    fflush(stdout);
    dup2(null, 1);
    g_reallocs = 0;
    int rc = pf_cli_plot(4, argv);
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    close(null);
    unsetenv("PF_GNUPLOT");
    assert_int_equal(rc, 0);
    /* doubling: 33 in all (the array, the points, the strings); one per item was 200,019 */
    if (g_reallocs > 1000) fail_msg("%lu reallocations for 200,000 items", g_reallocs);
}

/* ---- 7. plot --out: no user string reaches gnuplot's script text ------------------------------ */

static void test_plot_out_injection(void **state)
{
    (void)state;
    const char *f = write_tmp("f.json", "{\"algo\":\"it's\",\"frame_ms\":[1,2,3]}\n");
    /* a fake gnuplot that runs the script's shell escapes the way gnuplot does (!cmd) */
    const char *fake = write_tmp("fakeplot", "#!/bin/sh\nfor a; do last=$a; done\n"
                                             "grep '^!' \"$last\" 2>/dev/null | sed 's/^!//' | sh\nexit 0\n");
    chmod(fake, 0755);
    setenv("PF_GNUPLOT", access("/usr/bin/gnuplot", X_OK) == 0 ? "/usr/bin/gnuplot" : fake, 1);
    /* relative to the run's directory, so a build that splices it into the script makes DIR and
     * gnuplot runs the line */
    int rc = RUN("plot", f, "--out", "x\n!touch pwned\n");
    assert_int_equal(rc, 2);
    HAS(g_err, "control characters");
    no_raw_controls(g_err);
    assert_false(exists(tmp("pwned")));
    /* quotes are no longer a problem, since the scripts never name the directory */
    const char *quoted = tmp("it's plots");
    assert_int_equal(RUN("plot", f, "--out", quoted), 0);
    char gp[4096];
    char path[300];
    snprintf(path, sizeof path, "%s/frame_ms.gp", quoted);
    slurp(path, gp, sizeof gp);
    HASNT(gp, g_dir);
    HAS(gp, "dat = 'frame_ms.dat'");
    HASNT(gp, "it's"); /* the series name is sanitised too */
    unsetenv("PF_GNUPLOT");
}

/* ---- plot: a JSON input's values are counted (its tree takes about 100 bytes a value) -------- */

static void test_plot_json_values_bounded(void **state)
{
    (void)state;
    const char *f = tmp("many.json");
    FILE *fp = fopen(f, "w");
    assert_non_null(fp);
    fputs("{\"frame_ms\":[", fp);
    for (int i = 0; i < 4200000; i++) fputs(i ? ",0" : "0", fp);
    fputs("]}\n", fp);
    assert_int_equal(fclose(fp), 0);
    setenv("PF_GNUPLOT", "/nonexistent/gnuplot", 1);
    assert_int_not_equal(RUN("plot", f, "--out", tmp("manyout")), 0);
    HAS(g_err, "more than 4,194,304 values");
    unsetenv("PF_GNUPLOT");
}

/* ---- plot: a picture gnuplot cut short never replaces the previous one ---------------------- */

/* gnuplot 5.4 exits 0 when its write fails (a full disk): the file it leaves must be whole (the
 * PNG signature first, the IEND chunk last) before it goes over the old picture. */
static void test_plot_png_cut_short(void **state)
{
    (void)state;
    const char *f = write_tmp("cut.json", "{\"frame_ms\":[1,2,3,4]}\n");
    const char *cut = write_tmp("cutplot", "#!/bin/sh\nout=${2#out=\\'}; out=${out%\\'}\n"
                                           "printf '\\211PNG\\r\\n\\032\\nIHDR' > \"$out\"\nexit 0\n");
    const char *whole = write_tmp("wholeplot", "#!/bin/sh\nout=${2#out=\\'}; out=${out%\\'}\n"
                                               "printf '\\211PNG\\r\\n\\032\\n\\0\\0\\0\\0IEND\\256B`\\202' > \"$out\"\n"
                                               "exit 0\n");
    chmod(cut, 0755);
    chmod(whole, 0755);
    const char *dir = tmp("cutdir");
    mkdir(dir, 0755);
    char png[300], buf[64];
    snprintf(png, sizeof png, "%s/frame_ms.png", dir);
    FILE *o = fopen(png, "w");
    assert_non_null(o);
    fputs("OLDPNG", o);
    assert_int_equal(fclose(o), 0);
    setenv("PF_GNUPLOT", cut, 1);
    assert_int_not_equal(RUN("plot", f, "--out", dir), 0);
    HAS(g_err, "no whole PNG");
    slurp(png, buf, sizeof buf);
    assert_string_equal(buf, "OLDPNG");
    /* a whole one does replace it */
    setenv("PF_GNUPLOT", whole, 1);
    assert_int_equal(RUN("plot", f, "--out", dir), 0);
    struct stat sb;
    assert_int_equal(stat(png, &sb), 0);
    assert_int_equal(sb.st_size, 20);
    /* a target that is not a regular file is written in place, never read back: a FIFO's reader
     * waited on plot itself (it held the write end), and /dev/null read as no whole PNG */
    assert_int_equal(unlink(png), 0);
    assert_int_equal(symlink("/dev/null", png), 0);
    assert_int_equal(RUN("plot", f, "--out", dir), 0);
    unlink(png);
    unsetenv("PF_GNUPLOT");
}

/* ---- 8. demo: a map without ground ends with a message, not a hang ----------------------------- */

static void test_demo_no_ground(void **state)
{
    (void)state;
    const char *w = write_tmp("water.map", "type octile\nheight 3\nwidth 4\nmap\nWWWW\nW@@W\nTTTT\n");
    confine c = {.alarm_s = 20};
    assert_int_equal(RUN_IN(c, "demo", "--map", w, "--queries", "5"), 1);
    HAS(g_err, "no open ground cell");
    /* one ground cell among thousands of blocked ones: found, not waited for */
    char text[70000];
    int n = snprintf(text, sizeof text, "type octile\nheight 200\nwidth 200\nmap\n");
    for (int y = 0; y < 200; y++) {
        for (int x = 0; x < 200; x++) text[n++] = x == 100 && y == 100 ? '.' : '@';
        text[n++] = '\n';
    }
    text[n] = '\0';
    const char *one = write_tmp("one.map", text);
    assert_int_equal(RUN_IN(c, "demo", "--map", one, "--queries", "3"), 0);
    HAS(g_out, "3 solved");
}

/* ---- 9. unbounded input: /dev/zero is refused at once ------------------------------------------ */

static void test_dev_zero(void **state)
{
    (void)state;
    confine c = {.alarm_s = 20, .as_bytes = (size_t)2 << 30};
    const char *map = write_tmp("s.map", MAP);
    assert_int_equal(RUN_IN(c, "path", "/dev/zero", "0", "0", "1", "1"), 1);
    HAS(g_err, "NUL byte");
    assert_int_equal(RUN_IN(c, "scen", map, "/dev/zero"), 1);
    HAS(g_err, "NUL byte");
    assert_int_equal(RUN_IN(c, "graph", "/dev/zero", map), 1);
    HAS(g_err, "NUL byte");
    const char *gr = write_tmp("g.gr", GR);
    assert_int_equal(RUN_IN(c, "graph", gr, "/dev/zero"), 1);
    assert_int_equal(RUN_IN(c, "plot", "/dev/zero", "--out", tmp("z")), 1);
    /* and a plot input over its limit is refused by its size */
    const char *big = write_tmp("big.json", "[");
    assert_int_equal(truncate(big, (off_t)CLI_PLOT_MAX_INPUT_BYTES + 1), 0);
    assert_int_equal(RUN_IN(c, "plot", big, "--out", tmp("z")), 1);
    HAS(g_err, "the largest plot input the documented limits allow");
}

/* ---- 6. write failures are errors -------------------------------------------------------------- */

/* stderr says why a write failed in one line, and names a full disk as one */
#define ONCE_NO_SPACE(err)                                                                                     \
    do {                                                                                                       \
        HAS(err, "No space left on device");                                                                   \
        assert_ptr_equal(strchr(err, '\n'), err + strlen(err) - 1);                                            \
    } while (0)

static void test_write_failures(void **state)
{
    (void)state;
    const char *map = write_tmp("s.map", MAP), *sc = write_tmp("s.scen", SCEN);
    const char *gr = write_tmp("g.gr", GR), *pairs = write_tmp("pairs.txt", "1 3\n");
    assert_int_equal(RUN("scen", map, sc, "--csv", full_link("full1")), 1);
    HAS(g_err, "error writing");
    assert_true(exists(tmp("full1")));
    assert_int_equal(RUN("graph", gr, pairs, "--csv", full_link("full2")), 1);
    HAS(g_err, "error writing");
    HASNT(g_out, "\"queries\""); /* no summary of success before the failure (it was printed first) */
    assert_int_equal(RUN("gen", "--width", "40", "--height", "30", "-o", full_link("full3")), 1);
    assert_int_equal(RUN("render", map, "0", "0", "5", "4", "-o", full_link("full4")), 1);
    assert_int_equal(RUN("bench", map, sc, "--threads", "0", "-o", full_link("full5")), 1);
    assert_true(exists(tmp("full5")));
    /* a full disk is named as one: replay's CSV (flushed before it closes) and prep's file
     * (written in pieces larger than the stream's buffer) were "Input/output error" */
    const char *log = write_tmp("full.txt", "orders 1\n0 1 0 0 5 0 normal\n");
    assert_int_equal(RUN("replay", map, log, "--csv", full_link("full6")), 1);
    HAS(g_err, "No space left on device");
    assert_int_equal(RUN("gen", "--width", "300", "--height", "300", "-o", tmp("big.map")), 0);
    assert_int_equal(RUN("prep", tmp("big.map"), "-o", full_link("full7")), 1);
    HAS(g_err, "No space left on device");
    /* every output says its first failed write's cause, once: the cause was read from errno at
     * close, which a close before it had cleared (replay --frames-csv closed after --csv:
     * "Input/output error"); render added libpng's "Write Error" twice, table update --graph-out
     * its own line */
    assert_int_equal(RUN("replay", map, log, "--csv", tmp("ok.csv"), "--frames-csv", full_link("full8")), 1);
    ONCE_NO_SPACE(g_err);
    assert_int_equal(RUN("replay", map, log, "--frames-csv", tmp("ok.csv"), "--animate", full_link("full9")), 1);
    ONCE_NO_SPACE(g_err);
    assert_int_equal(RUN("render", map, "0", "0", "5", "4", "-o", full_link("full10")), 1);
    ONCE_NO_SPACE(g_err);
    assert_int_equal(RUN("table", "build", gr, "-o", tmp("g.pft")), 0);
    const char *ed = write_tmp("ed.txt", "set 1 2 7\n");
    assert_int_equal(RUN("table", "update", tmp("g.pft"), gr, ed, "-o", tmp("g2.pft"), "--graph-out", full_link("full11")), 1);
    ONCE_NO_SPACE(g_err);
    assert_int_equal(RUN("table", "update", tmp("g.pft"), gr, ed, "-o", full_link("full12")), 1);
    ONCE_NO_SPACE(g_err);
    assert_int_equal(RUN("bench", map, sc, "--threads", "0", "-o", full_link("full13")), 1);
    ONCE_NO_SPACE(g_err);
    /* stdout on a full device: the summary is lost, so the run fails */
    confine c = {.stdout_path = "/dev/full"};
    assert_int_equal(RUN_IN(c, "scen", map, sc), 1);
    HAS(g_err, "standard output");
    assert_int_equal(RUN_IN(c, "path", map, "0", "0", "5", "2", "--json"), 1);
    ONCE_NO_SPACE(g_err);
    assert_int_equal(RUN_IN(c, "graph", gr, pairs), 1);
    assert_int_equal(RUN_IN(c, "--help"), 1);
}

/* ---- 5. a failed write never removes or truncates the output ----------------------------------- */

static void test_outputs_never_destroyed(void **state)
{
    (void)state;
    const char *gr = write_tmp("g.gr", GR);
    /* an output that cannot be made is said before the build, as prep says it (table build built,
     * then said "cannot create a file beside it"; update edited, then failed alike) */
    assert_int_equal(RUN("table", "build", gr, "-o", tmp("missing/g.pft")), 1);
    HAS(g_err, "pathfind table build: cannot write");
    HASNT(g_out, "\"nodes\"");
    assert_int_equal(RUN("table", "build", gr, "-o", tmp("g0.pft")), 0);
    const char *ed = write_tmp("ed.txt", "set 1 2 7\n");
    assert_int_equal(RUN("table", "update", tmp("g0.pft"), gr, ed, "-o", tmp("missing/g1.pft")), 1);
    HAS(g_err, "pathfind table update: cannot write");
    assert_int_equal(RUN("table", "update", tmp("g0.pft"), gr, ed, "-o", tmp("g1.pft"), "--graph-out", tmp("missing/g1.gr")), 1);
    HAS(g_err, "pathfind table update: cannot write");
    assert_false(exists(tmp("g1.pft")));
    /* the case: -o /dev/full deleted the device node (here, a link to it) */
    const char *link = full_link("full.pft");
    assert_int_equal(RUN("table", "build", gr, "-o", link), 1);
    assert_true(exists(link));
    struct stat sb;
    assert_int_equal(stat("/dev/full", &sb), 0);
    assert_true(S_ISCHR(sb.st_mode));
    /* a disk that fills up halfway: the old file stays whole (a file-size limit stands in) */
    char text[20000];
    int n = snprintf(text, sizeof text, "p sp 100 100\n");
    for (int i = 1; i <= 100; i++) n += snprintf(text + n, sizeof text - (size_t)n, "a %d %d 1\n", i, i % 100 + 1);
    const char *ring = write_tmp("ring.gr", text);
    static const char *const outs[][2] = {{"table", "old.pft"}, {"gen", "old.map"}, {"scen", "old.csv"}};
    const char *map = write_tmp("s.map", MAP), *sc = write_tmp("s.scen", SCEN);
    char many[8192] = "version 1\n";
    for (int i = 0; i < 100; i++) strcat(many, "0\ts.map\t6\t5\t0\t0\t5\t2\t7\n");
    const char *msc = write_tmp("many.scen", many);
    (void)sc;
    for (size_t i = 0; i < sizeof outs / sizeof outs[0]; i++) {
        const char *old = write_tmp(outs[i][1], "the old contents\n");
        confine c = {.fsize_bytes = 2048};
        int rc = i == 0   ? RUN_IN(c, "table", "build", ring, "-o", old)
                 : i == 1 ? RUN_IN(c, "gen", "--width", "64", "--height", "64", "-o", old)
                          : RUN_IN(c, "scen", map, msc, "--csv", old);
        if (rc != 1) fail_msg("%s: exit %d\n%s", outs[i][0], rc, g_err);
        char back[64];
        slurp(old, back, sizeof back);
        assert_string_equal(back, "the old contents\n");
    }
    /* a link to a file: the file gets the output, the link stays a link */
    const char *real = write_tmp("real.map", "old\n"), *lnk = tmp("link.map");
    assert_int_equal(symlink(real, lnk), 0);
    assert_int_equal(RUN("gen", "--width", "16", "--height", "16", "-o", lnk), 0);
    assert_int_equal(lstat(lnk, &sb), 0);
    assert_true(S_ISLNK(sb.st_mode));
    char head[16];
    slurp(real, head, sizeof head);
    HAS(head, "type octile");
    /* no temporary file is left behind */
    char cmd[200];
    snprintf(cmd, sizeof cmd, "ls -a '%s' | grep -c tmp- > '%s/count'", g_dir, g_dir);
    assert_true(system(cmd) >= 0);
    char count[16];
    slurp(tmp("count"), count, sizeof count);
    assert_string_equal(count, "0\n");
}

/* ---- 10. numbers are range-checked, never wrapped ---------------------------------------------- */

static void test_numbers_not_wrapped(void **state)
{
    (void)state;
    const char *map = write_tmp("s.map", MAP), *gr = write_tmp("g.gr", GR);
    assert_int_equal(RUN("table", "build", map, "-o", tmp("m.pft")), 0);
    /* the issue's: 4294967296,0 was taken as 0,0 */
    assert_int_equal(RUN("table", "path", tmp("m.pft"), map, "4294967296,0", "5,0"), 2);
    HAS(g_err, "4294967296");
    assert_int_equal(RUN("table", "path", tmp("m.pft"), map, "0,0", "5,-4294967296"), 2);
    assert_int_equal(RUN("table", "path", tmp("m.pft"), map, " 0,0", "5,0"), 2);
    assert_int_equal(RUN("table", "path", tmp("m.pft"), map, "0,0", "5,0"), 0);
    /* PAIRS: strtoul took "-18446744073709551615" as 1 */
    const char *p = write_tmp("neg.txt", "-18446744073709551615 3\n");
    assert_int_equal(RUN("graph", gr, p), 1);
    HAS(g_err, "neg.txt:1");
    p = write_tmp("big.txt", "1 4294967299\n");
    assert_int_equal(RUN("graph", gr, p), 1);
    /* command-line numbers */
    assert_int_equal(RUN("scen", map, write_tmp("s.scen", SCEN), "--threads", "1025"), 2);
    assert_int_equal(RUN("path", map, "0", "0", "5", "0x2"), 2);
    assert_int_equal(RUN("demo", "--queries", " 5"), 2);
    assert_int_equal(RUN("scen", map, tmp("s.scen"), "--algo", "wastar", "--weight", "inf"), 2);
}

/* ---- 11. what the tool writes, it reads back ---------------------------------------------------- */

static void test_round_trip(void **state)
{
    (void)state;
    /* the issue's: weight INT64_MAX came back as 9223372036854775808, which the loader refused */
    const char *gr = write_tmp("w.gr", "p sp 3 2\na 1 2 9223372036854775807\na 2 3 1\n");
    const char *edits = write_tmp("e.txt", "set 2 3 4\n");
    int rc = RUN("table", "build", gr, "-o", tmp("w.pft"));
    if (rc == 0) {
        assert_int_equal(RUN("table", "update", tmp("w.pft"), gr, edits, "-o", tmp("w2.pft"), "--graph-out",
                             tmp("w2.gr")),
                         0);
        assert_int_equal(RUN("table", "path", tmp("w2.pft"), tmp("w2.gr"), "1", "3"), 0); /* reads back */
    } else {
        assert_int_equal(rc, 1);
        HAS(g_err, "PF_DIMACS_MAX_WEIGHT");
    }
    /* the largest weight allowed goes out and back exactly */
    gr = write_tmp("w53.gr", "p sp 3 2\na 1 2 9007199254740992\na 2 3 1\n");
    assert_int_equal(RUN("table", "build", gr, "-o", tmp("w53.pft")), 0);
    assert_int_equal(RUN("table", "update", tmp("w53.pft"), gr, edits, "-o", tmp("w53b.pft"), "--graph-out",
                         tmp("w53b.gr")),
                     0);
    char text[256];
    slurp(tmp("w53b.gr"), text, sizeof text);
    HAS(text, "a 1 2 9007199254740992\n");
    HAS(text, "a 2 3 4\n");
    assert_int_equal(RUN("table", "path", tmp("w53b.pft"), tmp("w53b.gr"), "1", "3"), 0);
    HAS(g_out, "cost: 9007199254740996.000000");
    /* an edit past the limit is refused, so the graph written can always be read */
    const char *big = write_tmp("big.txt", "set 2 3 9007199254740993\n");
    assert_int_equal(RUN("table", "update", tmp("w53.pft"), gr, big, "-o", tmp("x.pft"), "--graph-out", tmp("x.gr")), 1);
    assert_false(exists(tmp("x.gr")));
    /* bench JSON with awkward names is JSON that plot reads */
    const char *map = write_tmp("q\"uo\\te.map", MAP);
    const char *sc = write_tmp("s.scen", SCEN);
    setenv("PF_GNUPLOT", "/nonexistent/gnuplot", 1);
    assert_int_equal(RUN("bench", map, sc, "--threads", "0", "--plot", tmp("bp")), 0);
    unsetenv("PF_GNUPLOT");
    HAS(g_out, "query_us.dat");
    assert_int_equal(RUN("scen", map, sc), 0);
    HAS(g_out, "q\\\"uo\\\\te.map\",");
}

/* ---- 12. smaller ones ------------------------------------------------------------------------- */

static void test_messages_escaped(void **state)
{
    (void)state;
    const char *evil = write_tmp("evil.map", "type octile\n\x1b]0;owned\x07\x1b[2J\n");
    assert_int_equal(RUN("path", evil, "0", "0", "1", "1"), 1);
    no_raw_controls(g_err);
    HAS(g_err, "\\x1b]0;owned\\x07");
    /* arguments echoed in messages are escaped too */
    assert_int_equal(RUN("path", evil, "0", "0", "1", "1", "--algo", "\x1b[2Jastar"), 2);
    no_raw_controls(g_err);
    HAS(g_err, "\\x1b[2J");
    assert_int_equal(RUN("\x1b[31mscen"), 2);
    no_raw_controls(g_err);
    const char *pairs = write_tmp("pairs.txt", "1 \x1b[2J\n");
    assert_int_equal(RUN("graph", write_tmp("g.gr", GR), pairs), 1);
    no_raw_controls(g_err);
}

static void test_directory_inputs(void **state)
{
    (void)state;
    const char *gr = write_tmp("g.gr", GR);
    assert_int_equal(RUN("table", "build", gr, "-o", tmp("g.pft")), 0);
    assert_int_equal(RUN("graph", gr, g_dir), 1);
    HAS(g_err, "directory");
    assert_int_equal(RUN("table", "update", tmp("g.pft"), gr, g_dir, "-o", tmp("g2.pft")), 1);
    HAS(g_err, "directory");
    assert_int_equal(RUN("path", g_dir, "0", "0", "1", "1"), 1);
    HAS(g_err, "directory");
    assert_int_equal(RUN("plot", g_dir, "--out", tmp("pd")), 1);
    HAS(g_err, "directory");
}

static void test_long_lines(void **state)
{
    (void)state;
    const char *gr = write_tmp("g.gr", GR);
    /* a 300-byte line was read as two, so the line after it was numbered 3 */
    char text[8000];
    memset(text, ' ', 300);
    snprintf(text + 300, sizeof text - 300, "1 3\n1 x\n");
    assert_int_equal(RUN("graph", gr, write_tmp("long.txt", text)), 1);
    HAS(g_err, "long.txt:2:");
    /* past the documented line length: an error naming the line, not a silent split */
    memset(text, ' ', 5000);
    snprintf(text + 5000, sizeof text - 5000, "1 3\n");
    assert_int_equal(RUN("graph", gr, write_tmp("huge.txt", text)), 1);
    HAS(g_err, "huge.txt:1: line longer than");
    assert_int_equal(RUN("table", "build", gr, "-o", tmp("g.pft")), 0);
    memset(text, ' ', 600);
    snprintf(text + 600, sizeof text - 600, "set 1 2 3\n");
    assert_int_equal(RUN("table", "update", tmp("g.pft"), gr, write_tmp("e.txt", text), "-o", tmp("g2.pft")), 1);
    HAS(g_err, "e.txt:1: line longer than");
}

static void test_expected_costs_finite(void **state)
{
    (void)state;
    const char *map = write_tmp("s.map", MAP), *gr = write_tmp("g.gr", GR);
    static const char *const lens[] = {"nan", "1e999", "inf", "-5"};
    for (int i = 0; i < 4; i++) {
        char text[200];
        snprintf(text, sizeof text, "version 1\n0\ts.map\t6\t5\t0\t0\t5\t0\t%s\n", lens[i]);
        assert_int_equal(RUN("scen", map, write_tmp("n.scen", text)), 1);
        HAS(g_err, "n.scen:2:");
        snprintf(text, sizeof text, "1 3 %s\n", lens[i]);
        assert_int_equal(RUN("graph", gr, write_tmp("n.txt", text)), 1);
        HAS(g_err, "n.txt:1:");
    }
}

static void test_algo_and_weight(void **state)
{
    (void)state;
    const char *map = write_tmp("s.map", MAP), *sc = write_tmp("s.scen", SCEN), *gr = write_tmp("g.gr", GR);
    const char *pairs = write_tmp("p.txt", "1 3\n");
    assert_int_equal(RUN("scen", map, sc, "--algo", "astra"), 2);
    HAS(g_err, "unknown algorithm 'astra'");
    HAS(g_err, "astar, wastar, dijkstra, bfs, greedy, jps, jps+");
    assert_int_equal(RUN("render", map, "0", "0", "5", "4", "--algo", "astar,nope", "-o", tmp("r.png")), 2);
    HAS(g_err, "unknown algorithm 'nope'");
    /* --weight was silently ignored by algorithms that do not read it */
    assert_int_equal(RUN("scen", map, sc, "--weight", "2"), 2);
    HAS(g_err, "--weight applies to wastar");
    assert_int_equal(RUN("path", map, "0", "0", "5", "2", "--algo", "dijkstra", "--weight", "3"), 2);
    assert_int_equal(RUN("graph", gr, pairs, "--weight", "2"), 2);
    HAS(g_err, "--weight applies to wastar; astar ignores it (drop it or pick wastar)"); /* graph runs no JPS */
    HASNT(g_err, "jps");
    assert_int_equal(RUN("render", map, "0", "0", "5", "4", "--algo", "astar,bfs", "--weight", "2", "-o", tmp("r.png")),
                     2);
    assert_int_equal(RUN("scen", map, sc, "--algo", "wastar", "--weight", "2"), 0);
    assert_int_equal(RUN("render", map, "0", "0", "5", "4", "--algo", "astar,wastar", "--weight", "2", "-o", tmp("r.png")),
                     0);
}

static void test_long_paths_whole(void **state)
{
    (void)state;
    char path[1200];
    int n = snprintf(path, sizeof path, "%s/", g_dir);
    while (n < 1000) n += snprintf(path + n, sizeof path - (size_t)n, "%s", "a-rather-long-directory-name/");
    snprintf(path + n, sizeof path - (size_t)n, "missing.map");
    assert_int_equal(RUN("path", path, "0", "0", "1", "1"), 1);
    HAS(g_err, path);
    assert_int_equal(RUN("scen", path, "x.scen"), 1);
    HAS(g_err, path);
}

/* ---- round three (issue 24): the newer surfaces ----------------------------------------------- */

/* 1. Every text input the tool reads is bounded and refused at its first NUL byte: order logs and
 * edit lists grew without bound on /dev/zero (replay to 2 GB with getline; edit and scen --edits
 * slurped the stream whole). */
static void test_text_inputs_bounded(void **state)
{
    (void)state;
    confine c = {.alarm_s = 20, .as_bytes = (size_t)1 << 30};
    const char *map = write_tmp("s.map", MAP);
    const char *scen = write_tmp("s.scen", SCEN);
    assert_int_equal(RUN_IN(c, "replay", map, "/dev/zero"), 1);
    HAS(g_err, "/dev/zero:1: NUL byte");
    assert_int_equal(RUN_IN(c, "edit", map, "/dev/zero", "-o", tmp("o.map")), 1);
    HAS(g_err, "/dev/zero:1: NUL byte");
    assert_false(exists(tmp("o.map")));
    assert_int_equal(RUN_IN(c, "scen", map, scen, "--edits", "/dev/zero"), 1);
    HAS(g_err, "/dev/zero:1: NUL byte");
    /* past the documented size: refused by the size of a regular file, before a byte is read */
    const char *big = write_tmp("big.txt", "orders 1\n");
    assert_int_equal(truncate(big, (off_t)CLI_ORDERS_MAX_BYTES + 1), 0);
    assert_int_equal(RUN_IN(c, "replay", map, big), 1);
    HAS(g_err, "more than 268435456");
    assert_int_equal(truncate(big, (off_t)CLI_EDITS_MAX_BYTES + 1), 0);
    assert_int_equal(RUN_IN(c, "edit", map, big, "-o", tmp("o.map")), 1);
    HAS(g_err, "more than 67108864");
}

#define WRITE_BYTES(name, lit) write_tmp_bytes(name, lit, sizeof lit - 1)

/* 2. The shared line reader's NUL check was dead code: a NUL in a PAIRS line was "line longer than
 * 4094 bytes", on the last line the rest was dropped (exit 0), and in an edit list a valid token was
 * blamed. Each says "NUL byte" with its line. */
static void test_nul_byte_named(void **state)
{
    (void)state;
    const char *gr = write_tmp("g.gr", GR);
    const char *map = write_tmp("s.map", MAP);
    assert_int_equal(RUN("graph", gr, WRITE_BYTES("p.txt", "1 3\n2 \0 3\n1 2\n")), 1);
    HAS(g_err, "p.txt:2: NUL byte");
    assert_int_equal(RUN("graph", gr, WRITE_BYTES("p.txt", "1 3\n1 2\0 junk")), 1);
    HAS(g_err, "p.txt:2: NUL byte");
    assert_int_equal(RUN("edit", map, WRITE_BYTES("e.txt", "rect 0 0 1 1 .\nrect 1 1 1 1 @\0@\n"), "-o", tmp("o.map")), 1);
    HAS(g_err, "e.txt:2: NUL byte");
    HASNT(g_err, "terrain");
    assert_int_equal(RUN("table", "build", gr, "-o", tmp("g.pft")), 0);
    assert_int_equal(RUN("table", "update", tmp("g.pft"), gr, WRITE_BYTES("t.txt", "set 1 2 3\0\n"), "-o", tmp("g2.pft")), 1);
    HAS(g_err, "t.txt:1: NUL byte");
    assert_int_equal(RUN("replay", map, WRITE_BYTES("o.txt", "orders 1\n0 1 0 0 5 0 urgent\0\n")), 1);
    HAS(g_err, "o.txt:2: NUL byte");
    setenv("PF_GNUPLOT", "/nonexistent/gnuplot", 1);
    assert_int_equal(RUN("plot", WRITE_BYTES("f.csv", "path_len,us\n3,1\n4,\0 2\n"), "--out", tmp("pl")), 1);
    HAS(g_err, "f.csv:3: NUL byte");
    assert_int_equal(RUN("plot", WRITE_BYTES("f.json", "{\"algo\":\"a\",\n\"frame_ms\":[1,\0]}"), "--out", tmp("pl")), 1);
    HAS(g_err, "f.json:2: NUL byte");
    unsetenv("PF_GNUPLOT");
}

/* 3. Replay frames near 2^32 wrapped: arrived < submitted and a negative lag, exit 0. */
static void test_replay_frames_never_wrap(void **state)
{
    (void)state;
    const char *map = write_tmp("s.map", MAP);
    const char *log = write_tmp("o.txt", "orders 1\n4294967294 7 0 0 5 4 normal\n");
    assert_int_equal(RUN("replay", map, log, "--budget-exp", "3", "--csv", tmp("o.csv")), 0);
    HASNT(g_out, "\"normal_lag_p99\":-");
    char csv[4096];
    slurp(tmp("o.csv"), csv, sizeof csv);
    unsigned long long sub = 0, arr = 0;
    const char *row = strchr(csv, '\n');
    assert_non_null(row);
    assert_int_equal(sscanf(row + 1, "0,7,%llu,%llu,ok,", &sub, &arr), 2);
    assert_int_equal(sub, 4294967294ull);
    assert_true(arr > sub); /* three expansions a frame cannot cross the map in one */
}

/* 4. Budgets are integers in range: 0.5 truncated to 0 meant "unlimited"; 1e30 was converted out of
 * range (undefined behaviour) and echoed. */
static void test_replay_budgets_integers(void **state)
{
    (void)state;
    const char *map = write_tmp("s.map", MAP);
    const char *log = write_tmp("o.txt", "orders 1\n0 7 0 0 5 4 normal\n");
    static const char *const bad[][2] = {{"--budget-exp", "0.5"}, {"--budget-us", "0.4"}, {"--budget-exp", "1e30"},
                                         {"--budget-us", "1e30"}, {"--budget-exp", "-1"}, {"--budget-exp", "nan"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int rc = RUN("replay", map, log, bad[i][0], bad[i][1]);
        if (rc != 2) fail_msg("%s %s: exit %d, stderr:\n%s", bad[i][0], bad[i][1], rc, g_err);
        HAS(g_err, bad[i][0]);
    }
    assert_int_equal(RUN("replay", map, log, "--budget-exp", "1000000000000"), 0);
    HAS(g_out, "\"budget_exp\":1000000000000");
}

/* 4b. Past the batch's query limit in one frame the message said "input exceeds a documented size
 * limit" without naming it: it names PF_BATCH_MAX_QUERIES and its value, at the line that passed it
 * (1,048,576 one-cell orders in frame 0: 25 MB of log, about 600 MB of memory, a second or two). */
static void test_replay_query_limit_named(void **state)
{
    (void)state;
    const char *map = write_tmp("s.map", MAP);
    const char *log = tmp("many.txt");
    FILE *f = fopen(log, "w");
    assert_non_null(f);
    int ok = fputs("orders 1\n", f) >= 0;
    for (uint32_t u = 0; ok && u <= PF_BATCH_MAX_QUERIES; u++) ok = fprintf(f, "0 %u 0 0 0 0 urgent\n", u) > 0;
    assert_true(ok);
    assert_int_equal(fclose(f), 0);
    confine c = {.alarm_s = 120, .as_bytes = (size_t)3 << 30};
    assert_int_equal(RUN_IN(c, "replay", map, log), 1);
    char want[160];
    snprintf(want, sizeof want, "many.txt:%u: more than %u queries in one frame's batch (PF_BATCH_MAX_QUERIES",
             (unsigned)PF_BATCH_MAX_QUERIES + 2u, (unsigned)PF_BATCH_MAX_QUERIES);
    HAS(g_err, want);
    unlink(log);
}

/* A scenario file of more lines than one batch holds (PF_BATCH_MAX_QUERIES): `scen --threads 2`
 * failed with "queueing query 1048575: input exceeds a documented size limit" where the serial run
 * passed; it runs in chunks now, its CSV the serial one's byte for byte. `bench` said "out of
 * memory" after timing every query one by one; it names the limit before. */
static void test_batch_limit_chunked(void **state)
{
    (void)state;
    const char *map = write_tmp("four.map", "type octile\nheight 3\nwidth 4\nmap\n....\n....\n....\n");
    const uint32_t lines = PF_BATCH_MAX_QUERIES + 25u; /* 1,048,600 */
    const char *scen = tmp("big.scen");
    FILE *f = fopen(scen, "w");
    assert_non_null(f);
    int ok = fputs("version 1\n", f) >= 0;
    for (uint32_t u = 0; ok && u < lines; u++)
        ok = fprintf(f, u % 2 ? "0\tfour.map\t4\t3\t1\t0\t3\t2\t2.82842712\n" : "0\tfour.map\t4\t3\t0\t0\t3\t2\t3.82842712\n") > 0;
    assert_true(ok);
    assert_int_equal(fclose(f), 0);
    confine c = {.alarm_s = 240, .as_bytes = (size_t)4 << 30};
    assert_int_equal(RUN_IN(c, "scen", map, scen, "--csv", tmp("serial.csv")), 0);
    char want[64];
    snprintf(want, sizeof want, "\"queries\":%u,\"solved\":%u,", lines, lines);
    HAS(g_out, want);
    assert_int_equal(RUN_IN(c, "scen", map, scen, "--csv", tmp("batch.csv"), "--threads", "2"), 0);
    HAS(g_out, want);
    HAS(g_out, "\"mismatches\":0");
    /* the same rows, in the same order, byte for byte */
    FILE *a = fopen(tmp("serial.csv"), "rb"), *b = fopen(tmp("batch.csv"), "rb");
    assert_non_null(a);
    assert_non_null(b);
    static char ba[1 << 16], bb[1 << 16];
    size_t na, nb, total = 0;
    do {
        na = fread(ba, 1, sizeof ba, a);
        nb = fread(bb, 1, sizeof bb, b);
        assert_int_equal(na, nb);
        assert_memory_equal(ba, bb, na);
        total += na;
    } while (na);
    fclose(a);
    fclose(b);
    assert_true(total > (size_t)lines * 20);
    unlink(tmp("serial.csv"));
    unlink(tmp("batch.csv"));
    /* bench: one frame is one batch, so the limit is named, before any timing */
    assert_int_equal(RUN_IN(c, "bench", map, scen, "--threads", "1", "--frames", "1", "-o", tmp("bb.json")), 1);
    HASNT(g_err, "out of memory");
    HAS(g_err, "PF_BATCH_MAX_QUERIES");
    HAS(g_err, "--queries");
    unlink(scen);
}

/* 5. replay --prep FILE was documented and refused; --algo auto never used an accelerator. Orders
 * answered with an error are counted as failed, not completed. */
static void test_replay_prep(void **state)
{
    (void)state;
    const char *map = write_tmp("s.map", MAP);
    const char *log = write_tmp("o.txt", "orders 1\n0 7 0 0 5 4 normal\n1 8 0 2 5 0 urgent\n");
    assert_int_equal(RUN("prep", map, "-o", tmp("s.pfa")), 0);
    assert_int_equal(RUN("replay", map, log, "--algo", "auto", "--prep", tmp("s.pfa")), 0);
    HAS(g_out, "\"completed\":2,\"failed\":0");
    HAS(g_out, "\"accel\":1");
    assert_int_equal(RUN("replay", map, log, "--algo", "auto"), 0); /* built before frame 0 */
    HAS(g_out, "\"accel\":1");
    assert_int_equal(RUN("replay", map, log, "--prep", tmp("s.pfa")), 2); /* read by auto only */
    HAS(g_err, "--prep");
    /* an order from a wall is answered "invalid": failed, not completed */
    assert_int_equal(RUN("replay", map, write_tmp("w.txt", "orders 1\n0 7 1 1 5 4 normal\n")), 0);
    HAS(g_out, "\"completed\":0,\"failed\":1");
}

/* A review of the docs against the tool: `scen --algo theta` counted every any-angle path shorter
 * than the grid's optimum as a mismatch (exit 1); `graph --algo theta` was accepted and answered
 * every pair "invalid" (exit 0); `scen`/`path --prep` and `scen --accel-edits` without `--algo auto`
 * were exit 1 or silently accepted where replay says a usage error (2); replay wrote its CSVs only
 * after the whole run (an output that could not be written threw the run away, and with --csv
 * written and --frames-csv failing, the CSV was replaced and the exit was 1); prep built the
 * accelerator before it tried -o. */
static void test_docs_review(void **state)
{
    (void)state;
    const char *map = write_tmp("s.map", MAP), *scen = write_tmp("s.scen", SCEN);
    /* an open map: the straight line from (0,0) to (5,2), 5.385, against the grid's 5.828 */
    const char *open = write_tmp("open.map", "type octile\nheight 3\nwidth 6\nmap\n......\n......\n......\n");
    assert_int_equal(RUN("scen", open, write_tmp("open.scen", "version 1\n0\topen.map\t6\t3\t0\t0\t5\t2\t5.82842712\n"),
                         "--algo", "theta"),
                     0);
    HAS(g_out, "\"mismatches\":0");
    const char *gr = write_tmp("t.gr", "p sp 2 1\na 1 2 5\n");
    assert_int_equal(RUN("graph", gr, write_tmp("t.pairs", "1 2\n"), "--algo", "theta"), 2);
    HAS(g_err, "grids only");
    assert_int_equal(RUN("prep", map, "-o", tmp("s.pfa")), 0);
    assert_int_equal(RUN("scen", map, scen, "--prep", tmp("s.pfa")), 2);
    HAS(g_err, "--prep");
    assert_int_equal(RUN("scen", map, scen, "--accel-edits", "stale"), 2);
    HAS(g_err, "--accel-edits");
    assert_int_equal(RUN("path", map, "0", "0", "5", "0", "--prep", tmp("s.pfa")), 2);
    HAS(g_err, "--prep");
    assert_int_equal(RUN("prep", map, "-o", tmp("missing/s.pfa")), 1);
    HAS(g_err, "cannot write");
    assert_true(strstr(g_out, "prep_s") == NULL); /* nothing built */
    /* replay: a second output that cannot be written leaves the first as it was */
    const char *log = write_tmp("o.txt", "orders 1\n0 7 0 0 5 4 normal\n");
    const char *keep = write_tmp("keep.csv", "OLD\n");
    assert_int_equal(RUN("replay", map, log, "--csv", keep, "--frames-csv", tmp("missing/f.csv")), 1);
    HAS(g_err, "cannot write");
    assert_true(strstr(g_out, "\"frames\"") == NULL); /* said before the run, not after it */
    char back[64];
    slurp(keep, back, sizeof back);
    assert_string_equal(back, "OLD\n");
    assert_int_equal(RUN("replay", map, log, "--csv", keep, "--frames-csv", tmp("f.csv")), 0);
    slurp(keep, back, sizeof back);
    assert_true(strncmp(back, "order,tag", 9) == 0);
}

/* 6. Smoothing, Theta* and sizes on hex maps: path --smooth printed an empty waypoint list (exit 0),
 * render drew the unsmoothed path, scen and replay answered every query "error" (exit 0). Refused
 * up front as usage errors. */
static void test_hex_combinations_refused(void **state)
{
    (void)state;
    const char *map = write_tmp("s.map", MAP);
    const char *scen = write_tmp("s.scen", SCEN);
    const char *log = write_tmp("o.txt", "orders 1\n0 7 0 0 5 4 normal\n");
    assert_int_equal(RUN("path", map, "0", "0", "5", "4", "--smooth", "--moves", "hex", "--json"), 2);
    HAS(g_err, "--smooth needs a square grid");
    assert_int_equal(RUN("path", map, "0", "0", "5", "4", "--algo", "theta", "--moves", "hex"), 2);
    unlink(tmp("r.png"));
    assert_int_equal(RUN("render", map, "0", "0", "5", "4", "--smooth", "--moves", "hex", "-o", tmp("r.png")), 2);
    assert_false(exists(tmp("r.png")));
    assert_int_equal(RUN("scen", map, scen, "--moves", "hex", "--algo", "theta"), 2);
    assert_int_equal(RUN("replay", map, log, "--moves", "hex", "--algo", "theta"), 2);
    HAS(g_err, "--algo theta needs a square grid");
    assert_int_equal(RUN("scen", map, scen, "--moves", "hex", "--size", "2"), 2);
    HAS(g_err, "--size needs a square grid");
    assert_int_equal(RUN("path", map, "0", "0", "5", "4", "--moves", "hex"), 0); /* hex itself is fine */
}

/* 8. replay --slots 64 with one order made 64 spare contexts up front (409 MB on the bundled map),
 * and --slots 1024 on a large map failed with "allocation failed" after gigabytes. Spares are made
 * when a search is suspended, and slots x context is bounded with a message naming --slots. */
static long peak_rss_of_output(void)
{
    const char *p = strstr(g_out, "\"peak_rss_kb\":");
    return p ? strtol(p + 14, NULL, 10) : -1;
}

static void test_replay_slots(void **state)
{
    (void)state;
    char demo[600];
    snprintf(demo, sizeof demo, "%s/maps/demo-512.map", PF_SOURCE_DIR);
    const char *log = write_tmp("o.txt", "orders 1\n0 7 10 10 400 400 normal\n");
    assert_int_equal(RUN("replay", demo, log, "--slots", "1"), 0);
    long one = peak_rss_of_output();
    assert_int_equal(RUN("replay", demo, log, "--slots", "64"), 0);
    long many = peak_rss_of_output();
    assert_true(one > 0 && many > 0);
    /* 63 more spares of about 4.2 MB each would add 260 MB; made lazily they add nothing */
    if (many - one > 32 * 1024) fail_msg("--slots 64 peaked %ld KB above --slots 1 (%ld KB)", many - one, one);
    /* a 1100x1000 map: 1024 contexts of 17.7 MB pass the 16 GiB bound, refused before any is made */
    FILE *f = fopen(tmp("big.map"), "w");
    assert_non_null(f);
    fprintf(f, "type octile\nheight 1000\nwidth 1100\nmap\n");
    for (int y = 0; y < 1000; y++) {
        for (int x = 0; x < 1100; x++) fputc('.', f);
        fputc('\n', f);
    }
    assert_int_equal(fclose(f), 0);
    confine c = {.alarm_s = 60, .as_bytes = (size_t)4 << 30};
    /* a number out of its range, as 0 or 2000 are: exit 2 with the bound for this map (it was
     * exit 1, saying only "exceed"); --workers alike, and neither makes the output */
    static const char *const opts[] = {"--slots", "--workers"};
    for (int k = 0; k < 2; k++) {
        assert_int_equal(RUN_IN(c, "replay", tmp("big.map"), log, opts[k], "1024", "--csv", tmp("never.csv")), 2);
        char want[64];
        snprintf(want, sizeof want, "bad value '1024' for %s (expected an integer in 1..", opts[k]);
        const char *at = strstr(g_err, want);
        if (!at) fail_msg("no '%s' in:\n%s", want, g_err);
        HAS(g_err, k == 0 ? "PF_BATCH_MAX_SPARE_BYTES" : "PF_BATCH_MAX_WORKER_BYTES");
        assert_false(exists(tmp("never.csv")));
        long most = strtol(at + strlen(want), NULL, 10);
        assert_true(most > 1 && most < 1024);
        /* the bound is the bound: one more is refused, it is taken (for --slots: 900 workers would
         * each make their context, while spares are made as searches are suspended) */
        char arg[32];
        snprintf(arg, sizeof arg, "%ld", most + 1);
        assert_int_equal(RUN_IN(c, "replay", tmp("big.map"), log, opts[k], arg), 2);
        if (k == 0) {
            snprintf(arg, sizeof arg, "%ld", most);
            assert_int_equal(RUN_IN(c, "replay", tmp("big.map"), log, opts[k], arg), 0);
        }
    }
}

/* 9 (the tool's side). Writing through a dangling link replaced the link with a regular file: the
 * file it names is made, the link stays. */
static void test_dangling_link_followed(void **state)
{
    (void)state;
    const char *map = write_tmp("s.map", MAP);
    const char *link = tmp("dl.map");
    unlink(link);
    unlink(tmp("made.map"));
    assert_int_equal(symlink("made.map", link), 0);
    assert_int_equal(RUN("edit", map, write_tmp("e.txt", "rect 0 0 1 1 @\n"), "-o", link), 0);
    struct stat sb;
    assert_int_equal(lstat(link, &sb), 0);
    assert_true(S_ISLNK(sb.st_mode));
    assert_int_equal(stat(tmp("made.map"), &sb), 0);
    assert_true(sb.st_size > 0);
}

/* 10. A directory given as a baked file said "truncated: 0 bytes". */
static void test_prep_directory(void **state)
{
    (void)state;
    const char *map = write_tmp("s.map", MAP);
    assert_int_equal(RUN("path", map, "0", "0", "5", "4", "--algo", "auto", "--prep", g_dir), 1);
    HAS(g_err, "is a directory");
    HASNT(g_err, "truncated");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plot_values_untrusted), cmocka_unit_test(test_plot_large_array),
        cmocka_unit_test(test_plot_out_injection),    cmocka_unit_test(test_plot_png_cut_short),
        cmocka_unit_test(test_plot_json_values_bounded),
        cmocka_unit_test(test_demo_no_ground),
        cmocka_unit_test(test_dev_zero),              cmocka_unit_test(test_write_failures),
        cmocka_unit_test(test_outputs_never_destroyed), cmocka_unit_test(test_numbers_not_wrapped),
        cmocka_unit_test(test_round_trip),            cmocka_unit_test(test_messages_escaped),
        cmocka_unit_test(test_directory_inputs),      cmocka_unit_test(test_long_lines),
        cmocka_unit_test(test_expected_costs_finite), cmocka_unit_test(test_algo_and_weight),
        cmocka_unit_test(test_long_paths_whole),
        cmocka_unit_test(test_text_inputs_bounded),   cmocka_unit_test(test_nul_byte_named),
        cmocka_unit_test(test_replay_frames_never_wrap), cmocka_unit_test(test_replay_budgets_integers),
        cmocka_unit_test(test_replay_query_limit_named),
        cmocka_unit_test(test_batch_limit_chunked),
        cmocka_unit_test(test_replay_prep),           cmocka_unit_test(test_hex_combinations_refused),
        cmocka_unit_test(test_prep_directory),        cmocka_unit_test(test_dangling_link_followed),
        cmocka_unit_test(test_replay_slots),           cmocka_unit_test(test_docs_review),
    };
    return cmocka_run_group_tests(tests, tmpdir_setup, tmpdir_teardown);
}
