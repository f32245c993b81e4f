/* components_check.c - the consistency check of the component labels after edits (tests only, not
 * part of the library): the labels, the node and component tables and the tile edges agree with
 * each other and with a flood by the move rule. */
#include <stdlib.h>
#include "map/components_internal.h"
#include "map/grid_moves_internal.h"
#include <stdio.h>
#include "components_check.h"

int pf__grid_components_check(const pf_map *m, char *why, size_t len)
{
    const struct pf__comps *cc = m->cc;
    if (!m->comp || !cc) {
        snprintf(why, len, "no components");
        return 0;
    }
    uint32_t *cnt = calloc(cc->ncap + 1u, sizeof(uint32_t));
    uint32_t *csz = calloc(cc->ccap + 1u, sizeof(uint32_t));
    int ok = cnt && csz;
    for (uint32_t y = 1; ok && y + 1 < m->ph; y++)
        for (uint32_t x = 1; ok && x + 1 < m->pw; x++) {
            uint32_t c = y * m->pw + x, id = m->comp[c];
            if (!m->cls[c] != !id) {
                snprintf(why, len, "cell %u,%u: class %u, node %u", x - 1, y - 1, m->cls[c], id);
                ok = 0;
            } else if (id && (id >= cc->nend || cc->ntile[id] != pf__comps_tile_of(cc, x, y))) {
                snprintf(why, len, "cell %u,%u: node %u not of its tile", x - 1, y - 1, id);
                ok = 0;
            } else if (id) {
                cnt[id]++;
            }
        }
    for (uint32_t id = 1; ok && id < cc->nend; id++) {
        int live = cc->ntile[id] != FREED;
        if (live != (cnt[id] > 0)) {
            snprintf(why, len, "node %u: live %d with %u cells", id, live, cnt[id]);
            ok = 0;
        } else if (live) {
            uint32_t l = m->comp_root[id];
            if (!l || l >= cc->cend) {
                snprintf(why, len, "node %u: component %u", id, l);
                ok = 0;
            } else {
                csz[l]++;
            }
            if (cc->nmark[id]) {
                snprintf(why, len, "node %u: mark left %u", id, cc->nmark[id]);
                ok = 0;
            }
        }
    }
    uint32_t live_comps = 0;
    for (uint32_t l = 1; ok && l < cc->cend; l++) {
        if (csz[l] != cc->csize[l]) {
            snprintf(why, len, "component %u: %u nodes, size says %u", l, csz[l], cc->csize[l]);
            ok = 0;
        }
        live_comps += csz[l] > 0;
    }
    if (ok && live_comps != cc->count) {
        snprintf(why, len, "%u components live, count says %u", live_comps, cc->count);
        ok = 0;
    }
    /* each live node's rectangle (nbox) is the one around its cells, exactly */
    uint32_t *box = ok ? malloc((size_t)cc->nend * 2u * sizeof(uint32_t)) : NULL, *diag = box ? box + cc->nend : NULL;
    uint16_t *band = ok ? malloc((size_t)cc->nend * PF__NBANDS * sizeof(uint16_t)) : NULL;
    if (ok && (!box || !band)) ok = 0;
    for (uint32_t id = 0; ok && id < 2u * cc->nend; id++) box[id] = 0x00ff00ffu;
    for (uint32_t i = 0; ok && i < cc->nend * PF__NBANDS; i++) band[i] = 0x00ffu;
    for (uint32_t y = 1; ok && y + 1 < m->ph; y++)
        for (uint32_t x = 1; x + 1 < m->pw; x++) {
            uint32_t id = m->comp[y * m->pw + x];
            if (!id) continue;
            const uint32_t lx = (x - 1u) % TS, ly = (y - 1u) % TS, b = box[id];
            const uint32_t x0 = PF__NBOX_X0(b) < lx ? PF__NBOX_X0(b) : lx;
            const uint32_t x1 = PF__NBOX_X1(b) > lx ? PF__NBOX_X1(b) : lx;
            const uint32_t y0 = PF__NBOX_Y0(b) < ly ? PF__NBOX_Y0(b) : ly;
            const uint32_t y1 = PF__NBOX_Y1(b) > ly ? PF__NBOX_Y1(b) : ly;
            box[id] = x0 | x1 << 8 | y0 << 16 | y1 << 24;
            uint32_t u, v, d = diag[id];
            pf__ndiag_uv(m->moves == PF_MOVES_HEX, lx, ly, &u, &v);
            const uint32_t u0 = (d & 0xffu) < u ? (d & 0xffu) : u, u1 = (d >> 8 & 0xffu) > u ? (d >> 8 & 0xffu) : u;
            const uint32_t v0 = (d >> 16 & 0xffu) < v ? (d >> 16 & 0xffu) : v, v1 = (d >> 24) > v ? (d >> 24) : v;
            diag[id] = u0 | u1 << 8 | v0 << 16 | v1 << 24;
            uint16_t *bd = &band[(size_t)id * PF__NBANDS + (ly >> PF__NBAND_SHIFT)];
            const uint32_t c0 = (*bd & 0xffu) < lx ? (*bd & 0xffu) : lx;
            const uint32_t c1 = (uint32_t)(*bd >> 8) > lx ? (uint32_t)(*bd >> 8) : lx;
            *bd = (uint16_t)(c0 | c1 << 8);
        }
    for (uint32_t id = 1; ok && id < cc->nend; id++)
        if (cc->ntile[id] != FREED && box[id] != cc->nbox[id]) {
            snprintf(why, len, "node %u: rectangle %08x, cells say %08x", id, cc->nbox[id], box[id]);
            ok = 0;
        }
    for (uint32_t id = 1; ok && id < cc->nend; id++)
        if (cc->ntile[id] != FREED && diag[id] != cc->ndiag[id]) {
            snprintf(why, len, "node %u: diagonal extents %08x, cells say %08x", id, cc->ndiag[id], diag[id]);
            ok = 0;
        }
    for (uint32_t i = PF__NBANDS; ok && i < cc->nend * PF__NBANDS; i++)
        if (cc->ntile[i / PF__NBANDS] != FREED && band[i] != cc->nband[i]) {
            snprintf(why, len, "node %u band %u: columns %04x, cells say %04x", i / PF__NBANDS, i % PF__NBANDS,
                     cc->nband[i], band[i]);
            ok = 0;
        }
    free(band);
    free(box);
    /* edges: exactly the border crossings, both ways, and each joins one component */
    for (uint32_t t = 0; ok && t < cc->tx * cc->ty; t++) {
        const tile_edges *te = &cc->te[t];
        for (uint32_t k = 0; ok && k < te->n; k++) {
            uint32_t u = te->e[2 * k], v = te->e[2 * k + 1];
            if (cc->ntile[u] != t || cc->ntile[v] == FREED || m->comp_root[u] != m->comp_root[v]) {
                snprintf(why, len, "tile %u: bad edge %u-%u", t, u, v);
                ok = 0;
                break;
            }
            const tile_edges *tv = &cc->te[cc->ntile[v]];
            int back = 0;
            for (uint32_t j = 0; j < tv->n && !back; j++) back = tv->e[2 * j] == v && tv->e[2 * j + 1] == u;
            if (!back) {
                snprintf(why, len, "tile %u: edge %u-%u has no reverse", t, u, v);
                ok = 0;
            }
        }
    }
    /* and the components are the move rule's: a flood over pf__grid_moves_at from each cell meets
     * only its own component, and there are as many floods as components */
    uint8_t *seen = ok ? calloc((size_t)m->pw * m->ph, 1) : NULL;
    uint32_t *stack = ok ? malloc((size_t)m->pw * m->ph * sizeof(uint32_t)) : NULL;
    uint32_t floods = 0;
    if (ok && (!seen || !stack)) ok = 0;
    for (uint32_t i = 0; ok && i < m->pw * m->ph; i++) {
        if (!m->cls[i] || seen[i]) continue;
        floods++;
        uint32_t top = 0, want = pf__grid_comp(m, i);
        stack[top++] = i;
        seen[i] = 1;
        while (top && ok) {
            uint32_t c = stack[--top];
            if (pf__grid_comp(m, c) != want) {
                snprintf(why, len, "cells %u and %u connected, components %u and %u", i, c, want, pf__grid_comp(m, c));
                ok = 0;
            }
            const int32_t *off = m->nb_off[(c / m->pw) & 1u];
            for (uint32_t open = pf__grid_moves_at(m, c), d = 0; open; open >>= 1, d++) {
                uint32_t nb = (uint32_t)((int32_t)c + off[d]);
                if ((open & 1u) && !seen[nb]) {
                    seen[nb] = 1;
                    stack[top++] = nb;
                }
            }
        }
    }
    if (ok && floods != cc->count) {
        snprintf(why, len, "%u connected pieces, %u components", floods, cc->count);
        ok = 0;
    }
    free(seen);
    free(stack);
    free(cnt);
    free(csz);
    return ok;
}
