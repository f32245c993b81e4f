/* results.c - a job's answers: written into its queries' slots when its search ends (paths in the
 * worker's arena), taken back when the budget account has not reached them, counted once final. */
#include <math.h>
#include "batch_internal.h"

static pf_batch_result in_progress(uint64_t tag)
{
    return (pf_batch_result){.status = PF_IN_PROGRESS, .tag = tag, .stats = {.cost = INFINITY}};
}

/* Copies a finished single search into the query's result, path into the worker's arena. */
static void single_result(pf_batch *b, pf__job *j, pf_ctx *c, pf_status st, pf__arena *arena)
{
    pf__bquery *e = pf__query(b, j->query);
    pf_batch_result *r = &e->res;
    r->flags |= (j->sliced ? PF_BATCH_RESULT_SLICED : 0u) | (j->squad ? PF_BATCH_RESULT_GROUPED : 0u);
    r->path = NULL;
    r->path_len = 0;
    r->field = NULL;
    if (e->q.flags & PF_QUERY_FLOW) {
        /* the field leaves the worker's context for the arena: the context serves the next job */
        r->stats = pf_failed(st) ? (pf_stats){0} : pf__ctx_stats(c);
        r->stats.cost = INFINITY;
        r->status = st; /* a tree search ends PF_OK, max_cost or not */
        if (r->status != PF_OK) return;
        size_t n = pf_map_node_count(b->map);
        uint8_t *dirs = pf__arena_alloc(arena, n, 1);
        if (!dirs) {
            r->status = PF_OUT_OF_MEMORY;
            return;
        }
        pf_flow_export(c, dirs, n);
        r->field = dirs;
        return;
    }
    if (pf_failed(st) && st != PF_OUT_OF_MEMORY) {
        /* refused before searching (bad endpoint or options): what pf_search reports */
        r->status = st;
        r->stats = (pf_stats){.cost = INFINITY};
        return;
    }
    pf__arena_take_path(arena, c, r);
}

void pf__results_write(pf_batch *b, pf__job *j, pf_ctx *c, pf_status st, pf__worker *wk)
{
    if (j->kind == PF__J_GROUP) {
        pf__group_results(b, j, c, st, &wk->arena);
        wk->groups++;
    } else {
        single_result(b, j, c, st, &wk->arena);
    }
    wk->searches++;
    j->written = 1;
}

void pf__results_unwrite(pf_batch *b, pf__job *j)
{
    if (j->kind == PF__J_GROUP) {
        const uint32_t *mem = pf__plan_members(b, j);
        for (uint32_t k = 0; k < j->count; k++) {
            pf__bquery *e = pf__query(b, mem[k]);
            e->res = in_progress(e->q.tag);
        }
    } else {
        pf__bquery *e = pf__query(b, j->query);
        e->res = in_progress(e->q.tag);
    }
    b->st.searches--;
    if (j->kind == PF__J_GROUP) b->st.groups--;
    j->written = 0;
}

void pf__results_answered(pf_batch *b, const pf__job *j)
{
    if (j->kind == PF__J_SINGLE) {
        b->st.grouped += j->squad && pf__query(b, j->query)->cancel == PF_OK; /* a squad's member */
        pf__query_done(b, j->query);
        return;
    }
    const uint32_t *mem = pf__plan_members(b, j);
    for (uint32_t k = 0; k < j->count; k++) {
        if (pf__query(b, mem[k])->cancel == PF_OK) b->st.grouped++;
        pf__query_done(b, mem[k]);
    }
}
