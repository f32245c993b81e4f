/* test_prop_size_comp.c - the component labels of sized and filtered units (search/size_comp.c)
 * against a flood fill written here from the move rule's text (grid_moves_internal.h), not from
 * the library's code:
 *   - a unit of size K stands on a cell when the K x K block whose top-left cell it is lies on the
 *     map and is all of one open class (unfiltered; that class is then the unit's) or all of
 *     classes its filter allows;
 *   - it steps to any of the 4 side neighbours where it stands, to a diagonal one without corner
 *     cutting when it also stands on both side neighbours, with corner cutting whenever it stands
 *     there, on hex grids to the 6 neighbours of the odd-r layout; unfiltered, only to a cell of
 *     its own class.
 * Random maps with four terrain classes, every move rule (hex for one-cell filtered units, the only
 * ones a hex map takes), sizes 1-3, random filters; then through random edits on the same context
 * (the labels follow edits locally, flood the parts of a cut, or label afresh): rectangles of any
 * class, several in one call, and walls drawn across the map, first with one door and then closed,
 * which cut a component in two. Every position must be joined to its oracle component's first
 * position and apart from every other component's. Every map of 1x1 to 8x8 takes rows narrower
 * than the 8 labels label_rows writes at once. Larger maps (120,000 cells, a unit that may
 * enter every class) take the paths that give up on local work: edits over a window's 65,536
 * cells, cuts of components too large to flood. PF_TEST_SCALE scales the maps; PF_TEST_SEED replays
 * one. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "pathfind.h"
#include "testutil.h"
#include "search/size_comp_internal.h"
#include "map/map_internal.h"

static uint64_t g_seed;
static char g_where[256];

typedef struct world {
    uint32_t w, h;
    pf_moves mv;
    uint8_t *cells; /* the map's classes, read back after each edit */
} world;

/* Whether a unit of side k (filter f [opt]; unfiltered: of class *cls, set from the block) stands at
 * (x, y). */
static int stands(const world *wd, int32_t x, int32_t y, uint32_t k, const pf_move_filter *f, uint8_t *cls)
{
    if (x < 0 || y < 0 || (uint32_t)x + k > wd->w || (uint32_t)y + k > wd->h) return 0;
    const uint8_t first = wd->cells[(size_t)y * wd->w + (uint32_t)x];
    for (uint32_t dy = 0; dy < k; dy++)
        for (uint32_t dx = 0; dx < k; dx++) {
            const uint8_t c = wd->cells[(size_t)(y + (int32_t)dy) * wd->w + (uint32_t)x + dx];
            if (f ? !(c && (f->classes[c >> 3] >> (c & 7u) & 1u)) : (!c || c != first)) return 0;
        }
    *cls = f ? 1 : first;
    return 1;
}

/* The oracle: a component id per cell (0: the unit stands nowhere there), by breadth-first flood;
 * *ncomp components. */
