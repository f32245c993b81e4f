/* test_hostile_accel.c - hostile accelerator files (.pfa, pf_accel_load / pf_accel_load_mem): a
 * game loads them from mods and shared maps. Each class of damage is refused with PF_PARSE_ERROR
 * (or PF_WRONG_MAP, PF_UNSUPPORTED) and a message that names it, leaks nothing, and, where the
 * header or the size already gives it away, allocates nothing at all: truncation and trailing
 * bytes, huge announced counts, out-of-range node and arc ids, offsets out of order, arcs of
 * wrong costs, two arcs between one pair, another map's fingerprint, another version; and the
 * lookup that keeps a forged list of any length from making the load quadratic.
 *
 * Every file below except the first kind is resealed (both checksums recomputed, as a forger
 * would), so that the check behind the checksums is what refuses it. tests/fuzz/fuzz_accel.c
 * looks for what these miss; its crash inputs live in tests/fuzz/corpus/accel.
 */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>
#include "pathfind.h"
#include "accel/accel_internal.h"
#include "testutil.h"
#include "tmpdir.h"
#include "maps.h"

static uint32_t get32(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }
static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static void put64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}

/* Both checksums rewritten for what the bytes now hold. */
static void reseal(uint8_t *b, size_t n)
{
    put64(b + 48, XXH3_64bits(b + 64, n - 64));
    put64(b + 56, XXH3_64bits(b, 56));
}

/* The format's payload size for these counts (pf_accel.h, FILES). */
static uint64_t payload(uint32_t cells, uint32_t arcs, uint32_t core)
{
    return ((uint64_t)cells + 1u) * 4u + (uint64_t)arcs * 16u + (uint64_t)core * 4u;
}

/* One map and its baked accelerator for every case: rooms with doors, pillars and a pond of a
 * second class (30x24 inner cells, no core: a map this small never keeps one). */
typedef struct fixture {
    pf_map   *map;
    pf_accel *acc; /* as built: its sub[], first[] and arcs[] say where to aim the damage */
    uint8_t  *file;
    size_t    n;
    uint32_t  cells, arcs_at; /* padded cells; byte offset of arc 0 */
} fixture;

static fixture g_fx;

static int fx_setup(void **state)
{
    if (tmpdir_setup(state) != 0) return -1;
    const uint32_t w = 30, h = 24;
    uint8_t cells[30 * 24];
    uint64_t rs = 77;
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            uint8_t v = (x % 8 == 7 || y % 7 == 6) ? 0 : 1;
            if ((x % 8 == 7 && y % 7 == 3) || (y % 7 == 6 && x % 8 == 3)) v = 1; /* doors */
            if (v && rng_below(&rs, 14) == 0) v = 0;                           /* pillars */
            if (x >= 17 && x <= 21 && y >= 9 && y <= 12) v = 2;                /* a pond, */
            if (x == 19 && y == 11) v = 0;                                     /* a rock in it */
            cells[y * w + x] = v;
        }
    g_fx.map = grid_make(w, h, PF_MOVES_8_NO_CUT, cells, NULL);
    if (pf_accel_create(g_fx.map, &(pf_accel_desc){.threads = 1}, &g_fx.acc) != PF_OK) return -1;
    g_fx.n = pf_accel_file_size(g_fx.acc);
    g_fx.file = malloc(g_fx.n);
    if (pf_accel_save_mem(g_fx.acc, g_fx.file, g_fx.n, NULL) != PF_OK) return -1;
    g_fx.cells = g_fx.acc->cells;
    g_fx.arcs_at = 64u + (g_fx.cells + 1u) * 4u;
    return 0;
}

static int fx_teardown(void **state)
{
    free(g_fx.file);
    pf_accel_destroy(g_fx.acc);
    pf_map_destroy(g_fx.map);
    return tmpdir_teardown(state);
}

