/* pf_internal.h - helpers shared by the .c files of core (never installed). */
#ifndef PF_INTERNAL_H
#define PF_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <stdarg.h>
#include <string.h>
#include "pathfind/pf_status.h"
#include "pathfind/pf_alloc.h"

#define PF__DEF(v, d) ((v) == 0 ? (d) : (v))

#ifndef PF_ASSERT
#include <assert.h>
#define PF_ASSERT(c) assert(c)
#endif

#if defined(__GNUC__)
#define PF__LIKELY(x) __builtin_expect(!!(x), 1)
#define PF__UNLIKELY(x) __builtin_expect(!!(x), 0)
#define PF__INLINE static inline __attribute__((always_inline))
#else
#define PF__LIKELY(x) (x)
#define PF__UNLIKELY(x) (x)
#define PF__INLINE static inline
#endif

/* Handle checks. Every map, context and batch carries a tag word, set at creation and overwritten
 * at destruction. Debug builds (NDEBUG not defined) check it on entry to the main calls and stop
 * with a message naming the call when a destroyed or foreign handle comes in, and refuse to destroy
 * a map while contexts made for it live. Release builds compile the checks out: there, as in any C
 * library, use after destroy is undefined (the asan preset reports it). */
#define PF__TAG_MAP   0x50464d41u /* "PFMA" */
#define PF__TAG_CTX   0x50464358u /* "PFCX" */
#define PF__TAG_BATCH 0x50464241u /* "PFBA" */
#define PF__TAG_DEAD  0xDEADDEADu
#ifndef NDEBUG
#define PF__DEBUG_HANDLES 1
/* Prints "pathfind: FN: TYPE WHY" to stderr and aborts. */
void pf__handle_fail(const char *fn, const char *type, const char *why);
#define PF__CHECK_HANDLE(h, TAG, type)                                                              \
    do {                                                                                           \
        if ((h) && (h)->tag != (TAG))                                                              \
            pf__handle_fail(__func__, type, (h)->tag == PF__TAG_DEAD ? "was used after it was destroyed" \
                                                                     : "is not a live handle (destroyed, or not made by pathfind)"); \
    } while (0)
#else
#define PF__CHECK_HANDLE(h, TAG, type) ((void)0)
#endif

/* A 64-bit finaliser (splitmix/murmur3): seeded random tie-breaks hash a node with the seed. */
PF__INLINE uint32_t pf__mix32(uint64_t x)
{
    x ^= x >> 33;
    x *= UINT64_C(0xff51afd7ed558ccd);
    x ^= x >> 33;
    x *= UINT64_C(0xc4ceb9fe1a85ec53);
    x ^= x >> 33;
    return (uint32_t)x;
}

/* The default tie key, deeper first: h as a float, its bits mapped to an unsigned integer of the
 * same order (sign bit flipped when h >= 0, every bit when h < 0: a user heuristic may be negative). */
PF__INLINE uint32_t pf__tie_deeper(double h)
{
    float hf = (float)h;
    uint32_t u;
    memcpy(&u, &hf, sizeof u);
    return u ^ ((uint32_t)((int32_t)u >> 31) | UINT32_C(0x80000000));
}

/* Allocator with defaults resolved (zero hooks -> aligned malloc). */
pf_allocator pf__alloc_resolve(const pf_allocator *a);
void *pf__alloc(const pf_allocator *a, size_t size, size_t align);
void *pf__calloc(const pf_allocator *a, size_t size, size_t align);
void  pf__free(const pf_allocator *a, void *p, size_t size);

/* Fills diag (if any) with status and a formatted "name:line:col: msg"; returns status. */
pf_status pf__diag_set(pf_diag *diag, pf_status st, const char *name, uint32_t line, uint32_t col,
                       const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;

/* Reads a whole file through the allocator (NUL-terminated); *len excludes the NUL. */
pf_status pf__read_file(const char *path, const pf_allocator *a, char **out, size_t *len, pf_diag *diag);

/* An output file written beside its target and renamed over it once complete, so a failed write
 * never leaves a truncated file and never removes the old one; the temporary file, the only file
 * ever removed, is one this call created (exclusively). */
typedef struct pf__outfile {
    void        *f;        /* FILE * (kept opaque here so this header needs no <stdio.h>) */
    const char  *path;     /* the target */
    char        *tmp;      /* temporary name beside it */
    size_t       tmp_size;
    pf_allocator alloc;
} pf__outfile;
pf_status pf__out_open(pf__outfile *o, const char *path, const pf_allocator *a, pf_diag *diag);
/* Flushes and closes; with ok (the caller's writes all succeeded) and no stream error, renames the
 * temporary file over the target. Otherwise removes the temporary file and returns PF_IO_ERROR
 * ("write failed: REASON" in diag). */
pf_status pf__out_close(pf__outfile *o, int ok, pf_diag *diag);

/* Line cursor over a memory buffer: handles LF, CRLF and a missing final newline. */
typedef struct pf__lines {
    const char *p, *end;
    uint32_t    line;   /* 1-based number of the line last returned */
} pf__lines;
/* Next line (without its terminator); returns 0 at end of input. */
int pf__next_line(pf__lines *ls, const char **s, size_t *n);

/* Token scanner within one line: skips spaces/tabs; returns 0 when no token is left. */
int pf__next_token(const char **p, const char *end, const char **tok, size_t *tlen);
/* Strict decimal parsers of one whole token; return 0 on malformed or out-of-range input. */
int pf__parse_u64(const char *t, size_t n, uint64_t *out);
int pf__parse_i64(const char *t, size_t n, int64_t *out);
int pf__parse_double(const char *t, size_t n, double *out);

#endif
