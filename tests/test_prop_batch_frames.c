/* test_prop_batch_frames.c - frames of a game, run five ways: random frames of submits, cancels,
 * supersedes, squads, duplicates, flow fields, sizes, filters, partial and waypoint queries, edits
 * every few frames and expansion budgets of 1 to 850, run with 1, 2 and 3 workers (pf_batch_run)
 * and through the job entry points on 2 threads and on 3 taking the jobs in reverse: every query's
 * outcome (frame, status, cost bits, path, map version) is the same in the five, every answer
 * equals a plain pf_search and the Dijkstra oracle, a cancelled query never answers, none is lost.
 * Written as a review's harness (it found a group whose members' own searches overwrote the
 * context the group's results were written from again, and AUTO picking JPS+ by a worker's past);
 * seeds: PF_TEST_SEED replays one, PF_TEST_SCALE scales the count. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pathfind.h"
#include "oracle.h"
#include "maps.h"
#include "testutil.h"

#define MAXQ 4096
typedef struct rec {
    int st, cancelled_by_me; /* 0 none, 1 cancel, 2 superseded */
    int64_t frame;           /* frame in which final, -1 not yet */
    double cost;
    uint32_t plen, flags, algo, detail, expanded;
    uint64_t phash, ver;
    pf_query_id id;
    pf_batch_query q;
} rec;

/* Options of a run: reserve calls between frames (rmask: which of their fields are kept, -1 all),
 * AUTO queries asked as JPS. */
typedef struct fz_opt { int reserve, rmask, noauto; } fz_opt;

static int g_bad;
#define BAD(...) do { g_bad++; if (g_bad < 30) { print_message("  BAD seed %llu mode %d: ", (unsigned long long)seed, mode); print_message(__VA_ARGS__); print_message("\n"); } } while (0)

typedef struct jobarg { pf_batch *b; uint32_t w, n; atomic_uint *next; int rev; } jobarg;
static void *jobthr(void *p)
{
    jobarg *a = p;
    for (;;) {
        uint32_t k = atomic_fetch_add(a->next, 1u);
        if (k >= a->n) break;
        uint32_t j = a->rev ? a->n - 1 - k : k;
        pf_status st = pf_batch_run_job(a->b, j, a->w);
        if (st != PF_OK) abort(); /* a job refused: cannot happen (the test would hang otherwise) */
    }
    return NULL;
}

static pf_status run_mode(pf_batch *b, const pf_batch_budget *bud, int mode, uint32_t nw)
{
    if (mode < 3) return pf_batch_run(b, bud);
    pf_status st = pf_batch_prepare(b, bud);
    if (st != PF_OK) return st;
    uint32_t n = pf_batch_job_count(b);
    atomic_uint next = 0;
    pthread_t th[8];
    jobarg a[8];
    for (uint32_t w = 0; w < nw; w++) {
        a[w] = (jobarg){b, w, n, &next, mode == 4};
        pthread_create(&th[w], NULL, jobthr, &a[w]);
    }
    for (uint32_t w = 0; w < nw; w++) pthread_join(th[w], NULL);
    return pf_batch_finish(b);
}

