/* generic_internal.h - layout of pf_gen_ctx, shared by generic.c (best-first) and
 * generic_dfs.c (IDA*, IDA* with a transposition table, DFBnB). Never installed. */
#ifndef PF_SEARCH_GENERIC_INTERNAL_H
#define PF_SEARCH_GENERIC_INTERNAL_H

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
 *   hpos    [ncap] slot in the open list (open.pos), PF__GEN_CLOSED once expanded
 *   ptie    [ncap] PF_TIE_RANDOM: key of the parent among equally cheap ones
 * Hash table [tcap], a power of two, load <= 1/2: record index or PF__GEN_NONE; linear probing.
 * Records are only appended, so the table's insertion order is the index order; that lets a
 * small search clear its slots in reverse order instead of clearing the whole table.
 */
struct pf_gen_ctx {
    pf_allocator alloc;
    size_t       bytes;        /* held now */
    size_t       limit_bytes;  /* 0 = none; set per search */
    uint32_t     limit_states; /* 0 = none; set per search */
    int          limit_hit;    /* a growth was refused by a limit or failed */
    uint32_t     initial;

    uint32_t  ssize;
    uint32_t  ncount, ncap;
    size_t    states_cap;      /* bytes */
    uint8_t  *states;
    uint64_t *hash;
    double   *g, *h;
    uint32_t *parent, *action, *depth, *hpos, *ptie;

    uint32_t *table;
    uint32_t  tcap;

    pf__open  open;            /* the library's open list (search/heap_internal.h); pos = hpos */

    /* successor scratch, used as a stack by the depth-first searches [scap] */
    uint32_t  scount, scap;
    size_t    sstates_cap;
    uint8_t  *sstates;
    double   *scost, *sh;
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
};

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

#endif
