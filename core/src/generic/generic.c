/* generic.c - pf_gen_ctx pools, the XXH3-keyed state table, and the best-first family (A*,
 * weighted A*, greedy, uniform-cost, BFS) over implicit state spaces.
 *
 * One loop serves every best-first algorithm: f = g + w * h (greedy: f = h; uniform-cost: h = 0;
 * BFS: f = depth with FIFO ties). Successors are written by the callback into a scratch buffer
 * owned by the context, then relaxed one by one; nothing is allocated per node (the pools double).
 */
#include <float.h>
#include <math.h>
#include <string.h>
#include <xxhash.h>
#include "generic/generic_internal.h"
#include "grow_internal.h"

/* ---- pools ----------------------------------------------------------------------------------- */

static int grow_raw(pf_gen_ctx *c, void **p, size_t old_bytes, size_t new_bytes)
{
    if (c->limit_bytes && c->bytes - old_bytes + new_bytes > c->limit_bytes) {
        c->limit_hit = 1;
        return 0;
    }
    void *q = pf__alloc(&c->alloc, new_bytes, 64);
    if (!q) {
        c->limit_hit = 1;
        return 0;
    }
    if (*p && old_bytes) memcpy(q, *p, old_bytes);
    pf__free(&c->alloc, *p, old_bytes);
    *p = q;
    c->bytes = c->bytes - old_bytes + new_bytes;
    return 1;
}

int pf__gen_grow(pf_gen_ctx *c, void **const *ptrs, const size_t *elems, int count, uint32_t *cap,
                 uint32_t need)
{
    if (need <= *cap) return 1;
    uint64_t n = pf__grow_cap(*cap, need, 16u);
    if (!n || count > PF__GROW_MAX_ARRAYS) return 0;
    /* the limit counts the old arrays and the new ones together: both are held while copying */
    size_t held = 0, add = 0;
    void *arrps[PF__GROW_MAX_ARRAYS];
    for (int i = 0; i < count; i++) {
        held += elems[i] * (size_t)n;
        add += elems[i] * (size_t)(n - *cap);
        arrps[i] = ptrs[i];
    }
    if ((c->limit_bytes && c->bytes + held > c->limit_bytes) ||
        !pf__grow_all(&c->alloc, arrps, elems, count, cap, n, 16u, 0)) {
        c->limit_hit = 1;
        return 0;
    }
    c->bytes += add;
    return 1;
}

int pf__gen_grow_bytes(pf_gen_ctx *c, uint8_t **p, size_t *cap, size_t need)
{
    if (need <= *cap) return 1;
    size_t n = *cap ? *cap : 256;
    while (n < need) n *= 2;
    void *q = *p;
    if (!grow_raw(c, &q, *cap, n)) return 0;
    *p = q;
    *cap = n;
    return 1;
}

uint64_t pf__gen_hash(const void *state, uint32_t size) { return XXH3_64bits(state, size); }

/* Bytes per record of the SoA block (hash, g, h, then three u32 arrays and the [ptie, hpos]
 * pairs), and of a block of `cap` records with the open list's page directory over the pairs
 * (heap_internal.h: the slot of record k is the second word of pair k & PF__PAGE_MASK of page
 * k >> PF__PAGE_SHIFT). */
#define PF__REC_BYTES (3 * sizeof(uint64_t) + 5 * sizeof(uint32_t))
static size_t rec_block_bytes(size_t cap) { return cap * PF__REC_BYTES + ((cap + PF__PAGE_MASK) >> PF__PAGE_SHIFT) * sizeof(char *); }

/* Points the SoA arrays into one block of `cap` records (8-byte arrays first keep alignment). */
static void records_bind(pf_gen_ctx *c, uint8_t *blk, uint32_t cap)
{
    c->hash = (uint64_t *)(void *)blk;
    c->g = (double *)(void *)(blk + (size_t)cap * 8);
    c->h = (double *)(void *)(blk + (size_t)cap * 16);
    c->parent = (uint32_t *)(void *)(blk + (size_t)cap * 24);
    c->action = c->parent + cap;
    c->depth = c->action + cap;
    c->tp = c->depth + cap;
    c->open.pg = (char **)(void *)(blk + (size_t)cap * PF__REC_BYTES);
    for (size_t p = 0; p < (((size_t)cap + PF__PAGE_MASK) >> PF__PAGE_SHIFT); p++)
        c->open.pg[p] = (char *)(c->tp + p * 2u * PF__PAGE_RECS);
}

