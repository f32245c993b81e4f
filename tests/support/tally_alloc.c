/* tally_alloc.c - see tally_alloc.h. The lock is dropped around the system allocation itself so
 * that it does not serialise the workers more than the library's own allocations do. */
#include "tally_alloc.h"
#include <stdlib.h>
#include <string.h>

static void *tally_alloc(size_t size, size_t align, void *user)
{
    tally *t = user;
    pthread_mutex_lock(&t->mu);
    t->calls++;
    if (size > t->largest) t->largest = size;
    int ok = size <= t->limit;
    pthread_mutex_unlock(&t->mu);
    if (!ok) return NULL;
    size_t a = align < sizeof(void *) ? sizeof(void *) : align;
    void *p = aligned_alloc(a, (size + a - 1) / a * a);
    if (!p) return NULL;
    pthread_mutex_lock(&t->mu);
    t->live += size;
    if (t->live > t->peak) t->peak = t->live;
    pthread_mutex_unlock(&t->mu);
    return p;
}

static void tally_free(void *p, size_t size, void *user)
{
    tally *t = user;
    if (!p) return;
    pthread_mutex_lock(&t->mu);
    t->live -= size;
    pthread_mutex_unlock(&t->mu);
    free(p);
}

void tally_init(tally *t, size_t limit)
{
    memset(t, 0, sizeof *t);
    pthread_mutex_init(&t->mu, NULL);
    t->limit = limit;
}

pf_allocator tally_hooks(tally *t) { return (pf_allocator){tally_alloc, tally_free, t}; }

size_t tally_calls(tally *t)
{
    pthread_mutex_lock(&t->mu);
    size_t n = t->calls;
    pthread_mutex_unlock(&t->mu);
    return n;
}

size_t tally_held(tally *t)
{
    pthread_mutex_lock(&t->mu);
    size_t n = t->live;
    pthread_mutex_unlock(&t->mu);
    return n;
}
