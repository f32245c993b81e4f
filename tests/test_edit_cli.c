/* test_edit_cli.c - `pathfind edit` and `pathfind scen --edits` end to end: the map written by
 * `edit` answers a scenario exactly as the map edited in memory does (same CSV, byte for byte) for
 * A*, JPS and JPS+; errors name the line and leave an existing output file alone. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp, popen */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>
#include "run_cli.h"
#include "tmpdir.h"
#include "testutil.h"

/* Runs the CLI with `args` (in g_dir); returns the exit code, stdout in out, stderr in err.txt. */
static int run(const char *args, char *out, size_t cap) { return cli_run_shell(args, "err.txt", out, cap); }

static const char SMALL[] = "type octile\nheight 4\nwidth 6\nmap\n......\n.@@...\n..TTWW\nGS..OO\n";

static void test_edit_small(void **state)
{
    (void)state;
    char out[4096];
    write_tmp("m.map", SMALL);
    write_tmp("e.txt", "# a house and a pond\nrect 0 0 2 1 @\n\n  rect 4 0 2 2 W\r\nrect 1 1 2 1 .\n");
    assert_int_equal(run("edit m.map e.txt -o o.map", out, sizeof out), 0);
    assert_non_null(strstr(out, "\"edits\":3"));
    size_t n;
    char *o = slurp_alloc(tmp("o.map"), &n);
    assert_non_null(o);
    /* untouched cells keep their characters ('G', 'S', 'O'), edited ones get the edit's */
    assert_string_equal(o, "type octile\nheight 4\nwidth 6\nmap\n@@..WW\n....WW\n..TTWW\nGS..OO\n");
    free(o);
}

/* A map given as a pipe or a FIFO is read once: `edit` and `render` read it a second time for its
 * characters, and that second open of a FIFO waited for a writer forever (a review). A writer fills
 * the FIFO once; the alarm turns a hang into a failure. */
static void test_map_from_a_fifo(void **state)
{
    (void)state;
    write_tmp("m.map", SMALL);
    write_tmp("e.txt", "rect 0 0 2 1 @\n");
    static const char *const cmds[2][8] = {{"edit", "fm", "e.txt", "-o", "of.map", NULL},
                                           {"render", "fm", "0", "0", "5", "0", "-o", NULL}};
    for (int k = 0; k < 2; k++) {
        unlink(tmp("fm"));
        assert_int_equal(mkfifo(tmp("fm"), 0600), 0);
        char cmd[256];
        snprintf(cmd, sizeof cmd, "cd '%s' && (cat m.map > fm &)", g_dir);
        assert_int_equal(system(cmd), 0);
        const char *args[10];
        int n = 0;
        for (; cmds[k][n]; n++) args[n] = cmds[k][n];
        if (k == 1) args[n++] = "of.png";
        args[n] = NULL;
        char out[4096], err[4096];
        cli_confine c = {.cwd = g_dir, .alarm_s = 30};
        int rc = cli_run(&c, args, out, sizeof out, err, sizeof err);
        if (rc != 0) fail_msg("%s from a FIFO: exit %d\n%s", args[0], rc, err);
    }
    size_t n;
    char *o = slurp_alloc(tmp("of.map"), &n);
    assert_non_null(o);
    assert_string_equal(o, "type octile\nheight 4\nwidth 6\nmap\n@@....\n.@@...\n..TTWW\nGS..OO\n");
    free(o);
    assert_int_equal(access(tmp("of.png"), F_OK), 0);
}

