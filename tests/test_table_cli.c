/* test_table_cli.c - `pathfind table build|path|update` end to end: outputs and exit codes. */
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

/* Runs the CLI with `args` (in g_dir); returns the exit code and stdout in out. */
static int run(const char *args, char *out, size_t cap) { return cli_run_shell(args, "stderr.txt", out, cap); }

/* The slides' graph, numbered A=1 B=2 E=3 C=4 D=5 (see test_table.c), unit weights. */
static const char SLIDES_GR[] = "c slides\np sp 5 12\n"
                                "a 1 2 1\na 2 1 1\na 1 3 1\na 3 1 1\na 2 4 1\na 4 2 1\n"
                                "a 2 3 1\na 3 2 1\na 4 5 1\na 5 4 1\na 5 3 1\na 3 5 1\n";

static void test_cli_round_trip(void **state)
{
    (void)state;
    char out[4096];
    write_tmp("g.gr", SLIDES_GR);
    assert_int_equal(run("table build g.gr -o g.pft", out, sizeof out), 0);
    assert_non_null(strstr(out, "\"nodes\":5"));
    /* A -> D goes through E */
    assert_int_equal(run("table path g.pft g.gr 1 5", out, sizeof out), 0);
    assert_non_null(strstr(out, "path: 1 3 5"));
    assert_non_null(strstr(out, "cost: 2.000000"));
    /* remove A-E both ways: A -> D now via B (2) */
    write_tmp("e.txt", "# the slides' edit\nremove 1 3\nremove 3 1   # both directions\n\n");
    assert_int_equal(run("table update g.pft g.gr e.txt -o g2.pft --graph-out g2.gr --rule slides", out, sizeof out), 0);
    assert_non_null(strstr(out, "\"rows_examined\":4"));
    assert_non_null(strstr(out, "\"rows_changed\":2"));
    assert_int_equal(run("table path g2.pft g2.gr 1 5 --json", out, sizeof out), 0);
    assert_non_null(strstr(out, "\"path\":[1,2,3,5]"));
    /* the new table with the old graph: refused */
    assert_int_equal(run("table path g2.pft g.gr 1 5", out, sizeof out), 1);
    /* set and add */
    write_tmp("e2.txt", "set 1 2 10\nadd 1 5 1\n");
    assert_int_equal(run("table update g.pft g.gr e2.txt -o g3.pft --graph-out g3.gr", out, sizeof out), 0);
    assert_int_equal(run("table path g3.pft g3.gr 1 4", out, sizeof out), 0);
    assert_non_null(strstr(out, "path: 1 5 4"));
}

static void test_cli_errors(void **state)
{
    (void)state;
    char out[4096];
    write_tmp("g.gr", SLIDES_GR);
    assert_int_equal(run("table build g.gr -o g.pft", out, sizeof out), 0);
    assert_int_equal(run("table --help", out, sizeof out), 0);
    assert_non_null(strstr(out, "remove U V"));
    assert_int_equal(run("table build --help", out, sizeof out), 0);
    assert_int_equal(run("table", out, sizeof out), 2);
    assert_int_equal(run("table frob", out, sizeof out), 2);
    assert_int_equal(run("table build g.gr", out, sizeof out), 2);           /* no -o */
    assert_int_equal(run("table build missing.gr -o x.pft", out, sizeof out), 1);
    assert_int_equal(run("table path g.pft g.gr 1 9", out, sizeof out), 2);  /* node out of range */
    assert_int_equal(run("table path missing.pft g.gr 1 2", out, sizeof out), 1);
    write_tmp("bad.txt", "remove 1 2\nremove 1 2\n"); /* second removal finds nothing */
    assert_int_equal(run("table update g.pft g.gr bad.txt -o x.pft", out, sizeof out), 1);
    write_tmp("bad2.txt", "add 1 2 -3\n");
    assert_int_equal(run("table update g.pft g.gr bad2.txt -o x.pft", out, sizeof out), 1);
    write_tmp("bad3.txt", "teleport 1 2\n");
    assert_int_equal(run("table update g.pft g.gr bad3.txt -o x.pft", out, sizeof out), 1);
    assert_int_equal(run("table update g.pft g.gr bad3.txt -o x.pft --rule fast", out, sizeof out), 2);
    /* the table cannot be written (no such directory): the graph given to --graph-out, the one
     * the table was baked for here, is not replaced by the edited one either */
    write_tmp("e4.txt", "set 1 2 10\n");
    write_tmp("keep.gr", SLIDES_GR);
    assert_int_equal(run("table update g.pft g.gr e4.txt -o nodir/x.pft --graph-out keep.gr", out, sizeof out), 1);
    size_t kn = 0;
    char *kept = slurp_alloc(tmp("keep.gr"), &kn);
    assert_non_null(kept);
    assert_int_equal(kn, strlen(SLIDES_GR));
    assert_memory_equal(kept, SLIDES_GR, kn);
    free(kept);
    assert_int_equal(run("table path g.pft keep.gr 1 2", out, sizeof out), 0);
    /* the graph cannot be written (a full device): the table is not written either (its writes
     * were found failed only when the graph's file was closed, after the table was saved) */
    assert_int_equal(run("table update g.pft g.gr e4.txt -o nograph.pft --graph-out /dev/full", out, sizeof out), 1);
    assert_null(fopen(tmp("nograph.pft"), "rb"));
    /* both outputs one file: refused before anything is written (the graph replaced the table) */
    assert_int_equal(run("table update g.pft g.gr e4.txt -o same.out --graph-out same.out", out, sizeof out), 2);
    assert_null(fopen(tmp("same.out"), "rb"));
    /* a loop of links as the output: refused, the loop kept */
    assert_int_equal(symlink("lq", tmp("lp")), 0);
    assert_int_equal(symlink("lp", tmp("lq")), 0);
    assert_int_equal(run("table build g.gr -o lp", out, sizeof out), 1);
    struct stat sb;
    assert_int_equal(lstat(tmp("lq"), &sb), 0);
    assert_true(S_ISLNK(sb.st_mode));
    /* a corrupted file */
    write_tmp("junk.pft", "PFTABLE");
    assert_int_equal(run("table path junk.pft g.gr 1 2", out, sizeof out), 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cli_round_trip),
        cmocka_unit_test(test_cli_errors),
    };
    return cmocka_run_group_tests(tests, tmpdir_setup, tmpdir_teardown);
}
