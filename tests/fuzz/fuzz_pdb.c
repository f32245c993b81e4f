/* fuzz_pdb.c - baked pattern databases (pf_pdb_load_mem) from arbitrary bytes.
 *
 * The domain is two counters a, b in 0..9 (a move changes one by 1), with two additive patterns:
 * one keeps a (ranks a * 10 + b, groups of 10; stored relative to a base, a / 2), the other b. As
 * in fuzz_table.c, byte 0 picks a mode so that mutations get past the checksums:
 *   bits 0-1   0: the rest of the input is the file, as is
 *              1: the rest is the file, with its three checksums recomputed (a forger's file)
 *              2: the valid baked database, with the rest applied as (offset, xor) pairs, then the
 *                 checksums recomputed
 *              3: the same without recomputing them
 *   bits 2-4   failing allocation number (1..7; 0 = none)
 * PF_FUZZ_VERBOSE=1 prints each load's status and message.
 * A database that loads must answer every state with a value >= 0 or INFINITY (never NaN), bake
 * back to the same bytes, and, when it is the pristine file, give the exact a + b. */
#include <math.h>
#include <xxhash.h>
#include "fuzz_common.h"

static void succ(const void *s, pf_gen_sink *out, void *u)
{
    (void)u;
    const uint8_t *x = s;
    for (int i = 0; i < 2; i++)
        for (int d = -1; d <= 1; d += 2) {
            int v = x[i] + d;
            if (v < 0 || v > 9) continue;
            uint8_t y[2] = {x[0], x[1]};
            y[i] = (uint8_t)v;
            pf_gen_push(out, y, 1.0, (uint32_t)(2 * i + (d > 0)));
        }
}
static uint64_t rank_a(const void *s, void *u)
{
    (void)u;
    const uint8_t *x = s;
    return (uint64_t)x[0] * 10 + x[1];
}
static uint64_t rank_b(const void *s, void *u)
{
    (void)u;
    const uint8_t *x = s;
    return (uint64_t)x[1] * 10 + x[0];
}
static void unrank_a(uint64_t r, void *s, void *u)
{
    (void)u;
    uint8_t *x = s;
    x[0] = (uint8_t)(r / 10);
    x[1] = (uint8_t)(r % 10);
}
static void unrank_b(uint64_t r, void *s, void *u)
{
    (void)u;
    uint8_t *x = s;
    x[1] = (uint8_t)(r / 10);
    x[0] = (uint8_t)(r % 10);
}
static uint32_t half_a(const void *s, void *u)
{
    (void)u;
    return ((const uint8_t *)s)[0] / 2u;
}

static const uint8_t g_goal[2] = {0, 0};
static const pf_pdb_pattern g_pats[2] = {
    {.size = 100, .group = 10, .rank = rank_a, .unrank = unrank_a, .base = half_a},
    {.size = 100, .group = 10, .rank = rank_b, .unrank = unrank_b},
};
static uint8_t *g_baked;
static size_t g_baked_size;

static pf_pdb_desc desc(fuzz_alloc_state *as)
{
    return (pf_pdb_desc){.state_size = 2, .successors = succ, .goal = g_goal, .patterns = g_pats, .pattern_count = 2,
                         .domain_id = 42, .threads = 1, .allocator = as ? fuzz_alloc_hooks(as) : (pf_allocator){0}};
}

static void setup(void)
{
    if (g_baked) return;
    pf_pdb_desc d = desc(NULL);
    pf_pdb *p;
    FUZZ_CHECK(pf_pdb_build(&d, &p) == PF_OK);
    g_baked_size = pf_pdb_file_size(p);
    g_baked = malloc(g_baked_size);
    FUZZ_CHECK(pf_pdb_save_mem(p, g_baked, g_baked_size, NULL) == PF_OK);
    pf_pdb_destroy(p);
}

static void put64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}

/* Recomputes the table, directory and header checksums over whatever bytes are there. */
static void fix_checksums(uint8_t *b, size_t size)
{
    const size_t dir = 64 + 2 * 32;
    if (size < dir) return;
    put64(b + 40, XXH3_64bits(b + dir, size - dir));
    put64(b + 48, XXH3_64bits(b + 64, 2 * 32));
    put64(b + 56, XXH3_64bits(b, 56));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    setup();
    if (size == 0) return 0;
    int mode = data[0] & 3;
    unsigned fail = (data[0] >> 2) & 7;
    uint8_t *file;
    size_t fsize;
    if (mode <= 1) {
        fsize = size - 1;
        file = malloc(fsize ? fsize : 1);
        memcpy(file, data + 1, fsize);
        if (mode == 1) fix_checksums(file, fsize);
    } else {
        fsize = g_baked_size;
        file = malloc(fsize);
        memcpy(file, g_baked, fsize);
        for (size_t i = 1; i + 1 < size; i += 2) file[data[i] % fsize] ^= data[i + 1];
        if (mode == 2) fix_checksums(file, fsize);
    }
    int pristine = fsize == g_baked_size && memcmp(file, g_baked, fsize) == 0;

    fuzz_alloc_state as = {.fail_at = fail, .max_size = (size_t)1 << 20};
    pf_pdb_desc d = desc(&as);
    pf_pdb *p = (pf_pdb *)&p;
    pf_diag diag;
    memset(&diag, 0x5a, sizeof diag);
    pf_status st = pf_pdb_load_mem(file, fsize, "fuzz.pfp", &d, &p, &diag);
    fuzz_check_diag(&diag, st);
    if (getenv("PF_FUZZ_VERBOSE")) fprintf(stderr, "%s%s\n", pf_status_name(st), st == PF_OK ? "" : diag.msg);
    if (st == PF_OK) {
        FUZZ_CHECK(p != NULL);
        for (uint8_t a = 0; a < 10; a++)
            for (uint8_t b = 0; b < 10; b++) {
                uint8_t s[2] = {a, b};
                double v = pf_pdb_value(p, s);
                FUZZ_CHECK(v >= 0.0); /* INFINITY passes, NaN does not */
                if (pristine) FUZZ_CHECK(v == (double)(a + b));
            }
        /* a file that loads is canonical: baking it again gives the same bytes */
        size_t need = 0;
        uint8_t *again = malloc(fsize);
        FUZZ_CHECK(pf_pdb_save_mem(p, again, fsize, &need) == PF_OK && need == fsize);
        FUZZ_CHECK(memcmp(again, file, fsize) == 0);
        free(again);
        pf_pdb_destroy(p);
    } else {
        FUZZ_CHECK(p == NULL);
        FUZZ_CHECK(st == PF_PARSE_ERROR || st == PF_UNSUPPORTED || st == PF_WRONG_MAP || st == PF_OUT_OF_MEMORY);
        if (pristine && !fail) FUZZ_CHECK(!"the database's own baked file was rejected");
    }
    FUZZ_CHECK(fuzz_alloc_live(&as) == 0);
    fuzz_alloc_reset(&as);
    free(file);
    return 0;
}
