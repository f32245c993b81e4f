/* test_render.c - `pathfind render` end to end: run the CLI, decode its PNG with libpng, and check
 * the picture's size, the path colour on the path cells, markers and terrain colours. */
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
#include <sys/wait.h>
#include <unistd.h>
#include "pathfind.h"
#include "run_cli.h"
#include "tmpdir.h"

static char g_out[1 << 16], g_err[1 << 16];

/* Runs the CLI with args (NULL-terminated), captures stdout/stderr; returns the exit code. */
static int run(const char *const *args) { return cli_run(NULL, args, g_out, sizeof g_out, g_err, sizeof g_err); }

static long json_long(const char *json, const char *key)
{
    char k[64];
    snprintf(k, sizeof k, "\"%s\":", key);
    const char *p = strstr(json, k);
    assert_non_null(p);
    return strtol(p + strlen(k), NULL, 10);
}

/* Decodes an 8-bit RGB image with libpng's simplified API. */
typedef struct image { uint32_t w, h; uint8_t *px; } image;
static image decode(const char *path)
{
    png_image im;
    memset(&im, 0, sizeof im);
    im.version = PNG_IMAGE_VERSION;
    assert_true(png_image_begin_read_from_file(&im, path));
    im.format = PNG_FORMAT_RGB;
    image r = {im.width, im.height, malloc(PNG_IMAGE_SIZE(im))};
    assert_non_null(r.px);
    assert_true(png_image_finish_read(&im, NULL, r.px, 0, NULL));
    return r;
}

static void expect_px(const image *im, long x, long y, int r, int g, int b)
{
    assert_true(x >= 0 && y >= 0 && x < (long)im->w && y < (long)im->h);
    const uint8_t *p = im->px + ((size_t)y * im->w + (size_t)x) * 3;
    if (p[0] != r || p[1] != g || p[2] != b)
        fail_msg("pixel (%ld,%ld) is (%d,%d,%d), expected (%d,%d,%d)", x, y, p[0], p[1], p[2], r, g, b);
}

static int px_is(const image *im, long x, long y, int r, int g, int b)
{
    const uint8_t *p = im->px + ((size_t)y * im->w + (size_t)x) * 3;
    return p[0] == r && p[1] == g && p[2] == b;
}

/* 20x10: a wall with a gap, a walled-in swamp pocket (never expanded), water and trees. */
static const char MAP20[] = "type octile\nheight 10\nwidth 20\nmap\n"
                            "....................\n"
                            "..........@.........\n"
                            "..........@....WWW..\n"
                            "..........@....WWW..\n"
                            "..........@.........\n"
                            "..........@...@@@...\n"
                            "..........@...@S@...\n"
                            "..............@@@...\n"
                            "...TT...............\n"
                            "...TT...............\n";

/* Library search on the same map, for the cells the picture must show as path. */
static uint32_t lib_path(const char *text, pf_algo algo, int sx, int sy, int gx, int gy, uint32_t *cells, uint32_t cap,
                         pf_map **mapout)
{
    pf_map *map;
    pf_diag diag;
    assert_int_equal(pf_grid_parse_movingai(text, strlen(text), "t", NULL, &map, &diag), PF_OK);
    pf_ctx *ctx;
    assert_int_equal(pf_ctx_create(map, NULL, &ctx), PF_OK);
    pf_path path = {.nodes = cells, .capacity = cap};
    assert_int_equal(pf_search(ctx, pf_grid_node(map, sx, sy), pf_grid_node(map, gx, gy),
                               &(pf_search_desc){.algo = algo}, &path, NULL),
                     PF_OK);
    pf_ctx_destroy(ctx);
    *mapout = map;
    return path.len;
}