static pf_move_filter g_filt[2];
/* One scenario run in one mode; returns a hash of all outcomes. */
static uint64_t scenario(uint64_t seed, int mode, uint32_t nw, rec *R, uint32_t *nR, int check, const fz_opt *o)
{
    uint64_t s = seed * 7919u + 17u;
    uint32_t w = 40 + lcg_next(&s) % 40, h = 30 + lcg_next(&s) % 40;
    pf_moves mv = (pf_moves[]){PF_MOVES_4, PF_MOVES_8_CUT, PF_MOVES_8_NO_CUT}[lcg_next(&s) % 3];
    int weighted = lcg_next(&s) % 2;
    uint8_t *cls = malloc((size_t)w * h);
    float *cost = malloc((size_t)w * h * sizeof *cost);
    for (size_t i = 0; i < (size_t)w * h; i++) {
        uint32_t r = lcg_next(&s) % 100;
        cls[i] = r < 20 ? 0 : (r < 26 ? 2 : 1);
        cost[i] = 1.0f + (float)(lcg_next(&s) % 4) * 0.5f;
    }
    pf_map *m = grid_make(w, h, mv, cls, weighted ? cost : NULL);
    free(cls); free(cost);
    uint32_t slots = 1 + lcg_next(&s) % 3, flags = 0;
    if (lcg_next(&s) % 4 == 0) flags |= PF_BATCH_FINISH_ON_EDIT;
    if (lcg_next(&s) % 5 == 0) flags |= PF_BATCH_NO_GROUPS;
    uint32_t gmin = 2 + lcg_next(&s) % 3;
    pf_batch *b;
    pf_batch_desc bdesc = {.workers = nw, .suspend_slots = slots, .flags = flags,
                                                       .group_min = gmin, .arena_bytes = 4096};
    pf_status cs = pf_batch_create(m, &bdesc, &b);
    assert_int_equal(cs, PF_OK);
    uint32_t budget_kind = lcg_next(&s) % 4; /* 0: 1 expansion, 1: small, 2: medium, 3: none */
    uint32_t edit_every = 2 + lcg_next(&s) % 4;
    int edits = lcg_next(&s) % 3 != 0;
    uint32_t nframes = 25;
    pf_ctx *ref = NULL;
    pf_ctx_create(m, NULL, &ref);
    *nR = 0;
    uint64_t hash = 1469598103934665603ull;
#define MIX(v) (hash = (hash ^ (uint64_t)(v)) * 1099511628211ull)
    for (uint32_t f = 0; f < nframes + 12; f++) {
        int drain = f >= nframes;
        for (int pass = 0; pass < 2; pass++) {
        if (pass == 0) {
        if (!drain && edits && f % edit_every == edit_every - 1) {
            pf_grid_edit e[2];
            uint32_t ne = 1 + lcg_next(&s) % 2;
            for (uint32_t k = 0; k < ne; k++) {
                uint32_t ew = 1 + lcg_next(&s) % 6, eh = 1 + lcg_next(&s) % 6;
                uint32_t ex = lcg_next(&s) % (w - ew), ey = lcg_next(&s) % (h - eh);
                uint32_t kind = lcg_next(&s) % 3;
                e[k] = (pf_grid_edit){.rect = {(int32_t)ex, (int32_t)ey, ew, eh},
                                      .what = kind == 2 && weighted ? PF_EDIT_COST : PF_EDIT_CLASS,
                                      .cls = (uint8_t)(kind == 0 ? 0 : 1), .cost = 1.5f};
            }
            pf_status es = pf_grid_apply_edits(m, e, ne, NULL);
            if (es != PF_OK) BAD("edit %d", es);
            MIX(es);
        }
        } else {
        uint32_t nsub = drain ? 0 : lcg_next(&s) % 14;
        for (uint32_t k = 0; k < nsub && *nR < MAXQ; k++) {
            rec *r = &R[(*nR)++];
            memset(r, 0, sizeof *r);
            r->frame = -1;
            pf_batch_query q = {0};
            uint32_t shared_goal = lcg_next(&s) % 3 == 0;
            q.start = open_cell(m, &s);
            q.goal = shared_goal && *nR > 1 ? R[*nR - 2].q.goal : open_cell(m, &s);
            if (lcg_next(&s) % 20 == 0) q.goal = 0; /* maybe blocked */
            q.search.algo = (pf_algo[]){PF_ALGO_ASTAR, PF_ALGO_ASTAR, PF_ALGO_DIJKSTRA, PF_ALGO_JPS, PF_ALGO_AUTO,
                                        PF_ALGO_JPS_PLUS}[lcg_next(&s) % 6];
            if (o->noauto && q.search.algo == PF_ALGO_AUTO) q.search.algo = PF_ALGO_JPS;
            uint32_t opt = lcg_next(&s) % 10;
            if (opt == 0) q.search.unit_size = 2 + lcg_next(&s) % 2;
            if (opt == 1) q.search.filter = &g_filt[lcg_next(&s) % 2];
            if (opt == 2) q.search.partial = 1;
            if (opt == 3) q.search.waypoints = 1;
            if (opt == 4) q.search.max_cost = 5 + lcg_next(&s) % 40;
            if (opt == 5) { q.search.partial = 1; q.search.unit_size = 2; }
            if (opt == 6) q.flags |= PF_QUERY_FLOW;
            q.priority = (pf_priority)(lcg_next(&s) % 5 == 0 ? PF_PRIORITY_URGENT
                                       : lcg_next(&s) % 4 == 0 ? PF_PRIORITY_BACKGROUND : PF_PRIORITY_NORMAL);
            q.tag = lcg_next(&s) % 40;
            if (lcg_next(&s) % 10 == 0) q.flags |= PF_QUERY_SUPERSEDE;
            uint32_t dup = lcg_next(&s) % 5;
            if (dup == 0 && *nR > 1) { /* an exact duplicate of an earlier query (its own tag and priority) */
                pf_batch_query o = R[lcg_next(&s) % (*nR - 1)].q;
                o.tag = q.tag; o.priority = q.priority; o.flags = (o.flags & PF_QUERY_FLOW) | (q.flags & PF_QUERY_SUPERSEDE);
                q = o;
            } else if (dup == 1 && *nR > 1) { /* a squad: same goal, options and priority as the previous one */
                pf_batch_query o = R[*nR - 2].q;
                o.start = open_cell(m, &s); o.tag = q.tag; o.flags = q.flags & PF_QUERY_SUPERSEDE;
                if (!(R[*nR - 2].q.flags & PF_QUERY_FLOW)) q = o;
            }
            r->q = q;
            if (q.flags & PF_QUERY_SUPERSEDE)
                for (uint32_t i = 0; i + 1 < *nR; i++)
                    if (R[i].frame < 0 && !R[i].cancelled_by_me && R[i].q.tag == q.tag) R[i].cancelled_by_me = 2;
            pf_status ss = pf_batch_submit(b, &q, &r->id);
            MIX(ss);
            if (ss != PF_OK) BAD("submit %d", ss);
        }
        if (o->reserve && !drain && lcg_next(&s) % 6 == 0) {
            const uint32_t al[] = {1u << PF_ALGO_JPS, 1u << PF_ALGO_JPS_PLUS, 1u << PF_ALGO_ASTAR, 1u << PF_ALGO_THETA, 0};
            pf_batch_reserve_desc rd = {.queries = lcg_next(&s) % 2 ? 50 + lcg_next(&s) % 300 : 0,
                                        .open_list = lcg_next(&s) % 2 ? lcg_next(&s) % 5000 : 0,
                                        .arena_bytes = lcg_next(&s) % 2 ? 1000 + lcg_next(&s) % 20000 : 0,
                                        .spares = (int)(lcg_next(&s) % 2), .algos = al[lcg_next(&s) % 5],
                                        .unit_size = lcg_next(&s) % 3 ? 0 : 2 + lcg_next(&s) % 2};
            if (o->rmask >= 0) {
                unsigned mk = (unsigned)o->rmask;
                if (!(mk & 1)) rd.queries = 0;
                if (!(mk & 2)) rd.open_list = 0;
                if (!(mk & 4)) rd.arena_bytes = 0;
                if (!(mk & 8)) rd.spares = 0;
                if (!(mk & 16)) rd.algos = 0;
                if (!(mk & 32)) rd.unit_size = 0;
            }
            pf_status rs0 = pf_batch_reserve(b, &rd);
            MIX(rs0);
            if (rs0 != PF_OK) BAD("reserve %d", rs0);
        }
        uint32_t ncan = drain ? 0 : lcg_next(&s) % 3;
        for (uint32_t k = 0; k < ncan && *nR; k++) {
            rec *r = &R[lcg_next(&s) % *nR];
            pf_status c = pf_batch_cancel(b, r->id);
            MIX(c);
            if (c == PF_OK && r->frame < 0 && !r->cancelled_by_me) r->cancelled_by_me = 1;
            if (c == PF_OK && r->frame >= 0 && r->frame < (int64_t)f) BAD("cancel of a query answered in a past frame returned OK");
            if (c == PF_EXPIRED_ID && r->frame < 0) BAD("cancel of a pending query q%td: expired", r - R);
        }
        /* after a cancel, the result reads cancelled at once */
        for (uint32_t i = 0; i < *nR; i++) {
            rec *r = &R[i];
            if (r->frame >= 0 || !r->cancelled_by_me) continue;
            pf_batch_result res;
            pf_status gs = pf_batch_get(b, r->id, &res);
            pf_status want = r->cancelled_by_me == 1 ? PF_CANCELLED : PF_SUPERSEDED;
            if (gs != PF_OK || res.status != want) BAD("q%u cancelled (%d): get %d status %d", i, r->cancelled_by_me, gs, res.status);
        }
        pf_batch_budget bud = {.max_expansions = budget_kind == 0 ? 1 : budget_kind == 1 ? 1 + lcg_next(&s) % 60
                                                                                      : 50 + lcg_next(&s) % 800};
        pf_status rs = run_mode(b, drain || budget_kind == 3 ? NULL : &bud, mode, nw);
        MIX(rs);
        if (rs != PF_OK) BAD("run %d", rs);
        }
        /* read every result */
        for (uint32_t i = 0; i < *nR; i++) {
            rec *r = &R[i];
            if (r->frame >= 0) continue;
            pf_batch_result res;
            pf_status gs = pf_batch_get(b, r->id, &res);
            if (gs != PF_OK) { BAD("q%u get %d (never final)", i, gs); r->frame = -2; continue; }
            if (res.status == PF_IN_PROGRESS) continue;
            r->frame = f;
            r->st = res.status;
            r->cost = res.stats.cost;
            r->plen = res.path_len;
            r->flags = res.flags; r->algo = res.stats.algo; r->detail = res.stats.detail; r->expanded = res.stats.expanded;
            r->ver = res.map_version;
            uint64_t ph = 0;
            for (uint32_t k = 0; k < res.path_len; k++) ph = ph * 31 + res.path[k];
            if (res.field) for (size_t k = 0; k < pf_map_node_count(m); k++) ph = ph * 31 + res.field[k];
            r->phash = ph;
            MIX(i); MIX(f); MIX(res.status); MIX(r->plen); MIX(ph); MIX(r->ver);
            uint64_t cb; memcpy(&cb, &r->cost, 8); MIX(cb);
            if (r->cancelled_by_me && res.status != (r->cancelled_by_me == 1 ? PF_CANCELLED : PF_SUPERSEDED))
                BAD("q%u cancelled (%d) but answered status %d in frame %u", i, r->cancelled_by_me, res.status, f);
            if (!r->cancelled_by_me && (res.status == PF_CANCELLED || res.status == PF_SUPERSEDED))
                BAD("q%u never cancelled, status %d", i, res.status);
            if (res.tag != r->q.tag) BAD("q%u tag %llu", i, (unsigned long long)res.tag);
            if (!check || r->cancelled_by_me || (r->q.flags & PF_QUERY_FLOW)) continue;
            if (res.map_version != pf_map_version(m)) continue; /* found on an older version (finish on edit) */
            /* reference: a plain search on this version */
            pf_stats rst;
            pf_status want = pf_search(ref, r->q.start, r->q.goal, &r->q.search, NULL, &rst);
            if (want != res.status) {
                BAD("q%u frame %u status %d, pf_search %d (algo %d size %u partial %d filt %d maxc %g)", i, f, res.status,
                    want, r->q.search.algo, r->q.search.unit_size, r->q.search.partial, r->q.search.filter != NULL,
                    r->q.search.max_cost);
                continue;
            }
            if (res.status == PF_OK || res.status == PF_PARTIAL) {
                if (!close_to(res.stats.cost, rst.cost))
                    BAD("q%u frame %u cost %.9g, pf_search %.9g (algo %d size %u filt %d maxc %g flags %x)", i, f, res.stats.cost,
                        rst.cost, r->q.search.algo, r->q.search.unit_size, r->q.search.filter != NULL, r->q.search.max_cost, res.flags);
                if (res.status == PF_OK && r->q.search.unit_size <= 1) {
                    double *d = oracle_all_filter(m, r->q.start, 0, r->q.search.filter);
                    if (!close_to(res.stats.cost, d[r->q.goal]))
                        BAD("q%u frame %u cost %.9g oracle %.9g", i, f, res.stats.cost, d[r->q.goal]);
                    free(d);
                    if (!r->q.search.waypoints && res.path_len) {
                        double pc = oracle_path_cost_filter(m, res.path, res.path_len, r->q.search.filter);
                        if (!close_to(pc, res.stats.cost) || res.path[0] != r->q.start || res.path[res.path_len - 1] != r->q.goal)
                            BAD("q%u path cost %.9g vs %.9g", i, pc, res.stats.cost);
                    }
                }
            }
        }
        }
        if (drain) {
            pf_batch_stats bs = pf_batch_get_stats(b);
            if (bs.pending == 0 && f >= nframes + 1) break;
        }
        pf_status rr = pf_batch_reset(b);
        if (rr != PF_OK) BAD("reset %d", rr);
    }
    pf_batch_stats bs = pf_batch_get_stats(b);
    if (bs.pending) BAD("%u pending after drain", bs.pending);
    if (bs.completed + bs.cancelled + bs.superseded != bs.submitted)
        BAD("stats: completed %llu + cancelled %llu + superseded %llu != submitted %llu", (unsigned long long)bs.completed,
            (unsigned long long)bs.cancelled, (unsigned long long)bs.superseded, (unsigned long long)bs.submitted);
    for (uint32_t i = 0; i < *nR; i++)
        if (R[i].frame == -1) BAD("q%u never answered", i);
    pf_ctx_destroy(ref);
    pf_batch_destroy(b);
    pf_map_destroy(m);
    return hash;
}

