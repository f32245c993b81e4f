/* accel_ctx.c - the accelerator on a search context: the state its queries keep there (records by
 * node and by core index, parents, labels, buffers), made on first use or by a reserve, kept while
 * the attached accelerator fits it; attaching, adopting and what it all weighs. */
#include <string.h>
#include "accel/accel_query_internal.h"
#include "core_batch_internal.h"

/* ---- per-context state ---------------------------------------------------------------------- */

/* both_ways' records (nr, gr, nopen, gopen): freed, and made for acc's nodes (0 when out of memory); kept
 * while the attached accelerator's nodes fit them. */
static size_t node_bytes(uint32_t n) { return 2u * pf__nodes_bytes(n, 1); }

static void node_free(pf_ctx *c, pf__accel_ext *x)
{
    pf__free(&c->alloc, x->nr_block, node_bytes(x->nr_count));
    pf__open_free(&x->nopen, &c->alloc);
    pf__open_free(&x->gopen, &c->alloc);
    x->nr_block = NULL;
    x->nr_count = 0;
    memset(&x->nr, 0, sizeof x->nr);
    memset(&x->gr, 0, sizeof x->gr);
}

/* A block of `bytes` for records of n nodes and an open list o of n entries that never grows (a
 * node is on it at most once: decrease-key); NULL, with nothing kept, when out of memory. */
static void *records_make(pf_ctx *c, size_t bytes, uint32_t n, pf__open *o)
{
    void *b = pf__alloc(&c->alloc, bytes, 64);
    if (!b) return NULL;
    if (!pf__open_resize(o, &c->alloc, n)) {
        pf__free(&c->alloc, b, bytes);
        return NULL;
    }
    o->grow = pf__open_no_grow;
    return b;
}

int pf__accel_node_make(pf_ctx *c, pf__accel_ext *x)
{
    const uint32_t n = x->acc->nodes;
    if (x->nr_count >= n) return 1;
    node_free(c, x);
    void *b = records_make(c, node_bytes(n), n, &x->nopen);
    if (!b) return 0;
    if (!pf__open_resize(&x->gopen, &c->alloc, n)) {
        pf__free(&c->alloc, b, node_bytes(n));
        pf__open_free(&x->nopen, &c->alloc);
        return 0;
    }
    x->gopen.grow = pf__open_no_grow;
    pf__nodes_place(&x->nr, b, n, 1);
    pf__nodes_place(&x->gr, (char *)b + pf__nodes_bytes(n, 1), n, 1);
    x->nopen.pg = x->nr.page;
    x->nr_block = b;
    x->nr_count = n;
    return 1;
}

/* The records of the A* across the core (cr, copen): freed, and made for acc's core (0 when
 * out of memory); kept while the attached accelerator's core fits them. */
static size_t core_bytes(uint32_t n) { return pf__nodes_bytes(n, 1) + pf__align64((size_t)n * sizeof(double)); }

static void core_free(pf_ctx *c, pf__accel_ext *x)
{
    pf__free(&c->alloc, x->cr_block, core_bytes(x->cr_count));
    x->ch = NULL;
    pf__open_free(&x->copen, &c->alloc);
    x->cr_block = NULL;
    x->cr_count = 0;
    memset(&x->cr, 0, sizeof x->cr);
}

int pf__accel_core_make(pf_ctx *c, pf__accel_ext *x)
{
    const uint32_t n = x->acc->core;
    if (x->cr_count >= n) return 1;
    core_free(c, x);
    void *b = records_make(c, core_bytes(n), n, &x->copen);
    if (!b) return 0;
    pf__nodes_place(&x->cr, b, n, 1);
    x->ch = (double *)(void *)((char *)b + pf__nodes_bytes(n, 1));
    x->copen.pg = x->cr.page;
    x->cr_block = b;
    x->cr_count = n;
    return 1;
}

