/* puzzle_pdb.c - pattern databases for the sliding-tile puzzle (see puzzle.h). */
#include "domains/puzzle.h"
#include <errno.h>
#include <stdio.h>
#include <string.h>

static const int DR[4] = {-1, 0, 0, 1}, DC[4] = {0, -1, 1, 0};

/* Cells of the pattern's tiles and of the blank; returns 0 when a pattern tile is missing. Other
 * tiles write a spare slot rather than take a branch (which tile sits where is random: the
 * mispredicted test was half of a database build). */
static int cells_of(const puz_pattern *pp, const uint8_t *s, uint32_t *cell, uint32_t *blank)
{
    const uint32_t nn = pp->n * pp->n;
    for (uint32_t k = 0; k < pp->k; k++) cell[k] = 0xFFu;
    for (uint32_t i = 0; i < nn; i++) cell[pp->slot[s[i]]] = i;
    *blank = s[nn];
    for (uint32_t k = 0; k < pp->k; k++)
        if (cell[k] == 0xFFu) return 0;
    return 1;
}

pf_pdb_pattern puz_pattern_init(puz_pattern *pp, uint32_t n, const uint8_t *tiles, uint32_t k)
{
    memset(pp, 0, sizeof *pp);
    memset(pp->slot, PUZ_MAX, sizeof pp->slot); /* the spare slot of cells_of */
    pp->n = n;
    pp->k = k;
    for (uint32_t i = 0; i < k; i++) {
        pp->tiles[i] = tiles[i];
        pp->slot[tiles[i]] = (uint8_t)i;
    }
    const uint32_t nn = n * n;
    uint64_t size = 1;
    for (uint32_t i = 0; i <= k; i++) size *= nn - i; /* k tiles and the blank, all distinct cells */
    pf_pdb_pattern p = {.size = size, .group = nn - k, .rank = puz_pattern_rank, .unrank = puz_pattern_unrank,
                        .base = puz_pattern_manhattan, .neighbours = puz_pattern_neighbours, .user = pp};
    return p;
}

/* Bits set in a 16-bit word, without a popcnt instruction (not in the baseline x86-64 target; the
 * library call the compiler emits instead was a seventh of a database build). */
static inline uint32_t pop16(uint32_t v)
{
    v = v - ((v >> 1) & 0x5555u);
    v = (v & 0x3333u) + ((v >> 2) & 0x3333u);
    v = (v + (v >> 4)) & 0x0F0Fu;
    return (v + (v >> 8)) & 0x1Fu;
}

/* The entry of k tiles at `cell`: digit i is tile i's cell among those the tiles before it left
 * free (radix nn - i). *used gets the set of the tiles' cells. */
static inline uint64_t entry_of(uint32_t nn, uint32_t k, const uint32_t *cell, uint32_t *used)
{
    uint64_t r = 0;
    uint32_t u = 0;
    for (uint32_t i = 0; i < k; i++) {
        r = r * (nn - i) + (cell[i] - pop16(u & ((1u << cell[i]) - 1u)));
        u |= 1u << cell[i];
    }
    *used = u;
    return r;
}

/* Mixed-radix rank: digit i is the cell of tile i among the cells the tiles before it left free
 * (radix N - i), then the blank among the N - k cells the tiles left free. */
/* The 15-puzzle's cells of the pattern tiles by a word-parallel byte search: the board is two
 * 64-bit words, and the lowest zero byte of (word XOR tile in every byte) is the tile's cell. No
 * stores and no branches on the board's contents (the cell scan was half of a database build). */
