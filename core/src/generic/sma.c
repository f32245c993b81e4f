/* sma.c - SMA*, simplified memory-bounded A* (Russell 1992), as the lecture presents it: "run
 * regular A* with a fixed memory limit; when the limit is reached, discard the node with the
 * highest f; its value is assigned to the parent, which remembers the value of that branch; if all
 * other branches get a higher f value, regenerate".
 *
 * The search is over the tree of paths, with at most `max_states` nodes in memory at once:
 *   - it expands the deepest of the least-f nodes, ONE successor at a time (Russell's version:
 *     a node with successors still to generate, or forgotten ones to regenerate, stays open);
 *   - a successor's f is max(f(parent), g + h) (pathmax: f never decreases along a path), or
 *     INFINITY when it is not a goal and sits at the deepest level memory can hold (max_states - 1
 *     steps: its own successors could never be stored with the path to them);
 *   - once all of a node's successors have been generated, its f is backed up to the least f of
 *     its children in memory and of the ones it forgot, and the change goes up its ancestors;
 *   - when memory is full, the shallowest of the highest-f LEAVES is deleted (never the node being
 *     expanded: that one is the best, the deleted one the worst, in one total order), and its
 *     parent remembers its f and becomes open again so the branch can be regenerated;
 *   - a parent regenerates its forgotten successor of least remembered f, and the regenerated
 *     node starts from that value (its subtree's backed-up bound is not lost).
 * Each remembered f is kept per successor, not as one minimum per parent: with one minimum, a
 * branch found worthless after it was regenerated left the old, lower value behind, the parent's
 * f could never rise past it, and a small bound thrashed forever (Romania at 3 and 4 nodes).
 * Memory: max_states nodes, plus the remembered values of the forgotten successors of the nodes in
 * memory (16 bytes each; at most the branching factor per node).
 * A goal is returned when it is the best open node: optimal when the path to an optimal goal fits
 * in memory (max_states > its depth), otherwise the best plan that fits, and PF_NO_PATH when no
 * plan fits. Ties in (f, depth) go by desc->tie, then newest first (deletions: oldest first).
 *
 * Why not the shared open list: SMA* needs both the best open node and the worst leaf, and its
 * nodes leave memory; its records are small structs in a pool with a free list and two binary
 * heaps on the same total order. States are compared by the shared XXH3 state hash.
 */
#include <float.h>
#include <math.h>
#include <string.h>
#include "generic/generic_internal.h"

#define NONE PF__GEN_NONE

typedef struct sma_node {
    double   g, h, f;
    uint64_t hash;
    uint64_t seq;      /* creation order */
    uint32_t parent, action, depth;
    uint32_t slot;     /* index among the parent's successors, in callback order */
    uint32_t first, next, prev; /* children in memory; `next` also links the free list */
    uint32_t kids;
    uint32_t nsucc;    /* live successors (cycles excluded); NONE until first generated */
    uint32_t cursor;   /* next successor index to generate in the first round */
    uint32_t forgot;   /* list of remembered forgotten successors (sma_memo), NONE when empty */
    uint32_t opos, lpos; /* heap positions; NONE when not in that heap */
    uint32_t tie;
    uint32_t all_seen; /* every successor has been generated at least once */
} sma_node;

/* The f a deleted successor had, remembered by its parent until it is regenerated. */
typedef struct sma_memo {
    double   f;
    uint32_t slot, next;
} sma_memo;

typedef struct sma {
    pf_gen_ctx           *c;
    const pf_gen_problem *p;
    const pf_gen_desc    *d;
    pf_gen_stats         *st;
    sma_node *n;
    uint8_t  *states;
    uint32_t *open, *leaf;
    uint32_t  nopen, nleaf, cap, count, limit, free_head;
    sma_memo *memo;
    uint32_t  memo_count, memo_free;
    uint64_t  seq;
    uint32_t  max_depth;   /* deepest level a non-goal may be expanded from, plus one */
    uint32_t  cache;       /* node whose successors are in the scratch */
    uint64_t  cache_seq;
    int       use_h, more_h;
    double    cost_cap;    /* pf__cost_cap(max_cost): 0, no limit */
    int       overflow;    /* a successor's cost summed to infinity (steps near DBL_MAX) */
} sma;

/* ---- pools: nodes and both heaps grow together, up to the bound ---------------------------- */

