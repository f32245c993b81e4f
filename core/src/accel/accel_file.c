/* accel_file.c - baked accelerators: the versioned little-endian format of pf_accel.h.
 *
 * As with .pft tables, the header carries its own checksum and the payload's, and is checked
 * against the map and the file's size before anything it announces is allocated. The payload is
 * then checked arc by arc (pf_accel.h, FILES): loading is linear in the arcs, where building
 * takes seconds to a minute.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#define XXH_STATIC_LINKING_ONLY
#include <xxhash.h>
#include "accel/accel_internal.h"
#include "common/baked_head_internal.h"

#define HEADER_SIZE 64u
static const char MAGIC[8] = {'P', 'F', 'A', 'C', 'C', 'E', 'L', '\0'};

static uint64_t payload_bytes(uint32_t cells, uint32_t arcs, uint32_t core)
{
    return ((uint64_t)cells + 1u) * 4u + (uint64_t)arcs * sizeof(pf__accel_arc) + (uint64_t)core * 4u;
}

size_t pf_accel_file_size(const pf_accel *acc)
{
    return acc ? (size_t)(HEADER_SIZE + payload_bytes(acc->cells, acc->narcs, acc->core)) : 0;
}

/* The cells of the core, ascending (the file lists them; the map cannot say which they are). */
static uint32_t core_cell(const pf_accel *acc, uint32_t i, uint32_t *cursor, uint32_t *seen)
{
    while (*seen <= i) {
        if (acc->sub[*cursor] == 2) (*seen)++;
        (*cursor)++;
    }
    return *cursor - 1u;
}

/* Streams the payload in file order through `put` in windows of at most 64 KiB: the offsets, the
 * arcs, then the core's cells, every u32 little-endian. */
typedef struct pay_writer {
    uint8_t  buf[1 << 16];
    size_t   n;
    int    (*flush)(struct pay_writer *w);
    void    *user;
    int      ok;
} pay_writer;

static void pay_u32(pay_writer *w, uint32_t v)
{
    if (w->n + 4u > sizeof w->buf) {
        if (w->ok) w->ok = w->flush(w);
        w->n = 0;
    }
    pf__put32(w->buf + w->n, v);
    w->n += 4u;
}

static int payload_stream(const pf_accel *acc, pay_writer *w)
{
    for (uint32_t i = 0; i <= acc->cells; i++) pay_u32(w, acc->first[i]);
    for (uint32_t i = 0; i < acc->narcs; i++) {
        const pf__accel_arc *a = &acc->arcs[i];
        pay_u32(w, a->to);
        pay_u32(w, a->mid);
        pay_u32(w, a->a);
        pay_u32(w, a->b);
    }
    uint32_t cursor = 0, seen = 0;
    for (uint32_t i = 0; i < acc->core; i++) pay_u32(w, core_cell(acc, i, &cursor, &seen));
    if (w->n && w->ok) w->ok = w->flush(w);
    w->n = 0;
    return w->ok;
}

static int flush_hash(pay_writer *w)
{
    XXH3_64bits_update(w->user, w->buf, w->n);
    return 1;
}

static uint64_t payload_hash(const pf_accel *acc, pay_writer *w)
{
    XXH3_state_t st;
    XXH3_64bits_reset(&st);
    w->flush = flush_hash;
    w->user = &st;
    w->ok = 1;
    w->n = 0;
    payload_stream(acc, w);
    return XXH3_64bits_digest(&st);
}

static void header_encode(const pf_accel *acc, uint8_t h[HEADER_SIZE], pay_writer *w)
{
    memset(h, 0, HEADER_SIZE);
    memcpy(h, MAGIC, 8);
    pf__put32(h + 8, PF_ACCEL_FILE_VERSION);
    pf__put32(h + 12, HEADER_SIZE);
    pf__put64(h + 16, acc->fingerprint);
    pf__put32(h + 24, acc->cells);
    pf__put32(h + 28, acc->nodes);
    pf__put32(h + 32, acc->narcs);
    pf__put32(h + 36, acc->core);
    pf__put64(h + 40, payload_bytes(acc->cells, acc->narcs, acc->core));
    pf__put64(h + 48, payload_hash(acc, w));
    pf__head_seal(h);
}

