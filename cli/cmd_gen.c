/* cmd_gen.c - `pathfind gen`: deterministic map generator (made the bundled default map). */
#include <stdlib.h>
#include <string.h>
#include "cli.h"

static const char *HELP =
    "usage: pathfind gen [--width W] [--height H] [--seed S] [--obstacles PCT] -o FILE.map\n"
    "\n"
    "Writes a Moving AI .map: rooms joined by doors, scattered rocks, a lake (W), a forest (T) and\n"
    "swamp patches (S). The same arguments always give the same file.\n"
    "\n"
    "example (the bundled default map):\n"
    "  pathfind gen --width 512 --height 512 --seed 2026 -o maps/demo-512.map\n";

static cli_rng rng_state;
static uint32_t rnd(void) { return cli_rng_next(&rng_state); }
static uint32_t rnd_below(uint32_t n) { return n ? rnd() % n : 0; }

static void blob(char *g, long w, long h, long cx, long cy, long r, char ch)
{
    for (long y = cy - r; y <= cy + r; y++)
        for (long x = cx - r; x <= cx + r; x++) {
            if (x < 1 || y < 1 || x >= w - 1 || y >= h - 1) continue;
            long dx = x - cx, dy = y - cy;
            long jitter = (long)rnd_below((uint32_t)(r / 3 + 1));
            if (dx * dx + dy * dy <= (r - jitter) * (r - jitter)) g[y * w + x] = ch;
        }
}

int pf_cli_gen(int argc, char **argv)
{
    long w = 512, h = 512, seed = 2026, pct = 8;
    const char *out = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int has = cli_has_value(argc, argv, i);
        if (cli_is_help(a)) {
            fputs(HELP, stdout);
            return 0;
        } else if (strcmp(a, "--width") == 0 && has) {
            if (!cli_parse_int("gen", a, argv[++i], 16, 8192, &w)) return 2;
        } else if (strcmp(a, "--height") == 0 && has) {
            if (!cli_parse_int("gen", a, argv[++i], 16, 8192, &h)) return 2;
        } else if (strcmp(a, "--seed") == 0 && has) {
            if (!cli_parse_int("gen", a, argv[++i], 0, 2147483647L, &seed)) return 2;
        } else if (strcmp(a, "--obstacles") == 0 && has) {
            if (!cli_parse_int("gen", a, argv[++i], 0, 60, &pct)) return 2;
        } else if (strcmp(a, "-o") == 0 && has) {
            out = argv[++i];
        } else if (a[0] != '-') { /* gen takes no positional argument */
            cli_error("gen", "unexpected argument '%s' (see --help)", a);
            return 2;
        } else {
            cli_error("gen", "unknown or incomplete option '%s' (see --help)", a);
            return 2;
        }
    }
    if (!out) {
        fputs(HELP, stderr);
        return 2;
    }
    if (cli_args_only) return 0;
    rng_state = cli_rng_seed((uint64_t)seed, 1);
    char *g = malloc((size_t)w * (size_t)h);
    if (!g) {
        cli_error("gen", "out of memory for a %ldx%ld map", w, h);
        return 1;
    }
    memset(g, '.', (size_t)w * (size_t)h);
    /* rooms: walls every `cell` cells with two or three doors per wall segment */
    long cell = 32;
    for (long y = 0; y < h; y++)
        for (long x = 0; x < w; x++)
            if (x == 0 || y == 0 || x == w - 1 || y == h - 1) g[y * w + x] = '@';
    for (long wy = cell; wy < h - 1; wy += cell)
        for (long x0 = 0; x0 < w; x0 += cell) {
            if (rnd_below(5) == 0) continue; /* some rooms merge */
            for (long x = x0; x < x0 + cell && x < w; x++) g[wy * w + x] = '@';
            long doors = 1 + (long)rnd_below(2);
            for (long k = 0; k < doors; k++) {
                long dx = x0 + 2 + (long)rnd_below((uint32_t)(cell - 6));
                for (long x = dx; x < dx + 3 && x < w - 1; x++) g[wy * w + x] = '.';
            }
        }
    for (long wx = cell; wx < w - 1; wx += cell)
        for (long y0 = 0; y0 < h; y0 += cell) {
            if (rnd_below(5) == 0) continue;
            for (long y = y0; y < y0 + cell && y < h; y++) g[y * w + wx] = '@';
            long doors = 1 + (long)rnd_below(2);
            for (long k = 0; k < doors; k++) {
                long dy = y0 + 2 + (long)rnd_below((uint32_t)(cell - 6));
                for (long y = dy; y < dy + 3 && y < h - 1; y++) g[y * w + wx] = '.';
            }
        }
    /* terrain features */
    blob(g, w, h, w / 3, h / 2, w / 10, 'W');
    blob(g, w, h, 3 * w / 4, h / 4, w / 12, 'T');
    for (int k = 0; k < 6; k++) {
        /* one draw a statement: C leaves the order of a call's arguments open (gcc and clang
         * differ). The bundled map was made drawing the radius, then y, then x. */
        long r = 5 + (long)rnd_below(8);
        long cy = (long)rnd_below((uint32_t)h);
        long cx = (long)rnd_below((uint32_t)w);
        blob(g, w, h, cx, cy, r, 'S');
    }
    /* scattered rocks */
    for (long i = 0; i < w * h * pct / 100; i++) {
        long x = 1 + (long)rnd_below((uint32_t)(w - 2)), y = 1 + (long)rnd_below((uint32_t)(h - 2));
        if (g[y * w + x] == '.') g[y * w + x] = '@';
    }
    cli_out o;
    FILE *f = cli_out_open(&o, "gen", out);
    if (!f) {
        free(g);
        return 1;
    }
    fprintf(f, "type octile\nheight %ld\nwidth %ld\nmap\n", h, w);
    for (long y = 0; y < h; y++) {
        fwrite(g + y * w, 1, (size_t)w, f);
        fputc('\n', f);
    }
    free(g);
    if (!cli_out_close(&o, "gen", 1)) return 1;
    cli_say("wrote %s (%ldx%ld, seed %ld)", out, w, h, seed);
    return 0;
}
