/* puzzle.c - the sliding-tile puzzle as a pf_gen domain (see puzzle.h). */
#include "domains/puzzle.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int absdiff(int a, int b) { return a > b ? a - b : b - a; }
static const int DR[4] = {-1, 0, 0, 1}, DC[4] = {0, -1, 1, 0};
/* Grid distance between cells v and q (a tile's goal cell and its cell): two loads instead of
 * four branchy absolute values per successor. */
static const uint8_t DIST4[16][16] = {
    {0, 1, 2, 3, 1, 2, 3, 4, 2, 3, 4, 5, 3, 4, 5, 6},
    {1, 0, 1, 2, 2, 1, 2, 3, 3, 2, 3, 4, 4, 3, 4, 5},
    {2, 1, 0, 1, 3, 2, 1, 2, 4, 3, 2, 3, 5, 4, 3, 4},
    {3, 2, 1, 0, 4, 3, 2, 1, 5, 4, 3, 2, 6, 5, 4, 3},
    {1, 2, 3, 4, 0, 1, 2, 3, 1, 2, 3, 4, 2, 3, 4, 5},
    {2, 1, 2, 3, 1, 0, 1, 2, 2, 1, 2, 3, 3, 2, 3, 4},
    {3, 2, 1, 2, 2, 1, 0, 1, 3, 2, 1, 2, 4, 3, 2, 3},
    {4, 3, 2, 1, 3, 2, 1, 0, 4, 3, 2, 1, 5, 4, 3, 2},
    {2, 3, 4, 5, 1, 2, 3, 4, 0, 1, 2, 3, 1, 2, 3, 4},
    {3, 2, 3, 4, 2, 1, 2, 3, 1, 0, 1, 2, 2, 1, 2, 3},
    {4, 3, 2, 3, 3, 2, 1, 2, 2, 1, 0, 1, 3, 2, 1, 2},
    {5, 4, 3, 2, 4, 3, 2, 1, 3, 2, 1, 0, 4, 3, 2, 1},
    {3, 4, 5, 6, 2, 3, 4, 5, 1, 2, 3, 4, 0, 1, 2, 3},
    {4, 3, 4, 5, 3, 2, 3, 4, 2, 1, 2, 3, 1, 0, 1, 2},
    {5, 4, 3, 4, 4, 3, 2, 3, 3, 2, 1, 2, 2, 1, 0, 1},
    {6, 5, 4, 3, 5, 4, 3, 2, 4, 3, 2, 1, 3, 2, 1, 0}};
static const uint8_t DIST3[9][9] = {
    {0, 1, 2, 1, 2, 3, 2, 3, 4},
    {1, 0, 1, 2, 1, 2, 3, 2, 3},
    {2, 1, 0, 3, 2, 1, 4, 3, 2},
    {1, 2, 3, 0, 1, 2, 1, 2, 3},
    {2, 1, 2, 1, 0, 1, 2, 1, 2},
    {3, 2, 1, 2, 1, 0, 3, 2, 1},
    {2, 3, 4, 1, 2, 3, 0, 1, 2},
    {3, 2, 3, 2, 1, 2, 1, 0, 1},
    {4, 3, 2, 3, 2, 1, 2, 1, 0}};

int puz_manhattan(const puz_domain *d, const uint8_t *s)
{
    const int n = (int)d->n;
    int h = 0;
    for (int i = 0; i < n * n; i++) {
        int v = s[i];
        if (v) h += absdiff(i / n, v / n) + absdiff(i % n, v % n);
    }
    return h;
}

int puz_misplaced(const puz_domain *d, const uint8_t *s)
{
    int h = 0;
    for (uint32_t i = 0; i < d->n * d->n; i++) h += s[i] != 0 && s[i] != i;
    return h;
}

/* 2 * (k - longest increasing subsequence) of a short sequence of goal coordinates. */
static int conflict_cost(const int *seq, int k)
{
    int lis[PUZ_MAX], best = 0;
    for (int i = 0; i < k; i++) {
        lis[i] = 1;
        for (int j = 0; j < i; j++)
            if (seq[j] < seq[i] && lis[j] + 1 > lis[i]) lis[i] = lis[j] + 1;
        if (lis[i] > best) best = lis[i];
    }
    return 2 * (k - best);
}

int puz_linear_conflicts(const puz_domain *d, const uint8_t *s)
{
    const int n = (int)d->n;
    int extra = 0, seq[PUZ_MAX];
    for (int r = 0; r < n; r++) { /* row r: tiles whose goal row is r, by goal column */
        int k = 0;
        for (int c = 0; c < n; c++) {
            int v = s[r * n + c];
            if (v && v / n == r) seq[k++] = v % n;
        }
        extra += conflict_cost(seq, k);
    }
    for (int c = 0; c < n; c++) { /* column c: tiles whose goal column is c, by goal row */
        int k = 0;
        for (int r = 0; r < n; r++) {
            int v = s[r * n + c];
            if (v && v % n == c) seq[k++] = v / n;
        }
        extra += conflict_cost(seq, k);
    }
    return extra;
}

double puz_h(const void *state, void *user)
{
    const puz_domain *d = user;
    const uint8_t *s = state;
    switch (d->heur) {
    case PUZ_MISPLACED: return (double)puz_misplaced(d, s);
    case PUZ_LINEAR: return (double)(puz_manhattan(d, s) + puz_linear_conflicts(d, s));
    case PUZ_PDB: return pf_pdb_value(d->pdb, s);
    default: return (double)puz_manhattan(d, s);
    }
}

