/* fuzz_accel.c - baked accelerators (pf_accel_load_mem) from arbitrary bytes, then queries on them.
 *
 * The map is fixed: 26x20 cells of rooms, doors, pillars and a pond of a second class with a rock
 * in it (subgoals of both classes, so arcs between classes can be forged). Its hierarchy comes in three baked forms, since a small map
 * never keeps a core when built (the contraction stops only where the nodes left average 32 arcs):
 *   0  as pf_accel_create bakes it (no core)
 *   1  with a small core forged from it: the last nodes of the hierarchy (a set closed under its
 *      arcs, found by peeling nodes whose arcs all lead into the set), each core arc also in the
 *      list of its other end, as the builder stores a core; about a third of the nodes, so AUTO
 *      crosses it with the landmarks' A*
 *   2  the same with most nodes in the core (AUTO then answers by JPS; the file still loads)
 * Byte 0 picks:
 *   bits 0-1   the form (3 reads as 1)
 *   bits 2-3   0: the rest of the input is the file, as is
 *              1: the rest is the file, with both checksums recomputed (a forger's file)
 *              2: the form's file, the rest applied as (offset lo, offset hi, xor) triples, checksums
 *                 recomputed
 *              3: the form's hierarchy edited by the rest as operations (edit_ops), written back
 *                 with its counts, offsets and checksums made consistent: arcs deleted, duplicated,
 *                 shortcuts added through an arc's owner, and whole u32 words of the file set.
 *                 Most such files load (a hierarchy with arcs missing, or extra ones), which is
 *                 what the queries' checks need
 *   bits 4-6   failing allocation number (1..7; 0 = none), over the load, the context and queries
 *   bit 7      short_query = 1 (the accelerator for every query) instead of the default
 *
 * What a file that loads must do, and why not more: the loader checks that every arc is a path of
 * the map of exactly its cost (a legal canonical path, or two arcs of its middle that add up,
 * each cheaper), so every answer is a legal path whose reported cost is its own. It cannot check
 * that the hierarchy holds every arc a shortest path needs (that is the build's witness searches,
 * seconds to a minute): a forged file with arcs left out answers with a longer path, or none. So:
 *   - the form's own file answers every query exactly (the oracle's cost), through the accelerator
 *     where AUTO takes it;
 *   - any other file that loads answers each query with PF_OK and a legal path from start to goal
 *     whose cost is the path's and at least the optimum, or PF_NO_PATH (also for an unreachable
 *     goal, which the components decide before the accelerator runs), or an error status; never a
 *     crash, a sanitizer report, a hang or a leak;
 *   - a file that loads saves back to the same bytes (canonical).
 * PF_FUZZ_VERBOSE=1 prints the load's status and message and every query's status.
 */
#include <math.h>
#include <xxhash.h>
#include "fuzz_common.h"
#include "oracle.h"

#define MAP_W 26u
#define MAP_H 20u
#define NPAIRS 24u
#define FROM_SRC 0xFFFFFFFFu
#define FROM_DST 0xFFFFFFFEu

static pf_map *g_map;
static uint8_t *g_file[3];
static size_t g_size[3];
static uint32_t g_pair[NPAIRS][2];
static double g_want[NPAIRS];

static uint32_t get32(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }
static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static void put64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}

/* Recomputes the payload checksum (over every byte after the header) and the header's, as someone
 * forging a file would. */
static void fix_checksums(uint8_t *b, size_t size)
{
    if (size < 64) return;
    put64(b + 48, XXH3_64bits(b + 64, size - 64));
    put64(b + 56, XXH3_64bits(b, 56));
}

static uint64_t g_rs = 0x9E3779B97F4A7C15u;
static uint32_t rnd(uint32_t n)
{
    g_rs ^= g_rs << 13;
    g_rs ^= g_rs >> 7;
    g_rs ^= g_rs << 17;
    return (uint32_t)(g_rs % n);
}

/* Form 0's file with the nodes of a closed set K (about `want` of them) made a core: each of their
 * lists also holds the arcs of other K nodes to them, reversed. A reversed arc of the subgoal graph
 * keeps its canonical path, now named from the other end; a shortcut keeps its middle, whose list
 * holds both halves either way. */