static int cells_of16(const puz_pattern *pp, const uint8_t *s, uint32_t *cell)
{
    const uint64_t ones = UINT64_C(0x0101010101010101), highs = UINT64_C(0x8080808080808080);
    uint64_t lo, hi;
    memcpy(&lo, s, 8);
    memcpy(&hi, s + 8, 8);
    int ok = 1;
    for (uint32_t k = 0; k < pp->k; k++) {
        const uint64_t t = ones * pp->tiles[k];
        const uint64_t yl = lo ^ t, yh = hi ^ t;
        const uint64_t zl = (yl - ones) & ~yl & highs, zh = (yh - ones) & ~yh & highs;
        /* a borrow can only mark bytes above a true zero byte: the lowest mark is exact */
        cell[k] = zl ? (uint32_t)__builtin_ctzll(zl) >> 3 : 8 + ((uint32_t)__builtin_ctzll(zh | (UINT64_C(1) << 63)) >> 3);
        ok &= (zl | zh) != 0;
    }
    return ok;
}

uint64_t puz_pattern_rank(const void *state, void *user)
{
    const puz_pattern *pp = user;
    const uint32_t nn = pp->n * pp->n;
    uint32_t cell[PUZ_MAX + 1], blank = ((const uint8_t *)state)[nn];
    if (nn == 16 ? !cells_of16(pp, state, cell) : !cells_of(pp, state, cell, &blank)) return UINT64_MAX;
    uint32_t used;
    uint64_t r = entry_of(nn, pp->k, cell, &used);
    uint32_t below = pop16(used & ((1u << blank) - 1u));
    return r * (nn - pp->k) + (blank - below);
}

/* The `d`-th cell (from 0) not in `used`. */
static inline uint32_t nth_free(uint32_t used, uint32_t d)
{
    uint32_t f = ~used & 0xFFFFu;
    while (d--) f &= f - 1; /* drop the d lowest free cells */
    return (uint32_t)__builtin_ctz(f);
}

/* The tiles' placement of the entry unranked last on this thread. A database build expands the
 * states one entry reaches by blank moves one after another, so most unranks differ from the one
 * before in the blank alone, and skip the k + 1 divisions that were a fifth of a build. */
static _Thread_local struct {
    const puz_pattern *pp;
    uint64_t           entry;
    uint32_t           used;              /* cells of the pattern's tiles */
    uint32_t           cell[PUZ_MAX];     /* cell of tile i */
    uint8_t            s[PUZ_MAX];        /* the board: tiles, placeholders elsewhere */
    uint8_t            at[PUZ_MAX];       /* cell -> tile index (valid where used) */
} last;

static void decode_entry(const puz_pattern *pp, uint64_t entry)
{
    if (last.pp == pp && last.entry == entry) return;
    const uint32_t nn = pp->n * pp->n;
    uint32_t digit[PUZ_MAX];
    uint64_t e = entry;
    for (uint32_t i = pp->k; i-- > 0;) {
        digit[i] = (uint32_t)(e % (nn - i));
        e /= nn - i;
    }
    memset(last.s, PUZ_PLACEHOLDER, nn);
    uint32_t used = 0;
    for (uint32_t i = 0; i < pp->k; i++) {
        uint32_t c = nth_free(used, digit[i]);
        last.s[c] = pp->tiles[i];
        last.cell[i] = c;
        last.at[c] = (uint8_t)i;
        used |= 1u << c;
    }
    last.pp = pp;
    last.entry = entry;
    last.used = used;
}

void puz_pattern_unrank(uint64_t r, void *state, void *user)
{
    const puz_pattern *pp = user;
    const uint32_t nn = pp->n * pp->n, group = nn - pp->k;
    uint8_t *s = state;
    const uint64_t entry = r / group;
    decode_entry(pp, entry);
    memcpy(s, last.s, nn);
    uint32_t b = nth_free(last.used, (uint32_t)(r - entry * group));
    s[b] = 0;
    s[nn] = (uint8_t)b;
}

/* The build's fast path (pf_pdb_pattern.neighbours): the ranks one move away, straight from the
 * rank. A blank move into a cell no pattern tile holds keeps the entry and changes the blank's
 * digit; a pattern tile moving into the blank changes one cell of the entry. About four times
 * faster than unrank, the successor callback and rank, with the same results (tests compare). */
