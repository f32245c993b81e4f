/* test_scen_parse.c - Moving AI .scen parser: both header spellings, tabs and spaces, CRLF, every
 * kind of malformed line (with the line and column the message must name). */
#define _POSIX_C_SOURCE 200809L
#include <locale.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "pathfind.h"
#include "testutil.h"

static void expect_fail(const char *text, uint32_t line, uint32_t col, const char *needle)
{
    pf_scen *s = (pf_scen *)&s;
    pf_diag d;
    memset(&d, 0x5a, sizeof d);
    pf_status st = pf_scen_parse(text, strlen(text), "t.scen", NULL, &s, &d);
    if (st != PF_PARSE_ERROR || d.line != line || (col && d.column != col) || !strstr(d.msg, needle))
        fprintf(stderr, "input:\n%s\n-> %s line %u col %u: %s\n", text, pf_status_name(st), d.line, d.column, d.msg);
    assert_int_equal(st, PF_PARSE_ERROR);
    assert_null(s);
    assert_int_equal(d.status, PF_PARSE_ERROR);
    assert_int_equal(d.line, line);
    if (col) assert_int_equal(d.column, col);
    assert_non_null(strstr(d.msg, needle));
    char prefix[32];
    snprintf(prefix, sizeof prefix, "t.scen:%u:", line);
    assert_true(strncmp(d.msg, prefix, strlen(prefix)) == 0);
}

#define L1 "0\tarena.map\t49\t49\t1\t11\t1\t12\t1\n"

static void test_good(void **state)
{
    (void)state;
    const char *texts[] = {
        "version 1\n" L1 "3\tmaps/dao/arena.map\t49\t49\t40\t2\t3\t45\t55.66904755\n",
        "version 1.0\n" L1 "3 maps/dao/arena.map 49 49 40 2 3 45 55.66904755\n",
        "version 1\r\n0\tarena.map\t49\t49\t1\t11\t1\t12\t1\r\n\r\n3 x 49 49 40 2 3 45 55.66904755",
        "version\t1\n\n" L1 "   \n3  x  49  49  40  2  3  45  55.66904755  \n\n",
    };
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        pf_scen *s;
        pf_diag d;
        pf_status st = pf_scen_parse(texts[i], strlen(texts[i]), "t.scen", NULL, &s, &d);
        if (st != PF_OK) fprintf(stderr, "text %zu: %s\n", i, d.msg);
        assert_int_equal(st, PF_OK);
        assert_int_equal(d.status, PF_OK);
        assert_int_equal(pf_scen_count(s), 2);
        assert_string_equal(pf_scen_map_name(s), "arena.map");
        const pf_scen_entry *e = pf_scen_get(s, 1);
        assert_non_null(e);
        assert_int_equal(e->bucket, 3);
        assert_int_equal(e->map_width, 49);
        assert_int_equal(e->map_height, 49);
        assert_int_equal(e->sx, 40);
        assert_int_equal(e->sy, 2);
        assert_int_equal(e->gx, 3);
        assert_int_equal(e->gy, 45);
        assert_true(e->optimal == 55.66904755);
        assert_true(pf_scen_get(s, 0)->optimal == 1.0);
        assert_null(pf_scen_get(s, 2));
        pf_scen_destroy(s);
    }
    /* a header alone is an empty scenario, not an error */
    pf_scen *s;
    pf_diag d;
    assert_int_equal(pf_scen_parse("version 1\n", 10, NULL, NULL, &s, &d), PF_OK);
    assert_int_equal(pf_scen_count(s), 0);
    assert_string_equal(pf_scen_map_name(s), "");
    pf_scen_destroy(s);
    pf_scen_destroy(NULL);
    assert_int_equal(pf_scen_count(NULL), 0);
    assert_null(pf_scen_get(NULL, 0));
}

static void test_long_map_name(void **state)
{
    (void)state;
    char text[1024];
    char name[400];
    memset(name, 'm', sizeof name - 1);
    name[sizeof name - 1] = '\0';
    snprintf(text, sizeof text, "version 1\n0 %s 4 4 0 0 1 1 1.41421356\n", name);
    pf_scen *s;
    pf_diag d;
    assert_int_equal(pf_scen_parse(text, strlen(text), "t.scen", NULL, &s, &d), PF_OK);
    assert_int_equal(strlen(pf_scen_map_name(s)), 255); /* clipped, still terminated */
    pf_scen_destroy(s);
}