static int grow(sma *s, uint32_t need)
{
    pf_gen_ctx *c = s->c;
    c->sma_node_size = sizeof(sma_node);
    if (need > c->sma_cap) {
        void **const ptrs[] = {&c->sma_nodes, (void **)&c->sma_open, (void **)&c->sma_leaf};
        const size_t elems[] = {sizeof(sma_node), sizeof(uint32_t), sizeof(uint32_t)};
        if (!pf__gen_grow(c, ptrs, elems, 3, &c->sma_cap, need)) return 0;
    }
    if (!pf__gen_grow_bytes(c, &c->sma_states, &c->sma_states_cap, (size_t)c->sma_cap * c->ssize)) return 0;
    s->n = c->sma_nodes;
    s->open = c->sma_open;
    s->leaf = c->sma_leaf;
    s->states = c->sma_states;
    s->cap = c->sma_cap;
    return 1;
}

static uint32_t memo_alloc(sma *s)
{
    pf_gen_ctx *c = s->c;
    if (s->memo_free != NONE) {
        uint32_t m = s->memo_free;
        s->memo_free = s->memo[m].next;
        return m;
    }
    if (s->memo_count >= c->sma_memo_cap) {
        void **const ptrs[] = {&c->sma_memo};
        const size_t elems[] = {sizeof(sma_memo)};
        c->sma_memo_size = sizeof(sma_memo);
        if (!pf__gen_grow(c, ptrs, elems, 1, &c->sma_memo_cap, s->memo_count + 1)) return NONE;
        s->memo = c->sma_memo;
    }
    return s->memo_count++;
}

/* ---- the total order and the two heaps -------------------------------------------------------- */

/* a before b: smaller f, then deeper, then the tie key, then newer */
static inline int better(const sma_node *a, const sma_node *b)
{
    if (a->f != b->f) return a->f < b->f;
    if (a->depth != b->depth) return a->depth > b->depth;
    if (a->tie != b->tie) return a->tie < b->tie;
    return a->seq > b->seq;
}

/* The open heap keeps the best on top; the leaf heap the worst (worst = better reversed). */
static inline int above(const sma *s, int leafheap, uint32_t a, uint32_t b)
{
    return leafheap ? better(&s->n[b], &s->n[a]) : better(&s->n[a], &s->n[b]);
}

static inline uint32_t *pos_of(sma *s, int leafheap, uint32_t k)
{
    return leafheap ? &s->n[k].lpos : &s->n[k].opos;
}

static void sift(sma *s, int leafheap, uint32_t i)
{
    uint32_t *h = leafheap ? s->leaf : s->open;
    const uint32_t size = leafheap ? s->nleaf : s->nopen;
    uint32_t k = h[i];
    while (i > 0) { /* up */
        uint32_t p = (i - 1) / 2;
        if (!above(s, leafheap, k, h[p])) break;
        h[i] = h[p];
        *pos_of(s, leafheap, h[i]) = i;
        i = p;
    }
    for (;;) { /* down */
        uint32_t l = 2 * i + 1, best = i;
        uint32_t bk = k;
        if (l < size && above(s, leafheap, h[l], bk)) best = l, bk = h[l];
        if (l + 1 < size && above(s, leafheap, h[l + 1], bk)) best = l + 1, bk = h[l + 1];
        if (best == i) break;
        h[i] = bk;
        *pos_of(s, leafheap, bk) = i;
        i = best;
    }
    h[i] = k;
    *pos_of(s, leafheap, k) = i;
}

static void heap_add(sma *s, int leafheap, uint32_t k)
{
    uint32_t *h = leafheap ? s->leaf : s->open;
    uint32_t *size = leafheap ? &s->nleaf : &s->nopen;
    if (*pos_of(s, leafheap, k) != NONE) return;
    h[*size] = k;
    *pos_of(s, leafheap, k) = *size;
    sift(s, leafheap, (*size)++);
}

static void heap_remove(sma *s, int leafheap, uint32_t k)
{
    uint32_t *h = leafheap ? s->leaf : s->open;
    uint32_t *size = leafheap ? &s->nleaf : &s->nopen;
    uint32_t i = *pos_of(s, leafheap, k);
    if (i == NONE) return;
    *pos_of(s, leafheap, k) = NONE;
    uint32_t last = h[--*size];
    if (last == k) return;
    h[i] = last;
    *pos_of(s, leafheap, last) = i;
    sift(s, leafheap, i);
}

/* f of k changed: both heaps may need it moved */
static void reorder(sma *s, uint32_t k)
{
    if (s->n[k].opos != NONE) sift(s, 0, s->n[k].opos);
    if (s->n[k].lpos != NONE) sift(s, 1, s->n[k].lpos);
}

/* ---- nodes --------------------------------------------------------------------------------------- */

