/* edit.c - living grids: edits in place at a sync point, the users that follow them, the edit log.
 *
 * Why in place: a new map per edit would copy 4 MB of classes, 16 MB of multipliers and 16 MB of
 * component labels on a 2000x2000 grid (milliseconds) and every context, batch and table would have
 * to move to it. Edited in place, a 4x4 building costs its 16 cells plus the derived data they
 * reach. The price is the sync point: an edit may not overlap a search on the map, which it checks
 * (PF_MAP_BUSY), and the previous version is not kept: a batch told to finish suspended queries
 * on the version they started on does so before the cells change (pf_batch.h).
 */
#include <math.h>
#include "map/map_internal.h"

/* ---- users ------------------------------------------------------------------------------------ */

static void follow_lock(pf_map *m)
{
    while (atomic_flag_test_and_set_explicit(&m->follow_lock, memory_order_acquire)) {
    }
}
static void users_unlock(pf_map *m) { atomic_flag_clear_explicit(&m->follow_lock, memory_order_release); }

/* The user list is the one part of a map that changes under a const pointer (as the debug users
 * counter does): a context made on any thread attaches itself. */
void pf__map_attach(const pf_map *cm, pf__map_user *u)
{
    pf_map *m = (pf_map *)(uintptr_t)cm;
    follow_lock(m);
    /* attached already: once more would make it follow itself (a list that loops) */
    pf__map_user *t = m->followers;
    while (t && t != u && t->next) t = t->next;
    if (t == u) {
        users_unlock(m);
        return;
    }
    atomic_init(&u->busy, 0);
    u->internal = 0;
    /* users follow an edit in the order they attached, derived data first (u->data: after the
     * last of it, before the first reader), readers after (listeners in registration order) */
    pf__map_user *after = t;
    if (u->data) {
        after = NULL;
        for (pf__map_user *v = m->followers; v && v->data; v = v->next) after = v;
    }
    u->prev = after;
    u->next = after ? after->next : m->followers;
    if (u->next) u->next->prev = u;
    if (after) after->next = u;
    else m->followers = u;
    users_unlock(m);
}

int pf__map_enter_call(const pf_map *m, pf__map_user *u) { return pf__map_enter(m, u); }

void pf__map_detach(const pf_map *cm, pf__map_user *u)
{
    pf_map *m = (pf_map *)(uintptr_t)cm;
    follow_lock(m);
    if (u->prev) u->prev->next = u->next;
    else if (m->followers == u) m->followers = u->next;
    if (u->next) u->next->prev = u->prev;
    u->next = u->prev = NULL;
    users_unlock(m);
}

pf_status pf_map_listen(const pf_map *map, pf_map_edit_fn fn, void *user)
{
    if (!map || !fn) return PF_INVALID_ARGUMENT;
    PF__CHECK_HANDLE(map, PF__TAG_MAP, "pf_map");
    pf__map_user *u = pf__calloc(&map->alloc, sizeof *u, 64);
    if (!u) return PF_OUT_OF_MEMORY;
    u->fn = fn;
    u->user = user;
    pf__map_attach(map, u);
    return PF_OK;
}

pf_status pf_map_unlisten(const pf_map *map, pf_map_edit_fn fn, void *user)
{
    if (!map || !fn) return PF_INVALID_ARGUMENT;
    PF__CHECK_HANDLE(map, PF__TAG_MAP, "pf_map");
    pf_map *m = (pf_map *)(uintptr_t)map;
    pf__map_user *found = NULL;
    follow_lock(m);
    for (pf__map_user *u = m->followers; u && !found; u = u->next)
        if (u->fn == fn && u->user == user) found = u;
    if (found && m->notifying) {
        /* called from a listener (itself, or another one): the edit's loop is on the list, so the
         * entry stays in it, silent, and is freed once every user has been called */
        found->fn = NULL;
        found->dead = 1;
        m->dead_users = 1;
        users_unlock(m);
        return PF_OK;
    }
    users_unlock(m);
    if (!found) return PF_INVALID_ARGUMENT;
    pf__map_detach(map, found);
    pf__free(&m->alloc, found, sizeof *found);
    return PF_OK;
}

