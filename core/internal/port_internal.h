/* port_internal.h - every compiler-specific construct of the library (never installed), so a port
 * to another compiler touches this file alone: inlining and branch hints, attributes, prefetch, bit
 * scans and the relaxed atomics on plain words that the parallel builds use.
 *
 * Three branches each: GCC and clang (__GNUC__), MSVC (_MSC_VER, its intrinsics), and plain C11,
 * which compiles anywhere and gives the same results, only slower where a hint or an instruction
 * is missing. Defining PF_PORT_PLAIN before the first include forces the plain branch (the test of
 * this header compares it with the others). */
#ifndef PF_PORT_INTERNAL_H
#define PF_PORT_INTERNAL_H

#include <stdint.h>

#if defined(PF_PORT_PLAIN)
#define PF__PORT_GNU 0
#define PF__PORT_MSVC 0
#elif defined(__GNUC__)
#define PF__PORT_GNU 1
#define PF__PORT_MSVC 0
#elif defined(_MSC_VER)
#define PF__PORT_GNU 0
#define PF__PORT_MSVC 1
#include <intrin.h>
#else
#define PF__PORT_GNU 0
#define PF__PORT_MSVC 0
#endif

#if !PF__PORT_GNU && !PF__PORT_MSVC
#include <stdatomic.h>
#endif

/* ---- floating point ------------------------------------------------------------------------ */

/* Lockstep peers on other machines must get every cost, and so every path and expansion count,
 * bit for bit alike: each double operation rounded once, in its own precision. The CMake build
 * sees to it (-ffp-contract=off, -fno-fast-math, SSE on 32-bit x86); another build system that
 * does not is stopped here, not left to answer differently. */
#include <float.h>
#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD != 0
#error "pathfind: floating point is evaluated in a wider precision (FLT_EVAL_METHOD != 0): on 32-bit x86 compile with -msse2 -mfpmath=sse, on s390x with -fexcess-precision=fast"
#endif
#if defined(__FAST_MATH__)
#error "pathfind: built with -ffast-math or -Ofast, whose results differ between compilers and machines (compile the library without them)"
#endif

/* ---- hints and attributes ------------------------------------------------------------------- */

#if PF__PORT_GNU
#define PF__LIKELY(x) __builtin_expect(!!(x), 1)
#define PF__UNLIKELY(x) __builtin_expect(!!(x), 0)
#define PF__INLINE static inline __attribute__((always_inline))
/* a rarely taken path kept out of line, so the loop that calls it stays small; `unused`: not
 * every file that includes a header of such helpers calls them */
#define PF__NOINLINE_ATTR __attribute__((noinline, unused))
#define PF__COLD_ATTR __attribute__((cold, noinline, unused))
#define PF__PRINTF(f, a) __attribute__((format(printf, f, a)))
#elif PF__PORT_MSVC
#define PF__LIKELY(x) (x)
#define PF__UNLIKELY(x) (x)
#define PF__INLINE static __forceinline
#define PF__NOINLINE_ATTR __declspec(noinline)
#define PF__COLD_ATTR __declspec(noinline)
#define PF__PRINTF(f, a)
#else
#define PF__LIKELY(x) (x)
#define PF__UNLIKELY(x) (x)
#define PF__INLINE static inline
#define PF__NOINLINE_ATTR
#define PF__COLD_ATTR
#define PF__PRINTF(f, a)
#endif

/* ---- prefetch: a read of *p is coming soon (no effect on results) --------------------------- */

#if PF__PORT_GNU
#define PF__PREFETCH(p) __builtin_prefetch(p)
#elif PF__PORT_MSVC && (defined(_M_X64) || defined(_M_IX86))
#define PF__PREFETCH(p) _mm_prefetch((const char *)(const void *)(p), _MM_HINT_T0)
#elif PF__PORT_MSVC && defined(_M_ARM64)
#define PF__PREFETCH(p) __prefetch((const void *)(p))
#else
#define PF__PREFETCH(p) ((void)(p))
#endif

/* ---- bit scans: x must not be 0 ------------------------------------------------------------- */

/* plain C: isolate the lowest bit, then a de Bruijn multiply names its position */
static inline uint32_t pf__ctz64_plain(uint64_t x)
{
    static const uint8_t pos[64] = {
        0,  1,  2,  53, 3,  7,  54, 27, 4,  38, 41, 8,  34, 55, 48, 28, 62, 5,  39, 46, 44, 42,
        22, 9,  24, 35, 59, 56, 49, 18, 29, 11, 63, 52, 6,  26, 37, 40, 33, 47, 61, 45, 43, 21,
        23, 58, 17, 10, 51, 25, 36, 32, 60, 20, 57, 16, 50, 31, 19, 15, 30, 14, 13, 12};
    return pos[((x & (0u - x)) * UINT64_C(0x022FDD63CC95386D)) >> 58];
}

/* plain C: smear the highest bit downwards, count the bits left clear above it */
static inline uint32_t pf__clz64_plain(uint64_t x)
{
    x |= x >> 1;
    x |= x >> 2;
    x |= x >> 4;
    x |= x >> 8;
    x |= x >> 16;
    x |= x >> 32;
    x = ~x; /* the bits above the highest set one */
    x -= (x >> 1) & UINT64_C(0x5555555555555555);
    x = (x & UINT64_C(0x3333333333333333)) + ((x >> 2) & UINT64_C(0x3333333333333333));
    x = (x + (x >> 4)) & UINT64_C(0x0F0F0F0F0F0F0F0F);
    return (uint32_t)((x * UINT64_C(0x0101010101010101)) >> 56);
}

