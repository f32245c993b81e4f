/* spares.c - spare contexts: a suspended search parks in one, so the worker searches on in another.
 *
 * The stack of free spares has its final size from creation (the suspend slots and the urgent ones,
 * pf__spares_total), and contexts are conserved: each is free here, held by a suspended job, or a worker's. Workers take
 * and put spares during a run, under a spin lock. A spare is made when a search is suspended and
 * finds none free (or all at once for reserve.spares): a batch holds no more spares than searches
 * were ever suspended at once, and unbudgeted users never pay for them.
 */
#include "batch_internal.h"

void pf__spares_init(pf_batch *b) { atomic_flag_clear(&b->spare_lock); }

int pf__spares_alloc(pf_batch *b)
{
    uint32_t n = pf__spares_total(b->nspare_want);
    b->spares = pf__calloc(&b->alloc, (size_t)n * sizeof *b->spares, 64);
    if (!b->spares) return 0;
    b->spare_cap = n;
    return 1;
}

/* A context like the workers': the batch's allocator, open-list size, pre-faulting and JPS table.
 * Also called by workers during a run (a spare made when a search is suspended): it reads only
 * what a run never changes. */
pf_status pf__new_ctx(pf_batch *b, pf_ctx **out)
{
    pf_ctx_desc cd = b->ctx_desc;
    cd.heap_capacity = b->open_cap;
    cd.accel = NULL; /* the batch's own now: an adopted one replaces the desc's, stale or not */
    pf_status st = pf_ctx_create(b->map, &cd, out);
    if (st == PF_OK && b->accel) st = pf__ctx_adopt_accel(*out, b->accel);
    if (st == PF_OK && b->algos) st = pf__ctx_reserve_algos(*out, b->algos);
    if (st != PF_OK && *out) {
        pf_ctx_destroy(*out);
        *out = NULL;
    }
    return st;
}

/* A spare made during a run is never written at creation, whatever the batch's prefault: its
 * records are lazy (search/nodes_internal.h), pages taken as its searches first write them (16
 * spare pages made with it, then 4 KiB pages of a lazily mapped block with the default allocator
 * on Linux; another allocator's memory is cleared a page as it is taken). Written at creation, the
 * spares that a run's first suspensions made (64 MB of records each on 2000x2000) were the worst
 * frame of a rooms-2000 replay under a 4 ms budget: 150-370 ms, every other frame at most 8. The
 * faults are spread over the frames instead, each page once in the spare's life: only with
 * PF_PREFAULT_NONE does a parked or freed spare give its pages back (park, pf__spare_put), which
 * cost a rooms-2000 replay 25-30% of its expansions a frame (faults again on every reuse), so it
 * stays the caller's choice. Spares made before the first frame (reserve.spares) are written as
 * the batch's other contexts are. */
static pf_status new_spare(pf_batch *b, pf_ctx **out)
{
    pf_ctx_desc cd = b->ctx_desc;
    cd.heap_capacity = b->open_cap;
    cd.accel = NULL; /* as pf__new_ctx */
    cd.prefault = PF_PREFAULT_NONE;
    pf_status st = pf_ctx_create(b->map, &cd, out);
    if (st == PF_OK && b->accel) st = pf__ctx_adopt_accel(*out, b->accel);
    /* reserve.algos holds for spares made later too (pf_batch.h): without it the search parked
     * here would make its JPS or accelerator state (16 MB each on 2000x2000) in a later frame.
     * Not for lazy spares (PF_PREFAULT_NONE), which hold only what their searches touch. */
    if (st == PF_OK && b->algos && b->prefault != PF_PREFAULT_NONE) st = pf__ctx_reserve_algos(*out, b->algos);
    if (st != PF_OK && *out) {
        pf_ctx_destroy(*out);
        *out = NULL;
    }
    return st;
}

/* reserve.spares: every spare now, for a hitch-free first frame: the suspend slots' pre-faulted as
 * the batch says, the urgent ones' as a spare made in a run is (its pages mapped as searches touch
 * them): they are for long urgent searches only, which most batches never suspend, and written
 * they would cost every reservation a whole context (64 MB on 2000x2000) more. */
int pf__spares_make_all(pf_batch *b)
{
    while (b->spare_made < b->spare_cap) {
        pf_ctx *c;
        if ((b->spare_made < b->nspare_want ? pf__new_ctx(b, &c) : new_spare(b, &c)) != PF_OK) return 0;
        b->spares[b->nspare++] = c;
        b->spare_made++;
    }
    return 1;
}

static void spin_lock(pf_batch *b)
{
    while (atomic_flag_test_and_set_explicit(&b->spare_lock, memory_order_acquire)) {
    }
}

static void spin_unlock(pf_batch *b) { atomic_flag_clear_explicit(&b->spare_lock, memory_order_release); }