/* Sets `editing`, then checks that no user is busy; on a busy user clears it again. */
static int begin_edit(pf_map *m)
{
    int expect = 0;
    if (!atomic_compare_exchange_strong(&m->editing, &expect, 1)) return 0; /* another edit */
    int busy = 0;
    follow_lock(m);
    for (pf__map_user *u = m->followers; u && !busy; u = u->next) busy = atomic_load(&u->busy);
    users_unlock(m);
    if (busy) atomic_store(&m->editing, 0);
    return !busy;
}

/* ---- validation --------------------------------------------------------------------------------- */

static int rect_inside(const pf_map *m, pf_rect r)
{
    if (r.w == 0 || r.h == 0) return 1;
    return r.x >= 0 && r.y >= 0 && (uint64_t)(uint32_t)r.x + r.w <= m->width &&
           (uint64_t)(uint32_t)r.y + r.h <= m->height;
}

static int cost_ok(float c) { return c > 0.0f && isfinite(c); }

static pf_status check_edit(const pf_map *m, const pf_grid_edit *e)
{
    if (!rect_inside(m, e->rect)) return PF_INVALID_ARGUMENT;
    uint32_t what = PF__DEF(e->what, (uint32_t)PF_EDIT_CLASS);
    if (what & ~(uint32_t)(PF_EDIT_CLASS | PF_EDIT_COST)) return PF_INVALID_ARGUMENT;
    if (!(what & PF_EDIT_COST) || e->rect.w == 0 || e->rect.h == 0) return PF_OK;
    if (!e->costs) return cost_ok(e->cost) ? PF_OK : PF_INVALID_ARGUMENT;
    size_t n = (size_t)e->rect.w * e->rect.h;
    for (size_t i = 0; i < n; i++)
        if (!cost_ok(e->costs[i])) return PF_INVALID_ARGUMENT;
    return PF_OK;
}

/* Does the edit set a multiplier other than 1 (so an unweighted grid needs its cost array)? */
static int sets_weight(const pf_grid_edit *e)
{
    if (!(PF__DEF(e->what, (uint32_t)PF_EDIT_CLASS) & PF_EDIT_COST) || e->rect.w == 0 || e->rect.h == 0) return 0;
    if (!e->costs) return e->cost != 1.0f;
    size_t n = (size_t)e->rect.w * e->rect.h;
    for (size_t i = 0; i < n; i++)
        if (e->costs[i] != 1.0f) return 1;
    return 0;
}

/* ---- applying -------------------------------------------------------------------------------------- */

/* Lazily made on the first edit: the log, the block versions. */
static int ensure_live(pf_map *m)
{
    if (!m->log) {
        m->log = pf__alloc(&m->alloc, PF__LOG_CAP * sizeof *m->log, 64);
        if (!m->log) return 0;
    }
    if (!m->block_ver) {
        m->blocks_x = (m->width + (1u << PF__BLOCK_SHIFT) - 1u) >> PF__BLOCK_SHIFT;
        m->blocks_y = (m->height + (1u << PF__BLOCK_SHIFT) - 1u) >> PF__BLOCK_SHIFT;
        m->block_ver = pf__calloc(&m->alloc, (size_t)m->blocks_x * m->blocks_y * sizeof(uint64_t), 64);
        if (!m->block_ver) return 0;
    }
    if (!m->chg) {
        /* one bit a cell (an eighth of the classes' bytes), as the JPS bitmaps lay rows out */
        const uint32_t words = (m->pw + 127u) / 64u + 1u;
        m->chg = pf__calloc(&m->alloc, (size_t)m->ph * words * sizeof(uint64_t), 64);
        if (!m->chg) return 0;
        m->chg_words = words;
    }
    return 1;
}

/* The changed-class bit of padded cell (x, y) (pf__edit_view). */
static uint64_t *chg_word(const pf_map *m, uint32_t x, uint32_t y, uint64_t *bit)
{
    *bit = UINT64_C(1) << ((x + 64u) & 63u);
    return &m->chg[(size_t)y * m->chg_words + ((x + 64u) >> 6)];
}

