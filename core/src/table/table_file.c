/* table_file.c - baked first-move tables: the versioned little-endian format of pf_table.h.
 *
 * The header carries its own checksum as well as the payload's, so a flipped bit in a size or in
 * the entry width is reported as corruption rather than misread as a different table. Entries are
 * also checked one by one against the map (each must be a legal move of its row's node): a file
 * whose checksums were recomputed by hand still cannot make a query step outside the map.
 */
#if defined(__unix__) || defined(__APPLE__)
#define _POSIX_C_SOURCE 200809L /* fileno, fstat: a regular file's size is checked before reading */
#include <sys/stat.h>
#endif
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#define XXH_STATIC_LINKING_ONLY
#include <xxhash.h>
#include "table/table_internal.h"
#include "common/baked_head_internal.h"

#define PF__HEADER_SIZE 64u
static const char MAGIC[8] = {'P', 'F', 'T', 'A', 'B', 'L', 'E', '\0'};

/* Hash of the payload in its little-endian file form, computed without a copy on LE hosts. */
static uint64_t payload_hash(const pf_table *t)
{
    if (pf__host_is_le() || t->width == 1) return XXH3_64bits(t->data, t->bytes);
    XXH3_state_t st;
    XXH3_64bits_reset(&st);
    uint8_t buf[4096];
    size_t cnt = t->bytes / t->width, fill = 0;
    for (size_t i = 0; i < cnt; i++) {
        const uint8_t *p = t->data + i * t->width;
        for (uint32_t k = 0; k < t->width; k++) buf[fill + k] = p[t->width - 1 - k];
        fill += t->width;
        if (fill == sizeof buf) {
            XXH3_64bits_update(&st, buf, fill);
            fill = 0;
        }
    }
    XXH3_64bits_update(&st, buf, fill);
    return XXH3_64bits_digest(&st);
}

static void header_encode(const pf_table *t, uint8_t h[PF__HEADER_SIZE])
{
    memset(h, 0, PF__HEADER_SIZE);
    memcpy(h, MAGIC, 8);
    pf__put32(h + 8, PF_TABLE_FILE_VERSION);
    pf__put32(h + 12, PF__HEADER_SIZE);
    pf__put64(h + 16, pf_map_fingerprint(t->map));
    pf__put32(h + 24, t->n);
    pf__put32(h + 28, (uint32_t)pf_map_kind_of(t->map));
    pf__put32(h + 32, t->width);
    pf__put32(h + 36, 0);
    pf__put64(h + 40, (uint64_t)t->bytes);
    pf__put64(h + 48, payload_hash(t));
    pf__head_seal(h);
}

size_t pf_table_file_size(const pf_table *t) { return t ? PF__HEADER_SIZE + t->bytes : 0; }

/* Copies the payload to `dst` in little-endian order. */
static void payload_write(const pf_table *t, uint8_t *dst, size_t off, size_t len)
{
    if (pf__host_is_le() || t->width == 1) {
        memcpy(dst, t->data + off, len);
        return;
    }
    for (size_t i = 0; i < len; i += t->width)
        for (uint32_t k = 0; k < t->width; k++) dst[i + k] = t->data[off + i + t->width - 1 - k];
}

pf_status pf_table_save_mem(const pf_table *t, void *buf, size_t capacity, size_t *size)
{
    if (!t) return PF_INVALID_ARGUMENT;
    if (pf__table_stale(t)) return PF_WRONG_MAP; /* its rows are not its map's */
    size_t need = pf_table_file_size(t);
    if (size) *size = need;
    if (capacity < need) return PF_BUFFER_TOO_SMALL;
    if (!buf) return PF_INVALID_ARGUMENT;
    uint8_t *b = buf;
    header_encode(t, b);
    payload_write(t, b + PF__HEADER_SIZE, 0, t->bytes);
    return PF_OK;
}

pf_status pf_table_save(const pf_table *t, const char *path, pf_diag *diag)
{
    if (!t || !path) return pf__diag_set(diag, PF_INVALID_ARGUMENT, path, 0, 0, "no table or file name");
    /* as pf_table_save_mem: its rows are not its map's, and the header would say they are */
    if (pf__table_stale(t))
        return pf__diag_set(diag, PF_WRONG_MAP, path, 0, 0,
                            "the table is stale: an edit of its map could not be followed (rebuild it)");
    /* written beside `path` and renamed over it when complete: a failed write (a full disk,
     * /dev/full) leaves the old file, or the device, as it was */
    pf__outfile o;
    pf_status st = pf__out_open(&o, path, &t->alloc, diag);
    if (st != PF_OK) return st;
    FILE *f = o.f;
    uint8_t h[PF__HEADER_SIZE];
    header_encode(t, h);
    int ok = fwrite(h, 1, PF__HEADER_SIZE, f) == PF__HEADER_SIZE;
    uint8_t chunk[1 << 16];
    for (size_t off = 0; ok && off < t->bytes; off += sizeof chunk) {
        size_t len = t->bytes - off < sizeof chunk ? t->bytes - off : sizeof chunk;
        payload_write(t, chunk, off, len);
        ok = fwrite(chunk, 1, len, f) == len;
    }
    return pf__out_close(&o, ok, diag);
}