pf_ctx *pf__spare_take(pf_batch *b, int who)
{
    spin_lock(b);
    pf_ctx *c = NULL;
    int make = 0;
    /* Spares not made yet count as free ones: the suspension that first needs one makes it. Slot
     * holders are owed theirs, free or still to make; an urgent search may take one no holder is
     * owed (the urgent slots' first); work run ahead gets only what is left over after both. */
    uint32_t free = b->nspare + (b->spare_cap - b->spare_made);
    uint32_t urgent_kept = b->spare_urgent_held < b->spare_urgent_slots ? b->spare_urgent_slots - b->spare_urgent_held : 0u;
    uint32_t keep = who == PF__SPARE_HOLDER ? 0u : b->spare_owed + (who == PF__SPARE_URGENT ? 0u : urgent_kept);
    if (free > keep) {
        if (b->nspare) {
            c = b->spares[--b->nspare];
        } else {
            make = 1;
            b->spare_made++; /* counted now, so that no other worker makes the last one too */
        }
        if (who == PF__SPARE_HOLDER && b->spare_owed) b->spare_owed--;
        if (who == PF__SPARE_URGENT) b->spare_urgent_held++;
    }
    spin_unlock(b);
    /* Made outside the lock (allocation and pre-faulting take milliseconds on big maps). A failure
     * is what finding no spare is: the caller drops or restarts the search, which stays queued;
     * the next suspension tries again. */
    if (make && new_spare(b, &c) != PF_OK) {
        c = NULL;
        spin_lock(b);
        b->spare_made--;
        b->st.spare_failed++; /* no other write to b->st can happen during a run */
        spin_unlock(b);
    }
    return c;
}

void pf__spare_put(pf_batch *b, const pf__job *j, pf_ctx *c)
{
    /* The search it held is over: its pages go back to the kernel (outside the lock: a few
     * microseconds per thousand pages), or every spare would in time hold the whole map's records
     * that its searches ever touched. The next search there maps what it touches. */
    if (b->prefault == PF_PREFAULT_NONE) pf__ctx_release(c); /* lazy records only (see park) */
    /* A table reserve.algos attached while this context held the search (pf_batch_reserve between
     * runs leaves a held context's table alone: switching it would end the search) is attached
     * now, before any worker takes the context: else AUTO picked JPS here and JPS+ on every other
     * context, the answer depending on which context a query ran in (a review: 622 of 3,160 AUTO
     * queries, 1 worker against 3). b->jps does not change during a run. */
    if (b->jps && pf__ctx_jps_table(c) != b->jps && pf_ctx_use_jps_table(c, b->jps) == PF_OK &&
        b->prefault != PF_PREFAULT_NONE)
        (void)pf__ctx_reserve_algos(c, b->algos); /* out of memory: made by its first search instead */
    spin_lock(b);
    b->spares[b->nspare++] = c; /* contexts are conserved: the stack never exceeds spare_cap */
    /* an urgent search's spare given back mid-run is kept for urgent work again: counted once per
     * run, it went to the first normal search run ahead, which then held one slot more than there
     * are, and the next long urgent search found none (time budgets, 2 workers) */
    if (j->rank == PF__RANK_URGENT && b->spare_urgent_held) b->spare_urgent_held--;
    spin_unlock(b);
}

void pf__spares_owe(pf_batch *b, uint32_t n, uint32_t urgent_slots, uint32_t urgent_held)
{
    b->spare_owed = n;
    b->spare_urgent_slots = urgent_slots;
    b->spare_urgent_held = urgent_held;
}

pf_status pf__spares_reserve_algos(pf_batch *b, uint32_t algos)
{
    pf_status st = PF_OK;
    for (uint32_t i = 0; i < b->nspare && st == PF_OK; i++) st = pf__ctx_reserve_algos(b->spares[i], algos);
    return st;
}

pf_status pf__spares_reserve_size(pf_batch *b, uint32_t size)
{
    pf_status st = PF_OK;
    for (uint32_t i = 0; i < b->nspare && st == PF_OK; i++) st = pf__ctx_reserve_size(b->spares[i], size, b->algos);
    return st;
}

void pf__spares_use_jps(pf_batch *b, const pf_jps_table *t)
{
    for (uint32_t i = 0; i < b->nspare; i++) pf_ctx_use_jps_table(b->spares[i], t);
}

pf_status pf__spares_use_accel(pf_batch *b, const pf_accel *acc)
{
    pf_status st = PF_OK;
    for (uint32_t i = 0; i < b->nspare && st == PF_OK; i++)
        if ((st = pf__ctx_adopt_accel(b->spares[i], acc)) == PF_OK && b->algos)
            st = pf__ctx_reserve_algos(b->spares[i], b->algos);
    return st;
}

int pf__spares_reserve_open(pf_batch *b, uint32_t open, int prefault)
{
    for (uint32_t i = 0; i < b->nspare; i++)
        if (!pf__ctx_reserve_open(b->spares[i], open, prefault)) return 0;
    return 1;
}

size_t pf__spares_mem_size(const pf_batch *b)
{
    size_t n = 0;
    for (uint32_t i = 0; i < b->nspare; i++) n += pf_ctx_mem_size(b->spares[i]);
    return n;
}

void pf__spares_free(pf_batch *b)
{
    for (uint32_t i = 0; i < b->nspare; i++) pf_ctx_destroy(b->spares[i]);
    pf__free(&b->alloc, b->spares, b->spare_cap * sizeof *b->spares);
}

size_t pf__spares_static_size(uint32_t n) { return pf__align64(n * sizeof(pf_ctx *)); }

void pf__spares_place(pf_batch *b, void *mem, uint32_t n)
{
    b->spares = mem;
    b->spare_cap = n;
}

/* Spares exist from the start: a budgeted run could not make them later. */
void pf__spares_place_contexts(pf_batch *b, char **p, size_t ctx)
{
    for (uint32_t i = 0; i < b->spare_cap; i++)
        pf_ctx_init_static(pf__carve(p, ctx), ctx, b->map, &b->ctx_desc, &b->spares[i]);
    b->nspare = b->spare_made = b->spare_cap;
}