/* Clears the changed-class bits of a box (unpadded), so the bitmap is all 0 between edits. */
static void chg_clear(pf_map *m, pf_rect r)
{
    for (uint32_t y = (uint32_t)r.y + 1u; y <= (uint32_t)r.y + r.h; y++)
        for (uint32_t x = (uint32_t)r.x + 1u; x <= (uint32_t)r.x + r.w; x++) {
            uint64_t bit, *w = chg_word(m, x, y, &bit);
            *w &= ~bit;
        }
}

static int ensure_scratch(pf_map *m, size_t n)
{
    if (n <= m->scratch_cap) return 1;
    uint8_t *s = pf__alloc(&m->alloc, n, 64);
    if (!s) return 0;
    pf__free(&m->alloc, m->scratch, m->scratch_cap);
    m->scratch = s;
    m->scratch_cap = n;
    return 1;
}

/* Follows one cell's multiplier leaving or joining the passable set (min_cost and its count, the
 * count of multipliers other than 1); returns 1 when min_cost must be found again by a scan. */
static int cost_out(pf_map *m, uint8_t k, float c)
{
    if (!k || !m->cost) return 0;
    m->cost_not1 -= c != 1.0f;
    if ((double)c == m->min_cost && --m->cost_min_n == 0) return 1;
    return 0;
}
static void cost_in(pf_map *m, uint8_t k, float c)
{
    if (!k || !m->cost) return;
    m->cost_not1 += c != 1.0f;
    if (m->cost_min_n == 0 || (double)c < m->min_cost) {
        m->min_cost = c;
        m->cost_min_n = 1;
    } else if ((double)c == m->min_cost) {
        m->cost_min_n++;
    }
}

/* Writes one edit; sets *box to the cells that changed (w 0 when none) and marks those whose class
 * changed in m->chg. Old classes of the rectangle are left in m->scratch for the component update. */
static void write_cells(pf_map *m, const pf_grid_edit *e, pf_rect *box, uint32_t *changed, int *rescan)
{
    const uint32_t what = PF__DEF(e->what, (uint32_t)PF_EDIT_CLASS);
    const uint32_t w = e->rect.w, h = e->rect.h, pw = m->pw;
    uint32_t bx0 = UINT32_MAX, by0 = UINT32_MAX, bx1 = 0, by1 = 0, n = 0;
    for (uint32_t y = 0; y < h; y++) {
        size_t row = (size_t)((uint32_t)e->rect.y + y + 1u) * pw + (uint32_t)e->rect.x + 1u;
        for (uint32_t x = 0; x < w; x++) {
            size_t c = row + x, i = (size_t)y * w + x;
            uint8_t ok = m->cls[c], nk = ok;
            m->scratch[i] = ok;
            if (what & PF_EDIT_CLASS) nk = e->classes ? e->classes[i] : e->cls;
            float oc = m->cost ? m->cost[c] : 1.0f, nc = oc;
            if (what & PF_EDIT_COST) nc = e->costs ? e->costs[i] : e->cost;
            /* a blocked cell's multiplier is kept (a fresh map keeps it too), except that an
             * unweighted grid has none */
            if (nk == ok && (nc == oc || !m->cost)) continue;
            *rescan |= cost_out(m, ok, oc);
            if (nk != ok) {
                uint64_t bit, *cw = chg_word(m, (uint32_t)e->rect.x + x + 1u, (uint32_t)e->rect.y + y + 1u, &bit);
                *cw |= bit;
            }
            m->cls[c] = nk;
            if (m->cost) m->cost[c] = nc;
            cost_in(m, nk, nc);
            n++;
            if (x < bx0) bx0 = x;
            if (x > bx1) bx1 = x;
            if (y < by0) by0 = y;
            if (y > by1) by1 = y;
        }
    }
    *changed += n;
    if (!n) {
        *box = (pf_rect){0, 0, 0, 0};
        return;
    }
    *box = (pf_rect){e->rect.x + (int32_t)bx0, e->rect.y + (int32_t)by0, bx1 - bx0 + 1u, by1 - by0 + 1u};
}

/* Whether edit e would change a cell of the map as it is (write_cells' test, nothing written). A
 * multiplier on an unweighted map counts as a change when it is not 1 (sets_weight). */