uint32_t puz_pattern_neighbours(uint64_t r, uint64_t *out, void *user)
{
    const puz_pattern *pp = user;
    const uint32_t n = pp->n, nn = n * n, group = nn - pp->k;
    const uint64_t entry = r / group;
    decode_entry(pp, entry);
    const uint32_t used = last.used, b = nth_free(used, (uint32_t)(r - entry * group));
    const int br = (int)(b / n), bc = (int)(b % n);
    uint32_t count = 0;
    for (int a = 0; a < 4; a++) {
        int rr = br + DR[a], cc = bc + DC[a];
        if (rr < 0 || rr >= (int)n || cc < 0 || cc >= (int)n) continue;
        uint32_t q = (uint32_t)rr * n + (uint32_t)cc;
        if (!(used >> q & 1u)) {
            out[count++] = entry * group + (q - pop16(used & ((1u << q) - 1u)));
        } else {
            uint32_t cell[PUZ_MAX], nu;
            memcpy(cell, last.cell, pp->k * sizeof cell[0]);
            cell[last.at[q]] = b; /* the tile slides into the blank, the blank takes its cell */
            uint64_t e2 = entry_of(nn, pp->k, cell, &nu);
            out[count++] = e2 * group + (q - pop16(nu & ((1u << q) - 1u)));
        }
    }
    return count;
}

/* The pattern tiles' Manhattan distance: a lower bound of the entry that depends on the tiles'
 * cells alone (pf_pdb stores the entry relative to it). */
uint32_t puz_pattern_manhattan(const void *state, void *user)
{
    const puz_pattern *pp = user;
    const uint8_t *s = state;
    const uint32_t n = pp->n, nn = n * n;
    uint32_t h = 0;
    for (uint32_t i = 0; i < nn; i++) {
        uint32_t v = s[i];
        if (pp->slot[v] == PUZ_MAX) continue;
        uint32_t r = i / n, c = i % n, gr = v / n, gc = v % n;
        h += (r > gr ? r - gr : gr - r) + (c > gc ? c - gc : gc - c);
    }
    return h;
}

int puz_pdb_set_init(puz_pdb_set *s, const char *partition, int reflect, uint32_t threads)
{
    static const struct {
        const char *name;
        uint32_t    n, count, k[PUZ_MAX_PATTERNS];
        uint8_t     tiles[PUZ_MAX_PATTERNS][8];
    } parts[] = {
        /* Korf & Felner: the top half and the bottom half (blank at the top left) */
        {"7-8", 4, 2, {7, 8}, {{1, 2, 3, 4, 5, 6, 7}, {8, 9, 10, 11, 12, 13, 14, 15}}},
        /* the left and right halves of the top three rows, then the bottom row */
        {"6-6-3", 4, 3, {6, 6, 3}, {{1, 4, 5, 8, 9, 12}, {2, 3, 6, 7, 10, 11}, {13, 14, 15}}},
        {"5-5-5", 4, 3, {5, 5, 5}, {{1, 2, 3, 5, 6}, {4, 8, 9, 12, 13}, {7, 10, 11, 14, 15}}},
        {"4-4", 3, 2, {4, 4}, {{1, 2, 3, 4}, {5, 6, 7, 8}}},
    };
    memset(s, 0, sizeof *s);
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
        if (strcmp(partition, parts[i].name) != 0) continue;
        const uint32_t n = parts[i].n, nn = n * n;
        s->dom = (puz_domain){n, PUZ_MANHATTAN, NULL};
        for (uint32_t c = 0; c < nn; c++) s->goal[c] = (uint8_t)c;
        s->goal[nn] = 0;
        for (uint32_t k = 0; k < parts[i].count; k++)
            s->pattern[k] = puz_pattern_init(&s->pat[k], n, parts[i].tiles[k], parts[i].k[k]);
        s->reflect[0] = puz_reflect;
        /* the id names the ranking and the partition: change it when either changes */
        uint64_t id = UINT64_C(0x50757A7A6C650000) ^ (uint64_t)(i + 1) << 8 ^ 1u;
        s->desc = (pf_pdb_desc){.state_size = nn + 1, .successors = puz_moves, .goal = s->goal,
                                .patterns = s->pattern, .pattern_count = parts[i].count,
                                .symmetries = reflect ? s->reflect : NULL, .symmetry_count = reflect ? 1u : 0u,
                                .domain_id = id, .threads = threads, .user = &s->dom};
        return 1;
    }
    return 0;
}