static uint32_t node_alloc(sma *s)
{
    uint32_t k;
    if (s->free_head != NONE) {
        k = s->free_head;
        s->free_head = s->n[k].next;
    } else {
        if (s->count >= s->cap && !grow(s, s->count + 1)) return NONE;
        k = s->count; /* never-used slots come after every used one while nothing was freed */
    }
    s->count++;
    return k;
}

static uint32_t tie_of(const sma *s, uint64_t hv, double h, uint64_t seq)
{
    switch (s->d->tie) {
    case PF_TIE_FIFO: return (uint32_t)seq;
    case PF_TIE_LIFO: return ~(uint32_t)seq;
    case PF_TIE_RANDOM: return pf__mix32(s->d->tie_seed ^ (hv * UINT64_C(0x9E3779B97F4A7C15)));
    default: return pf__tie_deeper(h);
    }
}

/* f backed up from the children: the least f among them and the ones forgotten */
static void backup(sma *s, uint32_t k)
{
    while (k != NONE) {
        sma_node *n = &s->n[k];
        if (!n->all_seen) return;
        double f = INFINITY; /* no successor left at all: a dead end */
        for (uint32_t ch = n->first; ch != NONE; ch = s->n[ch].next)
            if (s->n[ch].f < f) f = s->n[ch].f;
        for (uint32_t m = n->forgot; m != NONE; m = s->memo[m].next)
            if (s->memo[m].f < f) f = s->memo[m].f;
        /* f never decreases along a path: the children started at least at the node's f */
        if (!(f > n->f)) return;
        n->f = f;
        reorder(s, k);
        k = n->parent;
    }
}

/* Deletes the worst leaf (never `keep`); its parent remembers its f and is open again.
 * 1 done, 0 nothing to delete, -1 out of memory. */
static int forget_worst(sma *s, uint32_t keep)
{
    if (s->nleaf == 0) return 0;
    uint32_t w = s->leaf[0];
    if (w == keep || s->n[w].parent == NONE) return 0; /* cannot happen with max_states >= 2 */
    sma_node *wn = &s->n[w];
    uint32_t p = wn->parent;
    sma_node *pn = &s->n[p];
    heap_remove(s, 1, w);
    heap_remove(s, 0, w);
    if (wn->prev != NONE) s->n[wn->prev].next = wn->next;
    else pn->first = wn->next;
    if (wn->next != NONE) s->n[wn->next].prev = wn->prev;
    pn->kids--;
    uint32_t m = memo_alloc(s);
    if (m == NONE) return -1;
    s->memo[m] = (sma_memo){wn->f, wn->slot, pn->forgot};
    pn->forgot = m;
    /* what w remembered is summed up in its own f */
    for (uint32_t q = wn->forgot, nq; q != NONE; q = nq) {
        nq = s->memo[q].next;
        s->memo[q].next = s->memo_free;
        s->memo_free = q;
    }
    heap_add(s, 0, p);
    if (pn->kids == 0) heap_add(s, 1, p);
    wn->next = s->free_head;
    s->free_head = w;
    s->count--;
    s->st->iterations++;
    return 1;
}

/* ---- successors ---------------------------------------------------------------------------------- */

/* Non-zero when successor state x (hash hv) of node k repeats a state on the path to k. */
static int cycle(const sma *s, uint32_t k, const uint8_t *x, uint64_t hv)
{
    const uint32_t ss = s->c->ssize;
    int steps = s->d->cycles == PF_GEN_CYCLES_PARENT ? 2 : -1;
    for (; k != NONE && steps != 0; k = s->n[k].parent, steps--)
        if (s->n[k].hash == hv && pf__gen_equal(x, s->states + (size_t)k * ss, ss)) return 1;
    return 0;
}

/* Fills the scratch with k's successors (cycles marked by cost NAN); returns a status. */
static pf_status load_successors(sma *s, uint32_t k)
{
    pf_gen_ctx *c = s->c;
    const pf_gen_problem *p = s->p;
    const uint32_t ss = c->ssize;
    if (s->cache == k && s->cache_seq == s->n[k].seq) return PF_OK;
    c->scount = 0;
    c->sink.parent_h = s->n[k].h;
    p->successors(s->states + (size_t)k * ss, &c->sink, p->user);
    if (c->limit_hit) return PF_OUT_OF_MEMORY;
    if (c->bad_push) return PF_INVALID_ARGUMENT;
    uint32_t live = 0;
    for (uint32_t i = 0; i < c->scount; i++) {
        const uint8_t *x = c->sstates + (size_t)i * ss;
        if (cycle(s, k, x, pf__gen_hash(x, ss))) c->scost[i] = NAN;
        else live++;
    }
    sma_node *n = &s->n[k];
    if (n->nsucc == NONE) n->nsucc = live;
    else if (n->nsucc != live) return PF_INVALID_ARGUMENT; /* the callback must be deterministic */
    s->cache = k;
    s->cache_seq = n->seq;
    return PF_OK;
}