static int edit_changes(const pf_map *m, const pf_grid_edit *e)
{
    const uint32_t what = PF__DEF(e->what, (uint32_t)PF_EDIT_CLASS);
    if (!m->cost && sets_weight(e)) return 1;
    for (uint32_t y = 0; y < e->rect.h; y++) {
        const size_t row = (size_t)((uint32_t)e->rect.y + y + 1u) * m->pw + (uint32_t)e->rect.x + 1u;
        for (uint32_t x = 0; x < e->rect.w; x++) {
            const size_t c = row + x, i = (size_t)y * e->rect.w + x;
            if ((what & PF_EDIT_CLASS) && (e->classes ? e->classes[i] : e->cls) != m->cls[c]) return 1;
            if ((what & PF_EDIT_COST) && m->cost && (e->costs ? e->costs[i] : e->cost) != m->cost[c]) return 1;
        }
    }
    return 0;
}

static void log_rect(pf_map *m, pf_rect r, uint64_t version)
{
    if (m->log_len == PF__LOG_CAP) {
        /* the oldest entry leaves: versions up to it can no longer be answered exactly */
        uint32_t oldest = (m->log_head + PF__LOG_CAP - m->log_len) % PF__LOG_CAP;
        m->log_floor = m->log[oldest].version;
        m->log_len--;
    }
    m->log[m->log_head] = (pf__log_entry){version, r};
    m->log_head = (m->log_head + 1u) % PF__LOG_CAP;
    m->log_len++;
    uint32_t bx0 = (uint32_t)r.x >> PF__BLOCK_SHIFT, bx1 = ((uint32_t)r.x + r.w - 1u) >> PF__BLOCK_SHIFT;
    uint32_t by0 = (uint32_t)r.y >> PF__BLOCK_SHIFT, by1 = ((uint32_t)r.y + r.h - 1u) >> PF__BLOCK_SHIFT;
    for (uint32_t by = by0; by <= by1; by++)
        for (uint32_t bx = bx0; bx <= bx1; bx++) m->block_ver[(size_t)by * m->blocks_x + bx] = version;
}

