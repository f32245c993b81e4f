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

static void *none_alloc(size_t size, size_t align, void *user)
{
    (void)size;
    (void)align;
    (void)user;
    return NULL;
}

static void none_free(void *p, size_t size, void *user)
{
    (void)p;
    (void)size;
    (void)user;
}

pf_allocator pf__alloc_none(void) { return (pf_allocator){none_alloc, none_free, NULL}; }

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
