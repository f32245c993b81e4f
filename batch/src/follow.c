/* follow.c - the batch as a user of its map: held during runs, following its edits between them
 * (pf_batch.h, LIVING MAPS).
 *
 * Everything the batch does about edits starts here, apart from the scheduling: the map calls
 * before_edit (only PF_BATCH_FINISH_ON_EDIT acts there) and after_edit; pf_batch_prepare and
 * pf_batch_finish hold the map for the run (pf__batch_hold_map), so an edit never lands inside one.
 *
 * After an edit every unfinished query is planned again: suspended searches give their contexts
 * back (they restart from scratch) unless the edit left them valid after time-budgeted runs
 * (carry_suspended), queued singles and groups and waiting duplicates go back to
 * the fresh list in submission order. Re-planning is what keeps groups sound: a group was formed
 * from starts in its goal's component, which an edit may have changed, and its backward search
 * must never start from a goal that is now blocked.
 */
#include <stddef.h>
#include "batch_internal.h"

static pf_batch *batch_of(pf__map_user *u) { return (pf_batch *)(void *)((char *)u - offsetof(pf_batch, user)); }

/* PF_BATCH_FINISH_ON_EDIT: suspended searches run to their end on the version they started on,
 * before any cell changes, and their results are published as a run's are. */
static void finish_suspended(pf_batch *b)
{
    int any = 0;
    for (uint32_t i = 0, n = pf__plan_njobs(b); i < n; i++) {
        pf__job *j = pf__plan_job(b, i);
        if (j->state != PF__J_SUSPENDED) continue;
        /* in its held context, or redone from the start on a worker's when it kept none */
        pf__run_to_end(b, j, 0);
        pf__results_answered(b, j);
        any = 1;
    }
    if (any) pf__workers_publish(b);
}

static void before_edit(pf__map_user *u, const pf_map *m)
{
    pf_batch *b = batch_of(u);
    (void)m;
    if (b->flags & PF_BATCH_FINISH_ON_EDIT) finish_suspended(b);
}

/* After time-budgeted runs, a suspended search that the edit left valid goes on as it stands
 * (pf__ctx_carry_search: plain A* or Dijkstra, no record of it near a changed cell). On a rooms-2000
 * order log with a building put up or taken down every 8 frames, restarting every suspended
 * search threw away 60% of the expansions under a 4 ms budget (pf_batch_stats.dropped). Not
 * after expansion-budgeted runs: a held search has run ahead of the account by as much as the
 * threads allowed, so whether its records reach the edit would depend on the machine, and lockstep
 * peers must restart alike. Groups are planned again always (an edit may change who belongs). */
static void carry_suspended(pf_batch *b, const pf__edit_view *ev)
{
    if (pf__account_mode(b) != PF__MODE_TIME) return;
    for (uint32_t i = 0, n = pf__plan_njobs(b); i < n; i++) {
        pf__job *j = pf__plan_job(b, i);
        j->carried = j->state == PF__J_SUSPENDED && j->kind == PF__J_SINGLE && j->held && !j->rdone &&
                     !(pf__query(b, j->query)->q.flags & PF_QUERY_FLOW) && pf__ctx_carry_search(j->held, ev);
    }
}

/* Every unfinished query back to the fresh list, oldest first; without room for them there, each
 * is answered PF_OUT_OF_MEMORY (its old plan may not hold on the new cells). */
static int after_edit(pf__map_user *u, const pf_map *m, pf__edit_view *ev)
{
    pf_batch *b = batch_of(u);
    (void)m;
    if (pf__plan_idle(b)) return 1;
    carry_suspended(b, ev);
    int ok = pf__queries_reserve_fresh(b);
    pf__plan_unplan(b, ok);
    /* submission order again (it decides who waits under a budget, never an answer) */
    pf__queries_sort_fresh(b);
    return ok;
}

void pf__batch_follow(pf_batch *b)
{
    b->user.before = before_edit;
    b->user.after = after_edit;
    pf__map_attach(b->map, &b->user);
}

void pf__batch_unfollow(pf_batch *b) { pf__map_detach(b->map, &b->user); }

int pf__batch_hold_map(pf_batch *b) { return pf__map_enter_call(b->map, &b->user); }

void pf__batch_release_map(pf_batch *b) { pf__map_leave(&b->user); }
