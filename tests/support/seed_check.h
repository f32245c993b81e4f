/* seed_check.h - checks for property tests that draw one random map a seed: a failure names the
 * seed (replay it with PF_TEST_SEED) and the line. The test defines `static uint64_t cur_seed`
 * and sets it before drawing each map; include after cmocka.h. */
#ifndef PF_TEST_SEED_CHECK_H
#define PF_TEST_SEED_CHECK_H

#define CHECK(c)                                                                                   \
    do {                                                                                           \
        if (!(c)) fail_msg("seed %llu, line %d: %s", (unsigned long long)cur_seed, __LINE__, #c);  \
    } while (0)
#define CHECK_EQ(a, b)                                                                             \
    do {                                                                                           \
        long long a_ = (long long)(a), b_ = (long long)(b);                                        \
        if (a_ != b_)                                                                              \
            fail_msg("seed %llu, line %d: %s = %lld, not %lld", (unsigned long long)cur_seed, __LINE__, #a, a_, b_); \
    } while (0)

#endif
