/* accel_path.c - the path of an accelerated query: from the meeting of its two searches down to
 * grid cells, the shortcuts unpacked level by level (put_arcs' queue) and each arc of the subgoal
 * graph written as its canonical path (put_cp), goal first; sliced by units of cells. */
#include <string.h>
#include "accel/accel_query_internal.h"

/* The arc between a and b in owner's list (owner is the lower of the two); NULL when absent. */
static const pf__accel_arc *arc_between(const pf_accel *acc, uint32_t owner, uint32_t other)
{
    const pf__accel_arc *p = acc->arcs + acc->first[owner], *e = acc->arcs + acc->first[owner + 1];
    for (; p < e; p++)
        if (p->to == other) return p;
    return NULL;
}

/* Writes the cells after `from` up to `to` of the canonical path between them (from -> to when
 * `forward`, else the reverse of to -> from) goal first, into their places in x->path: `from` is
 * `d` steps from the start, or `to` is when `at_to` (the path's length is then known only here,
 * from the two cells). The path is written in place, its length known before (pf__accel_write_path,
 * direct): no reversal afterwards, and a backward segment is generated straight into its place
 * instead of reversed and moved (on maze-2000-w4 writing the paths' cells is most of a query).
 * Lowers x->fill, the steps not written yet; 0 when the segment does not lie within the path
 * (cannot happen: the loader checks every shortcut's steps against its halves'). */
int pf__accel_put_cp(pf_ctx *c, pf__accel_ext *x, uint32_t from, uint32_t to, int forward, uint64_t d, int at_to)
{
    const pf_map *m = c->map;
    const uint32_t pw = m->pw;
    const int32_t fx = (int32_t)(from % pw), fy = (int32_t)(from / pw), tx = (int32_t)(to % pw), ty = (int32_t)(to / pw);
    const int32_t dx = tx - fx, dy = ty - fy;
    const uint32_t ax = (uint32_t)(dx < 0 ? -dx : dx), ay = (uint32_t)(dy < 0 ? -dy : dy);
    /* pf__accel_cp_shape's path: nd diagonal steps, then ns along the longer axis */
    const uint32_t nd = ax < ay ? ax : ay, ns = ax > ay ? ax - ay : ay - ax;
    const uint32_t steps = nd + ns;
    if (!steps) return 1;
    if (at_to) {
        if (d < steps) return 0;
        d -= steps;
    }
    /* path[total - d] is `from`'s place; the cells go just below it */
    if (d + steps > x->total || steps > x->fill) return 0;
    /* on an edited map: the canonical path walked the way it is legal on the prep map */
    if (x->check && x->clear)
        x->clear = forward ? pf__accel_diff_cp_clear(x->acc, pw, from, to) : pf__accel_diff_cp_clear(x->acc, pw, to, from);
    /* out[0 .. steps) runs from `to` back to the cell after `from`: the reverse of from -> to is its
     * straight steps back, then its diagonal ones; to -> from (the canonical path from `to`) takes
     * its diagonal steps first. Public ids step by the signs of dx and dy (dy's times the width)
     * from `to`'s id, which the divisions above give: `from` may not be written yet (put_arcs), and
     * the steps need no table (a segment is 5.4 cells on average on maze-2000-w4: its set-up counts) */
    uint32_t *out = x->path + (x->total - d - steps);
    const int64_t w = (int64_t)m->width;
    const int64_t ux = (dx > 0) - (dx < 0), uy = ((dy > 0) - (dy < 0)) * w;
    const int64_t sd = ux + uy, ss = ax > ay ? ux : uy;
    int64_t id = (int64_t)(ty - 1) * w + (tx - 1);
    const uint32_t n1 = forward ? ns : nd;
    const int64_t s1 = forward ? ss : sd, s2 = forward ? sd : ss;
    out[0] = (uint32_t)id;
    uint32_t i = 1;
    for (; i <= n1; i++) out[i] = (uint32_t)(id -= s1);
    for (; i < steps; i++) out[i] = (uint32_t)(id -= s2);
    x->fill -= steps;
    return 1;
}