pf_status pf_grid_apply_edits(pf_map *m, const pf_grid_edit *edits, uint32_t count, pf_edit_report *report)
{
    if (report) *report = (pf_edit_report){.version = m ? m->version : 0};
    if (!m || (count && !edits)) return PF_INVALID_ARGUMENT;
    PF__CHECK_HANDLE(m, PF__TAG_MAP, "pf_map");
    if (m->kind != PF_MAP_GRID) return PF_INVALID_ARGUMENT;
    int weight = 0;
    size_t scratch = 0;
    for (uint32_t i = 0; i < count; i++) {
        pf_status st = check_edit(m, &edits[i]);
        if (st != PF_OK) return st;
        weight |= sets_weight(&edits[i]);
        size_t n = (size_t)edits[i].rect.w * edits[i].rect.h;
        if (n > scratch) scratch = n;
    }
    if (!count) return PF_OK;

    /* Users that must act before the cells change (a batch finishing queries on this version) run
     * between two checks: the first so that they never run while a search is in progress, the
     * second because they searched. */
    if (!begin_edit(m)) return PF_MAP_BUSY;
    int any_before = 0;
    for (pf__map_user *u = m->followers; u; u = u->next) any_before |= u->before != NULL;
    /* only for an edit that changes a cell: the edits before the first that would change one
     * change nothing, so each is tested against the map as it is (a batch finishing its searches
     * on every footprint an engine sets again unchanged, outside its budget: a review) */
    if (any_before) {
        int changes = 0;
        for (uint32_t i = 0; i < count && !changes; i++) changes = edit_changes(m, &edits[i]);
        any_before = changes;
    }
    if (any_before) {
        atomic_store(&m->editing, 0);
        for (pf__map_user *u = m->followers; u; u = u->next)
            if (u->before) u->before(u, m);
        if (!begin_edit(m)) return PF_MAP_BUSY;
    }

    const int was_weighted = m->cost != NULL;
    /* every allocation that can fail before a cell changes */
    pf_rect boxes_buf[16];
    pf_rect *boxes = count <= 16 ? boxes_buf : pf__alloc(&m->alloc, (size_t)count * sizeof *boxes, 64);
    int ok = boxes && ensure_live(m) && ensure_scratch(m, scratch);
    if (ok && weight && !m->cost) {
        size_t cells = pf__grid_cells(m);
        m->cost = pf__alloc(&m->alloc, cells * sizeof(float), 64);
        ok = m->cost != NULL;
        if (ok) {
            for (size_t i = 0; i < cells; i++) m->cost[i] = 1.0f;
            /* every passable multiplier is 1 (the smallest, all of them) */
            uint32_t passable = 0;
            for (size_t i = 0; i < cells; i++) passable += m->cls[i] != 0;
            m->min_cost = 1.0;
            m->cost_min_n = passable;
            m->cost_not1 = 0;
        }
    }
    if (!ok) {
        if (boxes != boxes_buf) pf__free(&m->alloc, boxes, (size_t)count * sizeof *boxes);
        atomic_store(&m->editing, 0);
        return PF_OUT_OF_MEMORY;
    }

    pf_status result = PF_OK;
    uint32_t changed = 0, nbox = 0, visited = 0;
    int rescan = 0;
    for (uint32_t i = 0; i < count; i++) {
        if (edits[i].rect.w == 0 || edits[i].rect.h == 0) continue;
        pf_rect box;
        write_cells(m, &edits[i], &box, &changed, &rescan);
        if (box.w == 0) continue;
        boxes[nbox++] = box;
        /* components: the old classes of the box sit in scratch at the edit rectangle's stride */
        pf_rect pr = {box.x + 1, box.y + 1, box.w, box.h};
        const uint8_t *old = m->scratch + (size_t)(box.y - edits[i].rect.y) * edits[i].rect.w + (uint32_t)(box.x - edits[i].rect.x);
        if (edits[i].rect.w != box.w) {
            /* compact the rows so the box is row-major with its own width */
            for (uint32_t y = 0; y < box.h; y++)
                memmove(m->scratch + (size_t)y * box.w, old + (size_t)y * edits[i].rect.w, box.w);
            old = m->scratch;
        }
        pf__grid_clearance_update(m, pr);
        pf__grid_class_bits_update(m, pr, old);
        if (!pf__grid_components_edit(m, pr, old, &visited)) result = PF_OUT_OF_MEMORY;
    }
    /* labels an earlier edit dropped for want of memory come back with the next call, whether or
     * not it changes a cell (they answered 0 to pf_grid_component and a partial query flooded) */
    if (!nbox && !m->comp && !pf__grid_label_components(m)) result = PF_OUT_OF_MEMORY;
    if (m->cost && m->cost_not1 == 0 && !was_weighted) {
        /* made for this edit, and no multiplier other than 1 stayed: as if never made */
        pf__free(&m->alloc, m->cost, pf__grid_cells(m) * sizeof(float));
        m->cost = NULL;
        m->min_cost = 1.0;
        m->cost_min_n = 0;
    } else if (m->cost && m->cost_not1 == 0) {
        /* every passable multiplier is 1 again: unweighted, as a fresh map of these cells */
        pf__free(&m->alloc, m->cost, pf__grid_cells(m) * sizeof(float));
        m->cost = NULL;
        m->min_cost = 1.0;
        m->cost_min_n = 0;
    } else if (m->cost && rescan) {
        /* the last cell at the smallest multiplier left: the scan a fresh map does (rare) */
        pf__grid_cost_scan(m);
    }
    if (nbox) {
        /* a tile's hash covers its multipliers only on weighted grids: when the edit made the grid
         * weighted or unweighted, every tile is hashed again (once, at that change) */
        pf__grid_fingerprint(m, boxes, nbox, (m->cost != NULL) != was_weighted);
        m->version++;
        for (uint32_t i = 0; i < nbox; i++) log_rect(m, boxes[i], m->version);
        pf__edit_view view = {boxes, nbox, m->version, 0, m->chg, m->chg_words};
        m->notifying = 1;
        for (pf__map_user *u = m->followers; u; u = u->next) {
            if (u->after && !u->after(u, m, &view)) result = PF_OUT_OF_MEMORY;
            if (u->fn) u->fn(m, boxes, nbox, m->version, u->user);
        }
        m->notifying = 0;
        if (m->dead_users) {
            m->dead_users = 0;
            for (pf__map_user *u = m->followers, *nx; u; u = nx) {
                nx = u->next;
                if (!u->dead) continue;
                pf__map_detach(m, u);
                pf__free(&m->alloc, u, sizeof *u);
            }
        }
        if (report) report->jps_updated = view.jps_updated;
    }
    for (uint32_t i = 0; i < nbox; i++) chg_clear(m, boxes[i]);
    if (report) {
        report->version = m->version;
        report->changed = changed;
        report->comp_visited = visited;
    }
    if (boxes != boxes_buf) pf__free(&m->alloc, boxes, (size_t)count * sizeof *boxes);
    atomic_store(&m->editing, 0);
    return result;
}

