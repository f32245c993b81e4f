/* alloc.c - the default allocator (huge pages for big blocks), allocation through a caller's
 * pf_allocator, and lazy memory: mappings whose pages are taken on first touch and given back. */
#define _DEFAULT_SOURCE /* madvise, mincore */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "common/pf_internal.h"
#if defined(__linux__)
#include <sys/mman.h>
#endif
#if defined(__unix__) || defined(__APPLE__)
#define PF__POSIX_PAGES 1
#include <unistd.h>
#else
#define PF__POSIX_PAGES 0
#endif

/* Blocks from this size up (node records of big maps) are aligned to 2 MiB and offered to the kernel
 * as transparent huge pages: a search on a 2000x2000 map hops across 64 MiB of records, and with 4 KiB
 * pages nearly every step is a TLB miss. */
#define PF__HUGE_BLOCK ((size_t)4 << 20)
#define PF__HUGE_ALIGN ((size_t)2 << 20)

static void *default_alloc(size_t size, size_t align, void *user)
{
    (void)user;
    /* a size near SIZE_MAX (a count multiplied past it) would round up to a tiny block below */
    if (size > SIZE_MAX - PF__HUGE_ALIGN) return NULL;
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

pf_allocator pf__alloc_resolve(const pf_allocator *a)
{
    if (a && a->alloc && a->free) return *a;
    /* one hook without the other is the caller's mistake: nothing is allocated (the object is not
     * made: PF_OUT_OF_MEMORY), rather than malloc behind the engine's allocator (pf_alloc.h) */
    if (a && (a->alloc || a->free)) return pf__alloc_none();
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

#if defined(__linux__)
#define PF__LAZY_PAGES 1
#else
#define PF__LAZY_PAGES 0
#endif

/* Lazy memory is mapped directly, not taken from malloc: only a fresh mapping is known to read as
 * zeros, so the records' stamps need no clearing (which would map every page of them), and only a
 * mapping can be given back page by page while the block stays in use. */
void *pf__alloc_lazy(const pf_allocator *a, size_t size, int huge, int *lazy)
{
    *lazy = 0;
#if PF__LAZY_PAGES
    /* small blocks are malloc's: a mapping each would cost a system call per context for little */
    if (size >= PF__HUGE_BLOCK && pf__alloc_resolve(a).alloc == default_alloc) { /* hooks zero, or resolved */
        if (!size) size = 1;
        /* big blocks start on a 2 MiB boundary, as default_alloc's do, so every 2 MiB of them can
         * be a huge page: map 2 MiB more and cut off the ends */
        size_t pad = size >= PF__HUGE_BLOCK ? PF__HUGE_ALIGN : 0;
        if (size > SIZE_MAX - pad) return NULL;
        char *m = mmap(NULL, size + pad, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (m == MAP_FAILED) return NULL;
        char *p = m;
        if (pad) {
            p = (char *)(((uintptr_t)m + PF__HUGE_ALIGN - 1) & ~(uintptr_t)(PF__HUGE_ALIGN - 1));
            size_t page = pf__page_size(), end = ((uintptr_t)p + size + page - 1) & ~(uintptr_t)(page - 1);
            if (p > m) munmap(m, (size_t)(p - m));
            if ((uintptr_t)m + size + pad > end) munmap((void *)end, (uintptr_t)m + size + pad - end);
        }
#if defined(MADV_HUGEPAGE)
        if (huge && size >= PF__HUGE_BLOCK) madvise(p, size, MADV_HUGEPAGE); /* advice only */
#endif
#if defined(MADV_NOHUGEPAGE)
        /* where the system makes huge pages unasked, a first touch would map (and zero) 2 MiB */
        if (!huge) (void)madvise(p, size, MADV_NOHUGEPAGE);
#endif
#if !defined(MADV_HUGEPAGE)
        (void)huge;
#endif
        *lazy = 1;
        return p;
    }
#endif
    (void)huge;
    return pf__alloc(a, size, 64);
}

void pf__free_lazy(const pf_allocator *a, void *p, size_t size, int lazy)
{
    if (!p) return;
#if PF__LAZY_PAGES
    if (lazy) {
        munmap(p, size ? size : 1); /* the pages of the range, whatever its end's alignment */
        return;
    }
#endif
    (void)lazy;
    pf__free(a, p, size);
}

int pf__release_lazy(void *p, size_t size)
{
#if PF__LAZY_PAGES
    return madvise(p, size, MADV_DONTNEED) == 0;
#else
    (void)p;
    (void)size;
    return 0;
#endif
}

size_t pf__page_size(void)
{
#if PF__POSIX_PAGES
    long ps = sysconf(_SC_PAGESIZE);
    if (ps > 0) return (size_t)ps;
#endif
    return 4096;
}

int pf__resident_pages(void *p, size_t size, unsigned char *map)
{
#if PF__LAZY_PAGES
    return mincore(p, size, map) == 0;
#else
    (void)p;
    (void)size;
    (void)map;
    return 0;
#endif
}
