/* accel_nodes.c - the hierarchy by node index, for the query of a hierarchy without a core.
 *
 * Why: without a core (rooms-2000: 21,410 subgoals, no core) a query runs both sides at once
 * (both_ways, accel_query.c). By cell, its records were the context's, spread over every cell of
 * the map (stamp, g and parent: 28 bytes a cell, 112 MB on 2000x2000), each relaxation a cache miss
 * or three, and the goal side's labels a hash probed at every relaxation. By node index the
 * records of every subgoal take 20 bytes a node (430 KB there, within a core's second-level
 * cache), the goal side's labels are records too, and the arc lists hold their targets' node
 * indices (reached through first[] by cell, 4 bytes a cell, they cost a miss more an expansion).
 * Nodes are numbered in the order of their cells, so an order by node index is the order by cell:
 * the searches pop ties, and so find paths, exactly as they did by cell.
 *
 * The arcs' costs are kept as the doubles the query adds (pf__accel_cost of their steps: the same
 * value), and the nodes' coordinates beside them: a relaxation converted two integers to doubles
 * for the cost and divided by the map's width for the heuristic, and the searches relax about 860
 * arcs a query on rooms-2000 (callgrind: 16% of a query's instructions went to the two).
 *
 * Not in the file: computed after a build and after a load (one pass over the arcs), so files made
 * before it load and answer the same. A hierarchy with a core has its own index over the core
 * (accel_landmarks.c) and none of this.
 */
#include "accel/accel_internal.h"

void pf__accel_nodes_free(pf_accel *acc)
{
    pf__free(&acc->alloc, acc->node_cell, (size_t)acc->nodes * sizeof(uint32_t));
    pf__free(&acc->alloc, acc->node_first, ((size_t)acc->nodes + 1u) * sizeof(uint32_t));
    pf__free(&acc->alloc, acc->node_xy, (size_t)acc->nodes * sizeof(pf__accel_nxy));
    pf__free(&acc->alloc, acc->node_to, (acc->narcs ? (size_t)acc->narcs : 1u) * sizeof(uint32_t));
    pf__free(&acc->alloc, acc->node_cost, (acc->narcs ? (size_t)acc->narcs : 1u) * sizeof(double));
    acc->node_cell = acc->node_first = acc->node_to = NULL;
    acc->node_xy = NULL;
    acc->node_cost = NULL;
}

size_t pf__accel_nodes_bytes(const pf_accel *acc)
{
    return acc->node_cell ? ((size_t)acc->nodes * 2u + 1u) * sizeof(uint32_t) + (size_t)acc->nodes * sizeof(pf__accel_nxy) +
                                (acc->narcs ? (size_t)acc->narcs : 1u) * (sizeof(uint32_t) + sizeof(double))
                          : 0;
}

int pf__accel_nodes_index(pf_accel *acc)
{
    pf__accel_nodes_free(acc);
    const uint32_t n = acc->nodes;
    if (acc->core || !n) return 1;
    const pf_allocator *al = &acc->alloc;
    acc->node_cell = pf__alloc(al, (size_t)n * sizeof(uint32_t), 64);
    acc->node_first = pf__alloc(al, ((size_t)n + 1u) * sizeof(uint32_t), 64);
    acc->node_xy = pf__alloc(al, (size_t)n * sizeof(pf__accel_nxy), 64);
    acc->node_to = pf__alloc(al, (acc->narcs ? (size_t)acc->narcs : 1u) * sizeof(uint32_t), 64);
    acc->node_cost = pf__alloc(al, (acc->narcs ? (size_t)acc->narcs : 1u) * sizeof(double), 64);
    if (!acc->node_cell || !acc->node_first || !acc->node_xy || !acc->node_to || !acc->node_cost) {
        pf__accel_nodes_free(acc);
        return 0;
    }
    uint32_t k = 0;
    for (uint32_t c = 0; c < acc->cells && k < n; c++)
        if (acc->sub[c]) acc->node_cell[k++] = c;
    if (k != n) { /* cannot happen: a build counts the subgoals it marks, the loader checks them */
        pf__accel_nodes_free(acc);
        return 0;
    }
    /* every list lies in the arcs in the order of its owner's cell: the lists by node index are
     * the same array from the first node's list on, each arc at its own position less that */
    const uint32_t base = acc->node_base = acc->first[acc->node_cell[0]], pw = acc->map->pw;
    for (uint32_t i = 0; i < n; i++) {
        const uint32_t c = acc->node_cell[i];
        acc->node_xy[i] = (pf__accel_nxy){(int32_t)(c % pw), (int32_t)(c / pw)};
        acc->node_first[i] = acc->first[c] - base;
        for (uint32_t q = acc->first[c]; q < acc->first[c + 1u]; q++) {
            const pf__accel_arc *p = &acc->arcs[q];
            acc->node_to[q - base] = pf__accel_node_of(acc, p->to);
            acc->node_cost[q - base] = pf__accel_cost(p->a, p->b);
        }
    }
    acc->node_first[n] = acc->first[acc->node_cell[n - 1u] + 1u] - base;
    return 1;
}
