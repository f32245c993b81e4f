/* pdb.c - pattern databases (pf_pdb.h): a layered breadth-first search over a pattern's abstract
 * states from the goal, then compact tables, lookups, and baked files.
 *
 * The search keeps three bit sets over the abstract states (visited, this layer, the next) rather
 * than a queue: memory is 3 bits per abstract state whatever the shape of the layers (the 8-tile
 * pattern of the 15-puzzle has 4.15e9 abstract states: 1.6 GB), and a layer is a scan that splits
 * into independent word ranges for the threads. Moves inside a group cost nothing: each state of a
 * layer is expanded with a small stack that follows such moves at once (0-1 breadth-first search),
 * so a layer is complete, free moves included, before the next one starts. Moves that leave the
 * group go to the next layer's set, from which the states visited meanwhile are removed when the
 * layer ends. The layer that first reaches a group is its entry: the fewest counted moves. The
 * result does not depend on the number of threads or their schedule.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>
#define XXH_STATIC_LINKING_ONLY /* XXH3_state_t on the stack */
#include <xxhash.h>
#include "common/baked_head_internal.h"
#include "common/hash_le_internal.h"
#include "common/par_internal.h"
#include "generic/generic_internal.h"
#include "grow_internal.h"
#include "pathfind/pf_pdb.h"

#define UNSET 0xFFu            /* entry not reached (in the byte array of the build) */
#define MAX_MOVES 254u         /* a layer counter beyond this does not fit a byte */
#define SYM_MAX_STATE 4096u    /* symmetric lookups map the state into a stack buffer this large */
#define HEADER_SIZE 64u
#define DIR_ENTRY 32u
static const char MAGIC[8] = {'P', 'F', 'P', 'D', 'B', '\0', '\0', '\0'};

typedef struct pdb_table {
    uint8_t    *data;
    pf_pdb_info info;
} pdb_table;

struct pf_pdb {
    pf_allocator   alloc;
    pf_pdb_desc    desc; /* patterns, symmetries and goal point at the copies below */
    pf_pdb_pattern pat[PF_PDB_MAX_PATTERNS];
    pf_pdb_map_fn *sym;
    uint8_t       *goal;
    pdb_table      tab[PF_PDB_MAX_PATTERNS];
    size_t         bytes;
    double         seconds;
};