/* Grows the records (one block, all arrays together) to hold `need`, and the state pool to match.
 * Allocate-then-commit: a failure leaves the old block intact. */
static int records_grow(pf_gen_ctx *c, uint32_t need)
{
    if (need > c->ncap) {
        uint64_t n = pf__grow_cap(c->ncap, need, 64u);
        if (!n) return 0;
        size_t old = c->ncap ? rec_block_bytes(c->ncap) : 0;
        void *blk = NULL;
        if (!grow_raw(c, &blk, 0, rec_block_bytes((size_t)n))) return 0;
        uint8_t *nb = blk;
        if (c->ncount) {
            uint32_t k = c->ncount;
            memcpy(nb, c->hash, (size_t)k * 8);
            memcpy(nb + n * 8, c->g, (size_t)k * 8);
            memcpy(nb + n * 16, c->h, (size_t)k * 8);
            memcpy(nb + n * 24, c->parent, (size_t)k * 4);
            memcpy(nb + n * 28, c->action, (size_t)k * 4);
            memcpy(nb + n * 32, c->depth, (size_t)k * 4);
            memcpy(nb + n * 36, c->tp, (size_t)k * 8);
        }
        pf__free(&c->alloc, c->hash, old);
        c->bytes -= old;
        records_bind(c, nb, (uint32_t)n);
        c->ncap = (uint32_t)n;
    }
    return pf__gen_grow_bytes(c, &c->states, &c->states_cap, (size_t)c->ncap * c->ssize);
}

static void table_put(uint32_t *t, uint32_t mask, uint64_t hv, uint32_t idx)
{
    uint32_t i = (uint32_t)hv & mask;
    while (t[i] != PF__GEN_NONE) i = (i + 1) & mask;
    t[i] = idx;
}

static int table_grow(pf_gen_ctx *c, uint32_t need_entries)
{
    uint64_t want = c->tcap ? c->tcap : 64;
    while (want < 2 * (uint64_t)need_entries) want *= 2;
    if (want <= c->tcap) return 1;
    if (want > (UINT64_C(1) << 31)) return 0;
    void *nt = NULL;
    size_t old = (size_t)c->tcap * sizeof(uint32_t);
    /* a fresh table: the old one is rebuilt from the records, so no copy is needed */
    if (!grow_raw(c, &nt, 0, (size_t)want * sizeof(uint32_t))) return 0;
    pf__free(&c->alloc, c->table, old);
    c->bytes -= old;
    c->table = nt;
    c->tcap = (uint32_t)want;
    memset(c->table, 0xff, (size_t)want * sizeof(uint32_t));
    for (uint32_t i = 0; i < c->ncount; i++) table_put(c->table, c->tcap - 1, c->hash[i], i);
    return 1;
}

void pf__gen_records_clear(pf_gen_ctx *c)
{
    if (c->tcap && c->ncount) {
        uint32_t mask = c->tcap - 1;
        if ((uint64_t)c->ncount * 8 < c->tcap) {
            /* reverse insertion order: each record's probe run is intact when it is cleared */
            for (uint32_t k = c->ncount; k-- > 0;) {
                uint32_t i = (uint32_t)c->hash[k] & mask;
                while (c->table[i] != k) i = (i + 1) & mask;
                c->table[i] = PF__GEN_NONE;
            }
        } else {
            memset(c->table, 0xff, (size_t)c->tcap * sizeof(uint32_t));
        }
    }
    c->ncount = 0;
}