/* Index of the arc between owner and other in owner's list (owner the lower of the two). */
PF__INLINE uint32_t arc_at(const pf_accel *acc, const pf__accel_arc *arc) { return (uint32_t)(arc - acc->arcs); }

/* Queue entries of put_arcs naming an arc of the subgoal graph by the way its canonical path is
 * written: from -> to (FWD), or the reverse of to -> from (BWD). Arc indices stay below them: a
 * build makes at most UINT32_MAX - 1 arcs, and a file of more would hold 64 GB of them. */
#define LEAF_FWD 0xFFFFFFFFu
#define LEAF_BWD 0xFFFFFFFEu
/* put_arcs asks for the records of the arc this many entries ahead of the one it unpacks: asked for
 * when queued instead, a record waited behind a whole level of the queue (thousands of arcs on a
 * long maze path) and was often out of the cache again when read (the 20 longest maze-2000-w4
 * queries, one thread, caches flushed: 12.2 against 11.5 ms; 8 to 64 ahead measure alike). A
 * shorter queue has its last entry asked for: rooms-2000's paths unpack into a few dozen shortcuts,
 * a queue never 32 long, whose arc reads were all cold (14% of a query's time, perf; 8% faster
 * with it, the maze within 1%, best of 3 passes over 200 queries in turn) */
#define PF__UNPACK_AHEAD 32u

/* The queue entry of the half k (held by the middle node v, its bits hb in acc->halves) walked
 * from `from` to `to`: LEAF_* for an arc of the subgoal graph (no need to read it), else k. */
PF__INLINE uint32_t half_entry(uint32_t k, uint32_t hb, uint32_t v, uint32_t from)
{
    if (!(hb & PF__ACCEL_HALF_GRAPH)) return k;
    /* legal from its owner v: forward when walked from v */
    return ((hb & PF__ACCEL_HALF_SRC) != 0) == (v == from) ? LEAF_FWD : LEAF_BWD;
}

/* Appends the arc from -> to (arc index i) placed as pf__accel_put_cp's d and at_to says to put_arcs' queue,
 * x->stk[head .. *tail); a leaf is written at once. The queue moves down to the array's start
 * before it grows, when more than half of it is consumed. */
PF__INLINE int queue_arc(pf_ctx *c, pf__accel_ext *x, uint32_t *head, uint32_t *tail, uint32_t from, uint32_t to,
                         uint32_t i, uint64_t d, int at_to)
{
    if (i >= LEAF_BWD) return pf__accel_put_cp(c, x, from, to, i == LEAF_FWD, d, at_to);
    if (d > UINT32_MAX) return 0; /* cannot happen: total < UINT32_MAX (pf__accel_write_path) */
    if (*tail + PF__ACCEL_QW > x->stk_cap) {
        if (*head != 0 && *head >= x->stk_cap / 2u) { /* head 0: nothing to move, and stk may be NULL */
            memmove(x->stk, x->stk + *head, (size_t)(*tail - *head) * sizeof(uint32_t));
            *tail -= *head;
            *head = 0;
        }
        if (!pf__accel_grow_u32(c, &x->stk, &x->stk_cap, (uint64_t)*tail + PF__ACCEL_QW)) return -1;
    }
    uint32_t *e = x->stk + *tail;
    e[0] = from;
    e[1] = to;
    e[2] = i;
    e[3] = (uint32_t)d;
    e[4] = (uint32_t)at_to;
    *tail += PF__ACCEL_QW;
    return 1;
}

/* Writes (pf__accel_put_cp) the cells of the arcs queued in x->stk[x->head .. x->tail), unpacking shortcuts
 * into their halves (acc->down and acc->halves, else a scan of the middle's list), until the cells
 * of the path written reach `upto` (PF_IN_PROGRESS, read between entries: the queue, in x, is
 * all a later call needs) or the queue is empty (PF_OK). Breadth first, each arc
 * placed by its own length (a + b) from the end its parent fixes: the arcs waiting in the queue
 * are independent, so their records' cache misses overlap. Unpacked depth first (a stack, cells in
 * order), each shortcut's halves were found only after its own record arrived, one miss after the
 * other: on maze-2000-w4 that load was 64% of the unpacking's samples (perf). */