static uint32_t *oracle(const world *wd, uint32_t k, const pf_move_filter *f, uint32_t *ncomp)
{
    const uint32_t n = wd->w * wd->h;
    uint32_t *comp = calloc(n, sizeof *comp), *queue = malloc(n * sizeof *queue), id = 0;
    uint8_t *cls = malloc(n);
    for (uint32_t i = 0; i < n; i++) {
        uint8_t c = 0;
        cls[i] = stands(wd, (int32_t)(i % wd->w), (int32_t)(i / wd->w), k, f, &c) ? c : 0;
    }
    static const int32_t sq[8][2] = {{0, -1}, {1, 0}, {0, 1}, {-1, 0}, {1, -1}, {1, 1}, {-1, 1}, {-1, -1}};
    static const int32_t hx[2][6][2] = {{{-1, 0}, {1, 0}, {-1, -1}, {0, -1}, {-1, 1}, {0, 1}},
                                        {{-1, 0}, {1, 0}, {0, -1}, {1, -1}, {0, 1}, {1, 1}}};
    for (uint32_t s = 0; s < n; s++) {
        if (!cls[s] || comp[s]) continue;
        uint32_t head = 0, tail = 0;
        comp[s] = ++id;
        queue[tail++] = s;
        while (head < tail) {
            const uint32_t cur = queue[head++];
            const int32_t x = (int32_t)(cur % wd->w), y = (int32_t)(cur / wd->w);
            const uint32_t nd = wd->mv == PF_MOVES_HEX ? 6u : wd->mv == PF_MOVES_4 ? 4u : 8u;
            for (uint32_t d = 0; d < nd; d++) {
                const int32_t dx = wd->mv == PF_MOVES_HEX ? hx[y & 1][d][0] : sq[d][0];
                const int32_t dy = wd->mv == PF_MOVES_HEX ? hx[y & 1][d][1] : sq[d][1];
                const int32_t nx = x + dx, ny = y + dy;
                if (nx < 0 || ny < 0 || nx >= (int32_t)wd->w || ny >= (int32_t)wd->h) continue;
                const uint32_t nb = (uint32_t)ny * wd->w + (uint32_t)nx;
                if (cls[nb] != cls[s] || comp[nb]) continue;
                /* a diagonal without corner cutting: both side positions */
                if (wd->mv == PF_MOVES_8_NO_CUT && d >= 4 &&
                    (cls[(uint32_t)y * wd->w + (uint32_t)nx] != cls[s] || cls[(uint32_t)ny * wd->w + (uint32_t)x] != cls[s]))
                    continue;
                comp[nb] = id;
                queue[tail++] = nb;
            }
        }
    }
    free(queue);
    free(cls);
    *ncomp = id;
    return comp;
}

/* The context's labels against the oracle; pairs checked added to *checks. */
static void check_labels(pf_ctx *c, const pf_map *m, const world *wd, uint32_t k, const pf_move_filter *f, long *checks)
{
    uint32_t nc;
    uint32_t *comp = oracle(wd, k, f, &nc);
    const uint32_t n = wd->w * wd->h;
    uint32_t *rep = calloc(nc + 1u, sizeof *rep); /* each component's first cell, + 1 */
    for (uint32_t i = 0; i < n; i++)
        if (comp[i] && !rep[comp[i]]) rep[comp[i]] = i + 1u;
    for (uint32_t i = 0; i < n; i++) {
        if (!comp[i]) continue;
        int same = -1;
        const uint32_t r = rep[comp[i]] - 1u;
        assert_int_equal(pf__szcomp_same(c, pf__grid_pad(m, i), pf__grid_pad(m, r), (uint8_t)k, f, &same), PF_OK);
        snprintf(g_where, sizeof g_where, "size %u %s moves %d: cell %u and %u joined by the oracle", k,
                 f ? "filtered" : "unfiltered", (int)wd->mv, i, r);
        PCHECK(same == 1);
        ++*checks;
    }
    /* every pair of components (at most 120 of them, else 120 at random) apart */
    uint64_t rs = g_seed ^ 0x5151;
    const uint32_t lim = nc < 120 ? nc : 120;
    for (uint32_t a = 1; a <= lim; a++)
        for (uint32_t b = a + 1; b <= lim; b++) {
            const uint32_t ca = nc <= 120 ? a : 1 + rng_below(&rs, nc), cb = nc <= 120 ? b : 1 + rng_below(&rs, nc);
            if (ca == cb) continue;
            int same = -1;
            const uint32_t pa = rep[ca] - 1u, pb = rep[cb] - 1u;
            assert_int_equal(pf__szcomp_same(c, pf__grid_pad(m, pa), pf__grid_pad(m, pb), (uint8_t)k, f, &same), PF_OK);
            snprintf(g_where, sizeof g_where, "size %u %s moves %d: cell %u and %u apart by the oracle", k,
                     f ? "filtered" : "unfiltered", (int)wd->mv, pa, pb);
            PCHECK(same == 0);
            ++*checks;
        }
    free(rep);
    free(comp);
}