/* The five runs of one seed; the count of faults. */
static int run_seed(uint64_t seed, const fz_opt *o)
{
    static rec R[5][MAXQ];
    uint32_t nR[5];
    uint64_t hs[5];
    const uint32_t nws[5] = {1, 2, 3, 2, 3};
    int bad = 0;
    for (int mode = 0; mode < 5; mode++) {
        g_bad = 0;
        hs[mode] = scenario(seed, mode, nws[mode], R[mode], &nR[mode], mode == 0, o);
        bad += g_bad;
    }
    for (int mode = 1; mode < 5; mode++) {
        if (hs[mode] == hs[0]) continue;
        bad++;
        for (uint32_t i = 0; i < nR[0] && i < nR[mode]; i++) {
            const rec *a = &R[0][i], *c = &R[mode][i];
            if (a->frame == c->frame && a->st == c->st && a->cost == c->cost && a->phash == c->phash && a->ver == c->ver &&
                a->plen == c->plen)
                continue;
            print_message("  seed %llu (PF_TEST_SEED): mode %d differs from 1 worker at q%u: frame %lld/%lld status %d/%d "
                          "cost %a/%a algo %u/%u expanded %u/%u\n",
                          (unsigned long long)seed, mode, i, (long long)a->frame, (long long)c->frame, a->st, c->st, a->cost,
                          c->cost, a->algo, c->algo, a->expanded, c->expanded);
            break;
        }
    }
    return bad;
}

