/*
 * pf_alloc.h - per-object allocator hooks.
 *
 * Every desc of a call that makes an object (creators, builders, loaders) carries a pf_allocator as
 * its `allocator` field, never as a separate parameter; all zero means aligned malloc/free. Both
 * hooks or neither: with one of them NULL nothing is allocated, and the call that would make the
 * object fails with PF_OUT_OF_MEMORY (never malloc behind the engine's allocator). The
 * hook receives the size on free as well, so bump arenas and tracking allocators need no headers. There is no global
 * allocator: two maps (or two threads) can use different hooks.
 *
 *     static void *my_alloc(size_t n, size_t align, void *u) { ... return NULL on failure; }
 *     static void  my_free(void *p, size_t n, void *u)       { ... }
 *     pf_grid_desc d = { .width = 64, .height = 64, .allocator = { my_alloc, my_free, &state } };
 *
 * THREAD SAFETY: a hook may be called from any thread that uses the object it was given to; objects
 * used by several threads at once (a pf_batch) call it only from the thread that creates or runs them
 * serially, unless their header says otherwise.
 */
#ifndef PATHFIND_PF_ALLOC_H
#define PATHFIND_PF_ALLOC_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pf_allocator {
    void *(*alloc)(size_t size, size_t align, void *user); /* return NULL on failure */
    void  (*free)(void *ptr, size_t size, void *user);     /* size as given to alloc */
    void  *user;
} pf_allocator;

#ifdef __cplusplus
}
#endif
#endif