/* ---- a database file: load it, or build and save it ---------------------------------------------- */

/* The user's file is theirs: only a file that is not there is created, and only a file the caller
 * asked to have replaced (rebuild) is replaced. A file that fails to load may be a database of
 * another partition or options that took an hour to build, or not a database at all: a mistyped
 * --pdb-file naming a report. Either way it is reported and left as it is. */
pf_status puz_pdb_get(const puz_pdb_set *set, const char *file, int rebuild, pf_pdb **out, puz_pdb_source *source,
                      pf_diag *diag)
{
    *out = NULL;
    *source = PUZ_PDB_BUILT;
    if (diag) *diag = (pf_diag){.status = PF_OK};
    int exists = 0;
    if (file) {
        FILE *f = fopen(file, "rb");
        exists = f != NULL || errno != ENOENT; /* unreadable is not missing: it is refused below */
        if (f) fclose(f);
    }
    if (exists && !rebuild) {
        pf_status st = pf_pdb_load(file, &set->desc, out, diag);
        *source = st == PF_OK ? PUZ_PDB_LOADED : PUZ_PDB_REFUSED; /* and the file left as it is */
        return st;
    }
    pf_status st = pf_pdb_build(&set->desc, out);
    if (st != PF_OK) {
        if (diag) {
            *diag = (pf_diag){.status = st};
            snprintf(diag->msg, sizeof diag->msg, "database build failed: %s", pf_status_str(st));
        }
        return st;
    }
    if (file && pf_pdb_save(*out, file, diag) != PF_OK) *source = PUZ_PDB_BUILT_UNSAVED;
    return PF_OK;
}

/* ---- IDA* over a database, with incremental lookups ----------------------------------------------
 *
 * The search state carries, after the 17 board bytes, each pattern's value on the board and on its
 * reflection (one byte each). A move changes one tile, so a successor looks up two entries (the
 * tile's pattern, and the pattern of its reflection) instead of ranking every pattern twice. */

static const uint8_t DIST4[16][16] = {
#define D(v, q) (uint8_t)(((v) / 4 > (q) / 4 ? (v) / 4 - (q) / 4 : (q) / 4 - (v) / 4) + \
                          ((v) % 4 > (q) % 4 ? (v) % 4 - (q) % 4 : (q) % 4 - (v) % 4))
#define ROW(v) {D(v, 0), D(v, 1), D(v, 2), D(v, 3), D(v, 4), D(v, 5), D(v, 6), D(v, 7), D(v, 8), D(v, 9), \
                D(v, 10), D(v, 11), D(v, 12), D(v, 13), D(v, 14), D(v, 15)}
    ROW(0), ROW(1), ROW(2),  ROW(3),  ROW(4),  ROW(5),  ROW(6),  ROW(7),
    ROW(8), ROW(9), ROW(10), ROW(11), ROW(12), ROW(13), ROW(14), ROW(15)
#undef ROW
#undef D
};

static inline uint32_t transpose4(uint32_t c) { return (c & 3u) << 2 | c >> 2; }

/* Value in moves of pattern j for the board (reflected: for its reflection). */
static uint32_t pattern_moves(const puz_pdb_search *ps, uint32_t j, const uint8_t *s, int reflected)
{
    const puz_pattern *pp = &ps->set->pat[j];
    const pf_pdb_info *in = &ps->info[j];
    uint32_t cell[PUZ_MAX + 1], used;
    if (!reflected) {
        cells_of16(pp, s, cell);
    } else {
        /* tile t sits in the reflection where the reflection of t sits in the board, reflected */
        cells_of16(&ps->rpat[j], s, cell);
        for (uint32_t i = 0; i < pp->k; i++) cell[i] = transpose4(cell[i]);
    }
    uint64_t e = entry_of(16, pp->k, cell, &used);
    uint32_t v = pf_pdb_entry(ps->pdb, j, e);
    if (v == (1u << in->bits) - 1u) return 255; /* unreached: never, for the 15-puzzle */
    v *= in->scale;
    if (in->uses_base)
        for (uint32_t i = 0; i < pp->k; i++) v += DIST4[pp->tiles[i]][cell[i]];
    return v;
}

