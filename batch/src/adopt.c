/* adopt.c - the batch's run counter, and an accelerator adopted at a run the caller names
 * (pf_batch.h, ADOPTED ACCELERATORS).
 *
 * Why a named run and not "as soon as it is ready": lockstep peers must answer alike, and an
 * accelerator's answers differ from JPS's (same costs, other paths among equals, other expansion
 * counts, so other completion runs under an expansion budget). A switch decided by a thread's
 * progress would differ between a fast and a slow machine; a switch at a run both name does not.
 * The batch never waits for a build: it takes only a finished accelerator, and the caller waits for
 * its build (joins its thread) before the named run at the latest.
 *
 * The switch reaches every context at once: the workers', the free spares', those held by
 * suspended searches, and (through b->accel) spares made later. Once the named run is prepared no
 * context refers to the old accelerator, so the caller may destroy it then.
 */
#include "batch_internal.h"

uint64_t pf_batch_frame(const pf_batch *b) { return b ? b->runs : 0; }

pf_status pf_batch_adopt_accel(pf_batch *b, const pf_accel *acc, uint64_t frame)
{
    if (!b) return PF_INVALID_ARGUMENT;
    PF__CHECK_HANDLE(b, PF__TAG_BATCH, "pf_batch");
    if (pf__account_prepared(b)) return PF_BATCH_BUSY;
    if (b->fixed) return PF_UNSUPPORTED; /* the accelerator's query state grows on demand */
    /* a run already begun cannot be named: the switch would land in another run than the peers' */
    if (frame < b->runs) return PF_INVALID_ARGUMENT;
    if (acc && pf__accel_map(acc) != b->map) return PF_WRONG_MAP;
    b->adopt = acc;
    b->adopt_run = frame;
    b->adopt_pending = 1;
    return PF_OK;
}

/* Whether an unfinished query's progress hangs on the accelerator: an accelerated query suspended
 * part way (pf__ctx_accel_running), or, after expansion-budgeted runs, an AUTO query granted units
 * before, which, if its state was lost for want of a spare, is redone up to them (sched_jobs.c):
 * with another accelerator the redo is another search, which may end before that point, and its
 * answer was never written (a query lost, counted as completed). Whether a state was kept is not
 * asked there: the units granted are the account's, the same for any worker count, so lockstep
 * peers plan again alike. After time-budgeted runs a lost state keeps no units (it begins again),
 * and a kept one not running the accelerator goes on as it stands: replanning those threw away
 * half as much work again at each adoption (a review helper's rooms-2000 replay, 1.5 ms). */
static int accel_in_flight(pf_batch *b)
{
    const int exp = pf__account_mode(b) == PF__MODE_EXP; /* the runs so far (the next is not open yet) */
    for (uint32_t i = 0, n = pf__plan_njobs(b); i < n; i++) {
        const pf__job *j = pf__plan_job(b, i);
        if (j->held && pf__ctx_accel_running(j->held)) return 1;
        if (exp && j->vprog && pf__query(b, j->query)->rd.algo == PF_ALGO_AUTO) return 1;
    }
    return 0;
}

pf_status pf__adopt_due(pf_batch *b)
{
    /* `<=`: a switch that ran out of memory is tried again at the next run */
    if (!b->adopt_pending || b->adopt_run > b->runs) return PF_OK;
    /* An accelerated query suspended part way reads its accelerator's arrays at its next step: it
     * cannot go on with another, nor can an AUTO query lost for want of a spare be redone to the
     * same point with another (accel_in_flight). As after an edit (follow.c), every unfinished query is planned
     * again, the suspended ones begun anew (without room for that, each is answered
     * PF_OUT_OF_MEMORY); at the named run, so lockstep peers do alike. */
    if (b->adopt != b->accel && accel_in_flight(b)) {
        int ok = pf__queries_reserve_fresh(b);
        pf__plan_unplan(b, ok);
        pf__queries_sort_fresh(b);
    }
    pf_status st = pf__workers_use_accel(b, b->adopt);
    if (st == PF_OK) st = pf__spares_use_accel(b, b->adopt);
    if (st == PF_OK) st = pf__plan_use_accel(b, b->adopt);
    /* every context uses the new one or (out of memory) some still the old: b->accel names the one
     * contexts made from now on get, the new one once all have it */
    if (st != PF_OK) return st;
    b->accel = b->adopt;
    b->adopt = NULL;
    b->adopt_pending = 0;
    return PF_OK;
}

void pf__adopt_run_begun(pf_batch *b) { b->runs++; }