uint32_t pf__gen_find(const pf_gen_ctx *c, const void *state, uint64_t hv)
{
    if (!c->tcap) return PF__GEN_NONE;
    uint32_t mask = c->tcap - 1, i = (uint32_t)hv & mask;
    for (;;) {
        uint32_t k = c->table[i];
        if (k == PF__GEN_NONE) return PF__GEN_NONE;
        if (c->hash[k] == hv && memcmp(c->states + (size_t)k * c->ssize, state, c->ssize) == 0)
            return k;
        i = (i + 1) & mask;
    }
}

uint32_t pf__gen_insert(pf_gen_ctx *c, const void *state, uint64_t hv)
{
    if (c->limit_states && c->ncount >= c->limit_states) {
        c->limit_hit = 1;
        return PF__GEN_NONE;
    }
    if (c->ncount >= UINT32_MAX - 2u) return PF__GEN_NONE;
    if (!records_grow(c, c->ncount + 1)) return PF__GEN_NONE;
    if ((uint64_t)(c->ncount + 1) * 2 > c->tcap && !table_grow(c, c->ncount + 1)) return PF__GEN_NONE;
    uint32_t k = c->ncount++;
    memcpy(c->states + (size_t)k * c->ssize, state, c->ssize);
    c->hash[k] = hv;
    table_put(c->table, c->tcap - 1, hv, k);
    return k;
}

/* The open list grows by doubling, under the context's memory limit like every other pool. */
static int open_grow(pf__open *o)
{
    pf_gen_ctx *c = o->owner;
    uint64_t n = o->cap ? (uint64_t)o->cap * 2u : 16u;
    if (n > UINT32_MAX - 2u) n = UINT32_MAX - 2u;
    if (n <= o->cap) return 0;
    size_t old = o->cap ? pf__open_bytes(o->cap) : 0, add = pf__open_bytes((uint32_t)n) - old;
    if ((c->limit_bytes && c->bytes + add > c->limit_bytes) || !pf__open_resize(o, &c->alloc, (uint32_t)n)) {
        c->limit_hit = 1;
        return 0;
    }
    c->bytes += add;
    return 1;
}

/* ---- context ----------------------------------------------------------------------------------- */

pf_status pf_gen_ctx_create(const pf_gen_ctx_desc *desc, pf_gen_ctx **out)
{
    if (!out) return PF_INVALID_ARGUMENT;
    *out = NULL;
    pf_gen_ctx_desc d = desc ? *desc : (pf_gen_ctx_desc){0};
    pf_allocator a = pf__alloc_resolve(&d.allocator);
    pf_gen_ctx *c = pf__calloc(&a, sizeof *c, 64);
    if (!c) return PF_OUT_OF_MEMORY;
    c->alloc = a;
    c->bytes = sizeof *c;
    c->initial = PF__DEF(d.initial_states, 1024u);
    c->sink.ctx = c;
    c->open.grow = open_grow;
    c->open.owner = c;
    *out = c;
    return PF_OK;
}

void pf_gen_ctx_destroy(pf_gen_ctx *c)
{
    if (!c) return;
    const pf_allocator *a = &c->alloc;
    pf__free(a, c->states, c->states_cap);
    pf__free(a, c->hash, c->ncap ? rec_block_bytes(c->ncap) : 0);
    pf__free(a, c->table, (size_t)c->tcap * sizeof *c->table);
    pf__open_free(&c->open, a);
    pf__free(a, c->sstates, c->sstates_cap);
    pf__free(a, c->scost, (size_t)c->scap * sizeof *c->scost);
    pf__free(a, c->sh, (size_t)c->scap * sizeof *c->sh);
    pf__free(a, c->sh0, (size_t)c->scap * sizeof *c->sh0);
    pf__free(a, c->sact, (size_t)c->scap * sizeof *c->sact);
    pf__free(a, c->sord, (size_t)c->scap * sizeof *c->sord);
    pf__free(a, c->pstates, c->pstates_cap);
    pf__free(a, c->pg, (size_t)c->pcap * sizeof *c->pg);
    pf__free(a, c->ph, (size_t)c->pcap * sizeof *c->ph);
    pf__free(a, c->pmin, (size_t)c->pcap * sizeof *c->pmin);
    pf__free(a, c->phash, (size_t)c->pcap * sizeof *c->phash);
    pf__free(a, c->pact, (size_t)c->pcap * sizeof *c->pact);
    pf__free(a, c->pbeg, (size_t)c->pcap * sizeof *c->pbeg);
    pf__free(a, c->pend, (size_t)c->pcap * sizeof *c->pend);
    pf__free(a, c->pnext, (size_t)c->pcap * sizeof *c->pnext);
    pf__free(a, c->ptt, (size_t)c->pcap * sizeof *c->ptt);
    pf__free(a, c->bstates, c->bstates_cap);
    pf__free(a, c->bact, (size_t)c->bcap * sizeof *c->bact);
    pf__free(a, c->sma_nodes, (size_t)c->sma_cap * c->sma_node_size);
    pf__free(a, c->sma_open, (size_t)c->sma_cap * sizeof *c->sma_open);
    pf__free(a, c->sma_leaf, (size_t)c->sma_cap * sizeof *c->sma_leaf);
    pf__free(a, c->sma_states, c->sma_states_cap);
    pf__free(a, c->sma_memo, (size_t)c->sma_memo_cap * c->sma_memo_size);
    pf_allocator keep = c->alloc;
    pf__free(&keep, c, sizeof *c);
}