static int flush_mem(pay_writer *w)
{
    uint8_t **at = w->user;
    memcpy(*at, w->buf, w->n);
    *at += w->n;
    return 1;
}

static int flush_file(pay_writer *w) { return fwrite(w->buf, 1, w->n, w->user) == w->n; }

pf_status pf_accel_save_mem(const pf_accel *acc, void *buf, size_t capacity, size_t *size)
{
    if (!acc) return PF_INVALID_ARGUMENT;
    size_t need = pf_accel_file_size(acc);
    if (size) *size = need;
    if (capacity < need) return PF_BUFFER_TOO_SMALL;
    if (!buf) return PF_INVALID_ARGUMENT;
    pay_writer *w = pf__alloc(&acc->alloc, sizeof *w, 64);
    if (!w) return PF_OUT_OF_MEMORY;
    header_encode(acc, buf, w);
    uint8_t *at = (uint8_t *)buf + HEADER_SIZE;
    *w = (pay_writer){.flush = flush_mem, .user = &at, .ok = 1};
    payload_stream(acc, w);
    pf__free(&acc->alloc, w, sizeof *w);
    return PF_OK;
}

pf_status pf_accel_save(const pf_accel *acc, const char *path, pf_diag *diag)
{
    if (!acc || !path) return pf__diag_set(diag, PF_INVALID_ARGUMENT, path, 0, 0, "no accelerator or file name");
    pf__outfile o;
    pf_status st = pf__out_open(&o, path, &acc->alloc, diag);
    if (st != PF_OK) return st;
    FILE *f = o.f;
    pay_writer *w = pf__alloc(&acc->alloc, sizeof *w, 64);
    int ok = w != NULL;
    if (ok) {
        uint8_t h[HEADER_SIZE];
        header_encode(acc, h, w);
        ok = fwrite(h, 1, HEADER_SIZE, f) == HEADER_SIZE;
        *w = (pay_writer){.flush = flush_file, .user = f, .ok = ok};
        ok = payload_stream(acc, w);
    }
    pf__free(&acc->alloc, w, sizeof *w);
    return pf__out_close(&o, ok, diag);
}

/* ---- loading ---------------------------------------------------------------------------------- */

/* Every header field against the map; the payload size it announces is then exactly what an
 * accelerator of this map with that many arcs takes, and is checked against the data's size
 * before anything is allocated. */
static pf_status check_header(const uint8_t *h, uint64_t have, const char *name, const pf_map *map, pf_diag *diag)
{
    pf_status hst = pf__head_check(h, MAGIC, PF_ACCEL_FILE_VERSION, "accelerator", name, diag);
    if (hst != PF_OK) return hst;
    if (!pf_accel_supported(map))
        return pf__diag_set(diag, PF_UNSUPPORTED, name, 0, 0, "the map is not one the accelerator supports");
    uint32_t hsize = pf__get32(h + 12), cells = pf__get32(h + 24), nodes = pf__get32(h + 28), arcs = pf__get32(h + 32);
    uint32_t core = pf__get32(h + 36);
    uint64_t fp = pf__get64(h + 16), psize = pf__get64(h + 40);
    uint32_t mcells = map->pw * map->ph;
    if (fp != map->fingerprint)
        return pf__diag_set(diag, PF_WRONG_MAP, name, 0, 0,
                            "accelerator was built for another map, or before an edit (fingerprint %016llx, map %016llx)",
                            (unsigned long long)fp, (unsigned long long)map->fingerprint);
    if (hsize != HEADER_SIZE || cells != mcells || nodes > cells || core > nodes || psize != payload_bytes(cells, arcs, core))
        return pf__diag_set(diag, PF_PARSE_ERROR, name, 0, 0,
                            "inconsistent header (header %u bytes, %u cells for a map of %u, %u subgoals, %u in the "
                            "core, %u arcs, payload %llu)",
                            hsize, cells, mcells, nodes, core, arcs, (unsigned long long)psize);
    if (have != psize)
        return pf__diag_set(diag, PF_PARSE_ERROR, name, 0, 0, "%s: payload is %llu bytes, header says %llu",
                            have < psize ? "truncated" : "trailing bytes", (unsigned long long)have,
                            (unsigned long long)psize);
    return PF_OK;
}

