/* accel_squad.c - a squad's shared goal side: its memory (accel_internal.h says what it holds;
 * accel_query.c makes it and reads it). Kept by its batch from one squad to the next, so that frames
 * of squads allocate nothing once the first ones made their room. */
#include <string.h>
#include "accel/accel_internal.h"
#include "core_batch_internal.h"

pf__accel_squad *pf__accel_squad_create(const pf_allocator *alloc)
{
    pf__accel_squad *q = pf__calloc(alloc, sizeof *q, 64);
    if (!q) return NULL;
    q->alloc = *alloc;
    atomic_init(&q->state, PF__SQUAD_EMPTY);
    return q;
}

static void labels_free(pf__accel_squad *q)
{
    pf__free(&q->alloc, q->lkey, (size_t)q->lroom * sizeof(uint32_t));
    pf__free(&q->alloc, q->lpar, (size_t)q->lroom * sizeof(uint32_t));
    pf__free(&q->alloc, q->lg, (size_t)q->lroom * sizeof(double));
    q->lkey = q->lpar = NULL;
    q->lg = NULL;
    q->lcap = q->lcount = q->lroom = 0;
}

static void core_labels_free(pf__accel_squad *q)
{
    pf__free(&q->alloc, q->ckey, (size_t)q->croom * sizeof(uint32_t));
    pf__free(&q->alloc, q->cg, (size_t)q->croom * sizeof(double));
    q->ckey = NULL;
    q->cg = NULL;
    q->ccap = q->ccount = q->croom = 0;
}

static void records_free(pf__accel_squad *q)
{
    pf__free(&q->alloc, q->gr_block, pf__nodes_bytes(q->gr_count, 1));
    q->gr_block = NULL;
    q->gr_count = 0;
    memset(&q->gr, 0, sizeof q->gr);
}

int pf__accel_squad_room(pf__accel_squad *q, uint32_t lcap, uint32_t ccap, uint32_t n)
{
    if (lcap > q->lroom) {
        labels_free(q);
        q->lkey = pf__alloc(&q->alloc, (size_t)lcap * sizeof(uint32_t), 64);
        q->lpar = pf__alloc(&q->alloc, (size_t)lcap * sizeof(uint32_t), 64);
        q->lg = pf__alloc(&q->alloc, (size_t)lcap * sizeof(double), 64);
        q->lroom = lcap;
        if (!q->lkey || !q->lpar || !q->lg) {
            labels_free(q); /* NULL ones are skipped */
            return 0;
        }
    }
    if (ccap > q->croom) {
        core_labels_free(q);
        q->ckey = pf__alloc(&q->alloc, (size_t)ccap * sizeof(uint32_t), 64);
        q->cg = pf__alloc(&q->alloc, (size_t)ccap * sizeof(double), 64);
        q->croom = ccap;
        if (!q->ckey || !q->cg) {
            core_labels_free(q);
            return 0;
        }
    }
    if (n > q->gr_count) {
        records_free(q);
        q->gr_block = pf__alloc(&q->alloc, pf__nodes_bytes(n, 1), 64);
        if (!q->gr_block) return 0;
        q->gr_count = n;
        pf__nodes_place(&q->gr, q->gr_block, n, 1);
    }
    return 1;
}

void pf__accel_squad_reset(pf__accel_squad *q)
{
    atomic_store_explicit(&q->state, PF__SQUAD_EMPTY, memory_order_relaxed);
    q->acc_serial = 0; /* no accelerator's (serials start at 1) */
    q->lcount = q->ccount = 0;
    q->expanded = q->pushed = 0;
}

int pf__accel_squad_made(const pf__accel_squad *q)
{
    return atomic_load_explicit(&((pf__accel_squad *)(uintptr_t)q)->state, memory_order_acquire) == PF__SQUAD_READY;
}

void pf__accel_squad_destroy(pf__accel_squad *q)
{
    if (!q) return;
    labels_free(q);
    core_labels_free(q);
    records_free(q);
    pf_allocator a = q->alloc;
    pf__free(&a, q, sizeof *q);
}

size_t pf__accel_squad_mem_size(const pf__accel_squad *q)
{
    if (!q) return 0;
    return sizeof *q + (size_t)q->lroom * (2u * sizeof(uint32_t) + sizeof(double)) +
           (size_t)q->croom * (sizeof(uint32_t) + sizeof(double)) + (q->gr_block ? pf__nodes_bytes(q->gr_count, 1) : 0);
}