size_t pf_gen_ctx_mem_size(const pf_gen_ctx *c) { return c ? c->bytes : 0; }

/* ---- successor sink ---------------------------------------------------------------------------- */

static uint8_t *sink_slot(pf_gen_sink *out, double cost, uint32_t action, double h)
{
    if (!out) return NULL;
    pf_gen_ctx *c = out->ctx;
    if (c->limit_hit) return NULL;
    /* checked here, once per push, so the searches need no pass over the successors for it; an h
     * the search does not use is dropped unchecked (a domain's incremental h is then meaningless) */
    if (!c->take_h) h = NAN;
    if (PF__UNLIKELY(pf__gen_bad_value(cost) || h < 0.0)) { /* NaN: not given; INFINITY: a dead end */
        c->bad_push = 1;
        return NULL;
    }
    uint32_t n = c->scount + 1;
    if (PF__UNLIKELY((size_t)n * c->ssize > c->sstates_cap) &&
        !pf__gen_grow_bytes(c, &c->sstates, &c->sstates_cap, (size_t)n * c->ssize))
        return NULL;
    if (PF__UNLIKELY(n > c->scap)) {
        void **const ptrs[] = {(void **)&c->scost, (void **)&c->sh, (void **)&c->sh0, (void **)&c->sact,
                               (void **)&c->sord};
        const size_t elems[] = {sizeof *c->scost, sizeof *c->sh, sizeof *c->sh0, sizeof *c->sact,
                                sizeof *c->sord};
        if (!pf__gen_grow(c, ptrs, elems, 5, &c->scap, n)) return NULL;
    }
    uint32_t k = c->scount++;
    c->snan += h != h;
    c->scost[k] = cost;
    c->sh[k] = h;
    c->sact[k] = action;
    return c->sstates + (size_t)k * c->ssize;
}

static int sink_push(pf_gen_sink *out, const void *state, double cost, uint32_t action, double h)
{
    if (!state) { /* a successor with no state is the domain's error, as a bad cost is: never a
                   * successor dropped in silence (the search said PF_NO_PATH with a plan there) */
        if (out) out->ctx->bad_push = 1;
        return 0;
    }
    uint8_t *slot = sink_slot(out, cost, action, h);
    if (!slot) return 0;
    pf__gen_copy(slot, state, out->ctx->ssize);
    return 1;
}

void *pf_gen_push_slot(pf_gen_sink *out, double cost, uint32_t action, double h)
{
    return sink_slot(out, cost, action, h);
}

int pf_gen_push(pf_gen_sink *out, const void *state, double cost, uint32_t action)
{
    return sink_push(out, state, cost, action, NAN);
}

int pf_gen_push_h(pf_gen_sink *out, const void *state, double cost, uint32_t action, double h)
{
    /* NaN means "not given": a domain that passes NaN gets the callback, never a NaN h */
    return sink_push(out, state, cost, action, h);
}