/* Takes k's forgotten successor of least remembered f off its list: its slot, and the f in *f. */
static uint32_t take_best_forgotten(sma *s, uint32_t k, double *f)
{
    uint32_t *best = NULL;
    for (uint32_t *at = &s->n[k].forgot; *at != NONE; at = &s->memo[*at].next)
        if (!best || s->memo[*at].f < s->memo[*best].f ||
            (s->memo[*at].f == s->memo[*best].f && s->memo[*at].slot < s->memo[*best].slot))
            best = at;
    if (!best) return NONE;
    uint32_t m = *best;
    *best = s->memo[m].next;
    s->memo[m].next = s->memo_free;
    s->memo_free = m;
    *f = s->memo[m].f;
    return s->memo[m].slot;
}

static pf_status write_plan(const sma *s, uint32_t goal, pf_gen_plan *plan)
{
    if (!plan) return PF_OK;
    const uint32_t len = s->n[goal].depth, ss = s->c->ssize;
    plan->len = len;
    if (len > plan->capacity) return PF_BUFFER_TOO_SMALL;
    uint32_t k = goal;
    for (uint32_t i = len; i-- > 0; k = s->n[k].parent) {
        if (plan->actions) plan->actions[i] = s->n[k].action;
        if (plan->states) memcpy((uint8_t *)plan->states + (size_t)i * ss, s->states + (size_t)k * ss, ss);
    }
    return PF_OK;
}

/* ---- the loop ------------------------------------------------------------------------------------- */