/* A copy of the baked file with room for `extra` more bytes. */
static uint8_t *copy(size_t extra)
{
    uint8_t *t = calloc(g_fx.n + extra, 1);
    memcpy(t, g_fx.file, g_fx.n);
    return t;
}

/* Loads b[0..n) with a counting allocator: the status, checked against the diag and *out; *c
 * (fresh or not) counts the allocations, and a refusal must give back every block. */
static pf_status load(const uint8_t *b, size_t n, const pf_map *m, test_tracker *c, pf_diag *d)
{
    pf_accel *a = (pf_accel *)&a;
    pf_status st = pf_accel_load_mem(b, n, "hostile.pfa", m, &(pf_accel_desc){.allocator = test_tracked(c)}, &a, d);
    assert_int_equal(d->status, st);
    if (st == PF_OK) {
        assert_non_null(a);
        pf_accel_destroy(a);
    } else {
        assert_null(a);
        assert_true(strlen(d->msg) > 0);
    }
    assert_int_equal(c->live, 0);
    return st;
}

/* The same through a file: pf_accel_load. */
static pf_status load_file(const char *name, const uint8_t *b, size_t n, test_tracker *c, pf_diag *d)
{
    const char *path = write_tmp_bytes(name, b, n);
    pf_accel *a = (pf_accel *)&a;
    pf_status st = pf_accel_load(path, g_fx.map, &(pf_accel_desc){.allocator = test_tracked(c)}, &a, d);
    assert_int_equal(d->status, st);
    if (st == PF_OK) pf_accel_destroy(a);
    else assert_null(a);
    assert_int_equal(c->live, 0);
    return st;
}

/* Refused with `want` and a message holding `why`, having allocated nothing when `none`. */
static void refused(const uint8_t *b, size_t n, pf_status want, const char *why, int none)
{
    test_tracker c = {.countdown = -1};
    pf_diag d;
    pf_status st = load(b, n, g_fx.map, &c, &d);
    if (st != want || !strstr(d.msg, why))
        fail_msg("want %s '%s', got %s '%s'", pf_status_name(want), why, pf_status_name(st), d.msg);
    if (none && c.calls) fail_msg("%lu allocations before '%s' was found", c.calls, why);
}

static void test_intact_file_loads(void **state)
{
    (void)state;
    test_tracker c = {.countdown = -1};
    pf_diag d;
    assert_int_equal(load(g_fx.file, g_fx.n, g_fx.map, &c, &d), PF_OK);
    assert_true(c.calls > 0);
    test_tracker cf = {.countdown = -1};
    assert_int_equal(load_file("intact.pfa", g_fx.file, g_fx.n, &cf, &d), PF_OK);
}

/* ---- truncation and trailing bytes: refused by the size, before anything is allocated --------- */

static void test_truncated_or_trailing(void **state)
{
    (void)state;
    uint8_t *t = copy(16);
    for (size_t len = 0; len < g_fx.n; len++) refused(t, len, PF_PARSE_ERROR, "truncated", 1);
    for (size_t len = g_fx.n + 1; len <= g_fx.n + 16; len++) refused(t, len, PF_PARSE_ERROR, "trailing", 1);
    /* through files: the header's claim is checked against the file's size, then nothing read */
    size_t lens[] = {0, 1, 63, 64, 64 + 4, g_fx.n - 1, g_fx.n + 3};
    for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
        test_tracker c = {.countdown = -1};
        pf_diag d;
        assert_int_equal(load_file("cut.pfa", t, lens[i], &c, &d), PF_PARSE_ERROR);
        assert_true(strstr(d.msg, "truncated") || strstr(d.msg, "trailing"));
        assert_int_equal(c.calls, 0);
    }
    free(t);
}

/* ---- huge announced counts ---------------------------------------------------------------------- */

