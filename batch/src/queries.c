/* queries.c - query slots and their ids, the tag index, the fresh list, answered queries.
 *
 * A slot holds one query from submission until the reset after it was answered or cancelled; its
 * id carries a 12-bit generation so that an id kept past that reset is refused. Queries submitted
 * since the last run wait in the fresh list for the planner (plan.c).
 *
 * The tag index (PF_QUERY_SUPERSEDE) is an open-addressing table (linear probing, deletion by
 * backward shift: no tombstones to sweep) from a tag to the newest pending query with it; older
 * ones with the same tag hang off it in a doubly linked list through the query slots. Insert and
 * remove are O(1) expected, so a supersede costs the same with 300 pending queries or 300,000.
 */
#include <math.h>
#include <string.h>
#include "batch_internal.h"

void pf__queries_init(pf_batch *b) { b->free_head = PF_NODE_NONE; }

/* ---- the tag index ---------------------------------------------------------------------------- */

static uint32_t home(const pf_batch *b, uint64_t tag)
{
    /* the murmur3 finaliser: unit ids are often small consecutive integers */
    tag ^= tag >> 33;
    tag *= UINT64_C(0xff51afd7ed558ccd);
    tag ^= tag >> 33;
    return (uint32_t)tag & (b->tag_cap - 1u);
}

static uint32_t find(const pf_batch *b, uint64_t tag)
{
    if (!b->tag_cap) return PF__NONE;
    for (uint32_t h = home(b, tag);; h = (h + 1u) & (b->tag_cap - 1u)) {
        if (!b->tag_vals[h]) return PF__NONE;
        if (b->tag_keys[h] == tag) return h;
    }
}

static void put(pf_batch *b, uint64_t tag, uint32_t val)
{
    uint32_t h = home(b, tag);
    while (b->tag_vals[h]) h = (h + 1u) & (b->tag_cap - 1u);
    b->tag_keys[h] = tag;
    b->tag_vals[h] = val;
}

int pf__tag_reserve(pf_batch *b, uint32_t n)
{
    uint64_t want = 64;
    while (want < 2u * (uint64_t)n) want *= 2u; /* at most half full */
    if (want <= b->tag_cap) return 1;
    if (want > UINT32_MAX / 2u) return 0;
    uint64_t *keys = pf__alloc(&b->alloc, (size_t)want * sizeof *keys, 64);
    uint32_t *vals = pf__calloc(&b->alloc, (size_t)want * sizeof *vals, 64);
    if (!keys || !vals) {
        pf__free(&b->alloc, keys, keys ? (size_t)want * sizeof *keys : 0);
        pf__free(&b->alloc, vals, vals ? (size_t)want * sizeof *vals : 0);
        return 0;
    }
    uint64_t *ok = b->tag_keys;
    uint32_t *ov = b->tag_vals, ocap = b->tag_cap;
    b->tag_keys = keys;
    b->tag_vals = vals;
    b->tag_cap = (uint32_t)want;
    for (uint32_t i = 0; i < ocap; i++)
        if (ov[i]) put(b, ok[i], ov[i]);
    pf__free(&b->alloc, ok, (size_t)ocap * sizeof *ok);
    pf__free(&b->alloc, ov, (size_t)ocap * sizeof *ov);
    return 1;
}

/* Room was reserved by pf__query_room. */
static void tag_insert(pf_batch *b, uint32_t slot)
{
    pf__bquery *e = &b->q[slot];
    e->tag_next = PF__NONE;
    uint32_t h = find(b, e->q.tag);
    if (h == PF__NONE) {
        e->tag_prev = PF__NONE;
        put(b, e->q.tag, slot + 1u);
        b->tag_len++;
        return;
    }
    uint32_t older = b->tag_vals[h] - 1u;
    e->tag_prev = older;
    b->q[older].tag_next = slot;
    b->tag_vals[h] = slot + 1u;
}

static void tag_remove(pf_batch *b, uint32_t slot)
{
    pf__bquery *e = &b->q[slot];
    uint32_t p = e->tag_prev, n = e->tag_next;
    e->tag_prev = e->tag_next = PF__NONE;
    if (p != PF__NONE) b->q[p].tag_next = n;
    if (n != PF__NONE) {
        b->q[n].tag_prev = p;
        return;
    }
    uint32_t h = find(b, e->q.tag);
    if (h == PF__NONE || b->tag_vals[h] != slot + 1u) return; /* not linked */
    if (p != PF__NONE) {
        b->tag_vals[h] = p + 1u;
        return;
    }
    /* last one with this tag: delete, shifting back the entries that probed past it */
    uint32_t mask = b->tag_cap - 1u, hole = h;
    b->tag_vals[hole] = 0;
    for (uint32_t i = (hole + 1u) & mask; b->tag_vals[i]; i = (i + 1u) & mask) {
        uint32_t want = home(b, b->tag_keys[i]);
        /* i's entry may move to the hole if its home is not in (hole, i] (cyclically) */
        if (((i - want) & mask) >= ((i - hole) & mask)) {
            b->tag_keys[hole] = b->tag_keys[i];
            b->tag_vals[hole] = b->tag_vals[i];
            b->tag_vals[i] = 0;
            hole = i;
        }
    }
    b->tag_len--;
}