static void ext_release_query(pf_ctx *c, pf__accel_ext *x)
{
    core_free(c, x);
    node_free(c, x);
    pf__free(&c->alloc, x->ckey, (size_t)x->ccap * sizeof(uint32_t));
    pf__free(&c->alloc, x->cg, (size_t)x->ccap * sizeof(double));
    pf__free_lazy(&c->alloc, x->parent, (size_t)c->count * sizeof(uint32_t), x->parent_lazy);
    x->parent_lazy = 0;
    pf__free(&c->alloc, x->seeds, (size_t)x->seeds_cap * sizeof(pf__accel_seed));
    pf__free(&c->alloc, x->lkey, (size_t)x->lcap * sizeof(uint32_t));
    pf__free(&c->alloc, x->lpar, (size_t)x->lcap * sizeof(uint32_t));
    pf__free(&c->alloc, x->lg, (size_t)x->lcap * sizeof(double));
    pf__free(&c->alloc, x->path, (size_t)x->path_cap * sizeof(uint32_t));
    pf__free(&c->alloc, x->stk, (size_t)x->stk_cap * sizeof(uint32_t));
    pf__free(&c->alloc, x->chain, (size_t)x->chain_cap * sizeof(uint32_t));
    const pf_accel *acc = x->acc;
    memset(x, 0, sizeof *x);
    x->acc = acc;
}

static void ext_destroy(pf_ctx *c, void *p)
{
    pf__accel_ext *x = p;
    ext_release_query(c, x);
    pf__free(&c->alloc, x, sizeof *x);
}

static void *ext_create(pf_ctx *c) { return pf__calloc(&c->alloc, sizeof(pf__accel_ext), 64); }

pf_status pf_ctx_use_accel(pf_ctx *ctx, const pf_accel *acc)
{
    if (!ctx) return PF_INVALID_ARGUMENT;
    PF__CHECK_HANDLE(ctx, PF__TAG_CTX, "pf_ctx");
    if (acc && !pf__accel_attachable(acc, ctx->map)) return PF_WRONG_MAP;
    /* as pf_ctx_init_static refuses desc.accel: its per-context state is not carved (it answered
     * PF_OUT_OF_MEMORY, which a caller's own memory never is) */
    if (acc && ctx->fixed) return PF_UNSUPPORTED;
    return pf__ctx_adopt_accel(ctx, acc);
}


/* A batch adopts an accelerator at a named run whatever edits came since it was built (pf_batch.h,
 * ADOPTED ACCELERATORS): attached stale, it answers nothing until the map's fingerprint is its own
 * again (pf__auto_pick checks it at every query); with PF_ACCEL_EDITS_CHECK its first attachment
 * starts its diff against the live map (a rebuild's copy may be some edits old), and it answers
 * what it can prove from then on. The first attachment is made between runs, where the map is
 * quiet: the diff reads the live cells, and the accelerator's own state changes (its one mutable
 * part, like a PF_ACCEL_EDITS_REBUILD one's inside an edit). */
int pf__ctx_accel_running(const pf_ctx *ctx)
{
    const pf__search *s = &ctx->s;
    return s->active != PF__SEARCH_NONE && s->status == PF_IN_PROGRESS && s->d.algo == PF_ALGO_AUTO;
}

pf_status pf__ctx_adopt_accel(pf_ctx *ctx, const pf_accel *acc)
{
    if (acc && acc->map != ctx->map) return PF_WRONG_MAP;
    const pf__accel_ext *cur = pf__ctx_ext_get(ctx, PF__EXT_ACCEL);
    /* an accelerated query suspended part way (SLICES) holds seeds, records by node index and
     * queued arcs of its accelerator: with another, or none, it begins again at its next step, as
     * after an edit (pf_search_step: the version it searched is not the map's). A batch plans such
     * queries again before it adopts one (batch/src/adopt.c). */
    if (pf__ctx_accel_running(ctx) && (cur ? cur->acc : NULL) != acc) ctx->s.version = ~ctx->map->version;
    if (!acc) {
        pf__ctx_ext_drop(ctx, PF__EXT_ACCEL);
        return PF_OK;
    }
    if (acc->desc.edits == PF_ACCEL_EDITS_CHECK) {
        pf_accel *w = (pf_accel *)(uintptr_t)acc;
        while (atomic_flag_test_and_set_explicit(&w->diff_lock, memory_order_acquire)) {
        }
        int failed = !w->diff_tried && !pf__accel_diff_start(w);
        atomic_flag_clear_explicit(&w->diff_lock, memory_order_release);
        if (failed) return PF_OUT_OF_MEMORY;
    }
    pf__accel_ext *x = pf__ctx_ext(ctx, PF__EXT_ACCEL);
    if (!x) return PF_OUT_OF_MEMORY;
    /* the same accelerator again leaves a query and its path as they are: a query suspended with
     * its answer written and units still owed (SLICES) would otherwise answer with no path */
    if (x->acc != acc) {
        x->acc = acc;
        x->path_len = 0;
    }
    return PF_OK;
}

