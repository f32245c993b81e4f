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

/* max_cost is tested up to rounding: g + h at a node of the optimal path sums its steps in another
 * order than the goal's g (and a heuristic rounds), so asking again with the cost a search returned
 * was refused (PF_LIMIT_REACHED, PF_NO_PATH) in 251 of 4,854 grid queries of a review, and on 1,470
 * of 2,000 generic chains. What g + h is cut above: max_cost * (1 + PF__COST_SLACK); 0 = no limit. */
#define PF__COST_SLACK 1e-9
PF__INLINE double pf__cost_cap(double max_cost) { return max_cost > 0 ? max_cost * (1.0 + PF__COST_SLACK) : 0.0; }

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
                       const char *fmt, ...) PF__PRINTF(6, 7);

/* Length of the well-formed UTF-8 sequence at s[0..n) (RFC 3629: no overlong forms, no
 * surrogates, nothing past U+10FFFF), or 0 when s[0] starts none (n > 0). */
size_t pf__utf8_len(const unsigned char *s, size_t n);

/* Copies src[0..n) to dst (capacity cap, always NUL-terminated) with control characters (C0, DEL
 * and the two-byte UTF-8 forms of C1) and bytes of no well-formed UTF-8 sequence written as \xNN,
 * so input echoed in a message can neither drive a terminal nor make the message invalid text; an
 * escape that does not fit ends the copy with "...". `cut`: src was cut at n by the caller's buffer
 * (a character it ends in the middle of is dropped, not escaped, and the copy ends with "..."
 * too). Returns the length written. The one escaping of messages: pf_diag's, and the CLI's
 * (cli_error, cli_say). */
size_t pf__escape(char *dst, size_t cap, const char *src, size_t n, int cut);

/* The file a symbolic link names, into out (cap bytes): resolved when it exists, else the name the
 * link holds (relative to the link's directory), so that writing through a dangling link makes
 * the file it names rather than replacing the link. 0 when it cannot be told. */
int pf__link_target(const char *link, char *out, size_t cap);

/* Opens a file to read (a FILE *, opaque here like pf__outfile's); refuses a directory by name
 * (PF_IO_ERROR "is a directory, not a WHAT file") rather than letting every read fail. */
pf_status pf__open_read(const char *path, const char *what, void **out, pf_diag *diag);
/* As pf__open_read, for a format read by its size (seeks): anything but a regular file is refused
 * (PF_IO_ERROR "not a regular file") before a byte is read, and a FIFO without a writer is opened
 * without waiting for one (the load hung in the open, or in the first read). */
pf_status pf__open_read_regular(const char *path, const char *what, void **out, pf_diag *diag);

/* Reads a whole text file through the allocator (NUL-terminated); *len excludes the NUL. `what`
 * names the format in messages (".map"). Refuses, with a message naming the limit, more than
 * max_bytes (PF_TOO_LARGE, before reading anything when the file is a regular one: the bound for a
 * stream such as a pipe or /dev/zero is the same, checked as it is read), a directory (PF_IO_ERROR)
 * and a NUL byte (PF_PARSE_ERROR, as soon as it is read: no text format contains one). */
pf_status pf__read_text(const char *path, const pf_allocator *a, uint64_t max_bytes, const char *what,
                        char **out, size_t *len, pf_diag *diag);

/* An output file written beside its target and renamed over it once complete, so a failed write
 * never leaves a truncated file and never removes the old one. A target that exists and is not a
 * regular file (a device such as /dev/full, a pipe) is written in place and never removed. The
 * temporary file, the only file ever removed, is one this process created. */
typedef struct pf__outfile {
    void        *f;        /* FILE * (kept opaque here so this header needs no <stdio.h>) */
    const char  *path;     /* as the caller named it (messages) */
    const char  *target;   /* the file replaced: path, or what the link at path points to */
    char        *tmp;      /* [opt] temporary name beside the target; NULL when writing in place */
    size_t       tmp_size;
    pf_allocator alloc;
    char         real[4096]; /* PATH_MAX: the resolved target when path is a symbolic link */
    int          fail;     /* pf__out_fail: why the last open or close failed (PF__OUT_OK when not) */
    int          err;      /* the errno of that failure; 0 where none applies */
    void        *raw;      /* FILE * under f when f is a stream that records write failures; or NULL */
    int          werr;     /* the errno of the first failed write, recorded as it failed; 0: none */
} pf__outfile;
/* Why pf__out_open or pf__out_close failed, with errno in pf__outfile.err where one applies: the
 * library says it in a pf_diag, the CLI in its own words, from one implementation. */
typedef enum pf__out_fail {
    PF__OUT_OK = 0,
    PF__OUT_NO_PATH,   /* open: no file name given */
    PF__OUT_IS_DIR,    /* open: the path is a directory */
    PF__OUT_NO_OPEN,   /* open: opening in place, or making the file beside the target, failed (err) */
    PF__OUT_LINK_LOOP, /* open: a loop of symbolic links, or one too long to follow */
    PF__OUT_NO_MEMORY, /* open */
    PF__OUT_WRITE,     /* close: a write, the flush or the close failed (err); err 0: ok was 0 */
    PF__OUT_RENAME,    /* close: the temporary file could not be renamed over the target (err) */
} pf__out_fail;
pf_status pf__out_open(pf__outfile *o, const char *path, const pf_allocator *a, pf_diag *diag);
/* Whether pf__out_open writes `path` in place: it exists and is neither a regular file nor a
 * directory (a device, a pipe), or it names one of this process's streams (/dev/stdout, a file
 * its stdout or stderr is redirected to). */
int pf__out_in_place(const char *path);
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
/* Whether the token t[0..n) is the literal lit ("p", "sp", "version"): the keywords of the text formats. */
PF__INLINE int pf__tok_eq(const char *t, size_t n, const char *lit)
{
    return strlen(lit) == n && memcmp(t, lit, n) == 0;
}
/* Strict decimal parsers of one whole token; return 0 on malformed or out-of-range input. */
int pf__parse_u64(const char *t, size_t n, uint64_t *out);
int pf__parse_i64(const char *t, size_t n, int64_t *out);
int pf__parse_double(const char *t, size_t n, double *out);

#endif