static const uint8_t GOAL[PUZ_MAX] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};

int puz_is_goal(const void *state, void *user)
{
    const puz_domain *d = user;
    if (d->n == 4) return memcmp(state, GOAL, 16) == 0;
    return memcmp(state, GOAL, (size_t)d->n * d->n) == 0;
}

/* The body is inlined once per board side, so n is a constant there: divisions by it become shifts
 * or multiplications and the state copy a few moves (a division per coordinate was a fifth of the
 * IDA* profile). */
static inline void successors_n(const uint8_t *s, pf_gen_sink *out, const int n, const int incremental)
{
    const int b = s[n * n], br = b / n, bc = b % n;
    const double ph = incremental ? pf_gen_sink_h(out) : 0.0;
    for (int a = 0; a < 4; a++) {
        int r = br + DR[a], c = bc + DC[a];
        if (r < 0 || r >= n || c < 0 || c >= n) continue;
        int q = r * n + c, v = s[q];
        double h = NAN;
        if (incremental) {
            /* the tile moves from q to b: its distance changes by exactly one */
            int delta = n == 4 ? DIST4[v][b] - DIST4[v][q] : DIST3[v][b] - DIST3[v][q];
            h = ph + (double)delta;
        }
        /* written in place (pf_gen_push_slot): no copy, and no wide read of fresh byte stores */
        uint8_t *t = pf_gen_push_slot(out, 1.0, (uint32_t)a, h);
        if (!t) return;
        memcpy(t, s, (size_t)(n * n + 1));
        t[b] = (uint8_t)v;
        t[q] = 0;
        t[n * n] = (uint8_t)q;
    }
}

void puz_successors(const void *state, pf_gen_sink *out, void *user)
{
    const puz_domain *d = user;
    const int inc = d->heur == PUZ_MANHATTAN;
    if (d->n == 4) {
        if (inc) successors_n(state, out, 4, 1);
        else successors_n(state, out, 4, 0);
    } else {
        if (inc) successors_n(state, out, 3, 1);
        else successors_n(state, out, 3, 0);
    }
}

void puz_moves(const void *state, pf_gen_sink *out, void *user)
{
    const puz_domain *d = user;
    if (d->n == 4) successors_n(state, out, 4, 0);
    else successors_n(state, out, 3, 0);
}

void puz_reflect(const void *state, void *out, void *user)
{
    const puz_domain *d = user;
    const uint32_t n = d->n, nn = n * n;
    const uint8_t *s = state;
    uint8_t *t = out;
    /* cell i = (r, c) goes to (c, r); a tile is named by its goal cell, so it maps the same way */
    uint8_t tr[PUZ_MAX];
    for (uint32_t i = 0; i < nn; i++) tr[i] = (uint8_t)(i % n * n + i / n);
    for (uint32_t i = 0; i < nn; i++) t[tr[i]] = s[i] < nn ? tr[s[i]] : s[i];
    t[nn] = tr[s[nn]];
}

pf_gen_problem puz_problem(puz_domain *d)
{
    pf_gen_problem p = {puz_state_size(d), puz_successors, puz_h, puz_is_goal, d};
    return p;
}

int puz_finish(const puz_domain *d, uint8_t *s)
{
    uint32_t seen = 0, nn = d->n * d->n;
    for (uint32_t i = 0; i < nn; i++) {
        if (s[i] >= nn || (seen >> s[i] & 1u)) return 0;
        seen |= 1u << s[i];
        if (s[i] == 0) s[nn] = (uint8_t)i;
    }
    return 1;
}

int puz_solvable(const puz_domain *d, const uint8_t *s)
{
    uint32_t nn = d->n * d->n, inv = 0;
    for (uint32_t i = 0; i < nn; i++)
        for (uint32_t j = i + 1; j < nn; j++)
            if (s[i] && s[j] && s[i] > s[j]) inv++;
    if (d->n & 1u) return (inv & 1u) == 0;
    return ((inv + s[nn] / d->n) & 1u) == 0;
}

int puz_apply(const puz_domain *d, uint8_t *s, uint32_t a)
{
    const int n = (int)d->n, b = s[n * n];
    if (a > 3) return 0;
    int r = b / n + DR[a], c = b % n + DC[a];
    if (r < 0 || r >= n || c < 0 || c >= n) return 0;
    int q = r * n + c;
    s[b] = s[q];
    s[q] = 0;
    s[n * n] = (uint8_t)q;
    return 1;
}

int puz_load_korf(const char *path, puz_instance *out, int cap)
{
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    puz_domain d = {4, PUZ_MANHATTAN, NULL};
    int k = 0;
    char line[512];
    while (k < cap && fgets(line, sizeof line, f)) {
        char *p = line, *e;
        long v[18];
        int m = 0;
        while (m < 18) {
            v[m] = strtol(p, &e, 10);
            if (e == p) break;
            p = e;
            m++;
        }
        if (m == 0) continue;
        if (m != 18 || v[0] < 0 || v[1] < 0) {
            fclose(f);
            return -1;
        }
        out[k].id = (uint32_t)v[0];
        out[k].optimal = (uint32_t)v[1];
        for (int i = 0; i < 16; i++) {
            if (v[2 + i] < 0 || v[2 + i] > 15) {
                fclose(f);
                return -1;
            }
            out[k].s[i] = (uint8_t)v[2 + i];
        }
        if (!puz_finish(&d, out[k].s)) {
            fclose(f);
            return -1;
        }
        k++;
    }
    fclose(f);
    return k;
}