static pf_status bad_arc(pf_diag *diag, const char *name, uint32_t c, uint32_t i, const char *why)
{
    return pf__diag_set(diag, PF_PARSE_ERROR, name, 0, 0, "arc %u of cell %u: %s", i, c, why);
}

/* Arc by arc: ends that are subgoals of one class, one arc at most between two nodes in a list,
 * costs at least the octile distance, and either a legal canonical path of exactly that cost or
 * two arcs of the middle node that add up to it (each strictly cheaper, so unpacking always
 * ends). The middle's arcs are found through fd (pf__accel_find): a forged list of any length
 * costs its sorting once, not a scan for every shortcut through it. */
static pf_status check_lists(const pf_accel *acc, const pf__accel_finder *fd, const char *name, pf_diag *diag)
{
    const pf_map *m = acc->map;
    const uint8_t *cls = m->cls, *sub = acc->sub;
    const pf__grid_view mv = pf__grid_view_of(m);
    for (uint32_t c = 0; c < acc->cells; c++) {
        for (uint32_t i = acc->first[c]; i < acc->first[c + 1]; i++) {
            const pf__accel_arc *e = &acc->arcs[i];
            if (e->to >= acc->cells || !sub[e->to] || e->to == c || cls[e->to] != cls[c])
                return bad_arc(diag, name, c, i - acc->first[c], "its end is not another subgoal of the same class");
            /* a core node's list holds only arcs to the core (every other arc is in the list of its
             * contracted end): the query crosses the core on records by core index */
            if (sub[c] == 2 && sub[e->to] != 2)
                return bad_arc(diag, name, c, i - acc->first[c], "an arc of the core leaves the core");
            /* a build never stores two (list_offer keeps the cheaper): a second is a forgery.
             * Every lookup takes the first, so copies could not mislead one; but a list of
             * copies is the cheapest way to make lists long, and no file needs one */
            int twice = 0;
            if (acc->first[c + 1] - acc->first[c] > PF__ACCEL_FIND_SCAN) twice = i == fd->twice;
            else
                for (uint32_t k = acc->first[c]; k < i && !twice; k++) twice = acc->arcs[k].to == e->to;
            if (twice) return bad_arc(diag, name, c, i - acc->first[c], "a second arc between the same two nodes");
            /* a, b below 2^30: sums of two never wrap, and costs stay exact in a double */
            if (e->a >= (1u << 30) || e->b >= (1u << 30) || e->a + e->b == 0)
                return bad_arc(diag, name, c, i - acc->first[c], "cost out of range");
            const pf__accel_cp p = pf__accel_cp_shape(m->pw, c, e->to);
            if (pf__accel_cost(e->a, e->b) < pf__accel_cost(p.ns, p.nd) * (1.0 - 1e-12))
                return bad_arc(diag, name, c, i - acc->first[c], "cost below the octile distance");
            if (e->mid == PF__ACCEL_FROM_SRC || e->mid == PF__ACCEL_FROM_DST) {
                uint32_t a, b;
                int ok = e->mid == PF__ACCEL_FROM_SRC ? pf__accel_cp_legal(&mv, c, e->to, &a, &b)
                                                      : pf__accel_cp_legal(&mv, e->to, c, &a, &b);
                if (!ok || a != e->a || b != e->b)
                    return bad_arc(diag, name, c, i - acc->first[c], "its canonical path is not legal or not its cost");
                continue;
            }
            uint32_t v = e->mid;
            if (v >= acc->cells || !sub[v] || v == c || v == e->to)
                return bad_arc(diag, name, c, i - acc->first[c], "its middle is not a third subgoal");
            /* the first arc to each end, as unpacking takes them (accel_unpack.c) */
            const uint32_t kl = pf__accel_find(acc, fd, v, c), kr = pf__accel_find(acc, fd, v, e->to);
            if (kl == UINT32_MAX || kr == UINT32_MAX)
                return bad_arc(diag, name, c, i - acc->first[c], "its middle's two arcs do not make it up");
            const pf__accel_arc *l = &acc->arcs[kl], *r = &acc->arcs[kr];
            if (l->a + r->a != e->a || l->b + r->b != e->b)
                return bad_arc(diag, name, c, i - acc->first[c], "its middle's two arcs do not make it up");
        }
    }
    return PF_OK;
}