static void test_huge_counts(void **state)
{
    (void)state;
    uint8_t *t = copy(0);
    /* 2^32 - 1 arcs, the payload size to match (64 GiB) and the checksum resealed, in a file that
     * holds a few KB: refused as truncated, nothing allocated, in memory and from a file */
    put32(t + 32, UINT32_MAX);
    put64(t + 40, payload(g_fx.cells, UINT32_MAX, 0));
    reseal(t, 64);
    refused(t, g_fx.n, PF_PARSE_ERROR, "truncated", 1);
    test_tracker c = {.countdown = -1};
    pf_diag d;
    assert_int_equal(load_file("huge.pfa", t, g_fx.n, &c, &d), PF_PARSE_ERROR);
    assert_non_null(strstr(d.msg, "truncated"));
    assert_int_equal(c.calls, 0);
    /* the same header on a sparse file of exactly that size: the bytes are there as far as the
     * file system says, and the one allocation asked for is the file itself (a caller's
     * allocator with a budget refuses it: out of memory, nothing leaked) */
    const uint64_t big = 64u + payload(g_fx.cells, UINT32_MAX, 0);
    const char *path = write_tmp_bytes("sparse.pfa", t, 64);
    if (truncate(path, (off_t)big) == 0) {
        test_tracker cs = {.countdown = -1, .limit = (size_t)1 << 20};
        pf_accel *a;
        assert_int_equal(pf_accel_load(path, g_fx.map, &(pf_accel_desc){.allocator = test_tracked(&cs)}, &a, &d),
                         PF_OUT_OF_MEMORY);
        assert_null(a);
        assert_int_equal(cs.calls, 1);
        assert_int_equal(cs.largest, (size_t)big);
        assert_int_equal(cs.live, 0);
    } else {
        print_message("no sparse file of %llu bytes here: that case not run\n", (unsigned long long)big);
    }
    /* every other count out of range, its payload size made to match where one can */
    struct {
        uint32_t off, v;
    } lies[] = {{24, UINT32_MAX}, {28, UINT32_MAX}, {36, UINT32_MAX}, {12, UINT32_MAX}, {12, 128}};
    for (size_t i = 0; i < sizeof lies / sizeof lies[0]; i++) {
        memcpy(t, g_fx.file, 64);
        put32(t + lies[i].off, lies[i].v);
        put64(t + 40, payload(get32(t + 24), get32(t + 32), get32(t + 36)));
        reseal(t, 64);
        refused(t, g_fx.n, PF_PARSE_ERROR, "inconsistent header", 1);
    }
    /* a payload size that disagrees with the counts, however large */
    uint64_t sizes[] = {UINT64_MAX, (uint64_t)1 << 40, g_fx.n - 64 + 16, g_fx.n - 64 - 16};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        memcpy(t, g_fx.file, 64);
        put64(t + 40, sizes[i]);
        reseal(t, 64);
        refused(t, g_fx.n, PF_PARSE_ERROR, "inconsistent header", 1);
    }
    /* the counts consistent with the size but not with the map: one subgoal fewer announced */
    memcpy(t, g_fx.file, g_fx.n);
    put32(t + 28, get32(t + 28) - 1u);
    reseal(t, g_fx.n);
    refused(t, g_fx.n, PF_PARSE_ERROR, "subgoals announced", 0);
    free(t);
}

/* ---- another map, another version, not a .pfa at all ------------------------------------------- */

