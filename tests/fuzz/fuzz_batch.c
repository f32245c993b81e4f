/* fuzz_batch.c - the batch API fed random queries (invalid ones included), checked against pf_search.
 *
 * Input layout (reads past the end yield 0):
 *   byte 0     bits 0-1 move rule - 1, bit 2 weighted, bits 3-4 workers - 1, bit 5 no dedup,
 *              bit 6 no groups, bit 7 budgeted runs
 *   byte 1-2   width-1, height-1 (mod 12); then width*height cell bytes as in fuzz_search
 *   byte       budget in expansions per run (when budgeted; 0 = 1)
 *   then up to 48 queries of 6 bytes: start, goal (mod cells + 2, 0xff = far out of range), algo,
 *   weight selector, max_expansions selector, repeat count (same query submitted again: dedup)
 * Runs go through the job-system entry (prepare, run_job on worker job % workers, finish), serially,
 * so a fuzz run is deterministic. Every result must equal a separate pf_search of the same query:
 * status, cost, and (outside group moves, which may pick another optimal path) the path itself.
 * Stale and foreign ids must be refused, and no allocation may leak.
 */
#include <math.h>
#include "fuzz_common.h"
#include "oracle.h"
#include "pathfind/pf_batch.h"

typedef struct rd { const uint8_t *p, *end; } rd;
static uint8_t rb(rd *r) { return r->p < r->end ? *r->p++ : 0; }

static const float CELL_COSTS[8] = {1.0f, 1.0f, 2.0f, 1.5f, 0.25f, 8.0f, 1e-3f, 1e6f};
static const double WEIGHTS[6] = {0.0, 1.0, 2.5, 0.5, NAN, 1e300};

enum { MAXQ = 48 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    rd r = {data, data + size};
    uint8_t b = rb(&r);
    uint32_t w = 1u + rb(&r) % 12u, h = 1u + rb(&r) % 12u, n = w * h;
    uint8_t cells[144];
    float costs[144];
    for (uint32_t i = 0; i < n; i++) {
        uint8_t c = rb(&r);
        cells[i] = (c & 3u) == 0 ? 0 : ((c >> 2) & 3u) == 0 ? 2 : 1;
        costs[i] = CELL_COSTS[(c >> 4) & 7u];
    }
    fuzz_alloc_state as = {.max_size = (size_t)1 << 24};
    pf_map *map;
    pf_grid_desc gd = {.width = w, .height = h, .moves = (pf_moves)(1 + (b & 3u)), .cells = cells,
                       .costs = (b & 4u) ? costs : NULL};
    FUZZ_CHECK(pf_grid_create(&gd, &map) == PF_OK);
    pf_ctx *ref;
    FUZZ_CHECK(pf_ctx_create(map, NULL, &ref) == PF_OK);

    uint32_t workers = 1u + ((b >> 3) & 3u);
    pf_batch_desc bd = {.allocator = fuzz_alloc_hooks(&as), .workers = workers,
                        .flags = ((b >> 5) & 1u ? PF_BATCH_NO_DEDUP : 0u) | ((b >> 6) & 1u ? PF_BATCH_NO_GROUPS : 0u),
                        .group_min = 2, .suspend_slots = 1, .arena_bytes = 64};
    pf_batch *batch;
    FUZZ_CHECK(pf_batch_create(map, &bd, &batch) == PF_OK);
    FUZZ_CHECK(pf_batch_worker_count(batch) == workers);
    uint8_t bud = rb(&r);
    pf_batch_budget budget = {.max_expansions = (b >> 7) ? (uint64_t)(bud ? bud : 1) : 0};

    pf_batch_query qs[MAXQ];
    pf_query_id ids[MAXQ];
    uint32_t nq = 0;
    while (nq < MAXQ && r.p < r.end) {
        uint8_t sv = rb(&r), gv = rb(&r), al = rb(&r), wt = rb(&r), me = rb(&r), rep = rb(&r);
        pf_batch_query q = {0};
        q.start = sv == 0xff ? PF_NODE_NONE : sv % (n + 2);
        q.goal = gv == 0xff ? UINT32_MAX - 7 : gv % (n + 2);
        q.search.algo = (pf_algo)(al % (PF_ALGO__COUNT + 1));
        q.search.weight = WEIGHTS[wt % 6];
        q.search.max_expansions = me < 230 ? 0 : me - 229u;
        q.tag = nq * 1000u + sv;
        for (uint32_t k = 0; k <= rep % 3u && nq < MAXQ; k++) {
            qs[nq] = q;
            FUZZ_CHECK(pf_batch_submit(batch, &q, &ids[nq]) == PF_OK);
            FUZZ_CHECK(ids[nq].id != 0);
            nq++;
        }
    }

