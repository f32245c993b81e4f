/* generic_internal.h - layout of pf_gen_ctx, shared by generic.c (best-first) and
 * generic_dfs.c (IDA*, IDA* with a transposition table, DFBnB). Never installed. */
#ifndef PF_SEARCH_GENERIC_INTERNAL_H
#define PF_SEARCH_GENERIC_INTERNAL_H

#include <math.h>
#include "pathfind/pf_generic.h"
#include "common/pf_internal.h"
#include "search/heap_internal.h"

#define PF__GEN_NONE UINT32_MAX
#define PF__GEN_CLOSED UINT32_MAX

struct pf_gen_sink {
    pf_gen_ctx *ctx;
    double      parent_h;
};

/*
 * Everything grows by doubling through grow_array() in generic.c, which keeps `bytes` (the total
 * held) and refuses growth beyond `limit_bytes`. Nothing is freed between searches.
 *
 * State records (best-first nodes; IDASTAR_TT table entries), structure of arrays [ncap]:
 *   states  [ncap * ssize] bytes of each state, stored by value
 *   hash    [ncap] XXH3-64 of the state bytes (rehash and probe compares without touching states)
 *   g       [ncap] best cost so far (TT: cheapest g this iteration)
 *   h       [ncap] heuristic (TT: backed-up lower bound)
 *   parent  [ncap] record of the parent, PF__GEN_NONE for the start
 *   action  [ncap] action from the parent
 *   depth   [ncap] steps from the start (TT: iteration that wrote g)
 *   tp      [ncap] pairs [ptie, hpos]: PF_TIE_RANDOM's key of the parent among equally cheap
 *                  ones, and the slot in the open list (open.pg), PF__GEN_CLOSED once expanded
 *   then the open list's page directory over the pairs
 * Hash table [tcap], a power of two, load <= 1/2: record index or PF__GEN_NONE; linear probing.
 * Records are only appended, so the table's insertion order is the index order; that lets a
 * small search clear its slots in reverse order instead of clearing the whole table.
 */
#define GEN_PTIE(c, k) ((c)->tp[2u * (size_t)(k)])
#define GEN_HPOS(c, k) ((c)->tp[2u * (size_t)(k) + 1u])

struct pf_gen_ctx {
    pf_allocator alloc;
    size_t       bytes;        /* held now */
    size_t       limit_bytes;  /* 0 = none; set per search */
    uint32_t     limit_states; /* 0 = none; set per search */
    int          limit_hit;    /* a growth was refused by a limit or failed */
    int          bad_push;     /* a callback pushed a negative or non-finite cost or h */
    int          take_h;       /* the running search uses pushed h (else the sink drops them) */
    uint32_t     initial;

    uint32_t  ssize;
    uint32_t  ncount, ncap;
    size_t    states_cap;      /* bytes */
    uint8_t  *states;
    uint64_t *hash;
    double   *g, *h;
    uint32_t *parent, *action, *depth, *tp;

    uint32_t *table;
    uint32_t  tcap;

    pf__open  open;            /* the library's open list (search/heap_internal.h) over tp */

    /* successor scratch, used as a stack by the depth-first searches [scap] */
    uint32_t  scount, scap;
    size_t    sstates_cap;
    uint8_t  *sstates;
    double   *scost, *sh, *sh0; /* sh0: the domain's own h when the problem has extra heuristics */
    uint32_t  snan;             /* pushes without an h since the searches last cleared it */
    uint32_t *sact, *sord;
    pf_gen_sink sink;

    /* depth-first path [pcap]: state, g, h, hash, action in, successor range, next child, bound */
    uint32_t  pcap;
    size_t    pstates_cap;
    uint8_t  *pstates;
    double   *pg, *ph, *pmin;
    uint64_t *phash;
    uint32_t *pact, *pbeg, *pend, *pnext, *ptt;

    /* DFBnB best plan so far [bcap] */
    uint32_t  bcap, blen;
    size_t    bstates_cap;
    uint8_t  *bstates;
    uint32_t *bact;

    /* SMA* (sma.c): node pool and its two heaps [sma_cap], states [sma_cap * ssize] */
    void     *sma_nodes;
    size_t    sma_node_size;  /* set by sma.c; the pool's element size for the free in destroy */
    uint32_t *sma_open, *sma_leaf;
    uint32_t  sma_cap;
    uint8_t  *sma_states;
    size_t    sma_states_cap;
    void     *sma_memo;       /* remembered f of forgotten successors [sma_memo_cap] */
    size_t    sma_memo_size;
    uint32_t  sma_memo_cap;
};