double pf_gen_sink_h(const pf_gen_sink *out) { return out ? out->parent_h : 0.0; }

/* ---- desc ---------------------------------------------------------------------------------------- */

pf_gen_desc pf_gen_desc_resolve(const pf_gen_desc *desc)
{
    pf_gen_desc d = desc ? *desc : (pf_gen_desc){0};
    d.algo = PF__DEF(d.algo, PF_GEN_ASTAR);
    d.weight = d.weight == 0.0 ? 1.0 : d.weight;
    /* BFS: the textbook FIFO queue unless the caller sets a rule (any order among states of one
     * depth still gives the fewest steps) */
    d.tie = PF__DEF(d.tie, d.algo == PF_GEN_BFS ? PF_TIE_FIFO : PF_TIE_DEEPER);
    d.cycles = PF__DEF(d.cycles, PF_GEN_CYCLES_PATH);
    if (d.algo == PF_GEN_IDASTAR_TT || d.algo == PF_GEN_SMASTAR) d.max_states = PF__DEF(d.max_states, 1u << 16);
    return d;
}

const char *pf_gen_algo_name(pf_gen_algo a)
{
    static const char *const names[PF_GEN__COUNT] = {"astar", "astar",   "wastar",     "greedy", "uniform",
                                                     "bfs",   "idastar", "idastar-tt", "dfbnb",  "smastar"};
    return (unsigned)a < PF_GEN__COUNT ? names[a] : "unknown";
}

/* PF_TIE_RANDOM also chooses among equally cheap parents of a state (two actions reaching the
 * same world state): the parent with the smaller key wins, so the choice depends only on the seed. */
static uint32_t parent_key(const pf_gen_desc *d, uint64_t hv, uint32_t parent, uint32_t action)
{
    return pf__mix32(d->tie_seed ^ hv ^ ((uint64_t)parent << 32 | action) * UINT64_C(0xD6E8FEB86659FD93));
}

/* ---- plan output --------------------------------------------------------------------------------- */

static pf_status write_plan(pf_gen_ctx *c, uint32_t goal, pf_gen_plan *plan)
{
    if (!plan) return PF_OK;
    uint32_t len = c->depth[goal];
    plan->len = len;
    if (len > plan->capacity) return PF_BUFFER_TOO_SMALL;
    uint32_t k = goal;
    for (uint32_t i = len; i-- > 0;) {
        if (plan->actions) plan->actions[i] = c->action[k];
        if (plan->states)
            memcpy((uint8_t *)plan->states + (size_t)i * c->ssize, c->states + (size_t)k * c->ssize, c->ssize);
        k = c->parent[k];
    }
    return PF_OK;
}

/* ---- best-first loop -------------------------------------------------------------------------------- */