static void apply(pf_map *m, world *wd, const pf_grid_edit *ed, uint32_t count)
{
    assert_int_equal(pf_grid_apply_edits(m, ed, count, NULL), PF_OK);
    assert_int_equal(pf_grid_read(m, (pf_rect){0, 0, wd->w, wd->h}, wd->cells, NULL), PF_OK);
}

/* One map: a context's labels for one unit kind, checked fresh and after each of a run of edits. */
static void one_map(uint64_t seed, uint32_t w, uint32_t h, int big, long *checks)
{
    uint64_t rs = seed;
    g_seed = seed;
    static const pf_moves MV[] = {PF_MOVES_8_NO_CUT, PF_MOVES_4, PF_MOVES_8_CUT, PF_MOVES_HEX};
    world wd = {w, h, MV[rng_below(&rs, 4)], malloc((size_t)w * h)};
    /* a hex map takes one-cell units only, and the searches ask these labels about them only under
     * a filter (the map's components answer otherwise); unfiltered size 1 is checked all the same:
     * only there can runs of two classes touch (two blocks of size 2 or more that touch overlap) */
    const int filtered = big || wd.mv == PF_MOVES_HEX || rng_below(&rs, 2);
    uint32_t k = wd.mv == PF_MOVES_HEX ? 1u : 1u + rng_below(&rs, 3);
    k = k > w ? w : k; /* a wall's door is k wide */
    k = k > h ? h : k;
    /* classes 1-4 in patches, blocked rectangles, blocked noise */
    for (uint32_t i = 0; i < w * h; i++) wd.cells[i] = 1;
    for (uint32_t r = 0, nr = 4 + rng_below(&rs, (w * h) / 30 + 1); r < nr; r++) {
        const uint32_t x0 = rng_below(&rs, w), y0 = rng_below(&rs, h), rw = 1 + rng_below(&rs, 8), rh = 1 + rng_below(&rs, 8);
        const uint8_t cl = (uint8_t)rng_below(&rs, 5);
        for (uint32_t y = y0; y < y0 + rh && y < h; y++)
            for (uint32_t x = x0; x < x0 + rw && x < w; x++) wd.cells[y * w + x] = cl;
    }
    const uint32_t noise = big ? rng_below(&rs, 3) : rng_below(&rs, 12);
    for (uint32_t i = 0; i < w * h; i++)
        if (rng_below(&rs, 100) < noise) wd.cells[i] = 0;
    pf_move_filter flt;
    memset(&flt, 0, sizeof flt);
    do
        for (uint32_t cl = 1; cl <= 4; cl++)
            if (big || rng_below(&rs, 2)) flt.classes[0] = (uint8_t)(flt.classes[0] | 1u << cl);
    while (!flt.classes[0]);
    const pf_move_filter *f = filtered ? &flt : NULL;
    pf_map *m;
    assert_int_equal(pf_grid_create(&(pf_grid_desc){.width = w, .height = h, .moves = wd.mv, .cells = wd.cells}, &m), PF_OK);
    pf_ctx *c;
    assert_int_equal(pf_ctx_create(m, NULL, &c), PF_OK);
    check_labels(c, m, &wd, k, f, checks);
    for (int e = 0; e < 10; e++) {
        const uint32_t kind = rng_below(&rs, 5);
        if (kind == 4) { /* three quarters of each side: over a window's cells on the larger maps */
            pf_grid_edit ed = {.rect = {(int32_t)rng_below(&rs, w / 4 + 1), (int32_t)rng_below(&rs, h / 4 + 1), w * 3 / 4, h * 3 / 4},
                               .cls = (uint8_t)rng_below(&rs, 5)};
            apply(m, &wd, &ed, 1);
        } else if (kind < 2) { /* one to three rectangles of any class */
            pf_grid_edit ed[3];
            const uint32_t ne = 1 + rng_below(&rs, 3);
            for (uint32_t i = 0; i < ne; i++) {
                const uint32_t ew = 1 + rng_below(&rs, w < 6 ? w : 6), eh = 1 + rng_below(&rs, h < 6 ? h : 6);
                ed[i] = (pf_grid_edit){.rect = {(int32_t)rng_below(&rs, w - ew + 1), (int32_t)rng_below(&rs, h - eh + 1), ew, eh},
                                       .cls = (uint8_t)rng_below(&rs, 5)};
            }
            apply(m, &wd, ed, ne);
        } else { /* a wall across the map, with a door of the unit's width, then the door closed */
            const int across = (int)rng_below(&rs, 2);
            const uint32_t len = across ? w : h, at = rng_below(&rs, across ? h : w), door = rng_below(&rs, len - k + 1);
            pf_grid_edit wall[2] = {
                {.rect = across ? (pf_rect){0, (int32_t)at, door, 1} : (pf_rect){(int32_t)at, 0, 1, door}, .cls = 0},
                {.rect = across ? (pf_rect){(int32_t)(door + k), (int32_t)at, len - door - k, 1}
                                : (pf_rect){(int32_t)at, (int32_t)(door + k), 1, len - door - k},
                 .cls = 0}};
            apply(m, &wd, wall, 2);
            check_labels(c, m, &wd, k, f, checks);
            pf_grid_edit shut = {.rect = across ? (pf_rect){(int32_t)door, (int32_t)at, k, 1} : (pf_rect){(int32_t)at, (int32_t)door, 1, k},
                                 .cls = 0};
            apply(m, &wd, &shut, 1);
        }
        check_labels(c, m, &wd, k, f, checks);
    }
    pf_ctx_destroy(c);
    pf_map_destroy(m);
    free(wd.cells);
}