static void test_wrong_map_or_version(void **state)
{
    (void)state;
    uint8_t *t = copy(0);
    /* the fingerprint of another map */
    t[16] ^= 1;
    reseal(t, 64);
    refused(t, g_fx.n, PF_WRONG_MAP, "another map", 1);
    /* the intact file for a map one cell different (a stale file after an edit) */
    const uint32_t w = pf_grid_width(g_fx.map), h = pf_grid_height(g_fx.map);
    uint8_t *cl = malloc((size_t)w * h);
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) cl[y * w + x] = pf_grid_class(g_fx.map, (int32_t)x, (int32_t)y);
    cl[2 * w + 2] = cl[2 * w + 2] ? 0 : 1;
    pf_map *m2 = grid_make(w, h, PF_MOVES_8_NO_CUT, cl, NULL);
    test_tracker c = {.countdown = -1};
    pf_diag d;
    assert_int_equal(load(g_fx.file, g_fx.n, m2, &c, &d), PF_WRONG_MAP);
    assert_int_equal(c.calls, 0);
    pf_map_destroy(m2);
    /* a map the accelerator does not take (4-connected), of the same cells */
    pf_map *m4 = grid_make(w, h, PF_MOVES_4, cl, NULL);
    assert_int_equal(load(g_fx.file, g_fx.n, m4, &c, &d), PF_UNSUPPORTED);
    assert_int_equal(c.calls, 0);
    pf_map_destroy(m4);
    free(cl);
    /* other versions, older and newer */
    uint32_t versions[] = {0, PF_ACCEL_FILE_VERSION + 1u, UINT32_MAX};
    for (size_t i = 0; i < sizeof versions / sizeof versions[0]; i++) {
        memcpy(t, g_fx.file, 64);
        put32(t + 8, versions[i]);
        reseal(t, 64);
        char why[64];
        snprintf(why, sizeof why, "version %u", versions[i]);
        refused(t, g_fx.n, PF_UNSUPPORTED, why, 1);
    }
    /* not an accelerator; a corrupted header; a corrupted payload (neither resealed) */
    memcpy(t, g_fx.file, g_fx.n);
    memcpy(t, "PFTABLE", 8);
    refused(t, g_fx.n, PF_PARSE_ERROR, "bad magic", 1);
    memcpy(t, g_fx.file, g_fx.n);
    t[30] ^= 0x40;
    refused(t, g_fx.n, PF_PARSE_ERROR, "header checksum", 1);
    memcpy(t, g_fx.file, g_fx.n);
    t[g_fx.n - 3] ^= 0x40;
    refused(t, g_fx.n, PF_PARSE_ERROR, "payload checksum", 1);
    free(t);
}

/* ---- arc offsets: not starting at 0, not ending at the arcs, out of order, on a non-subgoal ---- */

static void set_resealed(uint8_t *t, uint32_t off, uint32_t v)
{
    memcpy(t, g_fx.file, g_fx.n);
    put32(t + off, v);
    reseal(t, g_fx.n);
}

static void test_offsets(void **state)
{
    (void)state;
    const pf_accel *a = g_fx.acc;
    const uint32_t cells = g_fx.cells;
    uint8_t *t = copy(0);
    assert_true(a->narcs > 4);
    set_resealed(t, 64, 1);
    refused(t, g_fx.n, PF_PARSE_ERROR, "do not cover", 0);
    set_resealed(t, 64 + 4 * cells, a->narcs - 1u);
    refused(t, g_fx.n, PF_PARSE_ERROR, "do not cover", 0);
    /* a cell's offset past the next ones (the subgoal before it taking every arc up to the end),
     * and past every arc */
    uint32_t mid = cells / 2;
    while (mid < cells && (!a->sub[mid - 1u] || a->first[mid] == a->narcs)) mid++;
    assert_true(mid < cells);
    set_resealed(t, 64 + 4 * mid, a->narcs);
    refused(t, g_fx.n, PF_PARSE_ERROR, "out of order", 0);
    set_resealed(t, 64 + 4 * mid, UINT32_MAX);
    refused(t, g_fx.n, PF_PARSE_ERROR, "out of order", 0);
    /* a non-subgoal given the first arc of the next cell (the offsets still ascending) */
    uint32_t c = 0;
    while (c + 1u < cells && (a->sub[c] || a->first[c + 1u] == a->first[c + 2u])) c++;
    assert_true(c + 1u < cells);
    set_resealed(t, 64 + 4 * (c + 1u), a->first[c + 1u] + 1u);
    refused(t, g_fx.n, PF_PARSE_ERROR, "not a subgoal", 0);
    free(t);
}