static void test_small_map_enlarged(void **state)
{
    (void)state;
    const char *map = write_tmp("m20.map", MAP20), *png = tmp("m20.png");
    const char *args[] = {"render", map, "1", "1", "18", "8", "--algo", "astar,dijkstra", "--max-px", "200",
                          "--json", "-o", png, NULL};
    assert_int_equal(run(args), 0);
    assert_int_equal(json_long(g_out, "cell_px"), 10); /* 200 px / 20 cells */
    assert_int_equal(json_long(g_out, "cells_per_px"), 1);
    image im = decode(png);
    assert_int_equal(im.w, json_long(g_out, "width"));
    assert_int_equal(im.h, json_long(g_out, "height"));
    /* layout: margin 8, two panels of max(200 px map, 200 px) each followed by 8 */
    assert_int_equal(im.w, 8 + 2 * (200 + 8));
    assert_true(im.h > 100 + 2 * 8);
    static const pf_algo algos[2] = {PF_ALGO_ASTAR, PF_ALGO_DIJKSTRA};
    const char *panel = g_out;
    for (int a = 0; a < 2; a++) {
        panel = strstr(panel, a ? "\"algo\":\"dijkstra\"" : "\"algo\":\"astar\"");
        assert_non_null(panel);
        long ox = json_long(panel, "map_x"), oy = json_long(panel, "map_y");
        uint32_t cells[64];
        pf_map *m;
        uint32_t n = lib_path(MAP20, algos[a], 1, 1, 18, 8, cells, 64, &m);
        assert_true(n > 2);
        assert_int_equal(json_long(panel, "path_len"), n);
        for (uint32_t i = 1; i + 1 < n; i++) {
            pf_point p = pf_grid_point(m, cells[i]);
            expect_px(&im, ox + p.x * 10 + 5, oy + p.y * 10 + 5, 255, 0, 255);
        }
        expect_px(&im, ox + 1 * 10 + 5, oy + 1 * 10 + 5, 0, 200, 0);   /* start */
        expect_px(&im, ox + 18 * 10 + 5, oy + 8 * 10 + 5, 0, 70, 255);  /* goal */
        expect_px(&im, ox + 10 * 10 + 5, oy + 3 * 10 + 5, 44, 44, 50);  /* wall */
        expect_px(&im, ox + 16 * 10 + 5, oy + 2 * 10 + 5, 84, 140, 214); /* water: never expanded */
        expect_px(&im, ox + 3 * 10 + 5, oy + 8 * 10 + 5, 52, 128, 64);  /* trees */
        expect_px(&im, ox + 15 * 10 + 5, oy + 6 * 10 + 5, 158, 150, 100); /* walled-in swamp */
        /* Dijkstra expands the far corner (0,9) before reaching the goal; it must be shaded, not ground */
        if (a == 1) assert_false(px_is(&im, ox + 0 * 10 + 5, oy + 9 * 10 + 5, 236, 232, 220));
        pf_map_destroy(m);
        panel++;
    }
    free(im.px);
}

static void test_large_map_reduced_keeps_path(void **state)
{
    (void)state;
    const char *map = tmp("g300.map"), *png = tmp("g300.png");
    const char *gen[] = {"gen", "--width", "300", "--height", "300", "--seed", "7", "--obstacles", "3", "-o", map, NULL};
    assert_int_equal(run(gen), 0);
    FILE *f = fopen(map, "rb");
    assert_non_null(f);
    static char text[300 * 301 + 256];
    size_t len = fread(text, 1, sizeof text - 1, f);
    text[len] = '\0';
    fclose(f);
    /* two open cells far apart (the generator keeps a blocked border) */
    pf_map *m;
    pf_diag diag;
    assert_int_equal(pf_grid_parse_movingai(text, len, "g", NULL, &m, &diag), PF_OK);
    int sx = 2, sy = 2, gx = 290, gy = 280;
    while (pf_grid_class(m, sx, sy) != 1) sx++;
    while (pf_grid_class(m, gx, gy) != pf_grid_class(m, sx, sy)) gx--;
    pf_map_destroy(m);
    char a[4][16];
    snprintf(a[0], 16, "%d", sx);
    snprintf(a[1], 16, "%d", sy);
    snprintf(a[2], 16, "%d", gx);
    snprintf(a[3], 16, "%d", gy);
    const char *args[] = {"render", map, a[0], a[1], a[2], a[3], "--max-px", "100", "--json", "-o", png, NULL};
    assert_int_equal(run(args), 0);
    assert_int_equal(json_long(g_out, "cells_per_px"), 3);
    image im = decode(png);
    assert_int_equal(im.w, json_long(g_out, "width"));
    assert_int_equal(im.h, json_long(g_out, "height"));
    long ox = json_long(g_out, "map_x"), oy = json_long(g_out, "map_y");
    static uint32_t cells[300 * 300];
    uint32_t n = lib_path(text, PF_ALGO_ASTAR, sx, sy, gx, gy, cells, 300 * 300, &m);
    assert_true(n > 100);
    uint32_t checked = 0;
    for (uint32_t i = 0; i < n; i++) {
        pf_point p = pf_grid_point(m, cells[i]);
        long px = p.x / 3, py = p.y / 3;
        /* markers are 9 px squares around start and goal: skip the path cells under them */
        if (labs(px - sx / 3) <= 4 && labs(py - sy / 3) <= 4) continue;
        if (labs(px - gx / 3) <= 4 && labs(py - gy / 3) <= 4) continue;
        expect_px(&im, ox + px, oy + py, 255, 0, 255);
        checked++;
    }
    assert_true(checked > n / 2);
    pf_map_destroy(m);
    free(im.px);
}

