/* base_internal.h - the library's base, shared by every module (never installed): defaults,
 * compiler hints, handle checks and allocation through the user's hooks. core reaches it through
 * common/pf_internal.h, batch through core_batch_internal.h. */
#ifndef PF_BASE_INTERNAL_H
#define PF_BASE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include "pathfind/pf_status.h"
#include "pathfind/pf_alloc.h"
#include "port_internal.h" /* PF__INLINE, PF__LIKELY and every other compiler-specific construct */

#define PF__DEF(v, d) ((v) == 0 ? (d) : (v))

/* n rounded up to a multiple of 64 (a cache line): arrays carved from one block start on a line. */
static inline size_t pf__align64(size_t n) { return (n + 63u) & ~(size_t)63u; }

#ifndef PF_ASSERT
#include <assert.h>
#define PF_ASSERT(c) assert(c)
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

/* Allocator with defaults resolved (zero hooks -> aligned malloc). */
pf_allocator pf__alloc_resolve(const pf_allocator *a);
/* The allocator of objects placed in caller memory: every allocation fails, frees do nothing. Code
 * that would grow such an object fails instead (and a destroy frees nothing). */
pf_allocator pf__alloc_none(void);
void *pf__alloc(const pf_allocator *a, size_t size, size_t align);
void *pf__calloc(const pf_allocator *a, size_t size, size_t align);
void  pf__free(const pf_allocator *a, void *p, size_t size);
/* Memory that follows use (node records of big maps): blocks of 4 MiB and more with the default
 * allocator on Linux are pages
 * the kernel maps zeroed on first touch, so untouched parts cost nothing, and *lazy is set; with a
 * user's allocator or elsewhere, pf__alloc (*lazy 0). `huge`: offered as transparent huge pages
 * (fewer TLB misses, but a touch then maps and zeroes 2 MiB: only for blocks written whole at once);
 * otherwise kept to small pages even where the system would make huge ones unasked. Free with
 * pf__free_lazy. */
void *pf__alloc_lazy(const pf_allocator *a, size_t size, int huge, int *lazy);
void  pf__free_lazy(const pf_allocator *a, void *p, size_t size, int lazy);
/* Gives the pages of lazy memory back to the kernel, to read as zeros again and be mapped when
 * next touched; 1 when they were (p page-aligned; size is rounded up to whole pages by the
 * kernel), 0 when not (no lazy pages here, or the kernel refused: the memory is unchanged). */
int   pf__release_lazy(void *p, size_t size);
/* The system's page size (4096 where not known). */
size_t pf__page_size(void);
/* Which pages of lazy memory are mapped: bit 0 of map[i] for page i (map: one byte per page,
 * p page-aligned); 0 where not known (then nothing is given back). */
int   pf__resident_pages(void *p, size_t size, unsigned char *map);

#endif