static void init_filters(void)
{
    for (int k = 0; k < 2; k++) {
        pf_move_filter_allow(&g_filt[k], 1, 1.0f);
        if (k) pf_move_filter_allow(&g_filt[k], 2, 3.0f);
    }
}

static void test_random_frames(void **state)
{
    (void)state;
    init_filters();
    const fz_opt plain = {0, -1, 0}, reserving = {1, -1, 0};
    const char *e = getenv("PF_TEST_SEED");
    int bad = 0;
    if (e) {
        bad += run_seed(strtoull(e, NULL, 10), &plain) + run_seed(strtoull(e, NULL, 10), &reserving);
    } else {
        int n = (int)(40 * env_scale());
        for (int i = 1; i <= n && bad < 5; i++) bad += run_seed((uint64_t)i, i % 2 ? &plain : &reserving);
    }
    assert_int_equal(bad, 0);
}

/* The review's seed: a group whose members the group could not answer (max_cost) ran their own
 * searches on the group's context, the account took the results back (finished ahead of it), and
 * the next run wrote them again from that context, whose records were the last own search's: with
 * 1 worker the members got their own answers, on 3 threads in reverse the group's. */
static void test_group_results_taken_back(void **state)
{
    (void)state;
    init_filters();
    const fz_opt o = {1, 0, 1};
    assert_int_equal(run_seed(5055, &o), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_random_frames), cmocka_unit_test(test_group_results_taken_back)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