/* ---- reading back, which paths broke ---------------------------------------------------------------- */

pf_status pf_grid_read(const pf_map *m, pf_rect r, uint8_t *classes, float *costs)
{
    if (!m || m->kind != PF_MAP_GRID || !rect_inside(m, r)) return PF_INVALID_ARGUMENT;
    /* an empty rectangle reads nothing: its other side may be anything (0 x 2^32 - 1 ran the
     * rows of nothing for seconds) */
    if (r.w == 0 || r.h == 0) return PF_OK;
    for (uint32_t y = 0; y < r.h; y++) {
        size_t row = (size_t)((uint32_t)r.y + y + 1u) * m->pw + (uint32_t)r.x + 1u;
        if (classes) memcpy(classes + (size_t)y * r.w, m->cls + row, r.w);
        if (costs) {
            if (m->cost) memcpy(costs + (size_t)y * r.w, m->cost + row, (size_t)r.w * sizeof(float));
            else
                for (uint32_t x = 0; x < r.w; x++) costs[(size_t)y * r.w + x] = 1.0f;
        }
    }
    return PF_OK;
}

/* Has cell (x, y) changed after version `since`? Block versions first (one load), the log when the
 * block did change and the log still reaches back. */
static int cell_changed(const pf_map *m, uint64_t since, uint32_t x, uint32_t y)
{
    if (m->block_ver[(size_t)(y >> PF__BLOCK_SHIFT) * m->blocks_x + (x >> PF__BLOCK_SHIFT)] <= since) return 0;
    if (since < m->log_floor) return 1;
    for (uint32_t k = 0; k < m->log_len; k++) {
        const pf__log_entry *e = &m->log[(m->log_head + PF__LOG_CAP - 1u - k) % PF__LOG_CAP];
        if (e->version <= since) break; /* newest first: the rest is older */
        if (x >= (uint32_t)e->r.x && x - (uint32_t)e->r.x < e->r.w && y >= (uint32_t)e->r.y &&
            y - (uint32_t)e->r.y < e->r.h)
            return 1;
    }
    return 0;
}

uint32_t pf_grid_path_changed(const pf_map *m, uint64_t since, const uint32_t *nodes, uint32_t len)
{
    if (!m || m->kind != PF_MAP_GRID || !nodes) return PF_NODE_NONE;
    if (since >= m->version || !m->block_ver) return PF_NODE_NONE;
    const uint32_t n = m->width * m->height, w = m->width;
    for (uint32_t i = 0; i < len; i++) {
        if (nodes[i] >= n) return i;
        uint32_t x = nodes[i] % w, y = nodes[i] / w;
        if (cell_changed(m, since, x, y)) return i;
        if (i + 1 < len && m->moves == PF_MOVES_8_NO_CUT && nodes[i + 1] < n) {
            uint32_t x2 = nodes[i + 1] % w, y2 = nodes[i + 1] / w;
            /* a diagonal step needs both side cells: (x2, y) and (x, y2) */
            if (x2 != x && y2 != y && (cell_changed(m, since, x2, y) || cell_changed(m, since, x, y2))) return i;
        }
    }
    return PF_NODE_NONE;
}

pf_status pf_grid_changes_since(const pf_map *m, uint64_t since, pf_rect *rects, uint32_t capacity, uint32_t *count)
{
    if (count) *count = 0;
    if (!m || m->kind != PF_MAP_GRID || !count) return PF_INVALID_ARGUMENT;
    if (since >= m->version) return PF_OK;
    if (since < m->log_floor) return PF_LIMIT_REACHED;
    uint32_t n = 0;
    while (n < m->log_len && m->log[(m->log_head + PF__LOG_CAP - 1u - n) % PF__LOG_CAP].version > since) n++;
    *count = n;
    if (!rects) return PF_OK;
    if (n > capacity) return PF_BUFFER_TOO_SMALL;
    for (uint32_t k = 0; k < n; k++) rects[n - 1u - k] = m->log[(m->log_head + PF__LOG_CAP - 1u - k) % PF__LOG_CAP].r;
    return PF_OK;
}