static void test_edit_errors(void **state)
{
    (void)state;
    char out[4096];
    size_t n;
    write_tmp("m.map", SMALL);
    write_tmp("keep.map", "precious");
    /* partly outside, on line 3: named, and the existing output untouched */
    write_tmp("e.txt", "rect 0 0 1 1 @\n\nrect 5 3 2 1 @\n");
    assert_int_equal(run("edit m.map e.txt -o keep.map", out, sizeof out), 1);
    char *err = slurp_alloc(tmp("err.txt"), &n);
    assert_non_null(strstr(err, "e.txt:3"));
    assert_non_null(strstr(err, "outside"));
    free(err);
    char *k = slurp_alloc(tmp("keep.map"), &n);
    assert_string_equal(k, "precious");
    free(k);
    write_tmp("e.txt", "rect 0 0 1 1 X\n");
    assert_int_equal(run("edit m.map e.txt -o o2.map", out, sizeof out), 1);
    err = slurp_alloc(tmp("err.txt"), &n);
    assert_non_null(strstr(err, "e.txt:1"));
    free(err);
    assert_null(slurp_alloc(tmp("o2.map"), &n));
    write_tmp("e.txt", "frob 1 2\n");
    assert_int_equal(run("edit m.map e.txt -o o2.map", out, sizeof out), 1);
    assert_int_equal(run("edit m.map missing.txt -o o2.map", out, sizeof out), 1);
    assert_int_equal(run("edit m.map e.txt", out, sizeof out), 2); /* no -o */
    assert_int_equal(run("edit --help", out, sizeof out), 0);
    assert_non_null(strstr(out, "rect X Y W H C"));
    /* an output that cannot be written */
    write_tmp("e.txt", "rect 0 0 1 1 @\n");
    assert_int_equal(run("edit m.map e.txt -o no/such/dir/o.map", out, sizeof out), 1);
    /* scen --edits reports the same errors */
    write_tmp("s.scen", "version 1\n0\tm.map\t6\t4\t0\t0\t3\t0\t3\n");
    write_tmp("e.txt", "rect 9 9 1 1 @\n");
    assert_int_equal(run("scen m.map s.scen --edits e.txt", out, sizeof out), 1);
    err = slurp_alloc(tmp("err.txt"), &n);
    assert_non_null(strstr(err, "e.txt:1"));
    free(err);
}

/* A scenario sampled from a Moving AI file, and random edits of every terrain (some on the
 * queries' endpoints, so some become invalid or unreachable). */
static void test_scen_equivalence(void **state)
{
    (void)state;
    const char *map = PF_SHARED_DATA "/movingai/den520d.map";
    const char *scen = PF_SHARED_DATA "/movingai/den520d.map.scen";
    SKIP_IF_ABSENT(map);
    SKIP_IF_ABSENT(scen);
    FILE *f = fopen(scen, "r"); /* what exists must load: a file that does not open fails */
    if (!f) fail_msg("%s: cannot open", scen);
    if (access(map, R_OK) != 0) fail_msg("%s: cannot read", map);
    char p[256];
    snprintf(p, sizeof p, "%s/s.scen", g_dir);
    FILE *o = fopen(p, "w");
    assert_non_null(o);
    char line[512];
    uint32_t k = 0, sx[64], sy[64], ns = 0;
    fputs("version 1\n", o);
    while (fgets(line, sizeof line, f)) {
        if (k++ == 0) continue;
        if (k % 40) continue;
        fputs(line, o);
        unsigned b, w, h, x0, y0;
        if (ns < 64 && sscanf(line, "%u %*s %u %u %u %u", &b, &w, &h, &x0, &y0) == 5) {
            sx[ns] = x0;
            sy[ns++] = y0;
        }
    }
    fclose(f);
    assert_int_equal(fclose(o), 0);
    snprintf(p, sizeof p, "%s/e.txt", g_dir);
    o = fopen(p, "w");
    assert_non_null(o);
    uint64_t rs = 17;
    const char *chars = ".GSWT@O";
    for (int i = 0; i < 80; i++) {
        uint32_t w = 1 + rng_below(&rs, i % 4 ? 6 : 40), h = 1 + rng_below(&rs, i % 4 ? 6 : 40);
        uint32_t x = rng_below(&rs, 256 - w), y = rng_below(&rs, 257 - h);
        if (i % 10 == 0 && ns) { /* a building on a query's start */
            x = sx[i % ns] > 1 ? sx[i % ns] - 1 : 0;
            y = sy[i % ns] > 1 ? sy[i % ns] - 1 : 0;
            w = h = 3;
        }
        char c = chars[rng_below(&rs, 7)];
        fprintf(o, "rect %u %u %u %u %c\n", x, y, w, h, i % 10 == 0 ? '@' : c);
    }
    assert_int_equal(fclose(o), 0);
    char out[8192], cmd[1024];
    snprintf(cmd, sizeof cmd, "edit '%s' e.txt -o edited.map", map);
    assert_int_equal(run(cmd, out, sizeof out), 0);
    const char *algos[] = {"astar", "jps", "jps+"};
    for (int a = 0; a < 3; a++) {
        snprintf(cmd, sizeof cmd, "scen '%s' s.scen --edits e.txt --algo %s --csv a.csv", map, algos[a]);
        assert_int_equal(run(cmd, out, sizeof out), 0);
        assert_non_null(strstr(out, "\"edit_us\":"));
        assert_non_null(strstr(out, "\"edits\":80"));
        snprintf(cmd, sizeof cmd, "scen edited.map s.scen --algo %s --csv b.csv", algos[a]);
        run(cmd, out, sizeof out); /* exit 1: the file's lengths are the unedited map's */
        size_t na, nb;
        char *ca = slurp_alloc(tmp("a.csv"), &na), *cb = slurp_alloc(tmp("b.csv"), &nb);
        assert_non_null(ca);
        assert_non_null(cb);
        if (na != nb || memcmp(ca, cb, na) != 0) print_message("CSV differ for %s\n", algos[a]);
        assert_int_equal(na, nb);
        assert_memory_equal(ca, cb, na);
        /* the edits must matter: some row is not ok */
        assert_non_null(strstr(ca, ",invalid,"));
        free(ca);
        free(cb);
        /* and with a batch on two threads, the same CSV */
        snprintf(cmd, sizeof cmd, "scen '%s' s.scen --edits e.txt --algo %s --csv c.csv --threads 2", map, algos[a]);
        assert_int_equal(run(cmd, out, sizeof out), 0);
        char *cc = slurp_alloc(tmp("c.csv"), &na);
        cb = slurp_alloc(tmp("b.csv"), &nb);
        assert_int_equal(na, nb);
        assert_memory_equal(cc, cb, na);
        free(cc);
        free(cb);
    }
}


