/* accel_pick.c - PF_ALGO_AUTO's choice: which queries the accelerator takes, and which search
 * answers the others (A* for a short move, JPS or JPS+ where the accelerator cannot), never in
 * silence (the detail flags). */
#include "accel/accel_query_internal.h"
#include "search/metric_internal.h"
#include "jps/jps_internal.h"

/* The octile length of a move between inner cells: what AUTO calls short is measured by it. */
static double move_len(const pf_map *m, uint32_t si, uint32_t gi)
{
    const int32_t pw = (int32_t)m->pw;
    return pf__grid_metric(PF_HEUR_OCTILE, (int32_t)si % pw - (int32_t)gi % pw, (int32_t)si / pw - (int32_t)gi / pw);
}

/* A hierarchy whose build left most nodes uncontracted (open maps with few, far-seeing subgoals:
 * Berlin_0_1024 keeps all 9,914 in its core) is a plain subgoal graph search, slower there than
 * JPS+ (955 us against 10 us a query): AUTO then answers by JPS. */
static int contracted(const pf_accel *acc) { return acc->core * 2u <= acc->nodes; }

/* What AUTO calls a short move, and how long its A* may run before the accelerator answers instead
 * (pf_accel.h, QUERIES). The accelerator's short query costs what its scans and upward searches
 * touch: where at least one cell in 10 is a subgoal (random maps) the scans reach dozens of them
 * and the searches start from all of them. Cold, one query after another over the 1,000 short
 * moves (optimal length <= 50) of each 2000x2000 map, an accelerated short move costs 60-70 us on
 * random-2000-20 (33% of its cells are subgoals), 20-26 us on rooms-2000 (0.5%) and about 6 us on
 * maze-2000-w4 (2.8%), and A* about 80 ns an expansion (16-18 us at 32-50 steps on random), 2-8
 * expansions per octile step except in the maze. So on a map dense in subgoals A* is tried up to
 * twice the usual length, and given 16 expansions a step before it hands over: the waste is at
 * most 16 * 64 expansions, about one accelerated short move there. Elsewhere the cap is 64 a step,
 * a bound for the moves whose A* runs away (a maze's cells a few steps apart can be thousands apart
 * by path), which none of the 1,000 short moves of rooms-2000 or maze-2000-w4 reaches: measured on
 * the shared 2-core machine (cold, medians of 3 passes), a cap of 4, 16 or 32 a step handed 207, 69
 * or 18 of them over and made rooms-2000's moves under 32 steps 47%, 20% and 9% slower than A*
 * alone, the maze's 7% faster, 5% slower and equal; callgrind (a private 32 MiB cache) counted
 * those handovers as savings on both, so its cache model misses what the accelerator pays. */
static int dense(const pf_accel *acc) { return (uint64_t)acc->nodes * 10u >= acc->cells; }

static uint32_t short_limit(const pf_accel *acc)
{
    if (acc->desc.short_query) return acc->short_query;
    return dense(acc) ? 2u * acc->short_query : acc->short_query;
}

int pf__accel_takes(const pf_accel *acc, const pf_map *map, const pf_search_desc *rd, uint32_t start, uint32_t goal)
{
    if (!acc || rd->algo != PF_ALGO_AUTO || rd->unit_size > 1 || rd->filter || rd->partial) return 0;
    if (!pf__accel_answers(acc, map) || !contracted(acc)) return 0;
    uint32_t si = pf__map_inner(map, start), gi = pf__map_inner(map, goal);
    if (si == PF_NODE_NONE || gi == PF_NODE_NONE) return 0;
    return move_len(map, si, gi) >= (double)short_limit(acc);
}

int pf__accel_stale(const pf_accel *acc, const pf_map *map) { return acc && !pf__accel_answers(acc, map); }

int pf__accel_declined(const pf_accel *acc, const pf_map *map)
{
    return acc && pf__accel_answers(acc, map) && !contracted(acc);
}

/* One that follows the edits by its diff is attached whatever edits came since its build. */
int pf__accel_attachable(const pf_accel *acc, const pf_map *map)
{
    return acc->map == map && (acc->fingerprint == map->fingerprint || acc->desc.edits == PF_ACCEL_EDITS_CHECK);
}

const pf_map *pf__accel_map(const pf_accel *acc) { return acc->map; }

pf_algo pf__auto_pick(const pf_ctx *c, uint32_t si, uint32_t gi, uint32_t *detail, uint32_t *cap)
{
    const pf_map *m = c->map;
    const pf__accel_ext *x = pf__ctx_ext_get(c, PF__EXT_ACCEL);
    *cap = 0;
    if (m->kind != PF_MAP_GRID) return PF_ALGO_ASTAR;
    /* a short move touches fewer cells than the accelerator's scans or JPS's jumps would */
    double oct = move_len(m, si, gi);
    int have = x && x->acc && pf__accel_answers(x->acc, m);
    if (x && x->acc && !have) *detail |= PF_DETAIL_ACCEL_STALE; /* never a silent fallback */
    if (have && !contracted(x->acc)) {
        *detail |= PF_DETAIL_ACCEL_DECLINED; /* slower than JPS here: not used, and said */
        have = 0;
    }
    /* an edited map whose edits reach the start or the goal, or a query whose proof failed (the
     * fallback begins it again): JPS answers, and says why */
    int edited = have && (x->refused || (x->acc->dn && (pf__accel_diff_has(x->acc, si) || pf__accel_diff_has(x->acc, gi))));
    if (oct < (double)(have ? short_limit(x->acc) : (uint32_t)PF_ACCEL_SHORT_QUERY)) {
        *detail |= PF_DETAIL_SHORT;
        /* no accelerator to hand over to: A* to the end (and edits kept it from this one: said) */
        if (edited) *detail |= PF_DETAIL_ACCEL_EDITED;
        if (!have || edited) return PF_ALGO_ASTAR;
        if (!x->long_only) {
            *cap = (uint32_t)((dense(x->acc) ? 16.0 : 64.0) * oct) + 1u;
            return PF_ALGO_ASTAR;
        }
    }
    if (edited) {
        *detail |= PF_DETAIL_ACCEL_EDITED;
        have = 0;
    }
    if (have) return PF_ALGO_AUTO;
    if (pf_jps_supported(m) && c->s.d.heuristic == PF_HEUR_OCTILE)
        return pf__jps_has_plus(c) ? PF_ALGO_JPS_PLUS : PF_ALGO_JPS;
    return PF_ALGO_ASTAR;
}

void pf__auto_long_only(pf_ctx *c, int on)
{
    pf__accel_ext *x = pf__ctx_ext_get(c, PF__EXT_ACCEL);
    if (x) x->long_only = on;
}

void pf__accel_refuse(pf_ctx *c, int on)
{
    pf__accel_ext *x = pf__ctx_ext_get(c, PF__EXT_ACCEL);
    if (x) x->refused = on;
}