/* The search; sp->count is kept up to date for the caller's stats. */
static pf_status sma_run(sma *sp, const void *start, pf_gen_plan *plan)
{
    pf_gen_ctx *c = sp->c;
    const pf_gen_problem *p = sp->p;
    const pf_gen_desc *d = sp->d;
    pf_gen_stats *st = sp->st;
    sp->use_h = p->heuristic != NULL || d->heuristic_count > 0;
    sp->more_h = d->heuristic_count > 0;
    sp->cost_cap = pf__cost_cap(d->max_cost);
    c->take_h = sp->use_h;
    sp->max_depth = sp->limit - 1; /* a path of max_states nodes */
    if (d->max_depth && d->max_depth < sp->max_depth) sp->max_depth = d->max_depth;
    const uint32_t ss = c->ssize;
    if (!grow(sp, sp->limit < 64 ? sp->limit : 64)) return PF_OUT_OF_MEMORY;

    double h0 = p->heuristic ? p->heuristic(start, p->user) : 0.0;
    if (pf__gen_bad_h(h0)) return PF_INVALID_ARGUMENT;
    double hx0 = sp->more_h ? pf__gen_hmax(p, d, start, h0) : h0;
    if (pf__gen_bad_h(hx0)) return PF_INVALID_ARGUMENT;
    if (hx0 == INFINITY) return PF_NO_PATH; /* the start is a dead end */
    uint32_t root = node_alloc(sp);
    sma_node *r = &sp->n[root];
    *r = (sma_node){.g = 0, .h = h0, .f = hx0, .forgot = NONE, .seq = sp->seq++, .parent = NONE,
                    .first = NONE, .next = NONE, .prev = NONE, .nsucc = NONE, .opos = NONE, .lpos = NONE};
    r->hash = pf__gen_hash(start, ss);
    r->tie = tie_of(sp, r->hash, hx0, r->seq);
    memcpy(sp->states + (size_t)root * ss, start, ss);
    if (sp->max_depth == 0 && !p->is_goal(start, p->user)) r->f = INFINITY; /* nothing else fits */
    if (sp->cost_cap > 0 && hx0 > sp->cost_cap) return PF_NO_PATH;
    heap_add(sp, 0, root);
    heap_add(sp, 1, root);

    for (;;) {
        if (sp->nopen == 0) return sp->overflow ? PF_COST_OVERFLOW : PF_NO_PATH;
        const uint32_t k = sp->open[0];
        /* no plan fits in memory (or exists) */
        if (!(sp->n[k].f < INFINITY)) return sp->overflow ? PF_COST_OVERFLOW : PF_NO_PATH;
        if (p->is_goal(sp->states + (size_t)k * ss, p->user)) {
            st->cost = sp->n[k].g;
            st->plan_len = sp->n[k].depth;
            return write_plan(sp, k, plan);
        }
        if (d->max_expansions && st->expanded >= d->max_expansions) {
            return PF_LIMIT_REACHED;
        }
        pf_status ls = load_successors(sp, k);
        if (ls != PF_OK) return ls;
        sma_node *n = &sp->n[k];
        /* first round: the next successor in callback order that is not a cycle; then the
         * forgotten one of least remembered f */
        uint32_t j = NONE;
        const uint32_t total = c->scount;
        double remembered = 0.0;
        while (!n->all_seen && j == NONE) {
            if (n->cursor >= total) {
                n->all_seen = 1;
                backup(sp, k);
            } else if (c->scost[n->cursor] == c->scost[n->cursor]) { /* NAN marks a cycle */
                j = n->cursor++;
            } else {
                n->cursor++;
            }
        }
        const int again = j == NONE;
        if (again) j = take_best_forgotten(sp, k, &remembered);
        if (j == NONE) {
            /* nothing to generate: a dead end, or every successor is in memory */
            heap_remove(sp, 0, k);
            continue;
        }
        st->expanded++;
        /* the successor's values */
        const uint8_t *x = c->sstates + (size_t)j * ss;
        double g = n->g + c->scost[j], h = 0.0, hx = 0.0;
        sp->overflow |= !(g <= DBL_MAX); /* f is then infinite: the successor is a dead end */
        if (sp->use_h) {
            h = !isnan(c->sh[j]) ? c->sh[j] : p->heuristic ? p->heuristic(x, p->user) : 0.0;
            if (pf__gen_bad_h(h)) return PF_INVALID_ARGUMENT;
            hx = sp->more_h ? pf__gen_hmax(p, d, x, h) : h;
            if (pf__gen_bad_h(hx)) return PF_INVALID_ARGUMENT;
        }
        const uint32_t depth = n->depth + 1;
        double f = g + hx > n->f ? g + hx : n->f;
        if (remembered > f) f = remembered;
        if (sp->cost_cap > 0 && g + hx > sp->cost_cap) f = INFINITY;
        else if (depth >= sp->max_depth && !p->is_goal(x, p->user)) f = INFINITY;
        /* room: forget the worst leaf first (the node being expanded is never it) */
        if (sp->count >= sp->limit) {
            int fw = forget_worst(sp, k);
            if (fw <= 0) return fw < 0 ? PF_OUT_OF_MEMORY : PF_NO_PATH;
        }
        uint32_t nk = node_alloc(sp);
        if (nk == NONE) return PF_OUT_OF_MEMORY;
        n = &sp->n[k]; /* the pool may have moved */
        x = c->sstates + (size_t)j * ss;
        sma_node *m = &sp->n[nk];
        *m = (sma_node){.g = g, .h = h, .f = f, .forgot = NONE, .seq = sp->seq++, .parent = k,
                        .action = c->sact[j], .depth = depth, .slot = j, .first = NONE, .next = n->first,
                        .prev = NONE, .nsucc = NONE, .opos = NONE, .lpos = NONE};
        m->hash = pf__gen_hash(x, ss);
        m->tie = tie_of(sp, m->hash, hx, m->seq);
        memcpy(sp->states + (size_t)nk * ss, x, ss);
        if (n->first != NONE) sp->n[n->first].prev = nk;
        n->first = nk;
        if (n->kids++ == 0) heap_remove(sp, 1, k); /* k is no longer a leaf */
        heap_add(sp, 0, nk);
        heap_add(sp, 1, nk);
        st->generated++;
        if (again) st->reopened++;
        while (n->cursor < total && c->scost[n->cursor] != c->scost[n->cursor]) n->cursor++; /* cycles */
        if (n->cursor >= total) n->all_seen = 1;
        if (n->all_seen) {
            if (n->forgot == NONE) heap_remove(sp, 0, k); /* all its successors are in memory */
            backup(sp, k);
        }
    }
}

pf_status pf__gen_sma(pf_gen_ctx *c, const pf_gen_problem *p, const void *start, const pf_gen_desc *d,
                      pf_gen_plan *plan, pf_gen_stats *st)
{
    sma s = {.c = c, .p = p, .d = d, .st = st, .free_head = NONE, .cache = NONE, .limit = d->max_states,
             .memo = c->sma_memo, .memo_free = NONE};
    pf_status r = sma_run(&s, start, plan);
    st->stored = s.count;
    return r;
}