static uint8_t *forge_core(const uint8_t *b, size_t n, uint32_t want, size_t *out_size)
{
    const uint32_t cells = get32(b + 24), narcs = get32(b + 32);
    FUZZ_CHECK(get32(b + 36) == 0 && n == 64 + ((size_t)cells + 1) * 4 + (size_t)narcs * 16);
    const uint8_t *first = b + 64, *arcs = first + ((size_t)cells + 1) * 4;
#define FIRST(c) get32(first + 4 * (size_t)(c))
#define ARC(i, f) get32(arcs + 16 * (size_t)(i) + 4 * (f))
    uint8_t *sub = calloc(cells, 1), *in_k = calloc(cells, 1);
    /* the subgoals: every end of an arc and every owner (a map this size has no isolated subgoal
     * the queries need; an isolated one would be a core node of no arcs, harmless either way) */
    for (uint32_t c = 0; c < cells; c++)
        for (uint32_t i = FIRST(c); i < FIRST(c + 1); i++) sub[c] = sub[ARC(i, 0)] = 1;
    uint32_t k = 0;
    for (int grew = 1; grew && k < want;) {
        grew = 0;
        for (uint32_t c = cells; c-- > 0 && k < want;) {
            if (!sub[c] || in_k[c]) continue;
            int closed = 1;
            for (uint32_t i = FIRST(c); i < FIRST(c + 1) && closed; i++) closed = in_k[ARC(i, 0)];
            if (closed) {
                in_k[c] = 1;
                k++;
                grew = 1;
            }
        }
    }
    uint32_t extra = 0;
    for (uint32_t c = 0; c < cells; c++)
        if (in_k[c])
            for (uint32_t i = FIRST(c); i < FIRST(c + 1); i++) extra++;
    const uint32_t narcs2 = narcs + extra;
    const size_t size = 64 + ((size_t)cells + 1) * 4 + (size_t)narcs2 * 16 + (size_t)k * 4;
    uint8_t *o = calloc(size, 1);
    memcpy(o, b, 64);
    put32(o + 32, narcs2);
    put32(o + 36, k);
    put64(o + 40, size - 64);
    uint8_t *of = o + 64, *oa = of + ((size_t)cells + 1) * 4;
    uint32_t at = 0;
    for (uint32_t c = 0; c < cells; c++) {
        put32(of + 4 * (size_t)c, at);
        for (uint32_t i = FIRST(c); i < FIRST(c + 1); i++, at++)
            for (int f = 0; f < 4; f++) put32(oa + 16 * (size_t)at + 4 * (size_t)f, ARC(i, f));
        if (!in_k[c]) continue;
        for (uint32_t u = 0; u < cells; u++) {
            if (!in_k[u]) continue;
            for (uint32_t i = FIRST(u); i < FIRST(u + 1); i++) {
                if (ARC(i, 0) != c) continue;
                uint32_t mid = ARC(i, 1);
                if (mid == FROM_SRC) mid = FROM_DST;
                else if (mid == FROM_DST) mid = FROM_SRC;
                put32(oa + 16 * (size_t)at, u);
                put32(oa + 16 * (size_t)at + 4, mid);
                put32(oa + 16 * (size_t)at + 8, ARC(i, 2));
                put32(oa + 16 * (size_t)at + 12, ARC(i, 3));
                at++;
            }
        }
    }
    put32(of + 4 * (size_t)cells, at);
    FUZZ_CHECK(at == narcs2);
    uint8_t *oc = oa + (size_t)narcs2 * 16;
    for (uint32_t c = 0, j = 0; c < cells; c++)
        if (in_k[c]) put32(oc + 4 * (size_t)j++, c);
#undef FIRST
#undef ARC
    fix_checksums(o, size);
    free(sub);
    free(in_k);
    *out_size = size;
    return o;
}

/* ---- mode 3: a hierarchy edited arc by arc ---------------------------------------------------- */

typedef struct arc5 {
    uint32_t owner, to, mid, a, b;
} arc5;

typedef struct hier {
    arc5    *v;
    uint32_t n, cap;
} hier;

static void hier_insert(hier *h, uint32_t at, arc5 e)
{
    if (h->n == h->cap) {
        h->cap = h->cap ? 2 * h->cap : 256;
        h->v = realloc(h->v, h->cap * sizeof *h->v);
        FUZZ_CHECK(h->v != NULL);
    }
    memmove(h->v + at + 1, h->v + at, (h->n - at) * sizeof *h->v);
    h->v[at] = e;
    h->n++;
}

/* Where owner's list ends in h (arcs are kept in the order of their owners, as in the file). */
static uint32_t list_end(const hier *h, uint32_t owner)
{
    uint32_t lo = 0, hi = h->n;
    while (lo < hi) {
        uint32_t m = lo + (hi - lo) / 2;
        if (h->v[m].owner <= owner) lo = m + 1;
        else hi = m;
    }
    return lo;
}