/* ---- the EDITS text format ---------------------------------------------------------------------- */

pf_status pf_grid_parse_edit(const pf_map *map, const char *text, size_t len, const char *name, uint32_t line,
                             pf_grid_edit *out, char *terrain, pf_diag *diag)
{
    if (out) *out = (pf_grid_edit){0};
    if (terrain) *terrain = 0;
    if (!out || (!text && len)) return pf__diag_set(diag, PF_INVALID_ARGUMENT, name, line, 0, "no input or output");
    if (!text) text = "";
    while (len && (text[len - 1] == '\n' || text[len - 1] == '\r')) len--; /* a line of a CR LF file */
    const char *p = text, *end = text + len, *t;
    size_t tl;
    if (!pf__next_token(&p, end, &t, &tl) || t[0] == '#') {
        if (diag) *diag = (pf_diag){.status = PF_OK};
        return PF_OK; /* blank or comment: nothing to do */
    }
    uint32_t col = (uint32_t)(t - text) + 1u;
    if (tl != 4 || memcmp(t, "rect", 4) != 0)
        return pf__diag_set(diag, PF_PARSE_ERROR, name, line, col, "unknown edit '%.*s' (expected 'rect X Y W H C')",
                            (int)(tl > 20 ? 20 : tl), t);
    int64_t v[4];
    static const char *const what[4] = {"X", "Y", "W", "H"};
    for (int i = 0; i < 4; i++) {
        if (!pf__next_token(&p, end, &t, &tl))
            return pf__diag_set(diag, PF_PARSE_ERROR, name, line, (uint32_t)(p - text) + 1u,
                                "missing %s (expected 'rect X Y W H C')", what[i]);
        if (!pf__parse_i64(t, tl, &v[i]) || v[i] < (i < 2 ? INT32_MIN : 1) || v[i] > INT32_MAX)
            return pf__diag_set(diag, PF_PARSE_ERROR, name, line, (uint32_t)(t - text) + 1u,
                                "%s must be %s, got '%.*s'", what[i], i < 2 ? "an integer" : "a positive integer",
                                (int)(tl > 20 ? 20 : tl), t);
    }
    if (!pf__next_token(&p, end, &t, &tl))
        return pf__diag_set(diag, PF_PARSE_ERROR, name, line, (uint32_t)(p - text) + 1u,
                            "missing terrain character C (one of . G S W T @ O)");
    int k = tl == 1 ? pf_grid_terrain_class(t[0]) : -1;
    if (k < 0)
        return pf__diag_set(diag, PF_PARSE_ERROR, name, line, (uint32_t)(t - text) + 1u,
                            "unknown terrain '%.*s' (one of . G S W T @ O)", (int)(tl > 20 ? 20 : tl), t);
    char ch = t[0];
    if (pf__next_token(&p, end, &t, &tl))
        return pf__diag_set(diag, PF_PARSE_ERROR, name, line, (uint32_t)(t - text) + 1u, "unexpected text after the edit");
    pf_grid_edit e = {.rect = {(int32_t)v[0], (int32_t)v[1], (uint32_t)v[2], (uint32_t)v[3]},
                      .what = PF_EDIT_CLASS, .cls = (uint8_t)k};
    if (map && (map->kind != PF_MAP_GRID || !rect_inside(map, e.rect)))
        return pf__diag_set(diag, PF_INVALID_ARGUMENT, name, line, 0,
                            "rectangle %lld %lld %lld %lld is partly outside the %ux%u map", (long long)v[0],
                            (long long)v[1], (long long)v[2], (long long)v[3], pf_grid_width(map), pf_grid_height(map));
    *out = e;
    if (terrain) *terrain = ch;
    if (diag) *diag = (pf_diag){.status = PF_OK};
    return PF_OK;
}
