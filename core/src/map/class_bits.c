/* class_bits.c - one bit per cell for each terrain class on a grid, by padded rows: bit x of word
 * row y * cbits_pw + x / 64 of class k's array is set where padded cell (x, y) is of class k. The
 * nearest-cell scan (nearest.c) passes over cells of other classes 64 at a time: a click in a
 * forest on den520d (trees are a class of their own, open but not to a unit on the ground) read
 * them one byte at a time, and that scan cost several times the search to the cell it found
 * (bench_partial). Edits keep the bits (the cells that changed class); a class first seen in an
 * edit gets its array then. At most PF__CLASS_BITS_MAX classes get arrays (a byte a cell in all, the
 * size of the classes themselves: a map of 255 classes would have grown from 26 to 157 MB on
 * 2000x2000); past that, or when an allocation fails, cbits_ok is 0 and the scan reads the classes,
 * as it did before (an edit that runs out of memory for a new class's array does the same; the map
 * itself reports an allocation failure when it is made). A class's array leaves with its last
 * cell (the cells of each class are counted, cls_cells). A class an edit brings past the cap gets
 * no array (cbits_none): its cells are read as bytes, the others' bits stay, until its last cell
 * leaves. Counted by classes ever seen, a map that met a ninth class in its life read every
 * class's cells a byte at a time for good, and kept the arrays of classes long gone; turned off
 * for all and made again whenever an edit came back within the cap, one cell of a ninth class
 * set and cleared cost a scan of the map each time (10 ms on 2000x2000: reviews).
 *
 * After the rows, each band of 8 rows has a line, the OR of its rows: no bit in a band's line
 * between two columns, no cell of the class there in any of its rows, so the scan passes over 8
 * rows at a time where a click is walled in (den520d: a click 33 cells into a wall read 65 rows of
 * mostly nothing, at about 180 instructions a row, for a search to a cell 4 steps from the unit).
 * An eighth more memory. */
#include <string.h>
#include "map/map_internal.h"

static uint32_t bands(const pf_map *m) { return (m->ph + 7u) >> PF__CBAND_SHIFT; }

static size_t class_bytes(const pf_map *m)
{
    return (size_t)m->cbits_pw * (m->ph + bands(m)) * sizeof(uint64_t);
}

/* The band lines of array b over padded rows y0..y1, words w0..w1: each the OR of its rows. */
static void bands_redo(const pf_map *m, uint64_t *b, uint32_t y0, uint32_t y1, uint32_t w0, uint32_t w1)
{
    for (uint32_t band = y0 >> PF__CBAND_SHIFT; band <= y1 >> PF__CBAND_SHIFT; band++) {
        uint64_t *o = b + ((size_t)m->ph + band) * m->cbits_pw;
        const uint32_t r0 = band << PF__CBAND_SHIFT, r1 = r0 + 8u < m->ph ? r0 + 8u : m->ph;
        for (uint32_t w = w0; w <= w1; w++) {
            uint64_t v = 0;
            for (uint32_t r = r0; r < r1; r++) v |= b[(size_t)r * m->cbits_pw + w];
            o[w] = v;
        }
    }
}

#define PF__CLASS_BITS_MAX 8u

/* Frees the arrays of the classes no cell holds now; a class gone is one whose bits can start
 * afresh. */
static void class_arrays_trim(pf_map *m)
{
    for (uint32_t k = 1; k < 256; k++)
        if (!m->cls_cells[k]) {
            m->cbits_none[k] = 0;
            if (m->cbits[k]) {
                pf__free(&m->alloc, m->cbits[k], class_bytes(m));
                m->cbits[k] = NULL;
            }
        }
}

/* The array of class k, made (zero) if it is not; NULL when that fails or would pass the cap (the
 * arrays of classes gone from the map, whose cells the counts already leave out, are let go
 * first). */
static uint64_t *class_array(pf_map *m, uint8_t k)
{
    if (m->cbits[k]) return m->cbits[k];
    if (m->cbits_none[k]) return NULL; /* cells of it without bits: an array now would miss them */
    uint32_t held = 0;
    for (uint32_t i = 1; i < 256; i++) held += m->cbits[i] != NULL;
    if (held >= PF__CLASS_BITS_MAX) {
        class_arrays_trim(m);
        held = 0;
        for (uint32_t i = 1; i < 256; i++) held += m->cbits[i] != NULL;
        if (held >= PF__CLASS_BITS_MAX) return NULL;
    }
    return m->cbits[k] = pf__calloc(&m->alloc, class_bytes(m), 64);
}