static void test_labels_match_flood(void **state)
{
    (void)state;
    long checks = 0;
    const char *e = getenv("PF_TEST_SEED");
    if (e) {
        uint64_t s = strtoull(e, NULL, 10), rs = s;
        one_map(s, 3 + rng_below(&rs, 63), 3 + rng_below(&rs, 53), 0, &checks);
        return;
    }
    const int maps = (int)(150 * env_scale());
    for (int i = 0; i < maps; i++) {
        uint64_t s = UINT64_C(0x5c0a) + (uint64_t)i, rs = s;
        one_map(s, 3 + rng_below(&rs, 63), 3 + rng_below(&rs, 53), 0, &checks);
    }
    print_message("%ld label pairs matched the flood fill on %d maps\n", checks, maps);
    assert_true(checks > 100000);
}

/* Maps of 1 to 8 cells a side: rows narrower than the 8 labels label_rows writes a segment. */
static void test_labels_tiny_maps(void **state)
{
    (void)state;
    long checks = 0;
    for (uint32_t w = 1; w <= 8; w++)
        for (uint32_t h = 1; h <= 8; h++)
            for (uint32_t i = 0; i < 4; i++) one_map(UINT64_C(0x71a0) + w * 100u + h * 10u + i, w, h, 0, &checks);
    print_message("%ld label pairs matched the flood fill on 256 maps of 1x1 to 8x8\n", checks);
    assert_true(checks > 1000);
}

/* Maps over a window's cells: whole-map edits and cuts of components too large to flood locally. */
static void test_labels_large_map(void **state)
{
    (void)state;
    long checks = 0;
    for (int i = 0; i < 3; i++) one_map(UINT64_C(0x1a29e) + (uint64_t)i, 400, 300, 1, &checks);
    print_message("%ld label pairs matched the flood fill on 400x300 maps\n", checks);
    assert_true(checks > 100000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_labels_match_flood), cmocka_unit_test(test_labels_tiny_maps),
                                       cmocka_unit_test(test_labels_large_map)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
