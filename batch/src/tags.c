/* tags.c - which pending queries carry a tag, for PF_QUERY_SUPERSEDE.
 *
 * An open-addressing table (linear probing, deletion by backward shift: no tombstones to sweep)
 * maps a tag to the newest pending query with it; older ones with the same tag hang off it in a
 * doubly linked list through the query slots. Insert and remove are O(1) expected, so a supersede
 * costs the same with 300 pending queries or 300,000.
 */
#include <string.h>
#include "batch_internal.h"

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

int pf__tag_insert(pf_batch *b, uint32_t slot)
{
    if (!pf__tag_reserve(b, b->tag_len + 1u)) return 0;
    pf__bquery *e = &b->q[slot];
    e->tag_next = PF__NONE;
    uint32_t h = find(b, e->q.tag);
    if (h == PF__NONE) {
        e->tag_prev = PF__NONE;
        put(b, e->q.tag, slot + 1u);
        b->tag_len++;
        return 1;
    }
    uint32_t older = b->tag_vals[h] - 1u;
    e->tag_prev = older;
    b->q[older].tag_next = slot;
    b->tag_vals[h] = slot + 1u;
    return 1;
}

void pf__tag_remove(pf_batch *b, uint32_t slot)
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
