/* components.c - connected components of grid maps. */
#include "map/map_internal.h"

/* Labels connected components by flood fill over the move rule (symmetric for every grid rule), so
 * a query whose goal lies in another component returns PF_NO_PATH without exhausting the start's
 * component. Uses the map's allocator; returns 0 on allocation failure. */
int pf__grid_label_components(pf_map *m)
{
    size_t cells = (size_t)m->pw * m->ph;
    m->comp = pf__calloc(&m->alloc, cells * sizeof(uint32_t), 64);
    uint32_t *stack = pf__alloc(&m->alloc, cells * sizeof(uint32_t), 64);
    if (!m->comp || !stack) {
        pf__free(&m->alloc, stack, cells * sizeof(uint32_t));
        return 0;
    }
    int ndir = m->moves == PF_MOVES_4 ? 4 : m->moves == PF_MOVES_HEX ? 6 : 8;
    uint32_t label = 0;
    for (uint32_t i = 0; i < cells; i++) {
        if (!m->cls[i] || m->comp[i]) continue;
        label++;
        size_t top = 0;
        stack[top++] = i;
        m->comp[i] = label;
        while (top) {
            uint32_t c = stack[--top];
            uint8_t k = m->cls[c];
            const int32_t *off = m->nb_off[(c / m->pw) & 1u];
            for (int d = 0; d < ndir; d++) {
                uint32_t nb = (uint32_t)((int32_t)c + off[d]);
                if (m->cls[nb] != k || m->comp[nb]) continue;
                if (d >= 4 && m->moves == PF_MOVES_8_NO_CUT) {
                    /* diagonal d = 4 + j uses sides (j, j+1 mod 4) */
                    static const int side_a[4] = {0, 2, 2, 0}, side_b[4] = {1, 1, 3, 3};
                    if (m->cls[(uint32_t)((int32_t)c + off[side_a[d - 4]])] != k ||
                        m->cls[(uint32_t)((int32_t)c + off[side_b[d - 4]])] != k)
                        continue;
                }
                m->comp[nb] = label;
                stack[top++] = nb;
            }
        }
    }
    pf__free(&m->alloc, stack, cells * sizeof(uint32_t));
    return 1;
}