/* The offsets: ascending, within the arcs, lists only on subgoals, one for each; *longest the
 * longest list. */
static pf_status check_offsets(const pf_accel *acc, uint32_t *longest, const char *name, pf_diag *diag)
{
    const uint8_t *sub = acc->sub;
    uint32_t owners = 0, most = 0;
    if (acc->first[0] != 0 || acc->first[acc->cells] != acc->narcs)
        return pf__diag_set(diag, PF_PARSE_ERROR, name, 0, 0, "arc offsets do not cover the arcs");
    for (uint32_t c = 0; c < acc->cells; c++) {
        if (acc->first[c + 1] < acc->first[c] || acc->first[c + 1] > acc->narcs)
            return pf__diag_set(diag, PF_PARSE_ERROR, name, 0, 0, "arc offsets of cell %u out of order", c);
        owners += sub[c] != 0;
        const uint32_t n = acc->first[c + 1] - acc->first[c];
        if (n && !sub[c])
            return pf__diag_set(diag, PF_PARSE_ERROR, name, 0, 0, "cell %u holds arcs but is not a subgoal", c);
        most = n > most ? n : most;
    }
    if (owners != acc->nodes)
        return pf__diag_set(diag, PF_PARSE_ERROR, name, 0, 0, "%u subgoals announced, the map has %u", acc->nodes, owners);
    *longest = most;
    return PF_OK;
}