static uint32_t classes_on(const pf_map *m)
{
    uint32_t n = 0;
    for (uint32_t k = 1; k < 256; k++) n += m->cls_cells[k] != 0;
    return n;
}

int pf__grid_class_bits_build(pf_map *m)
{
    m->cbits_ok = 0;
    m->cbits_pw = (m->pw + 63u) / 64u;
    /* more classes than keep bits: none kept, the scan reads the classes (not an error) */
    memset(m->cls_cells, 0, sizeof m->cls_cells);
    memset(m->cbits_none, 0, sizeof m->cbits_none);
    for (size_t i = 0, n = (size_t)m->pw * m->ph; i < n; i++) m->cls_cells[m->cls[i]]++;
    if (classes_on(m) > PF__CLASS_BITS_MAX) return 1;
    /* a row at a time, each cell's bit of its class: the arrays start clear */
    for (uint32_t y = 1; y + 1u < m->ph; y++) {
        const uint8_t *c = m->cls + (size_t)y * m->pw;
        const size_t line = (size_t)y * m->cbits_pw;
        for (uint32_t x = 1; x + 1u < m->pw; x++) {
            if (!c[x]) continue;
            uint64_t *b = class_array(m, c[x]);
            if (!b) { /* out of memory: the map is not made, as for its other arrays */
                pf__grid_class_bits_free(m);
                return 0;
            }
            b[line + (x >> 6)] |= UINT64_C(1) << (x & 63u);
        }
    }
    for (uint32_t k = 1; k < 256; k++)
        if (m->cbits[k]) bands_redo(m, m->cbits[k], 0, m->ph - 1u, 0, m->cbits_pw - 1u);
    m->cbits_ok = 1;
    return 1;
}

void pf__grid_class_bits_update(pf_map *m, pf_rect r, const uint8_t *old)
{
    /* the counts follow every edit, bits or none */
    for (uint32_t j = 0; j < r.h; j++)
        for (uint32_t i = 0; i < r.w; i++) {
            const uint8_t was = old[(size_t)j * r.w + i], now = m->cls[((size_t)r.y + j) * m->pw + (uint32_t)r.x + i];
            m->cls_cells[was]--;
            m->cls_cells[now]++;
        }
    if (!m->cbits_ok) {
        /* a map made with more classes than the cap (or bits dropped for want of memory), back
         * within it: the bits, once (a scan of the map); from then on a class past the cap goes
         * without bits alone */
        if (classes_on(m) <= PF__CLASS_BITS_MAX) {
            pf__grid_class_bits_free(m);
            (void)pf__grid_class_bits_build(m); /* out of memory: off as before, tried next edit */
        }
        return;
    }
    for (uint32_t j = 0; j < r.h; j++) {
        const uint32_t y = (uint32_t)r.y + j;
        const size_t line = (size_t)y * m->cbits_pw;
        for (uint32_t i = 0; i < r.w; i++) {
            const uint32_t x = (uint32_t)r.x + i;
            const uint8_t was = old[(size_t)j * r.w + i], now = m->cls[(size_t)y * m->pw + x];
            const uint64_t bit = UINT64_C(1) << (x & 63u);
            if (was == now) continue;
            /* a class whose last cells this edit takes may have let its array go already */
            if (was && m->cbits[was]) m->cbits[was][line + (x >> 6)] &= ~bit;
            uint64_t *b = now ? class_array(m, now) : NULL;
            if (now && !b) {
                if (m->cbits_none[now] || classes_on(m) > PF__CLASS_BITS_MAX) {
                    m->cbits_none[now] = 1; /* past the cap: this class goes without bits */
                    continue;
                }
                pf__grid_class_bits_free(m); /* out of memory */
                return;
            }
            if (b) b[line + (x >> 6)] |= bit;
        }
    }
    class_arrays_trim(m);
    if (!r.w || !r.h) return;
    for (uint32_t k = 1; k < 256; k++)
        if (m->cbits[k])
            bands_redo(m, m->cbits[k], (uint32_t)r.y, (uint32_t)r.y + r.h - 1u, (uint32_t)r.x >> 6,
                       ((uint32_t)r.x + r.w - 1u) >> 6);
}

size_t pf__grid_class_bits_mem(const pf_map *m)
{
    size_t s = 0;
    for (uint32_t k = 1; k < 256; k++) s += m->cbits[k] ? class_bytes(m) : 0;
    return s;
}

void pf__grid_class_bits_free(pf_map *m)
{
    for (uint32_t k = 1; k < 256; k++) {
        pf__free(&m->alloc, m->cbits[k], class_bytes(m));
        m->cbits[k] = NULL;
    }
    m->cbits_ok = 0;
}