int puz_pdb_search_init(puz_pdb_search *ps, const puz_pdb_set *set, const pf_pdb *pdb)
{
    memset(ps, 0, sizeof *ps);
    if (set->dom.n != 4) return 0;
    ps->dom = (puz_domain){4, PUZ_PDB, pdb};
    ps->set = set;
    ps->pdb = pdb;
    ps->count = set->desc.pattern_count;
    ps->reflect = set->desc.symmetry_count > 0;
    for (uint32_t j = 0; j < ps->count; j++) {
        const puz_pattern *pp = &set->pat[j];
        uint8_t rt[PUZ_MAX];
        for (uint32_t i = 0; i < pp->k; i++) {
            rt[i] = (uint8_t)transpose4(pp->tiles[i]);
            ps->pattern_of[pp->tiles[i]] = (uint8_t)j;
            ps->rpattern_of[rt[i]] = (uint8_t)j; /* board tile rt[i] is tile tiles[i] of the reflection */
        }
        puz_pattern_init(&ps->rpat[j], 4, rt, pp->k);
        if (pf_pdb_get_pattern_info(pdb, j, &ps->info[j]) != PF_OK) return 0;
    }
    return 1;
}

uint32_t puz_pdb_state_size(const puz_pdb_search *ps) { return 17 + 2 * ps->count; }

static uint32_t state_h(const puz_pdb_search *ps, const uint8_t *s)
{
    uint32_t a = 0, b = 0;
    for (uint32_t j = 0; j < ps->count; j++) {
        a += s[17 + j];
        b += s[17 + ps->count + j];
    }
    return ps->reflect && b > a ? b : a;
}

void puz_pdb_start(const puz_pdb_search *ps, const uint8_t *board, uint8_t *state)
{
    memcpy(state, board, 17);
    for (uint32_t j = 0; j < ps->count; j++) {
        state[17 + j] = (uint8_t)pattern_moves(ps, j, state, 0);
        state[17 + ps->count + j] = (uint8_t)(ps->reflect ? pattern_moves(ps, j, state, 1) : 0);
    }
}

static double pdb_search_h(const void *state, void *user) { return (double)state_h(user, state); }

static void pdb_search_successors(const void *state, pf_gen_sink *out, void *user)
{
    const puz_pdb_search *ps = user;
    const uint8_t *s = state;
    const uint32_t ss = 17 + 2 * ps->count;
    const int b = s[16], br = b >> 2, bc = b & 3;
    uint8_t t[17 + 2 * PUZ_MAX_PATTERNS];
    for (int a = 0; a < 4; a++) {
        int r = br + DR[a], c = bc + DC[a];
        if (r < 0 || r > 3 || c < 0 || c > 3) continue;
        int q = r * 4 + c, v = s[q];
        memcpy(t, s, ss);
        t[b] = (uint8_t)v;
        t[q] = 0;
        t[16] = (uint8_t)q;
        uint32_t j = ps->pattern_of[v];
        t[17 + j] = (uint8_t)pattern_moves(ps, j, t, 0);
        if (ps->reflect) {
            uint32_t rj = ps->rpattern_of[v];
            t[17 + ps->count + rj] = (uint8_t)pattern_moves(ps, rj, t, 1);
        }
        if (!pf_gen_push_h(out, t, 1.0, (uint32_t)a, (double)state_h(ps, t))) return;
    }
}

pf_gen_problem puz_pdb_problem(puz_pdb_search *ps)
{
    pf_gen_problem p = {puz_pdb_state_size(ps), pdb_search_successors, pdb_search_h, puz_is_goal, ps};
    return p;
}