static pf_status load_mem_held(const void *data, size_t size, const char *name, const pf_map *map,
                               const pf_accel_desc *desc, pf_accel **out, pf_diag *diag)
{
    if (out) *out = NULL;
    if (!out || !map || (!data && size))
        return pf__diag_set(diag, PF_INVALID_ARGUMENT, name, 0, 0, "missing map, data or output");
    PF__CHECK_HANDLE(map, PF__TAG_MAP, "pf_map");
    const uint8_t *b = data;
    if (size < HEADER_SIZE)
        return pf__diag_set(diag, PF_PARSE_ERROR, name, 0, 0, "truncated: %zu bytes, an accelerator header alone is %u",
                            size, HEADER_SIZE);
    pf_status st = check_header(b, size - HEADER_SIZE, name, map, diag);
    if (st != PF_OK) return st;
    if (XXH3_64bits(b + HEADER_SIZE, size - HEADER_SIZE) != pf__get64(b + 48))
        return pf__diag_set(diag, PF_PARSE_ERROR, name, 0, 0, "payload checksum mismatch (corrupted)");
    pf_accel_desc d = desc ? *desc : (pf_accel_desc){0};
    if ((unsigned)d.edits > PF_ACCEL_EDITS_CHECK)
        return pf__diag_set(diag, PF_INVALID_ARGUMENT, name, 0, 0, "pf_accel_desc.edits: unknown value %u", (unsigned)d.edits);
    pf_accel *acc = pf__accel_new(map, &d);
    if (!acc) return pf__diag_set(diag, PF_OUT_OF_MEMORY, name, 0, 0, "%s", pf_status_str(PF_OUT_OF_MEMORY));
    acc->nodes = pf__get32(b + 28);
    acc->narcs = pf__get32(b + 32);
    acc->core = pf__get32(b + 36);
    acc->sub = pf__alloc(&acc->alloc, acc->cells, 64);
    acc->first = pf__alloc(&acc->alloc, ((size_t)acc->cells + 1) * sizeof(uint32_t), 64);
    acc->arcs = pf__alloc(&acc->alloc, (acc->narcs ? acc->narcs : 1) * sizeof(pf__accel_arc), 64);
    if (!acc->sub || !acc->first || !acc->arcs) {
        pf_accel_destroy(acc);
        return pf__diag_set(diag, PF_OUT_OF_MEMORY, name, 0, 0, "%s", pf_status_str(PF_OUT_OF_MEMORY));
    }
    /* the subgoals are the map's: recomputed, and the file's arcs checked against them */
    const pf__par par = pf__par_build(&d.parallel, d.threads, acc->cells);
    (void)pf__accel_mark_subgoals(map, acc->sub, &par);
    const uint8_t *p = b + HEADER_SIZE;
    const size_t fb = ((size_t)acc->cells + 1) * 4u;
    const size_t ab = (size_t)acc->narcs * sizeof(pf__accel_arc);
    if (pf__host_is_le()) {
        memcpy(acc->first, p, fb);
        memcpy(acc->arcs, p + fb, ab);
    } else {
        for (size_t i = 0; i <= acc->cells; i++) acc->first[i] = pf__get32(p + 4 * i);
        uint32_t *w = (uint32_t *)(void *)acc->arcs;
        for (size_t i = 0; i < (size_t)acc->narcs * 4u; i++) w[i] = pf__get32(p + fb + 4 * i);
    }
    /* the core: ascending subgoal cells */
    st = PF_OK;
    for (uint32_t i = 0, prev = 0; i < acc->core && st == PF_OK; i++) {
        uint32_t cell = pf__get32(p + fb + ab + 4u * (size_t)i);
        if (cell >= acc->cells || acc->sub[cell] != 1 || (i && cell <= prev))
            st = pf__diag_set(diag, PF_PARSE_ERROR, name, 0, 0, "core entry %u (cell %u) is not a subgoal in order", i, cell);
        else acc->sub[cell] = 2;
        prev = cell;
    }
    uint64_t graph = 0, sc = 0;
    for (uint32_t i = 0; i < acc->narcs; i++) {
        graph += acc->arcs[i].mid >= PF__ACCEL_FROM_DST;
        sc += acc->arcs[i].mid < PF__ACCEL_FROM_DST;
    }
    acc->graph_arcs = (uint32_t)graph;
    acc->shortcuts = (uint32_t)sc;
    /* the lists' finder (made once the offsets hold) serves the check and the unpacking index */
    pf__accel_finder fd = {NULL, UINT32_MAX};
    uint32_t longest = 0;
    if (st == PF_OK) st = check_offsets(acc, &longest, name, diag);
    /* (longest 0 asks the finder to measure: no list is long then either) */
    if (st == PF_OK && !pf__accel_finder_make(acc, longest ? longest : 1u, &fd))
        st = pf__diag_set(diag, PF_OUT_OF_MEMORY, name, 0, 0, "%s", pf_status_str(PF_OUT_OF_MEMORY));
    if (st == PF_OK) st = check_lists(acc, &fd, name, diag);
    if (st == PF_OK && (!pf__accel_landmarks(acc) || !pf__accel_unpack_index_by(acc, &fd) || !pf__accel_nodes_index(acc) ||
                          !pf__accel_jumps_index(acc)))
        st = pf__diag_set(diag, PF_OUT_OF_MEMORY, name, 0, 0, "%s", pf_status_str(PF_OUT_OF_MEMORY));
    pf__accel_finder_free(acc, &fd);
    if (st != PF_OK) {
        pf_accel_destroy(acc);
        return st;
    }
    if (!pf__accel_follow(acc)) {
        pf_accel_destroy(acc);
        return pf__diag_set(diag, PF_OUT_OF_MEMORY, name, 0, 0, "%s", pf_status_str(PF_OUT_OF_MEMORY));
    }
    if (diag) *diag = (pf_diag){.status = PF_OK};
    *out = acc;
    return PF_OK;
}