static void test_scenario_rows(void **state)
{
    (void)state;
    const char *map = write_tmp("s.map", MAP20), *png = tmp("s.png");
    const char *scen = write_tmp("s.scen", "version 1\n0\ts.map\t20\t10\t0\t0\t5\t0\t5\n"
                                           "0\ts.map\t20\t10\t0\t9\t19\t9\t19\n"
                                           "1\ts.map\t20\t10\t0\t0\t19\t9\t21.31370850\n");
    const char *args[] = {"render", map, "--scen", scen, "--ids", "0,2", "--algo", "astar,jps", "--json", "-o", png, NULL};
    assert_int_equal(run(args), 0);
    assert_non_null(strstr(g_out, "\"id\":0,"));
    assert_non_null(strstr(g_out, "\"id\":2,"));
    assert_null(strstr(g_out, "\"id\":1,"));
    image im = decode(png);
    assert_int_equal(im.w, json_long(g_out, "width"));
    assert_int_equal(im.h, json_long(g_out, "height"));
    free(im.px);
    /* default: the scenario's longest query */
    const char *last[] = {"render", map, "--scen", scen, "--json", "-o", png, NULL};
    assert_int_equal(run(last), 0);
    assert_non_null(strstr(g_out, "\"id\":2,"));
    assert_non_null(strstr(g_out, "\"sx\":0,\"sy\":0,\"gx\":19,\"gy\":9,\"status\":\"ok\""));
}

static void test_bad_inputs(void **state)
{
    (void)state;
    const char *map = write_tmp("b.map", MAP20), *png = tmp("b.png");
    const char *bad = write_tmp("bad.map", "type octile\nheight 2\nwidth 3\nmap\n...\n.X.\n");
    const char *scen = write_tmp("b.scen", "version 1\n0\tb.map\t20\t10\t0\t0\t5\t0\t5\n");
    const char *blocked[] = {"render", map, "10", "1", "18", "8", "-o", png, NULL};
    assert_int_equal(run(blocked), 1);
    assert_non_null(strstr(g_err, "blocked"));
    const char *outside[] = {"render", map, "1", "1", "25", "8", "-o", png, NULL};
    assert_int_equal(run(outside), 1);
    assert_non_null(strstr(g_err, "outside"));
    const char *malformed[] = {"render", bad, "0", "0", "2", "0", "-o", png, NULL};
    assert_int_equal(run(malformed), 1);
    assert_non_null(strstr(g_err, "bad.map:6:2")); /* file, line and column of the 'X' */
    const char *algo[] = {"render", map, "1", "1", "18", "8", "--algo", "astar,nope", "-o", png, NULL};
    assert_int_equal(run(algo), 2);
    assert_non_null(strstr(g_err, "nope"));
    const char *ids[] = {"render", map, "--scen", scen, "--ids", "3", "-o", png, NULL};
    assert_int_equal(run(ids), 2);
    assert_non_null(strstr(g_err, "--ids"));
    const char *noout[] = {"render", map, "1", "1", "18", "8", NULL};
    assert_int_equal(run(noout), 2);
    char unwritable[160];
    snprintf(unwritable, sizeof unwritable, "%s/no/such/dir.png", g_dir);
    const char *cant[] = {"render", map, "1", "1", "18", "8", "-o", unwritable, NULL};
    assert_int_equal(run(cant), 1);
    assert_non_null(strstr(g_err, "cannot write"));
    /* a picture too large for the command line's --max-px and panels: a command-line limit, exit 2
     * (docs/hardening.md; it was 1); an empty item named as such; every algorithm --help lists */
    const char *demo = PF_SOURCE_DIR "/maps/demo-512.map"; /* 512 cells a side: 16 px each at most */
    const char *huge[] = {"render", demo, "20", "20", "490", "300", "--max-px", "8192", "--algo", "astar,dijkstra,bfs",
                          "-o", png, NULL};
    assert_int_equal(run(huge), 2);
    assert_non_null(strstr(g_err, "picture would be"));
    const char *empty[] = {"render", map, "1", "1", "18", "8", "--algo", "astar,,dijkstra", "-o", png, NULL};
    assert_int_equal(run(empty), 2);
    assert_non_null(strstr(g_err, "an empty item"));
    const char *all[] = {"render", map, "1", "1", "18", "8", "--algo", "astar,wastar,dijkstra,bfs,greedy,jps,jps+,auto,theta",
                         "--max-px", "100", "-o", png, NULL};
    assert_int_equal(run(all), 0);
}

static void test_help(void **state)
{
    (void)state;
    const char *args[] = {"render", "--help", NULL};
    assert_int_equal(run(args), 0);
    assert_non_null(strstr(g_out, "usage: pathfind render"));
    assert_non_null(strstr(g_out, "examples:"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_help),
        cmocka_unit_test(test_small_map_enlarged),
        cmocka_unit_test(test_large_map_reduced_keeps_path),
        cmocka_unit_test(test_scenario_rows),
        cmocka_unit_test(test_bad_inputs),
    };
    return cmocka_run_group_tests(tests, tmpdir_setup, tmpdir_teardown);
}