static void test_bad_header(void **state)
{
    (void)state;
    expect_fail("", 1, 0, "empty file");
    expect_fail("version 2\n" L1, 1, 1, "version 1");
    expect_fail("version\n" L1, 1, 1, "version 1");
    expect_fail("version 1 extra\n" L1, 1, 1, "version 1");
    expect_fail(L1, 1, 1, "version 1");
    expect_fail("\nversion 1\n" L1, 1, 1, "version 1");
}

static void test_bad_lines(void **state)
{
    (void)state;
    expect_fail("version 1\n" L1 "0\ta.map\t49\t49\t1\t11\t1\t12\n", 3, 0, "expected 9 fields");
    expect_fail("version 1\n" L1 "0\ta.map\t49\t49\t1\t11\t1\t12\t1\t7\n", 3, 0, "found more than 9");
    expect_fail("version 1\n" L1 "x a.map 49 49 1 11 1 12 1\n", 3, 1, "bad bucket");
    expect_fail("version 1\n" L1 "0 a.map 4x9 49 1 11 1 12 1\n", 3, 9, "bad map width");
    expect_fail("version 1\n" L1 "0 a.map 49 49 -1 11 1 12 1\n", 3, 15, "bad start x");
    expect_fail("version 1\n" L1 "0 a.map 49 49 1 1.5 1 12 1\n", 3, 17, "bad start y");
    expect_fail("version 1\n" L1 "0 a.map 49 49 1 11 99999999999 12 1\n", 3, 20, "bad goal x");
    expect_fail("version 1\n" L1 "0 a.map 49 49 1 11 1 +2 1\n", 3, 22, "bad goal y");
    expect_fail("version 1\n" L1 "0 a.map 49 49 1 11 1 12 abc\n", 3, 25, "bad optimal length");
    expect_fail("version 1\n" L1 "0 a.map 49 49 1 11 1 12 -1\n", 3, 25, "bad optimal length");
    expect_fail("version 1\n" L1 "0 a.map 49 49 1 11 1 12 nan\n", 3, 25, "bad optimal length");
    expect_fail("version 1\n" L1 "0 a.map 49 49 1 11 1 12 1e999\n", 3, 25, "bad optimal length");
    expect_fail("version 1\n" L1 "0 a.map 49 49 49 11 1 12 1\n", 3, 0, "outside the 49x49 map");
    expect_fail("version 1\n" L1 "0 a.map 49 49 1 11 1 49 1\n", 3, 0, "outside");
    expect_fail("version 1\n" L1 "0 a.map 0 0 0 0 0 0 0\n", 3, 0, "outside");
    expect_fail("version 1\r\n" L1 "\r\n0 a.map 49 49 1 11 1 12\r\n", 4, 0, "expected 9 fields");
    /* truncated in the middle of the last line */
    expect_fail("version 1\n" L1 "0\ta.map\t49\t49\t1\t1", 3, 0, "found 6");
}

static void test_inputs(void **state)
{
    (void)state;
    pf_scen *s;
    pf_diag d;
    assert_int_equal(pf_scen_parse(NULL, 3, "t", NULL, &s, &d), PF_INVALID_ARGUMENT);
    assert_int_equal(pf_scen_parse("version 1\n", 10, "t", NULL, NULL, &d), PF_INVALID_ARGUMENT);
    assert_int_equal(pf_scen_parse(NULL, 0, "t", NULL, &s, NULL), PF_PARSE_ERROR);
    assert_int_equal(pf_scen_load(PF_SOURCE_DIR "/tests/data/tiny.scen", NULL, &s, &d), PF_OK);
    assert_int_equal(pf_scen_count(s), 3);
    assert_string_equal(pf_scen_map_name(s), "crlf_nofinal.map");
    pf_scen_destroy(s);
    assert_int_equal(pf_scen_load(PF_SOURCE_DIR "/tests/data/nope.scen", NULL, &s, &d), PF_IO_ERROR);
    assert_null(s);
    assert_non_null(strstr(d.msg, "nope.scen"));
}

