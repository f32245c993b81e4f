/* test_smoke.c - the public API end to end on a tiny grid, checked against the oracle. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <math.h>
#include <cmocka.h>
#include "pathfind.h"
#include "oracle.h"
#include "maps.h"

static void test_grid_path_matches_oracle(void **state)
{
    (void)state;
    static const char text[] = "type octile\nheight 4\nwidth 5\nmap\n.....\n.@@@.\n.@...\n.....\n";
    pf_map *map = grid_parse(text, sizeof text - 1, PF_MOVES_DEFAULT);
    pf_ctx *ctx;
    assert_int_equal(pf_ctx_create(map, NULL, &ctx), PF_OK);
    uint32_t cells[32];
    pf_path path = {.nodes = cells, .capacity = 32};
    pf_stats st;
    uint32_t s = pf_grid_node(map, 0, 0), g = pf_grid_node(map, 2, 2);
    assert_int_equal(pf_search(ctx, s, g, NULL, &path, &st), PF_OK);
    assert_true(fabs(st.cost - oracle_cost(map, s, g)) < 1e-9);
    assert_true(fabs(oracle_path_cost(map, cells, path.len) - st.cost) < 1e-9);
    assert_int_equal(cells[0], s);
    assert_int_equal(cells[path.len - 1], g);
    pf_ctx_destroy(ctx);
    pf_map_destroy(map);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_grid_path_matches_oracle)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