uint32_t pf__tag_newest(const pf_batch *b, uint64_t tag)
{
    uint32_t h = find(b, tag);
    return h == PF__NONE ? PF__NONE : b->tag_vals[h] - 1u;
}

/* ---- slots ------------------------------------------------------------------------------------ */

int pf__queries_reserve(pf_batch *b, uint32_t n)
{
    return PF__GROW(b, b->q, b->qcap, n) && PF__GROW(b, b->fresh, b->fresh_cap, n);
}

int pf__queries_reserve_fresh(pf_batch *b) { return PF__GROW(b, b->fresh, b->fresh_cap, b->nfresh + b->pending); }

pf_status pf__query_room(pf_batch *b, uint32_t *slot)
{
    const pf_status full = b->fixed ? PF_CAPACITY_EXCEEDED : PF_OUT_OF_MEMORY;
    uint32_t s = b->free_head;
    if (s == PF_NODE_NONE) {
        if (b->qlen > PF__BQ_SLOT_MASK - 1u) return PF_TOO_LARGE;
        if (!PF__GROW(b, b->q, b->qcap, b->qlen + 1u)) return full;
        s = b->qlen;
        b->q[s].gen = 1;
    }
    if (!PF__GROW(b, b->fresh, b->fresh_cap, b->nfresh + 1u) || !pf__tag_reserve(b, b->tag_len + 1u)) return full;
    *slot = s;
    return PF_OK;
}

uint32_t pf__query_add(pf_batch *b, uint32_t slot, const pf_batch_query *q)
{
    if (slot == b->qlen) b->qlen++;
    else b->free_head = b->q[slot].next_free;
    pf__bquery *e = &b->q[slot];
    e->q = *q;
    if (q->flags & PF_QUERY_FLOW) {
        /* a field has no start and reads two options: keep the rest out of its identity */
        e->q.start = q->goal;
        e->q.search = (pf_search_desc){.unit_size = q->search.unit_size, .max_cost = q->search.max_cost,
                                       .filter = q->search.filter}; /* a movement type's field */
    }
    e->rd = pf_search_desc_resolve(b->map, &e->q.search);
    e->seq = b->seq++;
    e->state = PF__Q_NEW;
    e->canon = slot;
    e->job = PF__NONE;
    e->planned = 0;
    e->cancel = PF_OK;
    e->res = (pf_batch_result){.status = PF_IN_PROGRESS, .tag = q->tag, .stats = {.cost = INFINITY}};
    tag_insert(b, slot);
    b->fresh[b->nfresh++] = slot;
    b->pending++;
    b->st.submitted++;
    return slot | (e->gen << PF__BQ_SLOT_BITS);
}

int pf__query_lookup(const pf_batch *b, pf_query_id id, uint32_t *slot)
{
    uint32_t s = id.id & PF__BQ_SLOT_MASK, gen = id.id >> PF__BQ_SLOT_BITS;
    if (id.id == 0 || s >= b->qlen) return 0;
    const pf__bquery *e = &b->q[s];
    if (e->state == PF__Q_FREE || e->gen != gen) return 0;
    *slot = s;
    return 1;
}

int pf__query_live(const pf_batch *b, uint32_t slot)
{
    const pf__bquery *e = &b->q[slot];
    return e->state != PF__Q_DONE && e->cancel == PF_OK;
}

int pf__query_cancel(pf_batch *b, uint32_t slot, pf_status why)
{
    pf__bquery *e = &b->q[slot];
    e->cancel = why;
    tag_remove(b, slot);
    b->pending--;
    if (why == PF_SUPERSEDED) b->st.superseded++;
    else b->st.cancelled++;
    if (e->state == PF__Q_NEW) {
        e->state = PF__Q_DONE; /* never planned: prepare skips it */
        return 0;
    }
    return 1;
}