static pf_status best_first(pf_gen_ctx *c, const pf_gen_problem *p, const void *start, const pf_gen_desc *d,
                            pf_gen_plan *plan, pf_gen_stats *st)
{
    const int greedy = d->algo == PF_GEN_GREEDY, bfs = d->algo == PF_GEN_BFS;
    const int use_h = (p->heuristic || d->heuristic_count) && d->algo != PF_GEN_UNIFORM && !bfs;
    const int more_h = use_h && d->heuristic_count > 0; /* c->h keeps the domain's own h (sink_h) */
    c->take_h = use_h;
    const int reopen = d->algo == PF_GEN_ASTAR || d->algo == PF_GEN_UNIFORM;
    const double w = d->algo == PF_GEN_WASTAR ? d->weight : 1.0;
    const int rnd = d->tie == PF_TIE_RANDOM;
    const uint32_t ss = p->state_size;
    const double cap = pf__cost_cap(d->max_cost); /* 0: no limit */
    /* pruned: a successor cut by max_cost (a search that does not reopen may have reached its
     * state first by a dearer path, so the cut does not prove there is no plan within the limit);
     * overflow: a successor whose cost sums to infinity (steps of finite cost near DBL_MAX) */
    int pruned = 0, overflow = 0;

    pf__gen_records_clear(c);
    pf__open_reset(&c->open, d->tie, d->tie_seed);
    if (!records_grow(c, c->initial) || !table_grow(c, c->initial)) return PF_OUT_OF_MEMORY;

    uint64_t hv = pf__gen_hash(start, ss);
    double h0 = use_h && p->heuristic ? p->heuristic(start, p->user) : 0.0;
    if (pf__gen_bad_h(h0)) return PF_INVALID_ARGUMENT;
    double hx0 = more_h ? pf__gen_hmax(p, d, start, h0) : h0;
    if (pf__gen_bad_h(hx0)) return PF_INVALID_ARGUMENT;
    if (hx0 == INFINITY) return PF_NO_PATH; /* the start is a dead end */
    uint32_t s0 = pf__gen_insert(c, start, hv);
    if (s0 == PF__GEN_NONE) return PF_OUT_OF_MEMORY;
    c->g[s0] = 0.0;
    c->h[s0] = h0;
    c->parent[s0] = PF__GEN_NONE;
    c->action[s0] = 0;
    c->depth[s0] = 0;
    /* The open list is the library's (search/heap_internal.h), without a held entry: what the
     * heap holds is charged to the memory limit at once. */
    if (!pf__open_add(&c->open, NULL, s0, hv, greedy ? hx0 : w * hx0, hx0)) return PF_OUT_OF_MEMORY;

    while (c->open.size) {
        if (d->max_expansions && st->expanded >= d->max_expansions) return PF_LIMIT_REACHED;
        uint32_t cur = pf__open_pop(&c->open);
        GEN_HPOS(c, cur) = PF__GEN_CLOSED;
        const uint8_t *cs = c->states + (size_t)cur * ss;
        if (p->is_goal(cs, p->user)) {
            st->cost = c->g[cur];
            st->plan_len = c->depth[cur];
            return write_plan(c, cur, plan);
        }
        st->expanded++;
        c->scount = 0;
        c->sink.parent_h = c->h[cur];
        p->successors(cs, &c->sink, p->user);
        if (c->limit_hit) return PF_OUT_OF_MEMORY;
        if (c->bad_push) return PF_INVALID_ARGUMENT;
        const double gc = c->g[cur];
        const uint32_t dc = c->depth[cur];
        for (uint32_t i = 0; i < c->scount; i++) {
            double cost = c->scost[i]; /* checked by the sink */
            st->generated++;
            const uint8_t *ns = c->sstates + (size_t)i * ss;
            double ng = gc + cost;
            if (!(ng <= DBL_MAX)) {
                overflow = 1;
                continue;
            }
            uint64_t nh = pf__gen_hash(ns, ss);
            uint32_t k = pf__gen_find(c, ns, nh);
            if (k == PF__GEN_NONE) {
                double h = 0.0, hx = 0.0;
                if (use_h) {
                    h = !isnan(c->sh[i]) ? c->sh[i] : p->heuristic ? p->heuristic(ns, p->user) : 0.0;
                    if (pf__gen_bad_h(h)) return PF_INVALID_ARGUMENT;
                    hx = more_h ? pf__gen_hmax(p, d, ns, h) : h;
                    if (pf__gen_bad_h(hx)) return PF_INVALID_ARGUMENT;
                    if (hx == INFINITY) continue; /* a dead end: never stored */
                }
                if (cap > 0 && ng + hx > cap) {
                    pruned = 1;
                    continue;
                }
                k = pf__gen_insert(c, ns, nh);
                if (k == PF__GEN_NONE) return PF_OUT_OF_MEMORY;
                c->g[k] = ng;
                c->h[k] = h;
                c->parent[k] = cur;
                c->action[k] = c->sact[i];
                c->depth[k] = dc + 1;
                if (rnd) GEN_PTIE(c, k) = parent_key(d, nh, cur, c->sact[i]);
                double f = bfs ? (double)(dc + 1) : greedy ? hx : ng + w * hx;
                if (!pf__open_add(&c->open, NULL, k, nh, f, hx)) return PF_OUT_OF_MEMORY;
                continue;
            }
            if (rnd && ng == c->g[k] && GEN_HPOS(c, k) != PF__GEN_CLOSED && !bfs) {
                uint32_t key = parent_key(d, nh, cur, c->sact[i]);
                if (key < GEN_PTIE(c, k)) {
                    GEN_PTIE(c, k) = key;
                    c->parent[k] = cur;
                    c->action[k] = c->sact[i];
                    c->depth[k] = dc + 1;
                }
                continue;
            }
            const uint32_t closed = GEN_HPOS(c, k) == PF__GEN_CLOSED;
            if (bfs || !pf__relax_improves(closed, reopen, ng, c->g[k])) continue;
            /* an extra heuristic is evaluated again here (rare: a cheaper path to a known state) */
            double h = more_h ? pf__gen_hmax(p, d, c->states + (size_t)k * ss, c->h[k]) : c->h[k];
            if (pf__gen_bad_h(h)) return PF_INVALID_ARGUMENT;
            if (h == INFINITY) continue; /* a heuristic that changed its mind: a dead end now */
            c->g[k] = ng;
            c->parent[k] = cur;
            c->action[k] = c->sact[i];
            c->depth[k] = dc + 1;
            if (rnd) GEN_PTIE(c, k) = parent_key(d, nh, cur, c->sact[i]);
            double f = greedy ? h : ng + w * h;
            if (closed) {
                st->reopened++;
                if (!pf__open_add(&c->open, NULL, k, nh, f, h)) return PF_OUT_OF_MEMORY;
            } else if (!greedy) { /* greedy: f = h did not change */
                pf__open_lower(&c->open, NULL, k, f);
            }
        }
    }
    if (overflow) return PF_COST_OVERFLOW;
    return pruned && !reopen ? PF_LIMIT_REACHED : PF_NO_PATH;
}

