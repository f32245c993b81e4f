/* test_status.c - status names and messages (X-macro table), pf_failed, algorithm names. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>
#include "pathfind.h"

static void test_names_and_messages(void **state)
{
    (void)state;
    assert_string_equal(pf_status_name(PF_OK), "OK");
    assert_string_equal(pf_status_name(PF_NO_PATH), "NO_PATH");
    assert_string_equal(pf_status_name(PF_BUFFER_TOO_SMALL), "BUFFER_TOO_SMALL");
    assert_string_equal(pf_status_name(PF_UNSUPPORTED), "UNSUPPORTED");
    assert_string_equal(pf_status_str(PF_NO_PATH), "goal is unreachable from start");
    assert_string_equal(pf_status_str(PF_PARSE_ERROR), "malformed input");
    /* every listed status has its own name and a non-empty message; values are unique */
#define X(name, value, text)                                                   \
    assert_string_equal(pf_status_name(PF_##name), #name);                     \
    assert_string_equal(pf_status_str(PF_##name), text);                       \
    assert_int_equal(pf_failed(PF_##name), (value) < 0);
    PF_STATUS_LIST(X)
#undef X
    static const int values[] = {
#define X(name, value, text) value,
        PF_STATUS_LIST(X)
#undef X
    };
    size_t n = sizeof values / sizeof values[0];
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++) assert_int_not_equal(values[i], values[j]);
    /* foreign values never give NULL */
    assert_string_equal(pf_status_name((pf_status)12345), "UNKNOWN");
    assert_non_null(pf_status_str((pf_status)-12345));
    assert_true(strlen(pf_status_str((pf_status)-12345)) > 0);
    /* outcomes are not failures */
    assert_false(pf_failed(PF_OK));
    assert_false(pf_failed(PF_NO_PATH));
    assert_false(pf_failed(PF_LIMIT_REACHED));
    assert_false(pf_failed(PF_FALLBACK));
    assert_false(pf_failed(PF_PARTIAL));
    assert_true(pf_failed(PF_OUT_OF_MEMORY));
}

static void test_algo_names(void **state)
{
    (void)state;
    static const char *const names[] = {"astar", "wastar", "dijkstra", "bfs", "greedy", "jps", "jps+", "auto", "theta"};
    /* one name for each algorithm: an algorithm added without its name here fails to compile */
    _Static_assert(sizeof names / sizeof names[0] == PF_ALGO__COUNT - PF_ALGO_ASTAR, "a name for every pf_algo");
    for (int a = PF_ALGO_ASTAR; a < PF_ALGO__COUNT; a++) {
        assert_string_equal(pf_algo_name((pf_algo)a), names[a - 1]);
        assert_int_equal(pf_algo_parse(names[a - 1]), a);
    }
    assert_string_equal(pf_algo_name(PF_ALGO_DEFAULT), "astar");
    assert_string_equal(pf_algo_name((pf_algo)99), "unknown");
    assert_int_equal(pf_algo_parse("ucs"), PF_ALGO_DIJKSTRA);
    assert_int_equal(pf_algo_parse("jpsplus"), PF_ALGO_JPS_PLUS);
    /* an unknown name is not A*: it is a value every search refuses */
    assert_int_equal(pf_algo_parse("dijkstra2"), PF_ALGO_UNKNOWN);
    assert_int_equal(pf_algo_parse(""), PF_ALGO_UNKNOWN);
    assert_int_equal(pf_algo_parse(NULL), PF_ALGO_UNKNOWN);
    /* the values are fixed: stored settings, logs and peers agree across versions */
    assert_int_equal(PF_ALGO_ASTAR, 1);
    assert_int_equal(PF_ALGO_THETA, 9);
    assert_int_equal(PF_ALGO_UNKNOWN, 255);
    assert_int_equal(PF_HEUR_CALLBACK, 8);
    assert_int_equal(PF_TIE_RANDOM, 4);
    assert_int_not_equal(pf_algo_parse("astra"), PF_ALGO_DEFAULT);
    assert_int_not_equal(pf_algo_parse("astra"), PF_ALGO_ASTAR);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names_and_messages),
        cmocka_unit_test(test_algo_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