static void test_allocation_failures(void **state)
{
    (void)state;
    /* 600 lines: the entry array grows (256 -> 512 -> 1024) */
    size_t cap = 64 + 600 * 40;
    char *text = malloc(cap);
    assert_non_null(text);
    size_t n = (size_t)snprintf(text, cap, "version 1\n");
    for (int i = 0; i < 600; i++)
        n += (size_t)snprintf(text + n, cap - n, "%d m.map 100 100 %d %d %d %d %d.5\n", i / 10, i % 100, i / 7 % 100,
                              i / 3 % 100, i % 97, i);
    int ok = 0;
    for (int k = 0; k < 20 && !ok; k++) {
        test_tracker f = {.countdown = k, .once = 1};
        pf_allocator a = {test_track_alloc, test_track_free, &f};
        pf_scen *s;
        pf_diag d;
        pf_status st = pf_scen_parse(text, n, "t.scen", &(pf_scen_load_desc){.allocator = a}, &s, &d);
        if (st == PF_OK) {
            ok = 1;
            assert_int_equal(pf_scen_count(s), 600);
            assert_true(pf_scen_get(s, 599)->optimal == 599.5);
            pf_scen_destroy(s);
        } else {
            assert_int_equal(st, PF_OUT_OF_MEMORY);
            assert_null(s);
        }
        assert_int_equal(f.live, 0);
    }
    assert_true(ok);
    free(text);
}

/* A comma-decimal locale (de_DE), made with localedef into a directory of our own when the host
 * has none compiled: 0 when it cannot be had (no localedef: Debian's locales package). */
static int comma_locale(void)
{
    if (setlocale(LC_NUMERIC, "de_DE.UTF-8")) return 1;
    static char dir[] = "/tmp/pf_locale_XXXXXX";
    if (!mkdtemp(dir)) return 0;
    char cmd[256];
    snprintf(cmd, sizeof cmd, "localedef -i de_DE -f UTF-8 %s/de_DE.UTF-8 >/dev/null 2>&1", dir);
    int made = system(cmd) == 0;
    if (made) setenv("LOCPATH", dir, 1);
    int ok = made && setlocale(LC_NUMERIC, "de_DE.UTF-8") != NULL;
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir); /* glibc has read the locale once set */
    if (system(cmd) != 0) print_message("could not remove %s\n", dir);
    return ok;
}

/* A host application that called setlocale(LC_ALL, "") in a comma-decimal locale (Qt and GTK do)
 * loads the files' '.' lengths all the same; a comma stays refused, as in the C locale. */
static void test_comma_locale(void **state)
{
    (void)state;
    if (!comma_locale()) {
        SKIP_BECAUSE("no de_DE locale, and localedef could not make one (Debian: locales)");
    }
    assert_string_equal(localeconv()->decimal_point, ",");
    const char *text = "version 1\n3\tx\t49\t49\t40\t2\t3\t45\t55.66904755\n0 x 49 49 1 1 1 2 1e-310\n";
    pf_scen *s;
    pf_diag d;
    pf_status st = pf_scen_parse(text, strlen(text), "t.scen", NULL, &s, &d);
    if (st != PF_OK) print_message("%s\n", d.msg);
    assert_int_equal(st, PF_OK);
    assert_true(pf_scen_get(s, 0)->optimal == 55.66904755);
    assert_true(pf_scen_get(s, 1)->optimal < 1e-300); /* subnormal: finite, taken */
    pf_scen_destroy(s);
    expect_fail("version 1\n3\tx\t49\t49\t40\t2\t3\t45\t55,5\n", 2, 0, "bad optimal length");
    setlocale(LC_NUMERIC, "C");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_good),
        cmocka_unit_test(test_long_map_name),
        cmocka_unit_test(test_bad_header),
        cmocka_unit_test(test_bad_lines),
        cmocka_unit_test(test_inputs),
        cmocka_unit_test(test_allocation_failures),
        cmocka_unit_test(test_comma_locale),
    };
    return RUN_TESTS(tests);
}
