/* util.c - allocation defaults, diagnostics, file reading and strict number parsing. */
#define _DEFAULT_SOURCE /* madvise */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common/pf_internal.h"
#if defined(__linux__)
#include <sys/mman.h>
#endif

/* Blocks from this size up (node records of big maps) are aligned to 2 MiB and offered to the kernel
 * as transparent huge pages: a search on a 2000x2000 map hops across 64 MiB of records, and with 4 KiB
 * pages nearly every step is a TLB miss. */
#define PF__HUGE_BLOCK ((size_t)4 << 20)
#define PF__HUGE_ALIGN ((size_t)2 << 20)

static void *default_alloc(size_t size, size_t align, void *user)
{
    (void)user;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (size >= PF__HUGE_BLOCK && align <= PF__HUGE_ALIGN) {
        size_t n = (size + PF__HUGE_ALIGN - 1) / PF__HUGE_ALIGN * PF__HUGE_ALIGN;
        void *p = aligned_alloc(PF__HUGE_ALIGN, n);
        if (p) madvise(p, n, MADV_HUGEPAGE); /* advice only: failure is harmless */
        return p;
    }
#endif
    if (align < sizeof(void *)) align = sizeof(void *);
    size = (size + align - 1) / align * align; /* aligned_alloc wants a multiple of the alignment */
    if (size == 0) size = align;
    return aligned_alloc(align, size);
}

static void default_free(void *p, size_t size, void *user)
{
    (void)size;
    (void)user;
    free(p);
}

pf_allocator pf__alloc_resolve(const pf_allocator *a)
{
    if (a && a->alloc && a->free) return *a;
    return (pf_allocator){default_alloc, default_free, NULL};
}

void *pf__alloc(const pf_allocator *a, size_t size, size_t align)
{
    pf_allocator r = pf__alloc_resolve(a);
    return r.alloc(size ? size : 1, align ? align : 16, r.user);
}

void *pf__calloc(const pf_allocator *a, size_t size, size_t align)
{
    void *p = pf__alloc(a, size, align);
    if (p) memset(p, 0, size);
    return p;
}

void pf__free(const pf_allocator *a, void *p, size_t size)
{
    if (!p) return;
    pf_allocator r = pf__alloc_resolve(a);
    r.free(p, size ? size : 1, r.user);
}

pf_status pf__diag_set(pf_diag *diag, pf_status st, const char *name, uint32_t line, uint32_t col,
                       const char *fmt, ...)
{
    if (!diag) return st;
    diag->status = st;
    diag->line = line;
    diag->column = col;
    char msg[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    const char *n = name ? name : "<input>";
    if (line && col) snprintf(diag->msg, sizeof diag->msg, "%s:%u:%u: %s", n, line, col, msg);
    else if (line) snprintf(diag->msg, sizeof diag->msg, "%s:%u: %s", n, line, msg);
    else snprintf(diag->msg, sizeof diag->msg, "%s: %s", n, msg);
    return st;
}

pf_status pf__read_file(const char *path, const pf_allocator *a, char **out, size_t *len, pf_diag *diag)
{
    *out = NULL;
    *len = 0;
    if (!path) return pf__diag_set(diag, PF_INVALID_ARGUMENT, NULL, 0, 0, "no file name given");
    FILE *f = fopen(path, "rb");
    if (!f) return pf__diag_set(diag, PF_IO_ERROR, path, 0, 0, "cannot open: %s", strerror(errno));
    size_t cap = 1 << 16, n = 0;
    char *buf = pf__alloc(a, cap, 16);
    if (!buf) {
        fclose(f);
        return pf__diag_set(diag, PF_OUT_OF_MEMORY, path, 0, 0, "out of memory reading file");
    }
    for (;;) {
        if (n + 1 >= cap) {
            size_t ncap = cap * 2;
            char *nb = pf__alloc(a, ncap, 16);
            if (!nb) {
                pf__free(a, buf, cap);
                fclose(f);
                return pf__diag_set(diag, PF_OUT_OF_MEMORY, path, 0, 0, "out of memory reading file");
            }
            memcpy(nb, buf, n);
            pf__free(a, buf, cap);
            buf = nb;
            cap = ncap;
        }
        size_t r = fread(buf + n, 1, cap - n - 1, f);
        n += r;
        if (r == 0) break;
    }
    int err = ferror(f);
    fclose(f);
    if (err) {
        pf__free(a, buf, cap);
        return pf__diag_set(diag, PF_IO_ERROR, path, 0, 0, "read error");
    }
    buf[n] = '\0';
    /* Callers free with the exact capacity: shrink-free by recording it in *len's neighbour is
     * awkward, so copy into an exactly-sized block. */
    char *exact = pf__alloc(a, n + 1, 16);
    if (!exact) {
        pf__free(a, buf, cap);
        return pf__diag_set(diag, PF_OUT_OF_MEMORY, path, 0, 0, "out of memory reading file");
    }
    memcpy(exact, buf, n + 1);
    pf__free(a, buf, cap);
    *out = exact;
    *len = n;
    return PF_OK;
}

int pf__next_line(pf__lines *ls, const char **s, size_t *n)
{
    if (ls->p >= ls->end) return 0;
    const char *b = ls->p;
    const char *e = memchr(b, '\n', (size_t)(ls->end - b));
    if (!e) e = ls->end;
    ls->p = e < ls->end ? e + 1 : e;
    if (e > b && e[-1] == '\r') e--;
    *s = b;
    *n = (size_t)(e - b);
    ls->line++;
    return 1;
}

int pf__next_token(const char **p, const char *end, const char **tok, size_t *tlen)
{
    const char *q = *p;
    while (q < end && (*q == ' ' || *q == '\t')) q++;
    if (q >= end) {
        *p = q;
        return 0;
    }
    const char *t = q;
    while (q < end && *q != ' ' && *q != '\t') q++;
    *tok = t;
    *tlen = (size_t)(q - t);
    *p = q;
    return 1;
}

int pf__parse_u64(const char *t, size_t n, uint64_t *out)
{
    if (n == 0 || n > 20) return 0;
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++) {
        if (t[i] < '0' || t[i] > '9') return 0;
        uint64_t d = (uint64_t)(t[i] - '0');
        if (v > (UINT64_MAX - d) / 10) return 0;
        v = v * 10 + d;
    }
    *out = v;
    return 1;
}