/* The form's file edited by ops of 3 bytes (kind, index lo, index hi; then 1 or 4 more bytes):
 *   kind % 4 = 0  delete arc i
 *              1  duplicate arc i (the copy right after it)
 *              2  + 1 byte k: a shortcut through arc i's owner v, from i's end to the end of arc k
 *                 of v's list (k modulo its length), costs the sum, stored in the list of i's end
 *                 unless that list has an arc to it already
 *              3  + 4 bytes: set u32 word i of the written file (any field, after the rest)
 * Returns the file, with header counts, offsets and checksums written for what it holds. */
static uint8_t *edit_ops(int form, const uint8_t *data, size_t size, size_t *out_size)
{
    const uint8_t *b = g_file[form];
    const uint32_t cells = get32(b + 24), narcs = get32(b + 32), core = get32(b + 36);
    const uint8_t *first = b + 64, *arcs = first + ((size_t)cells + 1) * 4, *cores = arcs + (size_t)narcs * 16;
    hier h = {0};
    for (uint32_t c = 0; c < cells; c++)
        for (uint32_t i = get32(first + 4 * (size_t)c); i < get32(first + 4 * (size_t)c + 4); i++) {
            const uint8_t *a = arcs + 16 * (size_t)i;
            hier_insert(&h, h.n, (arc5){c, get32(a), get32(a + 4), get32(a + 8), get32(a + 12)});
        }
    size_t i = 0;
    const uint8_t *sets = NULL;
    size_t nsets = 0;
    for (; i + 3 <= size; i += 3) {
        const int kind = data[i] & 3;
        const uint32_t x = data[i + 1] | (uint32_t)data[i + 2] << 8;
        if (kind == 3) {
            sets = data + i; /* applied after writing: every word set from here on */
            nsets = size - i;
            break;
        }
        if (!h.n) continue;
        const uint32_t at = x % h.n;
        if (kind == 0) {
            memmove(h.v + at, h.v + at + 1, (h.n - at - 1) * sizeof *h.v);
            h.n--;
        } else if (kind == 1) {
            if (h.n < 4 * narcs + 64) hier_insert(&h, at + 1, h.v[at]);
        } else if (i + 4 <= size) {
            const arc5 e = h.v[at];
            const uint32_t end = list_end(&h, e.owner);
            uint32_t beg = end;
            while (beg > 0 && h.v[beg - 1].owner == e.owner) beg--;
            const arc5 f = h.v[beg + data[i + 3] % (end - beg)];
            i++;
            if (f.to == e.to || h.n >= 4 * narcs + 64) continue;
            /* not where e's end has an arc to f's already: that file is refused as it stands
             * (kind 1 makes those) */
            const uint32_t to_end = list_end(&h, e.to);
            int has = 0;
            for (uint32_t k = to_end; k > 0 && h.v[k - 1].owner == e.to && !has; k--) has = h.v[k - 1].to == f.to;
            if (!has) hier_insert(&h, to_end, (arc5){e.to, f.to, e.owner, e.a + f.a, e.b + f.b});
        }
    }
    const size_t fsize = 64 + ((size_t)cells + 1) * 4 + (size_t)h.n * 16 + (size_t)core * 4;
    uint8_t *o = calloc(fsize, 1);
    memcpy(o, b, 64);
    put32(o + 32, h.n);
    put64(o + 40, fsize - 64);
    uint8_t *of = o + 64, *oa = of + ((size_t)cells + 1) * 4;
    for (uint32_t c = 0, k = 0; c <= cells; c++) {
        while (k < h.n && h.v[k].owner < c) k++;
        put32(of + 4 * (size_t)c, k);
    }
    for (uint32_t k = 0; k < h.n; k++) {
        put32(oa + 16 * (size_t)k, h.v[k].to);
        put32(oa + 16 * (size_t)k + 4, h.v[k].mid);
        put32(oa + 16 * (size_t)k + 8, h.v[k].a);
        put32(oa + 16 * (size_t)k + 12, h.v[k].b);
    }
    memcpy(oa + (size_t)h.n * 16, cores, (size_t)core * 4);
    for (size_t k = 0; sets && k + 7 <= nsets; k += 7) {
        const uint32_t w = sets[k + 1] | (uint32_t)sets[k + 2] << 8;
        put32(o + 4 * (w % (fsize / 4)), get32(sets + k + 3));
    }
    fix_checksums(o, fsize);
    free(h.v);
    *out_size = fsize;
    return o;
}