/* Checks that every entry of t names a legal move of its row (or is a sentinel in its place). */
static pf_status check_entries(const pf_table *t, const char *name, pf_diag *diag)
{
    const pf_map *m = t->map;
    const uint32_t none = pf__tab_none(t->width), self = pf__tab_self(t->width);
    for (uint32_t u = 0; u < t->n; u++) {
        const uint8_t *row = pf__tab_row(t, u);
        uint32_t legal = 0, deg = 0; /* grids: bit mask of legal directions; graphs: out-degree */
        if (m->kind == PF_MAP_GRAPH) deg = m->off[u + 1] - m->off[u];
        else
            for (uint32_t k = 0; k < 8; k++)
                if (pf__table_arc_target(m, u, k) != PF_NODE_NONE) legal |= 1u << k;
        int open = m->kind == PF_MAP_GRAPH || pf_grid_class(m, (int32_t)(u % m->width), (int32_t)(u / m->width));
        for (uint32_t v = 0; v < t->n; v++) {
            uint32_t e = pf__tab_load(row, t->width, v);
            int ok;
            if (e == none) ok = u != v || !open;
            else if (e == self) ok = u == v && open;
            else if (u == v) ok = 0;
            else ok = m->kind == PF_MAP_GRAPH ? e < deg : (e < 8 && (legal & (1u << e)));
            if (!ok)
                return pf__diag_set(diag, PF_PARSE_ERROR, name, 0, 0,
                                    "entry (%u, %u) = %u is not a legal move of node %u", u, v, e, u);
        }
    }
    return PF_OK;
}

/* Every header field checked against the map before anything is allocated: the payload a header
 * may announce is then exactly what a table of this map needs (n * n * width), never more. */
static pf_status check_header(const uint8_t *b, const char *name, const pf_map *map, uint64_t *psize_out,
                              pf_diag *diag)
{
    pf_status hst = pf__head_check(b, MAGIC, PF_TABLE_FILE_VERSION, "table", name, diag);
    if (hst != PF_OK) return hst;
    uint32_t hsize = pf__get32(b + 12), n = pf__get32(b + 24), kind = pf__get32(b + 28), width = pf__get32(b + 32);
    uint64_t fp = pf__get64(b + 16), psize = pf__get64(b + 40);
    if (hsize != PF__HEADER_SIZE || pf__get32(b + 36) != 0 || (width != 1 && width != 2 && width != 4) ||
        n == 0 || n > PF_TABLE_MAX_NODES || psize != (uint64_t)n * n * width)
        return pf__diag_set(diag, PF_PARSE_ERROR, name, 0, 0,
                            "inconsistent header (header %u bytes, %u nodes, width %u, payload %llu)",
                            hsize, n, width, (unsigned long long)psize);
    if (kind != (uint32_t)pf_map_kind_of(map) || n != pf_map_node_count(map))
        return pf__diag_set(diag, PF_WRONG_MAP, name, 0, 0,
                            "table is for a %s of %u nodes, the map is a %s of %u nodes",
                            kind == PF_MAP_GRID ? "grid" : "graph", n,
                            pf_map_kind_of(map) == PF_MAP_GRID ? "grid" : "graph", pf_map_node_count(map));
    if (fp != pf_map_fingerprint(map))
        return pf__diag_set(diag, PF_WRONG_MAP, name, 0, 0,
                            "table was baked for another map (fingerprint %016llx, map %016llx)",
                            (unsigned long long)fp, (unsigned long long)pf_map_fingerprint(map));
    if (width != pf__table_width_for(map))
        return pf__diag_set(diag, PF_PARSE_ERROR, name, 0, 0, "entry width %u, the map needs %u", width,
                            pf__table_width_for(map));
    *psize_out = psize;
    return PF_OK;
}

static pf_status size_mismatch(const char *name, uint64_t payload, uint64_t psize, pf_diag *diag)
{
    return pf__diag_set(diag, PF_PARSE_ERROR, name, 0, 0, "%s: payload is %llu bytes, header says %llu",
                        payload < psize ? "truncated" : "trailing bytes", (unsigned long long)payload,
                        (unsigned long long)psize);
}

