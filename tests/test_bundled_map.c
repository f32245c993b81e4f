/* test_bundled_map.c - the bundled default map is what `pathfind gen` makes, byte for byte (so the
 * README's claim that the project made it stays true), and it loads as a 512x512 grid. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "pathfind.h"
#include "tmpdir.h"

static void test_gen_reproduces_bundled_map(void **state)
{
    (void)state;
    const char *out = "bundled_regen.map";
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "'%s' gen --width 512 --height 512 --seed 2026 -o %s >/dev/null", PF_CLI_PATH, out);
    assert_int_equal(system(cmd), 0);
    size_t a_len, b_len;
    char *a = slurp_alloc(PF_SOURCE_DIR "/maps/demo-512.map", &a_len);
    char *b = slurp_alloc(out, &b_len);
    assert_non_null(a);
    assert_non_null(b);
    assert_int_equal(a_len, b_len);
    assert_memory_equal(a, b, a_len);
    pf_map *map;
    pf_diag diag;
    assert_int_equal(pf_grid_parse_movingai(a, a_len, "demo-512.map", NULL, &map, &diag), PF_OK);
    assert_int_equal(pf_grid_width(map), 512);
    assert_int_equal(pf_grid_height(map), 512);
    pf_map_destroy(map);
    free(a);
    free(b);
    remove(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_gen_reproduces_bundled_map)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