pf_status pf_gen_search(pf_gen_ctx *c, const pf_gen_problem *p, const void *start, const pf_gen_desc *desc,
                        pf_gen_plan *plan, pf_gen_stats *stats)
{
    pf_gen_stats st = {0};
    st.cost = INFINITY;
    pf_status s = PF_INVALID_ARGUMENT;
    if (plan) plan->len = 0;
    pf_gen_desc d = pf_gen_desc_resolve(desc);
    if (!c || !p || !start || !p->successors || !p->is_goal || p->state_size == 0 ||
        p->state_size > PF_GEN_MAX_STATE_SIZE || (unsigned)d.algo >= PF_GEN__COUNT ||
        !(d.weight >= 1.0) || isinf(d.weight) || !(d.max_cost >= 0.0) || (unsigned)d.tie > PF_TIE_RANDOM ||
        (unsigned)d.cycles > PF_GEN_CYCLES_PARENT || (plan && plan->capacity && !plan->actions && !plan->states) ||
        (d.heuristic_count && !d.heuristics))
        goto done;
    for (uint32_t i = 0; i < d.heuristic_count; i++)
        if (!d.heuristics[i]) goto done;
    if (c->ssize != p->state_size) {
        /* records of another state size: forget them; every byte pool is re-checked against
         * count * state_size when it is used, so capacities carry over safely */
        c->ncount = 0;
        if (c->tcap) memset(c->table, 0xff, (size_t)c->tcap * sizeof(uint32_t));
        c->ssize = p->state_size;
    }
    c->limit_bytes = d.max_bytes;
    c->limit_states = d.algo == PF_GEN_IDASTAR_TT || d.algo == PF_GEN_SMASTAR ? 0 : d.max_states;
    c->limit_hit = 0;
    c->bad_push = 0;
    if (d.algo == PF_GEN_IDASTAR || d.algo == PF_GEN_IDASTAR_TT || d.algo == PF_GEN_DFBNB)
        s = pf__gen_dfs(c, p, start, &d, plan, &st);
    else if (d.algo == PF_GEN_SMASTAR)
        s = pf__gen_sma(c, p, start, &d, plan, &st); /* sets stored: its nodes are not records */
    else
        s = best_first(c, p, start, &d, plan, &st);
    if (d.algo != PF_GEN_SMASTAR) st.stored = c->ncount;
done:
    if (c) st.peak_bytes = c->bytes;
    if (stats) *stats = st;
    return s;
}