static void setup(void)
{
    if (g_map) return;
    uint8_t cells[MAP_W * MAP_H];
    for (uint32_t y = 0; y < MAP_H; y++)
        for (uint32_t x = 0; x < MAP_W; x++) {
            uint8_t v = (x % 7 == 6 || y % 6 == 5) ? 0 : 1;
            if ((x % 7 == 6 && y % 6 == 2) || (y % 6 == 5 && x % 7 == 3)) v = 1; /* doors */
            if (v && rnd(12) == 0) v = 0;                                         /* pillars */
            if (x >= 15 && x <= 19 && y >= 7 && y <= 10) v = 2;                   /* a pond, */
            if (x == 17 && y == 8) v = 0;                                         /* a rock in it */
            cells[y * MAP_W + x] = v;
        }
    FUZZ_CHECK(pf_grid_create(&(pf_grid_desc){.width = MAP_W, .height = MAP_H, .cells = cells}, &g_map) == PF_OK);
    pf_accel *a;
    FUZZ_CHECK(pf_accel_create(g_map, &(pf_accel_desc){.threads = 1}, &a) == PF_OK);
    g_size[0] = pf_accel_file_size(a);
    g_file[0] = malloc(g_size[0]);
    FUZZ_CHECK(pf_accel_save_mem(a, g_file[0], g_size[0], NULL) == PF_OK);
    const uint32_t nodes = pf_accel_get_info(a).subgoals;
    pf_accel_destroy(a);
    g_file[1] = forge_core(g_file[0], g_size[0], nodes / 3, &g_size[1]);
    g_file[2] = forge_core(g_file[0], g_size[0], nodes - nodes / 8, &g_size[2]);
    for (int f = 0; f < 3; f++) {
        pf_diag d;
        pf_status st = pf_accel_load_mem(g_file[f], g_size[f], "setup", g_map, NULL, &a, &d);
        if (st != PF_OK) fprintf(stderr, "form %d: %s\n", f, d.msg);
        FUZZ_CHECK(st == PF_OK);
        if (f) FUZZ_CHECK(pf_accel_get_info(a).core > 0);
        pf_accel_destroy(a);
    }
    /* pairs of open cells, near and far, and one into the pond from dry land (no path) */
    for (uint32_t i = 0; i < NPAIRS; i++) {
        uint32_t p[2];
        for (int e = 0; e < 2; e++) {
            int32_t x, y;
            do {
                x = (int32_t)rnd(MAP_W);
                y = (int32_t)rnd(MAP_H);
            } while (!pf_grid_class(g_map, x, y) || (i < NPAIRS - 1 && pf_grid_class(g_map, x, y) != 1));
            p[e] = pf_grid_node(g_map, x, y);
        }
        if (i == NPAIRS - 1) p[0] = pf_grid_node(g_map, 0, 0), p[1] = pf_grid_node(g_map, 16, 8);
        g_pair[i][0] = p[0];
        g_pair[i][1] = p[1];
        g_want[i] = oracle_cost(g_map, p[0], p[1]);
    }
    FUZZ_CHECK(isinf(g_want[NPAIRS - 1]));
}