pf_status pf_table_load_mem(const void *data, size_t size, const char *name, const pf_map *map,
                            const pf_table_desc *desc, pf_table **out, pf_diag *diag)
{
    if (out) *out = NULL;
    if (!out || !map || (!data && size))
        return pf__diag_set(diag, PF_INVALID_ARGUMENT, name, 0, 0, "missing map, data or output");
    const uint8_t *b = data;
    if (size < PF__HEADER_SIZE)
        return pf__diag_set(diag, PF_PARSE_ERROR, name, 0, 0,
                            "truncated: %zu bytes, a table header alone is %u", size, PF__HEADER_SIZE);
    uint64_t psize;
    pf_status hs = check_header(b, name, map, &psize, diag);
    if (hs != PF_OK) return hs;
    uint32_t width = pf__get32(b + 32);
    if (size - PF__HEADER_SIZE != psize) return size_mismatch(name, size - PF__HEADER_SIZE, psize, diag);
    if (XXH3_64bits(b + PF__HEADER_SIZE, (size_t)psize) != pf__get64(b + 48))
        return pf__diag_set(diag, PF_PARSE_ERROR, name, 0, 0, "payload checksum mismatch (corrupted)");

    pf_table_desc d = desc ? *desc : (pf_table_desc){0};
    pf_table *t;
    pf_status st = pf__table_alloc(map, &d.allocator, width, &t);
    if (st != PF_OK) return pf__diag_set(diag, st, name, 0, 0, "%s", pf_status_str(st));
    if (pf__host_is_le() || width == 1) memcpy(t->data, b + PF__HEADER_SIZE, t->bytes);
    else
        for (size_t i = 0; i < t->bytes; i += width)
            for (uint32_t k = 0; k < width; k++) t->data[i + k] = b[PF__HEADER_SIZE + i + width - 1 - k];
    st = check_entries(t, name, diag);
    if (st != PF_OK) {
        pf_table_destroy(t);
        return st;
    }
    if (diag) *diag = (pf_diag){.status = PF_OK}; /* as the other loaders: diag always matches the status */
    pf__table_follow(t);
    *out = t;
    return PF_OK;
}

pf_status pf_table_load(const char *path, const pf_map *map, const pf_table_desc *desc, pf_table **out,
                        pf_diag *diag)
{
    if (out) *out = NULL;
    if (!path) return pf__diag_set(diag, PF_INVALID_ARGUMENT, NULL, 0, 0, "no file name given");
    void *fv;
    pf_status ost = pf__open_read(path, ".pft table", &fv, diag);
    if (ost != PF_OK) return ost;
    FILE *f = fv;
    /* The header first, checked against the map; then the file's size against the payload that
     * leaves (before allocating it); then exactly that payload, plus one byte to see trailing data. */
    uint8_t h[PF__HEADER_SIZE];
    size_t got = fread(h, 1, PF__HEADER_SIZE, f);
    pf_status st;
    uint64_t psize = 0;
    if (ferror(f)) st = pf__diag_set(diag, PF_IO_ERROR, path, 0, 0, "read error: %s", strerror(errno));
    else if (got < PF__HEADER_SIZE) st = pf_table_load_mem(h, got, path, map, desc, out, diag); /* "truncated" */
    else st = check_header(h, path, map, &psize, diag);
    if (st != PF_OK) {
        fclose(f);
        return st;
    }
#if defined(__unix__) || defined(__APPLE__)
    struct stat sb;
    if (fstat(fileno(f), &sb) == 0 && S_ISREG(sb.st_mode) && (uint64_t)sb.st_size != PF__HEADER_SIZE + psize) {
        fclose(f);
        return size_mismatch(path, (uint64_t)sb.st_size < PF__HEADER_SIZE ? 0 : (uint64_t)sb.st_size - PF__HEADER_SIZE,
                             psize, diag);
    }
#endif
    if (psize > SIZE_MAX - PF__HEADER_SIZE - 1) {
        fclose(f);
        return pf__diag_set(diag, PF_TOO_LARGE, path, 0, 0, "a %llu-byte table does not fit in memory here",
                            (unsigned long long)psize);
    }
    size_t total = PF__HEADER_SIZE + (size_t)psize;
    pf_allocator a = pf__alloc_resolve(desc ? &desc->allocator : NULL);
    uint8_t *buf = pf__alloc(&a, total + 1, 64);
    if (!buf) {
        fclose(f);
        return pf__diag_set(diag, PF_OUT_OF_MEMORY, path, 0, 0, "out of memory reading %zu bytes", total);
    }
    memcpy(buf, h, PF__HEADER_SIZE);
    got = PF__HEADER_SIZE + fread(buf + PF__HEADER_SIZE, 1, total + 1 - PF__HEADER_SIZE, f);
    int err = ferror(f);
    fclose(f);
    if (err) st = pf__diag_set(diag, PF_IO_ERROR, path, 0, 0, "read error");
    else st = pf_table_load_mem(buf, got, path, map, desc, out, diag);
    pf__free(&a, buf, total + 1);
    return st;
}