/* render --edits: before and after panels, the broken path named */
static void test_render_edits(void **state)
{
    (void)state;
    char out[8192];
    write_tmp("r.map", "type octile\nheight 8\nwidth 12\nmap\n............\n............\n............\n"
                        "............\n............\n............\n............\n............\n");
    write_tmp("wall.txt", "rect 5 0 1 7 @\n");
    assert_int_equal(run("render r.map 0 3 11 3 --algo astar,jps --edits wall.txt -o ba.png --json", out, sizeof out), 0);
    assert_non_null(strstr(out, "\"after_edits\":false"));
    assert_non_null(strstr(out, "\"after_edits\":true,\"path_broke\":true"));
    size_t n;
    char *png = slurp_alloc(tmp("ba.png"), &n);
    assert_non_null(png);
    assert_true(n > 8 && memcmp(png, "\x89PNG", 4) == 0);
    free(png);
    /* an edit far from the path keeps it */
    write_tmp("far.txt", "rect 0 7 2 1 @\n");
    assert_int_equal(run("render r.map 0 3 11 3 --edits far.txt -o ba2.png --json", out, sizeof out), 0);
    assert_non_null(strstr(out, "\"after_edits\":true,\"path_broke\":false"));
    /* a goal walled in after the edit is drawn, not an error */
    write_tmp("goal.txt", "rect 11 3 1 1 @\n");
    assert_int_equal(run("render r.map 0 3 11 3 --edits goal.txt -o ba3.png --json", out, sizeof out), 0);
    assert_non_null(strstr(out, "\"status\":\"invalid\""));
    write_tmp("bad.txt", "rect 11 3 2 1 @\n");
    assert_int_equal(run("render r.map 0 3 11 3 --edits bad.txt -o ba4.png", out, sizeof out), 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_edit_small),
        cmocka_unit_test(test_edit_errors),
        cmocka_unit_test(test_map_from_a_fifo),
        cmocka_unit_test(test_scen_equivalence),
        cmocka_unit_test(test_render_edits),
    };
    return RUN_TESTS_WITH(tests, tmpdir_setup, tmpdir_teardown);
}