int pf__parse_i64(const char *t, size_t n, int64_t *out)
{
    int neg = 0;
    if (n && (t[0] == '-' || t[0] == '+')) {
        neg = t[0] == '-';
        t++;
        n--;
    }
    uint64_t u;
    if (!pf__parse_u64(t, n, &u) || u > (uint64_t)INT64_MAX) return 0;
    *out = neg ? -(int64_t)u : (int64_t)u;
    return 1;
}

int pf__parse_double(const char *t, size_t n, double *out)
{
    char buf[64];
    if (n == 0 || n >= sizeof buf) return 0;
    for (size_t i = 0; i < n; i++) {
        char ch = t[i];
        if (!((ch >= '0' && ch <= '9') || ch == '.' || ch == '-' || ch == '+' || ch == 'e' || ch == 'E'))
            return 0; /* no "nan", "inf" or hex floats */
    }
    memcpy(buf, t, n);
    buf[n] = '\0';
    char *e;
    errno = 0;
    double v = strtod(buf, &e);
    if (e != buf + n || errno == ERANGE || !isfinite(v)) return 0;
    *out = v;
    return 1;
}

#ifdef PF__DEBUG_HANDLES
void pf__handle_fail(const char *fn, const char *type, const char *why)
{
    fprintf(stderr, "pathfind: %s: %s %s\n", fn, type, why);
    abort();
}
#endif

pf_status pf__out_open(pf__outfile *o, const char *path, const pf_allocator *a, pf_diag *diag)
{
    *o = (pf__outfile){.path = path, .alloc = pf__alloc_resolve(a)};
    if (!path || !*path) return pf__diag_set(diag, PF_INVALID_ARGUMENT, path, 0, 0, "no file name given");
    size_t n = strlen(path);
    o->tmp_size = n + 16;
    o->tmp = pf__alloc(&o->alloc, o->tmp_size, 16);
    if (!o->tmp) return pf__diag_set(diag, PF_OUT_OF_MEMORY, path, 0, 0, "out of memory");
    /* "x": created by this call or not at all, so a name already taken (a file of someone else's)
     * is never opened, and never removed */
    for (unsigned i = 0; i < 100 && !o->f; i++) {
        snprintf(o->tmp, o->tmp_size, "%s.tmp%u", path, i);
        o->f = fopen(o->tmp, "wbx");
        if (!o->f && errno != EEXIST) break;
    }
    if (!o->f) {
        pf_status st = pf__diag_set(diag, PF_IO_ERROR, path, 0, 0, "cannot create a file beside it: %s", strerror(errno));
        pf__free(&o->alloc, o->tmp, o->tmp_size);
        o->tmp = NULL;
        return st;
    }
    return PF_OK;
}

pf_status pf__out_close(pf__outfile *o, int ok, pf_diag *diag)
{
    FILE *f = o->f;
    pf_status st = PF_OK;
    if (!f) st = PF_IO_ERROR; /* pf__out_open failed and said why */
    else {
        if (fflush(f) != 0 || ferror(f)) ok = 0;
        int err = errno;
        if (fclose(f) != 0) ok = 0, err = errno;
        if (ok && rename(o->tmp, o->path) != 0) ok = 0, err = errno;
        if (!ok) {
            remove(o->tmp); /* ours: made exclusively by pf__out_open */
            st = pf__diag_set(diag, PF_IO_ERROR, o->path, 0, 0, "write failed: %s", strerror(err ? err : EIO));
        }
    }
    if (o->tmp) pf__free(&o->alloc, o->tmp, o->tmp_size);
    *o = (pf__outfile){0};
    return st;
}