/* ---- node and arc ids out of range ------------------------------------------------------------ */

/* Whether a shortcut owned by a cell before c has c for its middle: then damage to c's arcs is
 * found first as that shortcut's halves not adding up. */
static int middle_before(uint32_t c)
{
    const pf_accel *a = g_fx.acc;
    for (uint32_t i = 0; i < a->first[c]; i++)
        if (a->arcs[i].mid == c) return 1;
    return 0;
}

/* The index of the first arc that is a shortcut (`shortcut`) or an arc of the subgoal graph, of
 * at least two steps, whose damage the loader meets at that arc. */
static uint32_t find_arc(int shortcut, uint32_t *owner)
{
    const pf_accel *a = g_fx.acc;
    for (uint32_t c = 0; c < a->cells; c++)
        for (uint32_t i = a->first[c]; i < a->first[c + 1u]; i++)
            if ((a->arcs[i].mid < PF__ACCEL_FROM_DST) == (shortcut != 0) && a->arcs[i].a + a->arcs[i].b > 1u &&
                !middle_before(c)) {
                *owner = c;
                return i;
            }
    fail_msg("the fixture has no %s", shortcut ? "shortcut" : "graph arc");
    return 0;
}

static void test_ids_out_of_range(void **state)
{
    (void)state;
    const pf_accel *a = g_fx.acc;
    const pf_map *m = g_fx.map;
    uint8_t *t = copy(0);
    uint32_t go, so;
    const uint32_t gi = find_arc(0, &go), si = find_arc(1, &so);
    const uint32_t g_to = g_fx.arcs_at + 16u * gi, s_mid = g_fx.arcs_at + 16u * si + 4u;
    /* a subgoal of the other class, and a cell that is none */
    uint32_t other = UINT32_MAX, plain = UINT32_MAX;
    for (uint32_t c = 0; c < a->cells; c++) {
        if (a->sub[c] && m->cls[c] && m->cls[c] != m->cls[go] && other == UINT32_MAX) other = c;
        if (!a->sub[c] && m->cls[c] && plain == UINT32_MAX) plain = c;
    }
    assert_true(other != UINT32_MAX && plain != UINT32_MAX);
    const uint32_t tos[] = {a->cells, a->cells + 1u, 0xFFFFFFF0u, UINT32_MAX, 0 /* the border */, go, other, plain};
    for (size_t i = 0; i < sizeof tos / sizeof tos[0]; i++) {
        set_resealed(t, g_to, tos[i]);
        refused(t, g_fx.n, PF_PARSE_ERROR, "not another subgoal of the same class", 0);
    }
    const uint32_t mids[] = {a->cells, 0xFFFFFFF0u, PF__ACCEL_FROM_DST - 1u, plain, so, a->arcs[si].to};
    for (size_t i = 0; i < sizeof mids / sizeof mids[0]; i++) {
        set_resealed(t, s_mid, mids[i]);
        refused(t, g_fx.n, PF_PARSE_ERROR, "not a third subgoal", 0);
    }
    /* a middle that is a subgoal, but not the one whose arcs make the shortcut up */
    uint32_t wrong = 0;
    while (wrong < a->cells && (!a->sub[wrong] || wrong == so || wrong == a->arcs[si].to || wrong == a->arcs[si].mid))
        wrong++;
    set_resealed(t, s_mid, wrong);
    refused(t, g_fx.n, PF_PARSE_ERROR, "do not make it up", 0);
    free(t);
}

/* A file with the subgoals `core` [k] made the core (the hierarchy's own arcs unchanged). */
static uint8_t *with_core(const uint32_t *core, uint32_t k, size_t *n)
{
    *n = g_fx.n + 4u * k;
    uint8_t *t = copy(4u * k);
    for (uint32_t i = 0; i < k; i++) put32(t + g_fx.n + 4u * i, core[i]);
    put32(t + 36, k);
    put64(t + 40, payload(g_fx.cells, g_fx.acc->narcs, k));
    reseal(t, *n);
    return t;
}

