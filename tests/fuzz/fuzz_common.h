/* fuzz_common.h - helpers shared by the fuzz targets (header-only, test code).
 *
 * FUZZ_CHECK: an invariant the library promises; on failure it prints and aborts, which libFuzzer
 * and the regression driver both report as a crash.
 *
 * fuzz_alloc: a pf_allocator that records every live block with its size, checks that each free
 * names a live block with the size it was allocated with, and can fail the n-th allocation. After
 * the objects are destroyed, fuzz_alloc_live() must be 0: the fuzzers find leaks on error paths
 * without LeakSanitizer's help, in any build.
 */
#ifndef PF_FUZZ_COMMON_H
#define PF_FUZZ_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pathfind.h"

#define FUZZ_CHECK(c)                                                                              \
    do {                                                                                           \
        if (!(c)) {                                                                                \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #c);                  \
            abort();                                                                               \
        }                                                                                          \
    } while (0)

typedef struct fuzz_block { void *p; size_t size; } fuzz_block;

typedef struct fuzz_alloc_state {
    fuzz_block *live;
    size_t      nlive, cap;
    size_t      bytes;       /* outstanding */
    unsigned    calls;       /* allocations attempted */
    unsigned    fail_at;     /* 1-based call number that returns NULL; 0 = never */
    size_t      max_size;    /* larger requests fail (keeps fuzzed sizes from exhausting memory); 0 = no cap */
} fuzz_alloc_state;

static inline void *fuzz_alloc_fn(size_t size, size_t align, void *user)
{
    fuzz_alloc_state *s = user;
    s->calls++;
    if (s->fail_at && s->calls == s->fail_at) return NULL;
    if (s->max_size && size > s->max_size) return NULL;
    FUZZ_CHECK(align && (align & (align - 1)) == 0);
    if (align < sizeof(void *)) align = sizeof(void *);
    void *p = aligned_alloc(align, (size + align - 1) / align * align);
    if (!p) return NULL;
    if (s->nlive == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 64;
        s->live = realloc(s->live, s->cap * sizeof *s->live);
        FUZZ_CHECK(s->live != NULL);
    }
    s->live[s->nlive++] = (fuzz_block){p, size};
    s->bytes += size;
    return p;
}

static inline void fuzz_free_fn(void *p, size_t size, void *user)
{
    fuzz_alloc_state *s = user;
    FUZZ_CHECK(p != NULL); /* the library frees NULL itself, never through the hook */
    for (size_t i = s->nlive; i-- > 0;) {
        if (s->live[i].p != p) continue;
        FUZZ_CHECK(s->live[i].size == size); /* the size given back must be the size allocated */
        s->bytes -= size;
        s->live[i] = s->live[--s->nlive];
        free(p);
        return;
    }
    FUZZ_CHECK(!"free of a block the hook never returned");
}

static inline pf_allocator fuzz_alloc_hooks(fuzz_alloc_state *s)
{
    return (pf_allocator){fuzz_alloc_fn, fuzz_free_fn, s};
}

static inline size_t fuzz_alloc_live(const fuzz_alloc_state *s) { return s->nlive; }

static inline void fuzz_alloc_reset(fuzz_alloc_state *s)
{
    free(s->live);
    memset(s, 0, sizeof *s);
}

/* A diag the library filled must agree with the status and hold a terminated message. */
static inline void fuzz_check_diag(const pf_diag *d, pf_status st)
{
    FUZZ_CHECK(d->status == st);
    FUZZ_CHECK(memchr(d->msg, '\0', sizeof d->msg) != NULL);
    if (pf_failed(st)) FUZZ_CHECK(d->msg[0] != '\0');
}

#endif