static pf_status put_arcs(pf_ctx *c, pf__accel_ext *x, uint64_t upto)
{
    const pf_accel *acc = x->acc;
    const pf__accel_arc *arcs = acc->arcs;
    const uint32_t *down = acc->down;
    const uint8_t *halves = acc->halves;
    uint32_t head = x->head, tail = x->tail;
    while (head < tail) {
        if ((uint64_t)(x->total - x->fill) >= upto) {
            x->head = head;
            x->tail = tail;
            return PF_IN_PROGRESS;
        }
        const uint32_t *e = x->stk + head;
        const uint32_t ahead = tail - head > PF__UNPACK_AHEAD * PF__ACCEL_QW ? PF__UNPACK_AHEAD * PF__ACCEL_QW : tail - head - PF__ACCEL_QW;
        const uint32_t k = e[ahead + 2u];
        PF__PREFETCH(&arcs[k]);
        PF__PREFETCH(&down[k]);
        PF__PREFETCH(&halves[k]);
        const uint32_t from = e[0], to = e[1], i = e[2], at_to = e[4];
        uint64_t d = e[3];
        head += PF__ACCEL_QW;
        const pf__accel_arc *arc = arcs + i;
        const uint64_t steps = (uint64_t)arc->a + arc->b;
        if (at_to) {
            if (d < steps) return PF_INVALID_ARGUMENT; /* cannot happen: as in pf__accel_put_cp */
            d -= steps;
        }
        /* the arc's ends are its owner and arc->to */
        const uint32_t own = arc->to == to ? from : to;
        int ok;
        if (arc->mid < PF__ACCEL_FROM_DST) {
            /* the halves mid -> own and mid -> arc->to */
            const uint32_t v = arc->mid, dn = down[i];
            uint32_t e_from, e_to;
            if (dn != PF__ACCEL_DOWN_NONE) {
                const uint32_t k_own = dn & PF__ACCEL_DOWN_MASK, k_oth = k_own + (dn >> PF__ACCEL_DOWN_SHIFT) - 128u;
                const uint32_t h_own = halves[i] & 3u, h_oth = (uint32_t)halves[i] >> 2;
                /* from -> v is the owner's half when the walk starts at the owner */
                e_from = own == from ? half_entry(k_own, h_own, v, from) : half_entry(k_oth, h_oth, v, from);
                e_to = own == from ? half_entry(k_oth, h_oth, v, v) : half_entry(k_own, h_own, v, v);
            } else {
                const pf__accel_arc *h0 = arc_between(acc, v, own), *h1 = arc_between(acc, v, arc->to);
                if (!h0 || !h1) return PF_INVALID_ARGUMENT; /* cannot happen: creation and loading check it */
                e_from = own == from ? arc_at(acc, h0) : arc_at(acc, h1);
                e_to = own == from ? arc_at(acc, h1) : arc_at(acc, h0);
            }
            /* from -> v starts where the arc starts, v -> to ends where it ends */
            ok = queue_arc(c, x, &head, &tail, from, v, e_from, d, 0);
            if (ok > 0) ok = queue_arc(c, x, &head, &tail, v, to, e_to, d + steps, 1);
        } else {
            /* an arc of the subgoal graph: its canonical path is legal from the owner (FROM_SRC) or
             * from the other end */
            int legal_from_owner = arc->mid == PF__ACCEL_FROM_SRC;
            ok = pf__accel_put_cp(c, x, from, to, legal_from_owner == (own == from), d, 0);
        }
        if (ok < 0) return PF_OUT_OF_MEMORY;
        if (!ok) return PF_INVALID_ARGUMENT;
    }
    x->head = x->tail = 0;
    return PF_OK;
}

