/* test_port.c - the plain-C branch of port_internal.h (what a compiler without GCC's builtins or
 * MSVC's intrinsics gets) against bit-by-bit definitions. The other branches run under every other
 * test: the library is built with them. */
#define PF_PORT_PLAIN
#include "port_internal.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include "testutil.h"

_Static_assert(!PF__PORT_GNU && !PF__PORT_MSVC, "PF_PORT_PLAIN must select the plain branch");

static uint32_t ctz_loop(uint64_t x)
{
    uint32_t n = 0;
    while (!(x & 1u)) {
        x >>= 1;
        n++;
    }
    return n;
}

static uint32_t clz_loop(uint64_t x)
{
    uint32_t n = 0;
    while (!(x & (UINT64_C(1) << 63))) {
        x <<= 1;
        n++;
    }
    return n;
}

/* every single bit, every lowest/highest bit under random upper/lower bits, and random words */
static void test_bit_scans(void **state)
{
    (void)state;
    uint64_t s = 28;
    for (uint32_t b = 0; b < 64; b++) {
        uint64_t one = UINT64_C(1) << b;
        assert_int_equal(pf__ctz64(one), b);
        assert_int_equal(pf__clz64(one), 63u - b);
        for (int k = 0; k < 200; k++) {
            uint64_t r = rng_next(&s);
            uint64_t lo = (r | one) & ~(one - 1u);       /* lowest set bit is b */
            uint64_t hi = (r | one) & (one | (one - 1u)); /* highest set bit is b */
            assert_int_equal(pf__ctz64(lo), b);
            assert_int_equal(pf__clz64(hi), 63u - b);
            if (b < 32) assert_int_equal(pf__ctz32((uint32_t)lo), b);
        }
    }
    for (int k = 0; k < 100000; k++) {
        uint64_t r = rng_next(&s) >> rng_below(&s, 64);
        if (!r) continue;
        assert_int_equal(pf__ctz64(r), ctz_loop(r));
        assert_int_equal(pf__clz64(r), clz_loop(r));
        if ((uint32_t)r) assert_int_equal(pf__ctz32((uint32_t)r), ctz_loop((uint32_t)r));
    }
}

static void test_atomics(void **state)
{
    (void)state;
    uint64_t w = UINT64_C(0x8000000000000001);
    assert_true(pf__atomic_or_u64(&w, 6u) == UINT64_C(0x8000000000000001));
    assert_true(pf__atomic_load_u64(&w) == UINT64_C(0x8000000000000007));
    uint8_t b = 3;
    pf__atomic_store_u8(&b, 200);
    assert_int_equal(pf__atomic_load_u8(&b), 200);
    int e = 0;
    assert_true(pf__atomic_cas_int(&e, 0, -5));
    assert_false(pf__atomic_cas_int(&e, 0, 7)); /* only the first failure is kept */
    assert_int_equal(pf__atomic_load_int(&e), -5);
}

/* the hints change no value */
static void test_hints(void **state)
{
    (void)state;
    int a[4] = {1, 2, 3, 4};
    PF__PREFETCH(&a[2]);
    assert_true(PF__LIKELY(a[2] == 3));
    assert_false(PF__UNLIKELY(a[3] == 3));
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_bit_scans), cmocka_unit_test(test_atomics),
                                       cmocka_unit_test(test_hints)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