static double now_seconds(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---- desc ---------------------------------------------------------------------------------------- */

static uint32_t group_of(const pf_pdb_pattern *p) { return p->group ? p->group : 1u; }

static pf_status check_desc(const pf_pdb_desc *d)
{
    if (!d || d->state_size == 0 || d->state_size > PF_GEN_MAX_STATE_SIZE || !d->successors || !d->goal ||
        !d->patterns || d->pattern_count == 0 || d->pattern_count > PF_PDB_MAX_PATTERNS ||
        (d->symmetry_count && !d->symmetries) || !(d->unit_cost >= 0.0) || !(d->unit_cost < INFINITY))
        return PF_INVALID_ARGUMENT;
    if (d->symmetry_count && d->state_size > SYM_MAX_STATE) return PF_INVALID_ARGUMENT;
    for (uint32_t i = 0; i < d->symmetry_count; i++)
        if (!d->symmetries[i]) return PF_INVALID_ARGUMENT;
    for (uint32_t i = 0; i < d->pattern_count; i++) {
        const pf_pdb_pattern *p = &d->patterns[i];
        if (!p->rank || !p->unrank || p->size == 0 || p->size % group_of(p) != 0) return PF_INVALID_ARGUMENT;
        /* the build's bit sets index states by 64-bit words and sizes in bytes */
        if (p->size > (UINT64_C(1) << 48)) return PF_TOO_LARGE;
    }
    return PF_OK;
}

/* What a baked file must match: everything in the desc that shapes the tables. */
static uint64_t fingerprint(const pf_pdb_desc *d)
{
    XXH3_state_t st;
    XXH3_64bits_reset(&st);
    uint64_t words[6] = {d->domain_id, d->state_size, d->pattern_count, d->symmetry_count, 0, 0};
    double uc = d->unit_cost == 0.0 ? 1.0 : d->unit_cost;
    memcpy(&words[4], &uc, 8);
    pf__hash_le(&st, words, 6, sizeof words[0]); /* as little-endian bytes on every host */
    XXH3_64bits_update(&st, d->goal, d->state_size);
    for (uint32_t i = 0; i < d->pattern_count; i++) {
        uint64_t w[3] = {d->patterns[i].size, group_of(&d->patterns[i]), d->patterns[i].base != NULL};
        pf__hash_le(&st, w, 3, sizeof w[0]);
    }
    return XXH3_64bits_digest(&st);
}

static size_t table_bytes(uint64_t entries, uint32_t bits)
{
    return bits == 4 ? (size_t)((entries + 1) / 2) : (size_t)entries;
}

/* A database with the desc copied and no tables yet. */
static pf_status pdb_new(const pf_pdb_desc *d, pf_pdb **out)
{
    pf_allocator a = pf__alloc_resolve(&d->allocator);
    pf_pdb *p = pf__calloc(&a, sizeof *p, 64);
    if (!p) return PF_OUT_OF_MEMORY;
    p->alloc = a;
    p->bytes = sizeof *p;
    p->desc = *d;
    if (p->desc.unit_cost == 0.0) p->desc.unit_cost = 1.0;
    memcpy(p->pat, d->patterns, (size_t)d->pattern_count * sizeof *p->pat);
    p->desc.patterns = p->pat;
    p->goal = pf__alloc(&a, d->state_size, 16);
    if (!p->goal) {
        pf_pdb_destroy(p);
        return PF_OUT_OF_MEMORY;
    }
    p->bytes += d->state_size;
    memcpy(p->goal, d->goal, d->state_size);
    p->desc.goal = p->goal;
    if (d->symmetry_count) {
        p->sym = pf__alloc(&a, (size_t)d->symmetry_count * sizeof *p->sym, 16);
        if (!p->sym) {
            pf_pdb_destroy(p);
            return PF_OUT_OF_MEMORY;
        }
        p->bytes += (size_t)d->symmetry_count * sizeof *p->sym;
        memcpy(p->sym, d->symmetries, (size_t)d->symmetry_count * sizeof *p->sym);
    }
    p->desc.symmetries = p->sym;
    *out = p;
    return PF_OK;
}

void pf_pdb_destroy(pf_pdb *p)
{
    if (!p) return;
    pf_allocator a = p->alloc;
    for (uint32_t i = 0; i < p->desc.pattern_count; i++) pf__free(&a, p->tab[i].data, p->tab[i].info.bytes);
    pf__free(&a, p->goal, p->desc.state_size);
    pf__free(&a, p->sym, (size_t)p->desc.symmetry_count * sizeof *p->sym);
    pf__free(&a, p, sizeof *p);
}

/* ---- lookups ------------------------------------------------------------------------------------- */

static inline uint32_t raw_at(const pdb_table *t, uint64_t e)
{
    if (t->info.bits == 8) return t->data[e];
    uint8_t b = t->data[e >> 1];
    return (e & 1) ? (uint32_t)(b >> 4) : (uint32_t)(b & 15u);
}

static inline uint32_t unreached_raw(uint32_t bits) { return (1u << bits) - 1u; }

uint32_t pf_pdb_entry(const pf_pdb *p, uint32_t i, uint64_t e)
{
    if (!p || i >= p->desc.pattern_count || e >= p->tab[i].info.entries) return UINT32_MAX;
    return raw_at(&p->tab[i], e);
}

/* Value in moves; INFINITY when unreached, NAN for a rank out of range (a broken ranking: the
 * generic search reports NAN heuristics as PF_INVALID_ARGUMENT rather than using them). */
static double moves_of(const pf_pdb *p, uint32_t i, const void *state)
{
    const pf_pdb_pattern *pat = &p->pat[i];
    const pdb_table *t = &p->tab[i];
    uint64_t r = pat->rank(state, pat->user);
    if (r >= pat->size) return NAN;
    uint32_t raw = raw_at(t, r / group_of(pat));
    if (raw == unreached_raw(t->info.bits)) return INFINITY;
    double v = (double)raw * t->info.scale;
    if (t->info.uses_base) v += (double)pat->base(state, pat->user);
    return v;
}

double pf_pdb_pattern_value(const pf_pdb *p, uint32_t i, const void *state)
{
    if (!p || !state || i >= p->desc.pattern_count) return NAN;
    return p->desc.unit_cost * moves_of(p, i, state);
}

static double sum_of(const pf_pdb *p, const void *state)
{
    double s = 0.0;
    for (uint32_t i = 0; i < p->desc.pattern_count; i++) s += moves_of(p, i, state);
    return s;
}

double pf_pdb_value(const pf_pdb *p, const void *state)
{
    if (!p || !state) return NAN;
    double best = sum_of(p, state);
    if (p->desc.symmetry_count) {
        uint8_t buf[SYM_MAX_STATE];
        for (uint32_t k = 0; k < p->desc.symmetry_count; k++) {
            p->sym[k](state, buf, p->desc.user);
            double v = sum_of(p, buf);
            if (v > best || v != v) best = v;
        }
    }
    return p->desc.unit_cost * best;
}

pf_status pf_pdb_get_pattern_info(const pf_pdb *p, uint32_t i, pf_pdb_info *out)
{
    if (!p || !out || i >= p->desc.pattern_count) return PF_INVALID_ARGUMENT;
    *out = p->tab[i].info;
    return PF_OK;
}

size_t pf_pdb_mem_size(const pf_pdb *p) { return p ? p->bytes : 0; }
double pf_pdb_build_seconds(const pf_pdb *p) { return p ? p->seconds : 0.0; }

/* ---- build: the layered search -------------------------------------------------------------------- */

typedef struct worker {
    pf_gen_ctx *ctx;     /* its successor sink and scratch */
    uint8_t    *state;   /* [state_size] the state being expanded */
    uint64_t   *stack;   /* ranks reached by free moves, still to expand */
    uint32_t    stack_cap;
    uint64_t   *ranks;   /* [ranks_cap >= PF_PDB_MAX_NEIGHBOURS] ranks of one state's successors */
    uint32_t    ranks_cap;
    /* its part of a table's summary (pack_pattern): unreached, largest value, common factors
     * with and without the base, largest value above the base, whether the base held */
    uint64_t    unreached, maxd, gcd_raw, gcd_rel, max_rel;
    int         base_ok;
} worker;

typedef struct bfs {
    const pf_pdb         *pdb;
    const pf_pdb_pattern *pat;
    pf_gen_successors_fn  pred;
    uint64_t  size, words;
    uint32_t  group;
    uint64_t *visited, *cur, *next;
    uint8_t  *dist;      /* [size / group] layer that reached the entry, UNSET before */
    uint8_t   layer;
    int       error;     /* pf_status of the first failure, 0 while none */
} bfs;

static inline int bit_test(const uint64_t *set, uint64_t r)
{
    return (int)((pf__atomic_load_u64(&set[r >> 6]) >> (r & 63)) & 1u);
}
/* Sets bit r; returns its previous value. One thread needs no locked instruction (a tenth of a
 * single-threaded build went to them). */
static inline int bit_set(uint64_t *set, uint64_t r, const int shared)
{
    uint64_t m = UINT64_C(1) << (r & 63), w = pf__atomic_load_u64(&set[r >> 6]);
    if (w & m) return 1;
    if (!shared) {
        set[r >> 6] = w | m;
        return 0;
    }
    return (pf__atomic_or_u64(&set[r >> 6], m) & m) != 0;
}

static void fail(bfs *b, pf_status st)
{
    (void)pf__atomic_cas_int(&b->error, 0, (int)st);
}

static int stack_push(bfs *b, worker *w, uint32_t *sp, uint64_t r)
{
    if (*sp == w->stack_cap && !pf__grow_slow(&b->pdb->alloc, &w->stack, &w->stack_cap, (uint64_t)*sp + 1u,
                                              sizeof *w->stack, 64u, 0)) {
        fail(b, PF_OUT_OF_MEMORY);
        return 0;
    }
    w->stack[(*sp)++] = r;
    return 1;
}

static int ranks_reserve(bfs *b, worker *w, uint32_t need)
{
    if (!pf__grow_slow(&b->pdb->alloc, &w->ranks, &w->ranks_cap, need, sizeof *w->ranks, 64u, 0)) {
        fail(b, PF_OUT_OF_MEMORY);
        return 0;
    }
    return 1;
}

/* Expands abstract state r of the current layer and everything free moves reach from it. */
PF__INLINE void expand_closure(bfs *b, worker *w, uint64_t r0, const int shared)
{
    const pf_pdb *p = b->pdb;
    const pf_pdb_pattern *pat = b->pat;
    void *user = p->desc.user;
    pf_gen_ctx *c = w->ctx;
    const uint32_t ss = p->desc.state_size;
    uint32_t sp = 0;
    if (!stack_push(b, w, &sp, r0)) return;
    while (sp) {
        uint64_t r = w->stack[--sp], e = r / b->group;
        if (pf__atomic_load_u8(&b->dist[e]) == UNSET)
            pf__atomic_store_u8(&b->dist[e], b->layer); /* same value from any thread */
        uint32_t count;
        const uint64_t *ranks;
        if (pat->neighbours) {
            count = pat->neighbours(r, w->ranks, pat->user);
            if (count > PF_PDB_MAX_NEIGHBOURS) {
                fail(b, PF_INVALID_ARGUMENT);
                return;
            }
            ranks = w->ranks;
        } else {
            pat->unrank(r, w->state, pat->user);
            c->scount = 0;
            b->pred(w->state, &c->sink, user);
            if (c->limit_hit || c->bad_push) {
                fail(b, c->bad_push ? PF_INVALID_ARGUMENT : PF_OUT_OF_MEMORY);
                return;
            }
            count = c->scount;
            if (count > w->ranks_cap && !ranks_reserve(b, w, count)) return;
            for (uint32_t i = 0; i < count; i++) w->ranks[i] = pat->rank(c->sstates + (size_t)i * ss, pat->user);
            ranks = w->ranks;
        }
        for (uint32_t i = 0; i < count; i++) {
            uint64_t t = ranks[i];
            if (t >= b->size) {
                fail(b, PF_INVALID_ARGUMENT);
                return;
            }
            if (t / b->group == e) {
                if (!bit_set(b->visited, t, shared) && !stack_push(b, w, &sp, t)) return;
            } else if (!bit_test(b->visited, t)) {
                bit_set(b->next, t, shared);
            }
        }
    }
}

typedef struct layer_job {
    bfs    *b;
    worker *ws;
    int     shared; /* several workers: bits are claimed with locked instructions */
    uint64_t any;   /* bits of the next layer, or-ed atomically once per range */
} layer_job;

/* expand the layer: word blocks of 256 are independent (bits are claimed atomically) */
static void expand_body(void *ctx, uint64_t begin, uint64_t end, uint32_t worker_id)
{
    layer_job *j = ctx;
    bfs *b = j->b;
    worker *w = &j->ws[worker_id];
    for (uint64_t blk = begin; blk < end; blk++) {
        uint64_t last = (blk + 1) * 256 < b->words ? (blk + 1) * 256 : b->words;
        for (uint64_t k = blk * 256; k < last; k++) {
            uint64_t bits = pf__atomic_load_u64(&b->cur[k]);
            while (bits && !pf__atomic_load_int(&b->error)) {
                uint64_t r = k * 64 + (uint64_t)pf__ctz64(bits);
                bits &= bits - 1;
                if (j->shared) expand_closure(b, w, r, 1);
                else expand_closure(b, w, r, 0);
            }
        }
    }
}

/* the next layer: what this one reached and nobody visited */
static void next_layer_body(void *ctx, uint64_t begin, uint64_t end, uint32_t worker_id)
{
    layer_job *j = ctx;
    bfs *b = j->b;
    uint64_t any = 0;
    (void)worker_id;
    for (uint64_t k = begin; k < end; k++) {
        uint64_t n = b->next[k] & ~b->visited[k];
        b->visited[k] |= n;
        b->cur[k] = n;
        b->next[k] = 0;
        any |= n;
    }
    if (any) (void)pf__atomic_or_u64(&j->any, any);
}

/* One pattern's entries (bytes, UNSET = unreached) by the layered search. */
static pf_status search_pattern(bfs *b, worker *ws, const pf__par *par)
{
    const uint64_t words = b->words;
    uint64_t g = b->pat->rank(b->pdb->goal, b->pat->user);
    if (g >= b->size) return PF_INVALID_ARGUMENT;
    b->cur[g >> 6] |= UINT64_C(1) << (g & 63);
    b->visited[g >> 6] |= UINT64_C(1) << (g & 63);
    for (uint32_t layer = 0;; layer++) {
        if (layer > MAX_MOVES) return PF_TOO_LARGE;
        b->layer = (uint8_t)layer;
        layer_job j = {b, ws, par->workers > 1 && (words + 255) / 256 > 1, 0};
        pf__par_for(par, (words + 255) / 256, 1, expand_body, &j);
        if (b->error) return (pf_status)b->error;
        pf__par_for(par, words, 0, next_layer_body, &j);
        if (!j.any) return PF_OK;
    }
}

static uint64_t gcd64(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

typedef struct pack_job {
    const pf_pdb_pattern *pat;
    const uint8_t        *dist;
    worker               *ws;
    uint8_t              *data;
    uint64_t              entries;
    uint32_t              bits, scale, none;
    int                   use_base;
} pack_job;

/* one pass: reach counts, largest value, common factors with and without the base */
static void summary_body(void *ctx, uint64_t begin, uint64_t end, uint32_t worker_id)
{
    const pack_job *j = ctx;
    const pf_pdb_pattern *pat = j->pat;
    worker *w = &j->ws[worker_id];
    uint64_t u = 0, mx = 0, gr = 0, gb = 0, mb = 0;
    int ok = w->base_ok;
    for (uint64_t e = begin; e < end; e++) {
        uint32_t d = j->dist[e];
        if (d == UNSET) {
            u++;
            continue;
        }
        if (d > mx) mx = d;
        gr = gcd64(gr, d);
        if (ok) {
            pat->unrank(e * group_of(pat), w->state, pat->user);
            uint32_t bv = pat->base(w->state, pat->user);
            if (bv > d) {
                ok = 0;
            } else {
                gb = gcd64(gb, d - bv);
                if (d - bv > mb) mb = d - bv;
            }
        }
    }
    w->unreached += u;
    if (mx > w->maxd) w->maxd = mx;
    w->gcd_raw = gcd64(w->gcd_raw, gr);
    w->base_ok = ok;
    w->gcd_rel = gcd64(w->gcd_rel, gb);
    if (mb > w->max_rel) w->max_rel = mb;
}

/* pairs of entries, so the 4-bit table is written a whole byte at a time by one worker */
static void pack_body(void *ctx, uint64_t begin, uint64_t end, uint32_t worker_id)
{
    const pack_job *j = ctx;
    const pf_pdb_pattern *pat = j->pat;
    worker *w = &j->ws[worker_id];
    const uint64_t entries = j->entries;
    for (uint64_t e2 = begin; e2 < end; e2++) {
        uint32_t v[2] = {j->none, j->none};
        for (uint64_t e = 2 * e2; e < 2 * e2 + 2 && e < entries; e++) {
            uint32_t d = j->dist[e];
            if (d == UNSET) continue;
            if (j->use_base) {
                pat->unrank(e * group_of(pat), w->state, pat->user);
                d -= pat->base(w->state, pat->user);
            }
            v[e - 2 * e2] = d / j->scale;
        }
        if (j->bits == 4) {
            j->data[e2] = (uint8_t)(v[0] | v[1] << 4);
        } else {
            j->data[2 * e2] = (uint8_t)v[0];
            if (2 * e2 + 1 < entries) j->data[2 * e2 + 1] = (uint8_t)v[1];
        }
    }
}

/* Chooses the layout of a pattern's table from its entries and packs it. */
static pf_status pack_pattern(pf_pdb *p, uint32_t i, const uint8_t *dist, worker *ws, const pf__par *par)
{
    const pf_pdb_pattern *pat = &p->pat[i];
    const uint64_t entries = pat->size / group_of(pat);
    pdb_table *t = &p->tab[i];
    uint64_t unreached = 0, maxd = 0, gcd_raw = 0, gcd_rel = 0, max_rel = 0;
    int base_ok = pat->base != NULL;
    for (uint32_t k = 0; k < par->workers; k++) {
        ws[k].unreached = ws[k].maxd = ws[k].gcd_raw = ws[k].gcd_rel = ws[k].max_rel = 0;
        ws[k].base_ok = base_ok;
    }
    pack_job j = {pat, dist, ws, NULL, entries, 0, 0, 0, 0};
    pf__par_for(par, entries, 0, summary_body, &j);
    /* sums, maxima and common factors: the same whichever worker saw what */
    for (uint32_t k = 0; k < par->workers; k++) {
        unreached += ws[k].unreached;
        if (ws[k].maxd > maxd) maxd = ws[k].maxd;
        gcd_raw = gcd64(gcd_raw, ws[k].gcd_raw);
        if (!ws[k].base_ok) base_ok = 0;
        gcd_rel = gcd64(gcd_rel, ws[k].gcd_rel);
        if (ws[k].max_rel > max_rel) max_rel = ws[k].max_rel;
    }
    /* 4 bits hold 0..14 (15 = unreached): relative to the base if that fits, else raw values if
     * they fit; otherwise one raw byte, where lookups need no base call */
    uint32_t bits = 8, scale = 1;
    int use_base = 0;
    if (gcd_rel == 0) gcd_rel = 1;
    if (gcd_raw == 0) gcd_raw = 1;
    if (base_ok && max_rel / gcd_rel <= 14) {
        bits = 4;
        scale = (uint32_t)gcd_rel;
        use_base = 1;
    } else if (maxd / gcd_raw <= 14) {
        bits = 4;
        scale = (uint32_t)gcd_raw;
    } else {
        scale = (uint32_t)gcd_raw;
    }
    size_t bytes = table_bytes(entries, bits);
    t->data = pf__alloc(&p->alloc, bytes, 64);
    if (!t->data) return PF_OUT_OF_MEMORY;
    p->bytes += bytes;
    t->info = (pf_pdb_info){.entries = entries, .unreached = unreached, .bytes = bytes, .bits = bits,
                            .scale = scale, .max_moves = (uint32_t)maxd, .uses_base = use_base};
    j.data = t->data;
    j.bits = bits;
    j.scale = scale;
    j.none = unreached_raw(bits);
    j.use_base = use_base;
    pf__par_for(par, (entries + 1) / 2, 0, pack_body, &j);
    return PF_OK;
}

static void workers_free(const pf_allocator *a, worker *ws, uint32_t nt, uint32_t ss)
{
    if (!ws) return;
    for (uint32_t k = 0; k < nt; k++) {
        pf_gen_ctx_destroy(ws[k].ctx);
        pf__free(a, ws[k].state, ss);
        pf__free(a, ws[k].stack, (size_t)ws[k].stack_cap * sizeof *ws[k].stack);
        pf__free(a, ws[k].ranks, (size_t)ws[k].ranks_cap * sizeof *ws[k].ranks);
    }
    pf__free(a, ws, (size_t)nt * sizeof *ws);
}

static pf_status workers_new(const pf_pdb *p, uint32_t nt, worker **out)
{
    const pf_allocator *a = &p->alloc;
    worker *ws = pf__calloc(a, (size_t)nt * sizeof *ws, 64);
    *out = ws;
    if (!ws) return PF_OUT_OF_MEMORY;
    for (uint32_t k = 0; k < nt; k++) {
        worker *w = &ws[k];
        if (pf_gen_ctx_create(&(pf_gen_ctx_desc){.allocator = *a}, &w->ctx) != PF_OK) return PF_OUT_OF_MEMORY;
        w->ctx->ssize = p->desc.state_size;
        w->ctx->take_h = 0; /* the build ignores heuristic values a domain pushes */
        w->state = pf__alloc(a, p->desc.state_size, 16);
        w->stack_cap = 64;
        w->stack = pf__alloc(a, (size_t)w->stack_cap * sizeof *w->stack, 64);
        w->ranks_cap = PF_PDB_MAX_NEIGHBOURS;
        w->ranks = pf__alloc(a, (size_t)w->ranks_cap * sizeof *w->ranks, 64);
        if (!w->state || !w->stack || !w->ranks) return PF_OUT_OF_MEMORY;
        /* room for the usual branching up front: a worker thread grows it only for wide domains */
        if (!pf__gen_grow_bytes(w->ctx, &w->ctx->sstates, &w->ctx->sstates_cap, (size_t)64 * p->desc.state_size))
            return PF_OUT_OF_MEMORY;
        void **const ptrs[] = {(void **)&w->ctx->scost, (void **)&w->ctx->sh, (void **)&w->ctx->sh0,
                               (void **)&w->ctx->sact, (void **)&w->ctx->sord};
        const size_t elems[] = {8, 8, 8, 4, 4};
        if (!pf__gen_grow(w->ctx, ptrs, elems, 5, &w->ctx->scap, 64)) return PF_OUT_OF_MEMORY;
    }
    return PF_OK;
}

pf_status pf_pdb_build(const pf_pdb_desc *desc, pf_pdb **out)
{
    if (!out) return PF_INVALID_ARGUMENT;
    *out = NULL;
    pf_status st = check_desc(desc);
    if (st != PF_OK) return st;
    double t0 = now_seconds();
    pf_pdb *p;
    st = pdb_new(desc, &p);
    if (st != PF_OK) return st;
    const pf__par par = pf__par_upto(&desc->parallel, desc->threads, UINT32_MAX);
    const uint32_t nt = par.workers;
    worker *ws = NULL;
    st = workers_new(p, nt, &ws);
    for (uint32_t i = 0; st == PF_OK && i < desc->pattern_count; i++) {
        const pf_pdb_pattern *pat = &p->pat[i];
        bfs b = {.pdb = p, .pat = pat, .pred = desc->predecessors ? desc->predecessors : desc->successors,
                 .size = pat->size, .words = (pat->size + 63) / 64, .group = group_of(pat)};
        const size_t set_bytes = (size_t)b.words * 8, entries = (size_t)(pat->size / b.group);
        b.visited = pf__calloc(&p->alloc, set_bytes, 64);
        b.cur = pf__calloc(&p->alloc, set_bytes, 64);
        b.next = pf__calloc(&p->alloc, set_bytes, 64);
        b.dist = pf__alloc(&p->alloc, entries, 64);
        if (!b.visited || !b.cur || !b.next || !b.dist) st = PF_OUT_OF_MEMORY;
        if (st == PF_OK) {
            memset(b.dist, UNSET, entries);
            st = search_pattern(&b, ws, &par);
        }
        pf__free(&p->alloc, b.visited, set_bytes);
        pf__free(&p->alloc, b.cur, set_bytes);
        pf__free(&p->alloc, b.next, set_bytes);
        if (st == PF_OK) st = pack_pattern(p, i, b.dist, ws, &par);
        pf__free(&p->alloc, b.dist, entries);
    }
    workers_free(&p->alloc, ws, nt, desc->state_size);
    if (st != PF_OK) {
        pf_pdb_destroy(p);
        return st;
    }
    p->seconds = now_seconds() - t0;
    *out = p;
    return PF_OK;
}

/* ---- files ---------------------------------------------------------------------------------------- */

/* Header and directory, as they go to the file; the payload hash is over the tables in order. */
static void encode_head(const pf_pdb *p, uint8_t *h, uint8_t *dir)
{
    const uint32_t n = p->desc.pattern_count;
    uint64_t payload = 0;
    XXH3_state_t st;
    XXH3_64bits_reset(&st);
    memset(dir, 0, (size_t)n * DIR_ENTRY);
    for (uint32_t i = 0; i < n; i++) {
        const pf_pdb_info *in = &p->tab[i].info;
        uint8_t *e = dir + (size_t)i * DIR_ENTRY;
        pf__put64(e, in->entries);
        pf__put64(e + 8, in->unreached);
        pf__put32(e + 16, in->bits);
        pf__put32(e + 20, in->scale);
        pf__put32(e + 24, in->max_moves);
        pf__put32(e + 28, (uint32_t)in->uses_base);
        payload += in->bytes;
        XXH3_64bits_update(&st, p->tab[i].data, in->bytes);
    }
    memset(h, 0, HEADER_SIZE);
    memcpy(h, MAGIC, 8);
    pf__put32(h + 8, PF_PDB_FILE_VERSION);
    pf__put32(h + 12, HEADER_SIZE);
    pf__put64(h + 16, fingerprint(&p->desc));
    pf__put32(h + 24, n);
    pf__put64(h + 32, payload);
    pf__put64(h + 40, XXH3_64bits_digest(&st));
    pf__put64(h + 48, XXH3_64bits(dir, (size_t)n * DIR_ENTRY));
    pf__head_seal(h);
}

size_t pf_pdb_file_size(const pf_pdb *p)
{
    if (!p) return 0;
    size_t n = HEADER_SIZE + (size_t)p->desc.pattern_count * DIR_ENTRY;
    for (uint32_t i = 0; i < p->desc.pattern_count; i++) n += p->tab[i].info.bytes;
    return n;
}

pf_status pf_pdb_save_mem(const pf_pdb *p, void *buf, size_t capacity, size_t *size)
{
    if (!p) return PF_INVALID_ARGUMENT;
    const size_t need = pf_pdb_file_size(p);
    if (size) *size = need;
    if (capacity < need) return PF_BUFFER_TOO_SMALL;
    if (!buf) return PF_INVALID_ARGUMENT;
    uint8_t *b = buf;
    const size_t dlen = (size_t)p->desc.pattern_count * DIR_ENTRY;
    encode_head(p, b, b + HEADER_SIZE);
    b += HEADER_SIZE + dlen;
    for (uint32_t i = 0; i < p->desc.pattern_count; i++) {
        memcpy(b, p->tab[i].data, p->tab[i].info.bytes);
        b += p->tab[i].info.bytes;
    }
    return PF_OK;
}

pf_status pf_pdb_save(const pf_pdb *p, const char *path, pf_diag *diag)
{
    if (!p || !path) return pf__diag_set(diag, PF_INVALID_ARGUMENT, path, 0, 0, "no database or file name");
    uint8_t h[HEADER_SIZE], dir[PF_PDB_MAX_PATTERNS * DIR_ENTRY];
    encode_head(p, h, dir);
    /* the library's one rule for output files (pf__out_open): a regular file is replaced only once
     * the new one is complete, a link is followed, a device or a pipe is written in place */
    pf__outfile o;
    pf_status st = pf__out_open(&o, path, &p->alloc, diag);
    if (st != PF_OK) return st;
    FILE *f = o.f;
    const size_t dlen = (size_t)p->desc.pattern_count * DIR_ENTRY;
    int ok = fwrite(h, 1, HEADER_SIZE, f) == HEADER_SIZE && fwrite(dir, 1, dlen, f) == dlen;
    for (uint32_t i = 0; ok && i < p->desc.pattern_count; i++)
        ok = fwrite(p->tab[i].data, 1, p->tab[i].info.bytes, f) == p->tab[i].info.bytes;
    return pf__out_close(&o, ok, diag);
}

/* Checks a header against the desc; on success *payload is the exact size the desc implies. */
static pf_status check_head(const uint8_t *h, const pf_pdb_desc *d, const char *name, pf_diag *diag)
{
    pf_status hst = pf__head_check(h, MAGIC, PF_PDB_FILE_VERSION, "pattern database", name, diag);
    if (hst != PF_OK) return hst;
    if (pf__get32(h + 12) != HEADER_SIZE || pf__get32(h + 28) != 0)
        return pf__diag_set(diag, PF_PARSE_ERROR, name, 0, 0, "inconsistent header");
    if (pf__get32(h + 24) != d->pattern_count)
        return pf__diag_set(diag, PF_WRONG_MAP, name, 0, 0, "the file has %u patterns, the desc %u", pf__get32(h + 24),
                            d->pattern_count);
    if (pf__get64(h + 16) != fingerprint(d))
        return pf__diag_set(diag, PF_WRONG_MAP, name, 0, 0,
                            "built for another domain, goal or pattern set (fingerprint %016llx, desc %016llx)",
                            (unsigned long long)pf__get64(h + 16), (unsigned long long)fingerprint(d));
    return PF_OK;
}

/* Checks the directory and fills p's table infos (no allocation). */
static pf_status check_dir(pf_pdb *p, const uint8_t *h, const uint8_t *dir, const char *name, pf_diag *diag)
{
    const uint32_t n = p->desc.pattern_count;
    if (pf__get64(h + 48) != XXH3_64bits(dir, (size_t)n * DIR_ENTRY))
        return pf__diag_set(diag, PF_PARSE_ERROR, name, 0, 0, "directory checksum mismatch (corrupted)");
    uint64_t payload = 0;
    for (uint32_t i = 0; i < n; i++) {
        const uint8_t *e = dir + (size_t)i * DIR_ENTRY;
        pf_pdb_info in = {.entries = pf__get64(e), .unreached = pf__get64(e + 8), .bits = pf__get32(e + 16),
                          .scale = pf__get32(e + 20), .max_moves = pf__get32(e + 24),
                          .uses_base = (int)pf__get32(e + 28)};
        const pf_pdb_pattern *pat = &p->pat[i];
        uint64_t want = pat->size / group_of(pat);
        if (in.entries != want)
            return pf__diag_set(diag, PF_WRONG_MAP, name, 0, 0, "pattern %u has %llu entries, the desc %llu", i,
                                (unsigned long long)in.entries, (unsigned long long)want);
        if ((in.bits != 4 && in.bits != 8) || in.scale == 0 || in.scale > MAX_MOVES || in.max_moves > MAX_MOVES ||
            in.unreached > in.entries ||
            (in.uses_base != 0 && in.uses_base != 1) || (in.uses_base && !pat->base))
            return pf__diag_set(diag, PF_PARSE_ERROR, name, 0, 0, "pattern %u: inconsistent directory entry", i);
        in.bytes = table_bytes(in.entries, in.bits);
        payload += in.bytes;
        p->tab[i].info = in;
    }
    if (pf__get64(h + 32) != payload)
        return pf__diag_set(diag, PF_PARSE_ERROR, name, 0, 0, "payload size %llu, the directory implies %llu",
                            (unsigned long long)pf__get64(h + 32), (unsigned long long)payload);
    return PF_OK;
}

/* Last check of a loaded database: the goal's entries are 0, as any ranking that matches the
 * file's gives (catches a ranking changed without a new domain_id, in most cases). */
static pf_status check_goal(const pf_pdb *p, const char *name, pf_diag *diag)
{
    for (uint32_t i = 0; i < p->desc.pattern_count; i++) {
        const pf_pdb_pattern *pat = &p->pat[i];
        uint64_t r = pat->rank(p->goal, pat->user);
        if (r >= pat->size || raw_at(&p->tab[i], r / group_of(pat)) != 0)
            return pf__diag_set(diag, PF_WRONG_MAP, name, 0, 0,
                                "pattern %u: the goal's entry is not 0 (the ranking differs from the file's)", i);
    }
    return PF_OK;
}

/* Counts a table's unreached entries and finds its largest reached raw value (the loader checks
 * them against the directory: a resealed file cannot claim other values than it holds). */
static void table_census(const pdb_table *t, uint64_t *unreached, uint32_t *max_raw)
{
    const uint32_t none = unreached_raw(t->info.bits);
    const uint64_t n = t->info.entries;
    uint64_t un = 0;
    uint32_t mx = 0;
    if (t->info.bits == 8) {
        for (uint64_t e = 0; e < n; e++) {
            uint32_t v = t->data[e];
            if (v == none) un++;
            else if (v > mx) mx = v;
        }
    } else {
        for (uint64_t e = 0; e < n; e++) {
            uint8_t b = t->data[e >> 1];
            uint32_t v = (e & 1) ? (uint32_t)(b >> 4) : (uint32_t)(b & 15u);
            if (v == none) un++;
            else if (v > mx) mx = v;
        }
    }
    *unreached = un;
    *max_raw = mx;
}

/* Reader over memory or a file, so both loaders share one validation path. */
typedef struct reader {
    const uint8_t *mem;
    size_t         size, pos;
    FILE          *f;
} reader;

/* Reads up to n bytes; returns how many. */
static size_t rd_some(reader *r, void *dst, size_t n)
{
    if (r->f) return fread(dst, 1, n, r->f);
    if (r->size - r->pos < n) n = r->size - r->pos;
    if (n == 0) return 0; /* mem may be NULL for an empty buffer */
    memcpy(dst, r->mem + r->pos, n);
    r->pos += n;
    return n;
}
static int rd(reader *r, void *dst, size_t n) { return rd_some(r, dst, n) == n; }
static int at_end(reader *r)
{
    if (r->f) {
        uint8_t extra;
        return fread(&extra, 1, 1, r->f) == 0 && !ferror(r->f);
    }
    return r->pos == r->size;
}

static pf_status load(reader *r, const char *name, const pf_pdb_desc *desc, pf_pdb **out, pf_diag *diag)
{
    *out = NULL;
    pf_status st = check_desc(desc);
    if (st != PF_OK) return pf__diag_set(diag, st, name, 0, 0, "invalid database desc");
    uint8_t h[HEADER_SIZE], dir[PF_PDB_MAX_PATTERNS * DIR_ENTRY];
    size_t got = rd_some(r, h, HEADER_SIZE);
    /* a short file that does not even start like a database is not called a truncated one */
    if (got == 0) return pf__diag_set(diag, PF_PARSE_ERROR, name, 0, 0, "empty: not a pathfind pattern database");
    if (memcmp(h, MAGIC, got < 8 ? got : 8) != 0)
        return pf__diag_set(diag, PF_PARSE_ERROR, name, 0, 0, "not a pathfind pattern database (bad magic)");
    if (got < HEADER_SIZE)
        return pf__diag_set(diag, PF_PARSE_ERROR, name, 0, 0, "truncated: no complete %u-byte header", HEADER_SIZE);
    st = check_head(h, desc, name, diag);
    if (st != PF_OK) return st;
    if (!rd(r, dir, (size_t)desc->pattern_count * DIR_ENTRY))
        return pf__diag_set(diag, PF_PARSE_ERROR, name, 0, 0, "truncated in the directory");
    pf_pdb *p;
    st = pdb_new(desc, &p);
    if (st != PF_OK) return pf__diag_set(diag, st, name, 0, 0, "%s", pf_status_str(st));
    st = check_dir(p, h, dir, name, diag);
    XXH3_state_t hs;
    XXH3_64bits_reset(&hs);
    /* sizes come from the desc (check_dir refused any other): nothing the file alone announces
     * is ever allocated */
    for (uint32_t i = 0; st == PF_OK && i < desc->pattern_count; i++) {
        pdb_table *t = &p->tab[i];
        t->data = pf__alloc(&p->alloc, t->info.bytes, 64);
        if (!t->data) {
            t->info.bytes = 0;
            st = pf__diag_set(diag, PF_OUT_OF_MEMORY, name, 0, 0, "out of memory for pattern %u", i);
            break;
        }
        p->bytes += t->info.bytes;
        if (!rd(r, t->data, t->info.bytes)) {
            st = pf__diag_set(diag, PF_PARSE_ERROR, name, 0, 0, "truncated in the tables of pattern %u", i);
            break;
        }
        XXH3_64bits_update(&hs, t->data, t->info.bytes);
    }
    if (st == PF_OK && !at_end(r))
        st = pf__diag_set(diag, PF_PARSE_ERROR, name, 0, 0, "trailing bytes after the tables");
    if (st == PF_OK && XXH3_64bits_digest(&hs) != pf__get64(h + 40))
        st = pf__diag_set(diag, PF_PARSE_ERROR, name, 0, 0, "table checksum mismatch (corrupted)");
    /* the checksums only prove the file is what some writer sealed: the directory's numbers must
     * also be what the tables hold (a resealed scale of 2^31 gave inadmissible values) */
    for (uint32_t i = 0; st == PF_OK && i < desc->pattern_count; i++) {
        const pdb_table *t = &p->tab[i];
        uint64_t un;
        uint32_t mx;
        table_census(t, &un, &mx);
        uint64_t top = (uint64_t)mx * t->info.scale; /* largest stored value, in moves (past the base) */
        if (un != t->info.unreached || top > t->info.max_moves || (!t->info.uses_base && top != t->info.max_moves))
            st = pf__diag_set(diag, PF_PARSE_ERROR, name, 0, 0,
                              "pattern %u: the table holds %llu unreached entries and values up to %llu moves, the "
                              "directory says %llu and %u",
                              i, (unsigned long long)un, (unsigned long long)top, (unsigned long long)t->info.unreached,
                              t->info.max_moves);
    }
    if (st == PF_OK) st = check_goal(p, name, diag);
    if (st != PF_OK) {
        pf_pdb_destroy(p);
        return st;
    }
    if (diag) *diag = (pf_diag){.status = PF_OK};
    *out = p;
    return PF_OK;
}

pf_status pf_pdb_load_mem(const void *data, size_t size, const char *name, const pf_pdb_desc *desc, pf_pdb **out,
                          pf_diag *diag)
{
    if (!out) return pf__diag_set(diag, PF_INVALID_ARGUMENT, name, 0, 0, "no output");
    *out = NULL;
    if (!data && size) return pf__diag_set(diag, PF_INVALID_ARGUMENT, name, 0, 0, "no data");
    reader r = {.mem = data, .size = size};
    return load(&r, name, desc, out, diag);
}

pf_status pf_pdb_load(const char *path, const pf_pdb_desc *desc, pf_pdb **out, pf_diag *diag)
{
    if (!out) return pf__diag_set(diag, PF_INVALID_ARGUMENT, path, 0, 0, "no output");
    *out = NULL;
    void *fv;
    pf_status ost = pf__open_read(path, ".pfp pattern database", &fv, diag); /* a directory said to be one */
    if (ost != PF_OK) return ost;
    FILE *f = fv;
    reader r = {.f = f};
    pf_status st = load(&r, path, desc, out, diag);
    if (st == PF_OK && ferror(f)) {
        pf_pdb_destroy(*out);
        *out = NULL;
        st = pf__diag_set(diag, PF_IO_ERROR, path, 0, 0, "read error");
    }
    fclose(f);
    return st;
}
