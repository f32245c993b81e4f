/* follow.c - a batch follows its map's edits, between runs (pf_batch.h, LIVING MAPS).
 *
 * Everything the batch does about edits is here, apart from the scheduling: the map calls
 * before_edit (only PF_BATCH_FINISH_ON_EDIT acts there) and after_edit; pf_batch_prepare and
 * pf_batch_finish hold the map for the run (batch.c), so an edit never lands inside one.
 *
 * After an edit every unfinished query is planned again: suspended searches give their contexts
 * back (they restart from scratch), queued singles and groups and waiting duplicates go back to
 * the fresh list in submission order. Re-planning is what keeps groups sound: a group was formed
 * from starts in its goal's component, which an edit may have changed, and its backward search
 * must never start from a goal that is now blocked.
 */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include "batch_internal.h"

static pf_batch *batch_of(pf__map_user *u) { return (pf_batch *)(void *)((char *)u - offsetof(pf_batch, user)); }

/* PF_BATCH_FINISH_ON_EDIT: suspended searches run to their end on the version they started on,
 * before any cell changes, and their results are published as a run's are. */
static void before_edit(pf__map_user *u, const pf_map *m)
{
    pf_batch *b = batch_of(u);
    (void)m;
    if (!(b->flags & PF_BATCH_FINISH_ON_EDIT)) return;
    pf__worker *wk = &b->workers[0];
    int any = 0;
    for (uint32_t i = 0; i < b->njobs; i++) {
        pf__job *j = &b->jobs[i];
        if (j->state != PF__J_SUSPENDED) continue;
        pf_ctx *c = j->held;
        uint32_t e0 = c->s.st.expanded;
        pf_status st;
        do st = pf__batch_step(b, j, c, 0);
        while (st == PF_IN_PROGRESS);
        wk->expanded += c->s.st.expanded - e0;
        pf__batch_job_done(b, j, c, st, wk); /* a held context is never the worker's own */
        any = 1;
    }
    if (any) {
        /* publish as at the end of a run (duplicates, counters, the jobs left) */
        b->prepared = 1;
        pf_batch_finish(b);
    }
}

typedef struct seq_slot {
    uint64_t seq;
    uint32_t slot;
} seq_slot;

static int by_seq(const void *pa, const void *pb)
{
    const seq_slot *a = pa, *c = pb;
    return a->seq < c->seq ? -1 : a->seq > c->seq;
}

/* Back to the fresh list; or, without room for it (`ok` 0), answered PF_OUT_OF_MEMORY: its old
 * plan may not hold on the new cells. */
static void requeue(pf_batch *b, uint32_t slot, int ok)
{
    pf__bquery *e = &b->q[slot];
    if (ok) {
        e->state = PF__Q_NEW;
        e->canon = slot;
        b->fresh[b->nfresh++] = slot;
        return;
    }
    e->res = (pf_batch_result){.status = PF_OUT_OF_MEMORY, .tag = e->res.tag, .stats = {.cost = INFINITY}};
    e->state = PF__Q_DONE;
    b->pending--;
    b->st.completed++;
}

/* Every unfinished query back to the fresh list, oldest first. */
static int after_edit(pf__map_user *u, const pf_map *m, pf__edit_view *ev)
{
    pf_batch *b = batch_of(u);
    (void)m;
    (void)ev;
    if (!b->njobs && !b->ndups) return 1;
    int ok = GROW(b, b->fresh, b->fresh_cap, b->nfresh + b->pending);
    for (uint32_t i = 0; i < b->njobs; i++) {
        pf__job *j = &b->jobs[i];
        if (j->held) {
            pf__batch_put_spare(b, j->held);
            j->held = NULL;
            b->st.restarted++;
        }
        uint32_t n = j->kind == PF__J_GROUP ? j->count : 1u;
        for (uint32_t k = 0; k < n; k++) requeue(b, j->kind == PF__J_GROUP ? b->members[j->first + k] : j->query, ok);
    }
    for (uint32_t i = 0; i < b->ndups; i++) requeue(b, b->dups[i], ok);
    b->njobs = b->nmembers = b->ndups = 0;
    /* submission order again (it decides who waits under a budget, never an answer) */
    seq_slot *ord = ok ? pf__alloc(&b->alloc, (size_t)b->nfresh * sizeof *ord, 64) : NULL;
    if (ord) {
        for (uint32_t i = 0; i < b->nfresh; i++) ord[i] = (seq_slot){b->q[b->fresh[i]].seq, b->fresh[i]};
        qsort(ord, b->nfresh, sizeof *ord, by_seq);
        for (uint32_t i = 0; i < b->nfresh; i++) b->fresh[i] = ord[i].slot;
        pf__free(&b->alloc, ord, (size_t)b->nfresh * sizeof *ord);
    }
    return ok;
}

void pf__batch_follow(pf_batch *b)
{
    b->user.before = before_edit;
    b->user.after = after_edit;
    pf__map_attach(b->map, &b->user);
}

void pf__batch_unfollow(pf_batch *b) { pf__map_detach(b->map, &b->user); }
