/* tally_alloc.h - a counting pf_allocator that batches with several workers may call at once
 * (testutil.h's test_tracker is for one thread): counts requests, bytes held now and at most,
 * the largest request (refused ones too), and refuses every request above a limit.
 *     tally t;
 *     tally_init(&t, SIZE_MAX);                 (no limit)
 *     pf_batch_desc d = {.allocator = tally_hooks(&t), .workers = 2};
 * Read the fields directly once the batch's threads are done, or through tally_calls and
 * tally_held while they may still be running. */
#ifndef PF_TEST_TALLY_ALLOC_H
#define PF_TEST_TALLY_ALLOC_H

#include <pthread.h>
#include <stddef.h>
#include "pathfind.h"

typedef struct tally {
    pthread_mutex_t mu;
    size_t calls, live, peak, largest;
    size_t limit; /* requests above it fail */
} tally;

void         tally_init(tally *t, size_t limit);
pf_allocator tally_hooks(tally *t);
size_t       tally_calls(tally *t);
size_t       tally_held(tally *t);

#endif