/* Index of the lowest set bit. */
PF__INLINE uint32_t pf__ctz32(uint32_t x)
{
#if PF__PORT_GNU
    return (uint32_t)__builtin_ctz(x);
#elif PF__PORT_MSVC
    unsigned long i;
    _BitScanForward(&i, x);
    return (uint32_t)i;
#else
    return pf__ctz64_plain(x);
#endif
}

/* Index of the lowest set bit. */
PF__INLINE uint32_t pf__ctz64(uint64_t x)
{
#if PF__PORT_GNU
    return (uint32_t)__builtin_ctzll(x);
#elif PF__PORT_MSVC && defined(_WIN64)
    unsigned long i;
    _BitScanForward64(&i, x);
    return (uint32_t)i;
#else
    return pf__ctz64_plain(x);
#endif
}

/* Number of clear bits above the highest set bit. */
PF__INLINE uint32_t pf__clz64(uint64_t x)
{
#if PF__PORT_GNU
    return (uint32_t)__builtin_clzll(x);
#elif PF__PORT_MSVC && defined(_WIN64)
    unsigned long i;
    _BitScanReverse64(&i, x);
    return 63u - (uint32_t)i;
#else
    return pf__clz64_plain(x);
#endif
}

/* ---- relaxed atomics on plain words ----------------------------------------------------------
 * The pattern-database build claims bits of plain uint64_t arrays from several threads and also
 * reads and writes them without locked instructions where one thread owns them, and the builders'
 * loops sum counts and raise failure flags from their workers; C11's atomics
 * would need _Atomic arrays for both. The plain branch casts to the _Atomic type, which every
 * C11 compiler this library knows lays out like the plain one. */

PF__INLINE uint64_t pf__atomic_load_u64(const uint64_t *p)
{
#if PF__PORT_GNU
    return __atomic_load_n(p, __ATOMIC_RELAXED);
#elif PF__PORT_MSVC
    return (uint64_t)__iso_volatile_load64((const volatile __int64 *)p);
#else
    return atomic_load_explicit((const _Atomic uint64_t *)(const void *)p, memory_order_relaxed);
#endif
}

/* Sets the bits of m in *p; returns the word before. */
PF__INLINE uint64_t pf__atomic_or_u64(uint64_t *p, uint64_t m)
{
#if PF__PORT_GNU
    return __atomic_fetch_or(p, m, __ATOMIC_RELAXED);
#elif PF__PORT_MSVC
    return (uint64_t)_InterlockedOr64((volatile __int64 *)p, (__int64)m);
#else
    return atomic_fetch_or_explicit((_Atomic uint64_t *)(void *)p, m, memory_order_relaxed);
#endif
}

PF__INLINE uint8_t pf__atomic_load_u8(const uint8_t *p)
{
#if PF__PORT_GNU
    return __atomic_load_n(p, __ATOMIC_RELAXED);
#elif PF__PORT_MSVC
    return (uint8_t)__iso_volatile_load8((const volatile char *)p);
#else
    return atomic_load_explicit((const _Atomic uint8_t *)(const void *)p, memory_order_relaxed);
#endif
}

PF__INLINE void pf__atomic_store_u8(uint8_t *p, uint8_t v)
{
#if PF__PORT_GNU
    __atomic_store_n(p, v, __ATOMIC_RELAXED);
#elif PF__PORT_MSVC
    __iso_volatile_store8((volatile char *)p, (char)v);
#else
    atomic_store_explicit((_Atomic uint8_t *)(void *)p, v, memory_order_relaxed);
#endif
}

PF__INLINE int pf__atomic_load_int(const int *p)
{
#if PF__PORT_GNU
    return __atomic_load_n(p, __ATOMIC_RELAXED);
#elif PF__PORT_MSVC
    return (int)__iso_volatile_load32((const volatile int *)p);
#else
    return atomic_load_explicit((const _Atomic int *)(const void *)p, memory_order_relaxed);
#endif
}

/* *p = v if *p == expect; returns whether it did. */
PF__INLINE int pf__atomic_cas_int(int *p, int expect, int v)
{
#if PF__PORT_GNU
    return __atomic_compare_exchange_n(p, &expect, v, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
#elif PF__PORT_MSVC
    return _InterlockedCompareExchange((volatile long *)p, (long)v, (long)expect) == (long)expect;
#else
    return atomic_compare_exchange_strong_explicit((_Atomic int *)(void *)p, &expect, v, memory_order_relaxed,
                                                   memory_order_relaxed);
#endif
}

/* Adds v to *p; returns the value before. */
PF__INLINE uint64_t pf__atomic_add_u64(uint64_t *p, uint64_t v)
{
#if PF__PORT_GNU
    return __atomic_fetch_add(p, v, __ATOMIC_RELAXED);
#elif PF__PORT_MSVC
    return (uint64_t)_InterlockedExchangeAdd64((volatile __int64 *)p, (__int64)v);
#else
    return atomic_fetch_add_explicit((_Atomic uint64_t *)(void *)p, v, memory_order_relaxed);
#endif
}

PF__INLINE uint32_t pf__atomic_add_u32(uint32_t *p, uint32_t v)
{
#if PF__PORT_GNU
    return __atomic_fetch_add(p, v, __ATOMIC_RELAXED);
#elif PF__PORT_MSVC
    return (uint32_t)_InterlockedExchangeAdd((volatile long *)p, (long)v);
#else
    return atomic_fetch_add_explicit((_Atomic uint32_t *)(void *)p, v, memory_order_relaxed);
#endif
}

PF__INLINE void pf__atomic_store_int(int *p, int v)
{
#if PF__PORT_GNU
    __atomic_store_n(p, v, __ATOMIC_RELAXED);
#elif PF__PORT_MSVC
    __iso_volatile_store32((volatile int *)p, v);
#else
    atomic_store_explicit((_Atomic int *)(void *)p, v, memory_order_relaxed);
#endif
}

#endif