/* The arc between nodes owner and other (node indices, accel_nodes.c) in owner's list; NULL when
 * absent. Found in the lists by node index, which both_ways just read, where arc_between reads
 * first[] by cell (16 MB on 2000x2000), cold after a search that never touched it. */
static const pf__accel_arc *node_arc_between(const pf_accel *acc, uint32_t owner, uint32_t other)
{
    for (uint32_t q = acc->node_first[owner]; q < acc->node_first[owner + 1u]; q++)
        if (acc->node_to[q] == other) return acc->arcs + acc->node_base + q;
    return NULL;
}

/* A cell of pf__accel_write_path's chain: by node index for both_ways' records. */
PF__INLINE uint32_t chain_cell(const pf_accel *acc, int by_node, uint32_t v) { return by_node ? acc->node_cell[v] : v; }

/* The path s -> seed ... meet ... seed -> t of the best meeting x->mt, begun in x->path, goal
 * first; its exact cost into x->cost. A first pass over the arcs sums the steps (a + b of each
 * arc: its canonical paths take one cell a step) and queues each arc where it starts (put_arcs'
 * queue), so that the cells are then written in place: here the canonical paths from the start
 * and to the goal (pf__accel_put_cp), the rest by put_arcs (pf__accel_write_path). Reads the two sides' records and
 * labels, which nothing needs afterwards: a squad's member lends its goal side no longer. */