static void run_queries(pf_ctx *c, int pristine, int form, unsigned fail, int verbose)
{
    const uint32_t cap = pf_map_node_count(g_map);
    uint32_t *nodes = malloc(cap * sizeof *nodes);
    for (uint32_t i = 0; i < NPAIRS; i++) {
        const uint32_t s = g_pair[i][0], g = g_pair[i][1];
        const double want = g_want[i];
        pf_path path = {.nodes = nodes, .capacity = cap};
        pf_stats stats;
        pf_status st = pf_search(c, s, g, &(pf_search_desc){.algo = PF_ALGO_AUTO}, &path, &stats);
        if (verbose)
            fprintf(stderr, "  %u -> %u: %s, cost %g (oracle %g), algo %s, detail %#x\n", s, g, pf_status_name(st),
                    stats.cost, want, pf_algo_name(stats.algo), stats.detail);
        if (fail && st == PF_OUT_OF_MEMORY) continue;
        if (!isfinite(want)) {
            FUZZ_CHECK(st == PF_NO_PATH);
            continue;
        }
        if (pristine) {
            FUZZ_CHECK(st == PF_OK);
            /* forms 0 and 1 are contracted: the accelerator answers every long query */
            if (form < 2 && !(stats.detail & PF_DETAIL_SHORT)) FUZZ_CHECK(stats.detail & PF_DETAIL_ACCEL);
        }
        if (st == PF_OK) {
            FUZZ_CHECK(path.len == stats.path_len && path.len >= 1 && nodes[0] == s && nodes[path.len - 1] == g);
            double pc = oracle_path_cost(g_map, nodes, path.len);
            FUZZ_CHECK(isfinite(pc) && fabs(pc - stats.cost) <= 1e-9 * (1 + pc));
            FUZZ_CHECK(stats.cost >= want - 1e-9 * (1 + want));
            if (pristine) FUZZ_CHECK(fabs(stats.cost - want) <= 1e-9 * (1 + want));
        } else {
            FUZZ_CHECK(!pristine);
            FUZZ_CHECK(st == PF_NO_PATH || pf_failed(st));
            FUZZ_CHECK(path.len == 0);
        }
    }
    free(nodes);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    setup();
    if (size == 0) return 0;
    int form = data[0] & 3, mode = (data[0] >> 2) & 3;
    if (form == 3) form = 1;
    unsigned fail = (data[0] >> 4) & 7;
    uint32_t short_query = data[0] & 0x80 ? 1u : 0u;
    uint8_t *file;
    size_t fsize;
    if (mode <= 1) {
        fsize = size - 1;
        file = malloc(fsize ? fsize : 1);
        memcpy(file, data + 1, fsize);
        if (mode == 1) fix_checksums(file, fsize);
    } else if (mode == 2) {
        fsize = g_size[form];
        file = malloc(fsize);
        memcpy(file, g_file[form], fsize);
        for (size_t i = 1; i + 2 < size; i += 3) file[(data[i] | (size_t)data[i + 1] << 8) % fsize] ^= data[i + 2];
        fix_checksums(file, fsize);
    } else {
        file = edit_ops(form, data + 1, size - 1, &fsize);
    }
    int pristine = -1;
    for (int f = 0; f < 3; f++)
        if (fsize == g_size[f] && memcmp(file, g_file[f], fsize) == 0) pristine = f;
    const int verbose = getenv("PF_FUZZ_VERBOSE") != NULL;

    fuzz_alloc_state as = {.fail_at = fail, .max_size = (size_t)1 << 24};
    pf_accel_desc d = {.allocator = fuzz_alloc_hooks(&as), .threads = 1, .short_query = short_query};
    pf_accel *acc = (pf_accel *)&acc;
    pf_diag diag;
    memset(&diag, 0x5a, sizeof diag);
    pf_status st = pf_accel_load_mem(file, fsize, "fuzz.pfa", g_map, &d, &acc, &diag);
    fuzz_check_diag(&diag, st);
    if (verbose) fprintf(stderr, "load: %s %s\n", pf_status_name(st), st == PF_OK ? "" : diag.msg);
    if (st == PF_OK) {
        FUZZ_CHECK(acc != NULL);
        pf_accel_info info = pf_accel_get_info(acc);
        FUZZ_CHECK(info.arcs == get32(file + 32) && info.core == get32(file + 36) && info.subgoals == get32(file + 28));
        FUZZ_CHECK(info.graph_arcs + info.shortcuts == info.arcs);
        FUZZ_CHECK(pf_accel_mem_size(acc) >= fsize - 64);
        /* a file that loads is canonical: saving gives the same bytes back */
        size_t need = 0;
        uint8_t *again = malloc(fsize);
        FUZZ_CHECK(pf_accel_save_mem(acc, again, fsize, &need) == PF_OK && need == fsize);
        FUZZ_CHECK(memcmp(again, file, fsize) == 0);
        free(again);
        pf_ctx *c = NULL;
        pf_status cs = pf_ctx_create(g_map, &(pf_ctx_desc){.allocator = fuzz_alloc_hooks(&as)}, &c);
        if (cs == PF_OK) cs = pf_ctx_use_accel(c, acc);
        if (cs == PF_OK) run_queries(c, pristine >= 0, pristine, fail, verbose);
        else FUZZ_CHECK(fail && cs == PF_OUT_OF_MEMORY);
        pf_ctx_destroy(c);
        pf_accel_destroy(acc);
    } else {
        FUZZ_CHECK(acc == NULL);
        FUZZ_CHECK(st == PF_PARSE_ERROR || st == PF_UNSUPPORTED || st == PF_WRONG_MAP || st == PF_OUT_OF_MEMORY);
        if (pristine >= 0 && !fail) FUZZ_CHECK(!"a baked file of the map was rejected");
    }
    FUZZ_CHECK(fuzz_alloc_live(&as) == 0);
    fuzz_alloc_reset(&as);
    free(file);
    return 0;
}