void pf__query_done(pf_batch *b, uint32_t slot)
{
    pf__bquery *e = &b->q[slot];
    if (e->state == PF__Q_DONE) return;
    e->state = PF__Q_DONE;
    e->res.map_version = pf_map_version(b->map); /* runs never overlap an edit */
    if (e->cancel != PF_OK) return; /* already counted and unlinked when it was cancelled */
    tag_remove(b, slot);
    b->pending--;
    b->st.completed++;
}

/* Its old plan may not hold on the new cells. A query cancelled while a search still read it is
 * simply finished (its result is its cancel status). */
void pf__query_requeue(pf_batch *b, uint32_t slot, int ok)
{
    pf__bquery *e = &b->q[slot];
    if (e->state == PF__Q_DONE) return;
    if (e->cancel != PF_OK) {
        pf__query_done(b, slot);
        return;
    }
    if (ok) {
        e->state = PF__Q_NEW;
        e->canon = slot;
        e->job = PF__NONE;
        b->fresh[b->nfresh++] = slot;
        return;
    }
    e->res = (pf_batch_result){.status = PF_OUT_OF_MEMORY, .tag = e->res.tag, .stats = {.cost = INFINITY}};
    pf__query_done(b, slot);
}

static int by_seq(const void *bv, uint32_t x, uint32_t y)
{
    const pf_batch *b = bv;
    return b->q[x].seq < b->q[y].seq ? -1 : b->q[x].seq > b->q[y].seq;
}

void pf__queries_sort_fresh(pf_batch *b) { pf__sort_idx(b->fresh, b->nfresh, by_seq, b); }

pf_status pf__query_result(const pf_batch *b, pf_query_id id, pf_batch_result *out)
{
    uint32_t slot;
    if (!pf__query_lookup(b, id, &slot)) return PF_EXPIRED_ID;
    const pf__bquery *e = &b->q[slot];
    if (e->cancel != PF_OK) *out = (pf_batch_result){.status = e->cancel, .tag = e->q.tag, .stats = {.cost = INFINITY}};
    else *out = e->res;
    return PF_OK;
}

void pf__queries_reset(pf_batch *b)
{
    /* queries cancelled before any run leave the fresh list before their slots can be reused */
    uint32_t keep = 0;
    for (uint32_t i = 0; i < b->nfresh; i++)
        if (b->q[b->fresh[i]].state == PF__Q_NEW) b->fresh[keep++] = b->fresh[i];
    b->nfresh = keep;
    for (uint32_t s = 0; s < b->qlen; s++) {
        pf__bquery *e = &b->q[s];
        int pinned = e->state == PF__Q_QUEUED && e->cancel != PF_OK; /* a live search still reads it */
        if (e->state != PF__Q_DONE && !pinned) continue;
        e->gen = (e->gen + 1u) & 0xFFFu; /* 12 bits of generation catch stale ids */
        if (e->gen == 0) e->gen = 1;
        if (pinned) continue; /* its id expires like the others; the slot is freed after the search */
        e->state = PF__Q_FREE;
        e->next_free = b->free_head;
        b->free_head = s;
    }
}

/* ---- memory ----------------------------------------------------------------------------------- */

size_t pf__queries_mem_size(const pf_batch *b)
{
    return b->qcap * sizeof *b->q + b->fresh_cap * sizeof *b->fresh +
           b->tag_cap * (sizeof *b->tag_keys + sizeof *b->tag_vals);
}

void pf__queries_free(pf_batch *b)
{
    pf__free(&b->alloc, b->q, b->qcap * sizeof *b->q);
    pf__free(&b->alloc, b->tag_keys, b->tag_cap * sizeof *b->tag_keys);
    pf__free(&b->alloc, b->tag_vals, b->tag_cap * sizeof *b->tag_vals);
    pf__free(&b->alloc, b->fresh, b->fresh_cap * sizeof *b->fresh);
}

/* The tag index is at most half full: tcap entries for qcap queries. */
size_t pf__queries_static_size(uint32_t qcap, uint32_t tcap)
{
    return pf__align64(qcap * sizeof(pf__bquery)) + pf__align64(qcap * sizeof(uint32_t)) +
           pf__align64(tcap * sizeof(uint64_t)) + pf__align64(tcap * sizeof(uint32_t));
}

void pf__queries_place(pf_batch *b, char **p, uint32_t qcap, uint32_t tcap)
{
    b->q = pf__carve(p, pf__align64(qcap * sizeof *b->q));
    b->fresh = pf__carve(p, pf__align64(qcap * sizeof *b->fresh));
    b->tag_keys = pf__carve(p, pf__align64(tcap * sizeof *b->tag_keys));
    b->tag_vals = pf__carve(p, pf__align64(tcap * sizeof *b->tag_vals));
    b->qcap = b->fresh_cap = qcap;
    b->tag_cap = tcap;
}