    /* job-system path, serially; budgeted runs leave queries pending for the next run */
    for (int run = 0; run < 10000; run++) {
        pf_batch_stats bs = pf_batch_get_stats(batch);
        if (bs.pending == 0) break;
        FUZZ_CHECK(run < 9999);
        FUZZ_CHECK(pf_batch_prepare(batch, &budget) == PF_OK);
        FUZZ_CHECK(pf_batch_prepare(batch, &budget) == PF_BATCH_BUSY); /* already prepared */
        uint32_t jobs = pf_batch_job_count(batch);
        for (uint32_t j = 0; j < jobs; j++) FUZZ_CHECK(pf_batch_run_job(batch, j, j % workers) == PF_OK);
        if (jobs) FUZZ_CHECK(pf_batch_run_job(batch, 0, 0) == PF_JOB_ALREADY_RUN); /* twice */
        FUZZ_CHECK(pf_batch_run_job(batch, jobs, 0) == PF_BAD_JOB);
        FUZZ_CHECK(pf_batch_finish(batch) == PF_OK);
    }

    uint32_t nodes[144];
    for (uint32_t i = 0; i < nq; i++) {
        pf_batch_result res;
        FUZZ_CHECK(pf_batch_get(batch, ids[i], &res) == PF_OK);
        FUZZ_CHECK(res.tag == qs[i].tag);
        pf_path path = {.nodes = nodes, .capacity = 144};
        pf_stats st;
        pf_status want = pf_search(ref, qs[i].start, qs[i].goal, &qs[i].search, &path, &st);
        FUZZ_CHECK(res.status == want);
        /* how it was answered travels with the result (a group move is its own search) */
        if (!(res.flags & PF_BATCH_RESULT_GROUPED) && !pf_failed(want))
            FUZZ_CHECK(res.stats.algo == st.algo && res.stats.detail == st.detail);
        if (want != PF_OK) {
            FUZZ_CHECK(res.path == NULL || res.path_len == 0);
            continue;
        }
        /* a group move may pick another optimal path, with another number of cells on weighted grids */
        FUZZ_CHECK(res.path != NULL && res.path_len > 0);
        if (!(res.flags & PF_BATCH_RESULT_GROUPED)) FUZZ_CHECK(res.path_len == path.len);
        FUZZ_CHECK(fabs(res.stats.cost - st.cost) <= 1e-9 * (1 + st.cost));
        FUZZ_CHECK(res.path[0] == qs[i].start && res.path[res.path_len - 1] == qs[i].goal);
        /* Theta*'s path is turning points, not grid steps: its cost is its Euclidean length */
        double pc = qs[i].search.algo == PF_ALGO_THETA ? st.cost : oracle_path_cost(map, res.path, res.path_len);
        FUZZ_CHECK(isfinite(pc) && fabs(pc - st.cost) <= 1e-9 * (1 + pc));
        if (!(res.flags & PF_BATCH_RESULT_GROUPED))
            FUZZ_CHECK(memcmp(res.path, nodes, path.len * sizeof nodes[0]) == 0);
    }
    /* ids that were never handed out, and ids after a reset, are refused */
    pf_batch_result res;
    FUZZ_CHECK(pf_batch_get(batch, (pf_query_id){0}, &res) != PF_OK);
    FUZZ_CHECK(pf_batch_get(batch, (pf_query_id){0xFFFFFFFFu}, &res) != PF_OK);
    FUZZ_CHECK(pf_batch_reset(batch) == PF_OK);
    if (nq) FUZZ_CHECK(pf_batch_get(batch, ids[0], &res) != PF_OK);

    pf_batch_destroy(batch);
    FUZZ_CHECK(fuzz_alloc_live(&as) == 0);
    fuzz_alloc_reset(&as);
    pf_ctx_destroy(ref);
    pf_map_destroy(map);
    return 0;
}
