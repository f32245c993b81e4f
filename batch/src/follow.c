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
#include "batch_internal.h"

static pf_batch *batch_of(pf__map_user *u) { return (pf_batch *)(void *)((char *)u - offsetof(pf_batch, user)); }

/* PF_BATCH_FINISH_ON_EDIT: suspended searches run to their end on the version they started on,
 * before any cell changes, and their results are published as a run's are. */
static void before_edit(pf__map_user *u, const pf_map *m)
{
    pf_batch *b = batch_of(u);
    (void)m;
    if (b->flags & PF_BATCH_FINISH_ON_EDIT) pf__finish_suspended(b);
}

/* Back to the fresh list; or, without room for it (`ok` 0), answered PF_OUT_OF_MEMORY: its old
 * plan may not hold on the new cells. A query cancelled while a search still read it is simply
 * finished (its result is its cancel status). */
static void requeue(pf_batch *b, uint32_t slot, int ok)
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

/* The fresh list in submission order, in place (heapsort by seq: no allocation, which a batch in
 * caller memory could not make). */
static void sift_fresh(const pf_batch *b, uint32_t *f, uint32_t i, uint32_t n)
{
    for (;;) {
        uint32_t c = 2u * i + 1u;
        if (c >= n) return;
        if (c + 1u < n && b->q[f[c + 1u]].seq > b->q[f[c]].seq) c++;
        if (b->q[f[c]].seq <= b->q[f[i]].seq) return;
        uint32_t t = f[i];
        f[i] = f[c];
        f[c] = t;
        i = c;
    }
}

static void sort_fresh(pf_batch *b)
{
    uint32_t *f = b->fresh, n = b->nfresh;
    for (uint32_t i = n / 2u; i-- > 0;) sift_fresh(b, f, i, n);
    for (uint32_t k = n; k-- > 1u;) {
        uint32_t t = f[0];
        f[0] = f[k];
        f[k] = t;
        sift_fresh(b, f, 0, k);
    }
}

/* Every unfinished query back to the fresh list, oldest first. */
static int after_edit(pf__map_user *u, const pf_map *m, pf__edit_view *ev)
{
    pf_batch *b = batch_of(u);
    (void)m;
    (void)ev;
    if (!b->njobs && !b->ndups) return 1;
    int ok = PF__GROW(b, b->fresh, b->fresh_cap, b->nfresh + b->pending);
    for (uint32_t i = 0; i < b->njobs; i++) {
        pf__job *j = &b->jobs[i];
        if (j->held) pf__put_spare(b, j->held);
        j->held = NULL;
        if (j->state == PF__J_SUSPENDED) b->st.restarted++; /* its search starts again from scratch */
        if (j->state == PF__J_DONE || j->state == PF__J_CANCELLED) continue;
        uint32_t n = j->kind == PF__J_GROUP ? j->count : 1u;
        for (uint32_t k = 0; k < n; k++) requeue(b, j->kind == PF__J_GROUP ? b->members[j->first + k] : j->query, ok);
    }
    for (uint32_t i = 0; i < b->ndups; i++) requeue(b, b->dups[i], ok);
    b->njobs = b->nmembers = b->ndups = 0;
    b->jobs_dirty = 0;
    /* submission order again (it decides who waits under a budget, never an answer) */
    sort_fresh(b);
    return ok;
}

void pf__batch_follow(pf_batch *b)
{
    b->user.before = before_edit;
    b->user.after = after_edit;
    pf__map_attach(b->map, &b->user);
}

void pf__batch_unfollow(pf_batch *b) { pf__map_detach(b->map, &b->user); }