static void test_core_entries(void **state)
{
    (void)state;
    const pf_accel *a = g_fx.acc;
    /* nodes at the top of the hierarchy (no arcs up) can be a core of their own: that loads */
    uint32_t top[2], nt = 0, plain = UINT32_MAX;
    for (uint32_t c = 0; c < a->cells; c++) {
        if (a->sub[c] && a->first[c] == a->first[c + 1u] && nt < 2) top[nt++] = c;
        if (!a->sub[c] && plain == UINT32_MAX) plain = c;
    }
    assert_int_equal(nt, 2);
    size_t n;
    uint8_t *t = with_core(top, 2, &n);
    test_tracker c = {.countdown = -1};
    pf_diag d;
    assert_int_equal(load(t, n, g_fx.map, &c, &d), PF_OK);
    free(t);
    struct {
        uint32_t v[2];
        uint32_t k;
    } bad[] = {
        {{a->cells, 0}, 1},     {{UINT32_MAX, 0}, 1},   {{plain, 0}, 1},
        {{top[1], top[0]}, 2}, /* descending */
        {{top[0], top[0]}, 2}, /* twice */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        t = with_core(bad[i].v, bad[i].k, &n);
        test_tracker ci = {.countdown = -1};
        assert_int_equal(load(t, n, g_fx.map, &ci, &d), PF_PARSE_ERROR);
        assert_non_null(strstr(d.msg, "not a subgoal in order"));
        free(t);
    }
    /* a core node whose list leads out of the core */
    uint32_t owner;
    (void)find_arc(0, &owner);
    t = with_core(&owner, 1, &n);
    test_tracker co = {.countdown = -1};
    assert_int_equal(load(t, n, g_fx.map, &co, &d), PF_PARSE_ERROR);
    assert_non_null(strstr(d.msg, "leaves the core"));
    free(t);
}

/* ---- costs ---------------------------------------------------------------------------------------- */