pf_status pf_accel_load_mem(const void *data, size_t size, const char *name, const pf_map *map,
                            const pf_accel_desc *desc, pf_accel **out, pf_diag *diag)
{
    /* the map's subgoals are recomputed and its cells copied (to follow its edits) while the file
     * is checked against them: an edit on another thread meanwhile is refused (PF_MAP_BUSY) */
    if (!map || !out) return load_mem_held(data, size, name, map, desc, out, diag);
    PF__CHECK_HANDLE(map, PF__TAG_MAP, "pf_map");
    pf__map_user hold;
    if (!pf__map_hold(map, &hold)) {
        *out = NULL;
        return pf__diag_set(diag, PF_MAP_BUSY, name, 0, 0, "the map is being edited");
    }
    pf_status st = load_mem_held(data, size, name, map, desc, out, diag);
    pf__map_release(map, &hold);
    return st;
}

pf_status pf_accel_load(const char *path, const pf_map *map, const pf_accel_desc *desc, pf_accel **out,
                        pf_diag *diag)
{
    if (out) *out = NULL;
    if (!path) return pf__diag_set(diag, PF_INVALID_ARGUMENT, NULL, 0, 0, "no file name given");
    if (!out || !map) return pf__diag_set(diag, PF_INVALID_ARGUMENT, path, 0, 0, "missing map or output");
    void *fv;
    pf_status ost = pf__open_read_regular(path, ".pfa accelerator", &fv, diag);
    if (ost != PF_OK) return ost;
    FILE *f = fv;
    /* the header first, checked against the map and the file's size; only then the payload */
    uint8_t h[HEADER_SIZE];
    size_t got = fread(h, 1, HEADER_SIZE, f);
    long end = -1;
    if (got == HEADER_SIZE && fseek(f, 0, SEEK_END) == 0) end = ftell(f);
    if (got < HEADER_SIZE || end < 0 || fseek(f, HEADER_SIZE, SEEK_SET) != 0) {
        fclose(f);
        if (got < HEADER_SIZE) return pf_accel_load_mem(h, got, path, map, desc, out, diag);
        return pf__diag_set(diag, PF_IO_ERROR, path, 0, 0, "not a regular file (its size cannot be read)");
    }
    pf_status st = check_header(h, (uint64_t)end - HEADER_SIZE, path, map, diag);
    if (st != PF_OK) {
        fclose(f);
        return st;
    }
    size_t total = (size_t)end;
    pf_allocator a = pf__alloc_resolve(desc ? &desc->allocator : NULL);
    uint8_t *buf = pf__alloc(&a, total, 64);
    if (!buf) {
        fclose(f);
        return pf__diag_set(diag, PF_OUT_OF_MEMORY, path, 0, 0, "out of memory reading %zu bytes", total);
    }
    memcpy(buf, h, HEADER_SIZE);
    got = HEADER_SIZE + fread(buf + HEADER_SIZE, 1, total - HEADER_SIZE, f);
    int err = ferror(f);
    fclose(f);
    if (err) st = pf__diag_set(diag, PF_IO_ERROR, path, 0, 0, "read error");
    else st = pf_accel_load_mem(buf, got, path, map, desc, out, diag);
    pf__free(&a, buf, total);
    return st;
}