/* State copy and equality, inlined: the depth-first searches copy and compare small states (17
 * bytes for the 15-puzzle) several times per node, and a libc call for each was a quarter of the
 * IDA* profile. Sizes of 8 bytes or more go by 8-byte words, the last word overlapping the one
 * before; memcpy of a constant 8 compiles to one load or store. */
PF__INLINE void pf__gen_copy(void *dst, const void *src, uint32_t n)
{
    if (n < 8 || n > 64) {
        memcpy(dst, src, n);
        return;
    }
    uint8_t *d = dst;
    const uint8_t *s = src;
    uint64_t w;
    for (uint32_t i = 0; i + 8 < n; i += 8) {
        memcpy(&w, s + i, 8);
        memcpy(d + i, &w, 8);
    }
    memcpy(&w, s + n - 8, 8);
    memcpy(d + n - 8, &w, 8);
}

PF__INLINE int pf__gen_equal(const void *a, const void *b, uint32_t n)
{
    if (n < 8 || n > 64) return memcmp(a, b, n) == 0;
    const uint8_t *x = a, *y = b;
    uint64_t u, v;
    for (uint32_t i = 0; i + 8 < n; i += 8) {
        memcpy(&u, x + i, 8);
        memcpy(&v, y + i, 8);
        if (u != v) return 0;
    }
    memcpy(&u, x + n - 8, 8);
    memcpy(&v, y + n - 8, 8);
    return u == v;
}

/* A step cost the searches refuse: negative, NaN or infinite. */
PF__INLINE int pf__gen_bad_value(double v) { return !(v >= 0.0 && v < INFINITY); }
/* A heuristic value the searches refuse: negative or NaN. +INFINITY is a proven dead end (a
 * pattern database's unreached entry): the state is never stored nor expanded. */
PF__INLINE int pf__gen_bad_h(double v) { return !(v >= 0.0); }

/* The lecture's "maximum of several admissible heuristics": `h` (the domain's own) maxed with the
 * desc's extra heuristics. A negative or NaN extra value comes back as NaN, which the callers
 * report as PF_INVALID_ARGUMENT; a dead end (h = INFINITY) needs no more heuristics. */
static inline double pf__gen_hmax(const pf_gen_problem *p, const pf_gen_desc *d, const void *state,
                                  double h)
{
    for (uint32_t i = 0; i < d->heuristic_count && h < INFINITY; i++) {
        double v = d->heuristics[i](state, p->user);
        if (pf__gen_bad_h(v)) return NAN;
        if (v > h) h = v;
    }
    return h;
}

/* Grows `count` (<= 16) parallel arrays *ptrs[i] (element size elems[i]) from *cap to at least
 * `need` elements, doubling; all or none. 0 on failure (limit or allocation). */
int  pf__gen_grow(pf_gen_ctx *c, void **const *ptrs, const size_t *elems, int count, uint32_t *cap,
                  uint32_t need);
/* Grows a byte array to at least `need` bytes. 0 on failure. */
int  pf__gen_grow_bytes(pf_gen_ctx *c, uint8_t **p, size_t *cap, size_t need);
/* Empties the state records and the hash table (cheaply when few were used). */
void pf__gen_records_clear(pf_gen_ctx *c);
/* Finds a state (hash hv) in the records; PF__GEN_NONE when absent. */
uint32_t pf__gen_find(const pf_gen_ctx *c, const void *state, uint64_t hv);
/* Appends a record for a state known to be absent and indexes it; PF__GEN_NONE on failure. */
uint32_t pf__gen_insert(pf_gen_ctx *c, const void *state, uint64_t hv);
uint64_t pf__gen_hash(const void *state, uint32_t size);

/* Depth-first searches (generic_dfs.c). `d` is resolved and validated. */
pf_status pf__gen_dfs(pf_gen_ctx *c, const pf_gen_problem *p, const void *start, const pf_gen_desc *d,
                      pf_gen_plan *plan, pf_gen_stats *st);
/* SMA* (sma.c); sets st->stored. */
pf_status pf__gen_sma(pf_gen_ctx *c, const pf_gen_problem *p, const void *start, const pf_gen_desc *d,
                      pf_gen_plan *plan, pf_gen_stats *st);

#endif