pf_status pf__accel_path_begin(pf_ctx *c, pf__accel_ext *x)
{
    const meet *mt = &x->mt;
    const uint32_t meet_node = mt->node;
    const pf_map *m = c->map;
    const pf__search *s = &c->s;
    const pf_accel *acc = x->acc;
    const pf__grid_view pv = pf__accel_prep_view(acc, m);
    x->path_len = 0;
    /* the start's side: meet, its parents, ..., a seed (then read backwards); met across the
     * core: its parents there by core index up to the core's seed, then the seed's parents below */
    uint32_t n = 0, v0 = meet_node;
    const int by_node = !acc->core; /* both_ways' records (accel_nodes.c) */
    if (by_node) {
        uint32_t vi = pf__accel_node_of(acc, meet_node);
        if (vi == PF_NODE_NONE) return PF_INVALID_ARGUMENT;
        for (; vi != PF_NODE_NONE; vi = x->nr.parent[vi]) { /* node indices: see chain_cell */
            if (!pf__accel_grow_u32(c, &x->chain, &x->chain_cap, (uint64_t)n + 1u)) return PF_OUT_OF_MEMORY;
            x->chain[n++] = vi;
        }
        v0 = PF_NODE_NONE;
    } else if (mt->ci != PF_NODE_NONE) {
        for (uint32_t ci = mt->ci; ci != PF_NODE_NONE; ci = x->cr.parent[ci]) {
            if (!pf__accel_grow_u32(c, &x->chain, &x->chain_cap, (uint64_t)n + 1u)) return PF_OUT_OF_MEMORY;
            x->chain[n++] = acc->core_cell[ci];
        }
        v0 = x->parent[x->chain[n - 1u]];
    }
    for (uint32_t v = v0; v != PF_NODE_NONE; v = x->parent[v]) {
        if (!pf__accel_grow_u32(c, &x->chain, &x->chain_cap, (uint64_t)n + 1u)) return PF_OUT_OF_MEMORY;
        x->chain[n++] = v;
    }
    const uint32_t *chain = x->chain;
    uint32_t seed = chain_cell(acc, by_node, chain[n - 1u]), sa = 0, sb = 0, ga = 0, gb = 0, head = 0, tail = 0;
    if (seed != s->start && !pf__accel_cp_legal_any(acc, &pv, s->start, seed, &sa, &sb)) return PF_INVALID_ARGUMENT;
    uint64_t pa = sa, pb = sb;
    /* queued with the steps from the start to their first cell; nothing is written yet */
    x->total = UINT32_MAX;
    x->fill = UINT32_MAX;
    for (uint32_t i = n - 1u; i > 0; i--) {
        const pf__accel_arc *arc = by_node ? node_arc_between(acc, chain[i], chain[i - 1u]) : arc_between(acc, chain[i], chain[i - 1u]);
        if (!arc) return PF_INVALID_ARGUMENT;
        if (queue_arc(c, x, &head, &tail, chain_cell(acc, by_node, chain[i]), chain_cell(acc, by_node, chain[i - 1u]),
                      arc_at(acc, arc), pa + pb, 0) < 0)
            return PF_OUT_OF_MEMORY;
        pa += arc->a;
        pb += arc->b;
    }
    /* the goal's side: meet, its label parents, ..., a seed; each arc is held by its lower end */
    uint32_t v = meet_node, vk = by_node ? pf__accel_node_of(acc, meet_node) : PF_NODE_NONE;
    for (;;) {
        uint32_t p, pk = PF_NODE_NONE;
        const pf__accel_arc *arc;
        if (by_node) {
            if (vk == PF_NODE_NONE || !pf__nodes_live(&x->gr, vk)) return PF_INVALID_ARGUMENT;
            pk = x->gr.parent[vk];
            if (pk == PF_NODE_NONE) break;
            p = acc->node_cell[pk];
            arc = node_arc_between(acc, pk, vk);
        } else {
            const uint32_t k = pf__accel_label_find(x, v);
            if (k == UINT32_MAX) return PF_INVALID_ARGUMENT;
            p = x->lpar[k];
            if (p == PF_NODE_NONE) break;
            arc = arc_between(acc, p, v);
        }
        if (!arc) return PF_INVALID_ARGUMENT;
        if (queue_arc(c, x, &head, &tail, v, p, arc_at(acc, arc), pa + pb, 0) < 0) return PF_OUT_OF_MEMORY;
        pa += arc->a;
        pb += arc->b;
        v = p;
        vk = pk;
    }
    const uint32_t gseed = v;
    if (gseed != s->goal && !pf__accel_cp_legal_any(acc, &pv, gseed, s->goal, &ga, &gb)) return PF_INVALID_ARGUMENT;
    pa += ga;
    pb += gb;
    /* A shortest path visits no cell twice: more steps than the map has cells come only from a
     * forged file whose arcs claim them (fuzz_accel), and are refused before the path is sized. */
    if (pa + pb >= acc->cells) return PF_INVALID_ARGUMENT;
    if (!pf__accel_grow_u32(c, &x->path, &x->path_cap, pa + pb + 1u)) return PF_OUT_OF_MEMORY;
    x->total = x->fill = (uint32_t)(pa + pb);
    x->path[x->total] = pf__grid_unpad(m, s->start);
    if (seed != s->start && !pf__accel_put_cp(c, x, s->start, seed, 1, 0, 0)) return PF_INVALID_ARGUMENT;
    if (gseed != s->goal && !pf__accel_put_cp(c, x, gseed, s->goal, 1, x->total, 1)) return PF_INVALID_ARGUMENT;
    pf__accel_path_work(c, x);
    x->head = 0;
    x->tail = tail;
    x->cost = pf__accel_cost((uint32_t)pa, (uint32_t)pb);
    return PF_OK;
}

/* The path begun by pf__accel_path_begin, written on by put_arcs for at most `budget` units of
 * PF__ACCEL_PATH_UNIT cells (read between its queue's entries: an entry may write more, owed);
 * PF_OK once whole, PF_IN_PROGRESS, or an error. */
pf_status pf__accel_write_path(pf_ctx *c, pf__accel_ext *x, uint32_t budget)
{
    const uint64_t done = (uint64_t)(x->total - x->fill) / PF__ACCEL_PATH_UNIT;
    pf_status st = put_arcs(c, x, budget == UINT32_MAX ? UINT64_MAX : (done + budget) * PF__ACCEL_PATH_UNIT);
    pf__accel_path_work(c, x);
    if (st != PF_OK) return st;
    if (x->fill != 0) return PF_INVALID_ARGUMENT; /* cannot happen: every step is one cell */
    x->path_len = x->total + 1u;
    return PF_OK;
}