static void test_costs(void **state)
{
    (void)state;
    const pf_accel *a = g_fx.acc;
    uint8_t *t = copy(0);
    uint32_t go, so;
    const uint32_t gi = find_arc(0, &go), si = find_arc(1, &so);
    const uint32_t g_a = g_fx.arcs_at + 16u * gi + 8u, s_a = g_fx.arcs_at + 16u * si + 8u;
    struct {
        uint32_t    off, v;
        const char *why;
    } bad[] = {
        {g_a, 1u << 30, "cost out of range"},
        {g_a + 4u, UINT32_MAX, "cost out of range"},
        {g_a, a->arcs[gi].a + 1u, "not legal or not its cost"},
        {s_a, 1u << 30, "cost out of range"},
        {s_a, a->arcs[si].a + 1u, "do not make it up"},
        {s_a + 4u, a->arcs[si].b + 2u, "do not make it up"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        set_resealed(t, bad[i].off, bad[i].v);
        refused(t, g_fx.n, PF_PARSE_ERROR, bad[i].why, 0);
    }
    /* no steps at all; fewer than the octile distance between its ends */
    memcpy(t, g_fx.file, g_fx.n);
    put32(t + g_a, 0);
    put32(t + g_a + 4u, 0);
    reseal(t, g_fx.n);
    refused(t, g_fx.n, PF_PARSE_ERROR, "cost out of range", 0);
    const pf__accel_cp p = pf__accel_cp_shape(g_fx.map->pw, go, a->arcs[gi].to);
    assert_true(p.ns + p.nd > 1u);
    memcpy(t, g_fx.file, g_fx.n);
    put32(t + g_a, p.ns ? p.ns - 1u : 1u);
    put32(t + g_a + 4u, p.ns ? p.nd : p.nd - 1u);
    reseal(t, g_fx.n);
    refused(t, g_fx.n, PF_PARSE_ERROR, "below the octile distance", 0);
    free(t);
}

/* ---- two arcs between one pair; lists of any length ------------------------------------------ */

/* A file with arc `i`'s copy (to, mid, a, b as given) inserted right after it. */
static uint8_t *with_arc_after(uint32_t i, const uint32_t arc[4], size_t *n)
{
    const pf_accel *a = g_fx.acc;
    *n = g_fx.n + 16u;
    uint8_t *t = calloc(*n, 1);
    memcpy(t, g_fx.file, g_fx.arcs_at + 16u * (i + 1u));
    for (int f = 0; f < 4; f++) put32(t + g_fx.arcs_at + 16u * (i + 1u) + 4u * (uint32_t)f, arc[f]);
    memcpy(t + g_fx.arcs_at + 16u * (i + 2u), g_fx.file + g_fx.arcs_at + 16u * (i + 1u), g_fx.n - g_fx.arcs_at - 16u * (i + 1u));
    for (uint32_t c = 0; c <= a->cells; c++)
        if (a->first[c] > i) put32(t + 64u + 4u * c, a->first[c] + 1u);
    put32(t + 32, a->narcs + 1u);
    put64(t + 40, *n - 64u);
    reseal(t, *n);
    return t;
}

static void test_duplicate_arcs(void **state)
{
    (void)state;
    const pf_accel *a = g_fx.acc;
    uint32_t go, so;
    const uint32_t gi = find_arc(0, &go), si = find_arc(1, &so);
    /* the same arc twice, and a second arc to the same end with other (legal) costs: a shortcut
     * through the owner checked against one and unpacked through the other */
    const pf__accel_arc *g = &a->arcs[gi], *sc = &a->arcs[si];
    const uint32_t same[4] = {g->to, g->mid, g->a, g->b};
    const uint32_t dearer[4] = {sc->to, sc->mid, sc->a, sc->b};
    size_t n;
    uint8_t *t = with_arc_after(gi, same, &n);
    test_tracker c = {.countdown = -1};
    pf_diag d;
    assert_int_equal(load(t, n, g_fx.map, &c, &d), PF_PARSE_ERROR);
    assert_non_null(strstr(d.msg, "second arc between the same two nodes"));
    free(t);
    t = with_arc_after(si, dearer, &n);
    assert_int_equal(load(t, n, g_fx.map, &c, &d), PF_PARSE_ERROR);
    assert_non_null(strstr(d.msg, "second arc between the same two nodes"));
    free(t);
}

/* pf__accel_find on lists long enough to be ordered by target (a forged middle's list of any
 * length is searched by halving, not scanned for every shortcut through it): the first arc to
 * each target, as the scan finds it, for lists with and without repeats. */
static void test_find_in_long_lists(void **state)
{
    (void)state;
    enum { CELLS = 4, ARCS = 300 };
    uint32_t first[CELLS + 1] = {0, 5, 5 + 2 * PF__ACCEL_FIND_SCAN, 5 + 2 * PF__ACCEL_FIND_SCAN, ARCS};
    pf__accel_arc arcs[ARCS];
    uint64_t rs = 5;
    for (uint32_t i = 0; i < ARCS; i++) arcs[i] = (pf__accel_arc){rng_below(&rs, i < 100 ? 500u : 60u), 0, 1, 0};
    pf_accel acc;
    memset(&acc, 0, sizeof acc);
    acc.cells = CELLS;
    acc.narcs = ARCS;
    acc.first = first;
    acc.arcs = arcs;
    test_tracker c = {.countdown = -1};
    acc.alloc = test_tracked(&c);
    pf__accel_finder f;
    assert_true(pf__accel_finder_make(&acc, 0, &f));
    assert_non_null(f.by_to);
    for (uint32_t o = 0; o < CELLS; o++)
        for (uint32_t to = 0; to < 510; to++) {
            uint32_t want = UINT32_MAX;
            for (uint32_t k = first[o]; k < first[o + 1] && want == UINT32_MAX; k++)
                if (arcs[k].to == to) want = k;
            assert_int_equal(pf__accel_find(&acc, &f, o, to), want);
        }
    /* the first arc (by index) of a long list that repeats an earlier one's end: the loader's
     * refusal of duplicates there, found by the sort */
    uint32_t twice = UINT32_MAX;
    for (uint32_t o = 0; o < CELLS; o++) {
        if (first[o + 1] - first[o] <= PF__ACCEL_FIND_SCAN) continue;
        for (uint32_t k = first[o]; k < first[o + 1] && twice == UINT32_MAX; k++)
            for (uint32_t j = first[o]; j < k; j++)
                if (arcs[j].to == arcs[k].to) {
                    twice = k;
                    break;
                }
    }
    assert_true(twice != UINT32_MAX);
    assert_int_equal(f.twice, twice);
    pf__accel_finder_free(&acc, &f);
    assert_int_equal(c.live, 0);
    /* lists no longer than the scan: nothing allocated */
    first[2] = first[1] + PF__ACCEL_FIND_SCAN;
    first[3] = first[4] = first[2];
    acc.narcs = first[4];
    assert_true(pf__accel_finder_make(&acc, 0, &f));
    assert_null(f.by_to);
    assert_int_equal(c.live, 0);
}

/* What is not a regular file is refused before a byte is read: a FIFO with no writer hung the
 * load in its open, and with a writer that sends nothing in its first read (the alarm fails the
 * test where it would hang). */
static void test_not_regular_files(void **state)
{
    (void)state;
    const char *fifo = tmp("acc.fifo");
    assert_int_equal(mkfifo(fifo, 0600), 0);
    pf_accel *a = (pf_accel *)&a;
    pf_diag d;
    alarm(30);
    assert_int_equal(pf_accel_load(fifo, g_fx.map, NULL, &a, &d), PF_IO_ERROR);
    assert_null(a);
    assert_non_null(strstr(d.msg, "not a regular file"));
    int wfd = open(fifo, O_RDWR); /* a writer that holds it open and sends nothing */
    assert_true(wfd >= 0);
    assert_int_equal(pf_accel_load(fifo, g_fx.map, NULL, &a, &d), PF_IO_ERROR);
    assert_non_null(strstr(d.msg, "not a regular file"));
    close(wfd);
    assert_int_equal(pf_accel_load("/dev/zero", g_fx.map, NULL, &a, &d), PF_IO_ERROR);
    assert_non_null(strstr(d.msg, "not a regular file"));
    assert_int_equal(pf_accel_load(tmp(""), g_fx.map, NULL, &a, &d), PF_IO_ERROR);
    assert_non_null(strstr(d.msg, "is a directory"));
    alarm(0);
    unlink(fifo);
    /* and a regular file still loads */
    const char *good = write_tmp_bytes("good.pfa", g_fx.file, g_fx.n);
    assert_int_equal(pf_accel_load(good, g_fx.map, NULL, &a, &d), PF_OK);
    pf_accel_destroy(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_intact_file_loads), cmocka_unit_test(test_truncated_or_trailing),
        cmocka_unit_test(test_huge_counts),       cmocka_unit_test(test_wrong_map_or_version),
        cmocka_unit_test(test_offsets),           cmocka_unit_test(test_ids_out_of_range),
        cmocka_unit_test(test_core_entries),      cmocka_unit_test(test_costs),
        cmocka_unit_test(test_duplicate_arcs),    cmocka_unit_test(test_find_in_long_lists),
        cmocka_unit_test(test_not_regular_files),
    };
    return cmocka_run_group_tests(tests, fx_setup, fx_teardown);
}
