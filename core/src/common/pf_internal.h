/* pf_internal.h - helpers shared by the .c files of core (never installed). */
#ifndef PF_INTERNAL_H
#define PF_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <stdarg.h>
#include <string.h>
#include "pathfind/pf_status.h"
#include "pathfind/pf_alloc.h"
#include "base_internal.h" /* PF__DEF, handle checks, allocation: shared with batch */

#define PF__SQRT2 1.4142135623730951 /* a diagonal step */

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

/* Fills diag (if any) with status and a formatted "name:line:col: msg"; returns status. */
pf_status pf__diag_set(pf_diag *diag, pf_status st, const char *name, uint32_t line, uint32_t col,
                       const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;

/* Reads a whole file through the allocator (NUL-terminated); *len excludes the NUL. */
pf_status pf__read_file(const char *path, const pf_allocator *a, char **out, size_t *len, pf_diag *diag);

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