size_t pf_ctx_accel_mem_size(const pf_ctx *ctx)
{
    const pf__accel_ext *x = ctx ? pf__ctx_ext_get(ctx, PF__EXT_ACCEL) : NULL;
    if (!x) return 0;
    return sizeof *x + (x->parent ? (size_t)ctx->count * sizeof(uint32_t) : 0) +
           (size_t)x->seeds_cap * sizeof(pf__accel_seed) + (size_t)x->lcap * (2 * sizeof(uint32_t) + sizeof(double)) +
           ((size_t)x->path_cap + x->stk_cap + x->chain_cap) * sizeof(uint32_t) +
           (x->cr_block ? core_bytes(x->cr_count) + pf__open_bytes(x->cr_count) : 0) +
           (x->nr_block ? node_bytes(x->nr_count) + 2u * pf__open_bytes(x->nr_count) : 0) +
           (size_t)x->ccap * (sizeof(uint32_t) + sizeof(double));
}


/* The parents, made by the first query (or a reserve); 0 when out of memory. */
int pf__accel_make_parent(pf_ctx *c, pf__accel_ext *x)
{
    size_t bytes = (size_t)c->count * sizeof(uint32_t);
    /* a lazy context's (a batch's spare made inside a run) are lazy too, as JPS's are: written
     * now, 16 MB on 2000x2000, they cost the frame that made the spare 40 ms (rooms-2000 replay,
     * auto). Only reached nodes' parents are ever read, so nothing needs them cleared. */
    if (c->lazy) {
        x->parent = pf__alloc_lazy(&c->alloc, bytes, 0, &x->parent_lazy);
        return x->parent != NULL;
    }
    x->parent = pf__alloc(&c->alloc, bytes, 64);
    if (!x->parent) return 0;
    /* faulted in now, once, not a page at a time inside later queries (as ctx.c does) */
    memset(x->parent, 0xFF, bytes);
    return 1;
}

/* The parents, and room for the buffers a typical query uses (they grow on demand beyond it). */
static int ext_reserve(pf_ctx *c, void *p)
{
    pf__accel_ext *x = p;
    /* a hierarchy without a core is searched on records by node index (both_ways) alone */
    if (x->acc && !x->acc->core) {
        if (!pf__accel_node_make(c, x)) return 0;
    } else {
        if (!x->parent && !pf__accel_make_parent(c, x)) return 0;
        if (!x->lcap && !pf__accel_labels_reset(c, x, 1024u)) return 0;
        if (x->acc && x->acc->core && (!pf__accel_core_make(c, x) || !pf__accel_core_labels_room(c, x, 1024u))) return 0;
    }
    /* put_arcs' queue holds a level of the path's arcs, PF__ACCEL_QW words each, never more than the path's
     * steps: as many entries as the path reserved has cells */
    return pf__accel_grow_u32(c, &x->path, &x->path_cap, 1024u) && pf__accel_grow_u32(c, &x->stk, &x->stk_cap, PF__ACCEL_QW * 1024u) &&
           pf__accel_grow_u32(c, &x->chain, &x->chain_cap, 256u) &&
           pf__grow_slow(&c->alloc, &x->seeds, &x->seeds_cap, 256u, sizeof *x->seeds, 64u, 0);
}

const pf__ext_class pf__ext_accel = {ext_create, ext_destroy, ext_reserve, NULL};
