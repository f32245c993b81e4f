/* puzzle_15.c - solve a 15-puzzle optimally with the generic IDA* and Manhattan distance plus
 * linear conflicts. The domain (state bytes, successors, heuristics) is in examples/domains/puzzle.c
 * and uses only the public pf_generic.h API.
 *
 *   example_puzzle_15                      Korf's instance #12
 *   example_puzzle_15 t0 t1 ... t15        any instance (0 = blank; goal 0 1 2 ... 15)
 */
#include <stdio.h>
#include <stdlib.h>
#include "pathfind.h"
#include "domains/puzzle.h"

int main(int argc, char **argv)
{
    puz_domain d = {4, PUZ_LINEAR, NULL};
    uint8_t s[17] = {14, 1, 9, 6, 4, 8, 12, 5, 7, 2, 3, 0, 10, 11, 13, 15};
    if (argc == 17)
        for (int i = 0; i < 16; i++) s[i] = (uint8_t)atoi(argv[i + 1]);
    if (!puz_finish(&d, s) || !puz_solvable(&d, s)) {
        fprintf(stderr, "not a solvable 15-puzzle (goal: blank top left)\n");
        return 1;
    }
    pf_gen_problem p = puz_problem(&d);
    pf_gen_ctx *ctx;
    if (pf_gen_ctx_create(NULL, &ctx) != PF_OK) return 1;
    uint32_t acts[128];
    pf_gen_plan plan = {acts, NULL, 128, 0};
    pf_gen_stats st;
    pf_status r = pf_gen_search(ctx, &p, s, &(pf_gen_desc){.algo = PF_GEN_IDASTAR, .cycles = PF_GEN_CYCLES_PARENT},
                                &plan, &st);
    printf("%s: %u moves, %llu nodes generated, %u iterations\n", pf_status_name(r), plan.len,
           (unsigned long long)st.generated, st.iterations);
    static const char MOVE[4] = {'U', 'L', 'R', 'D'}; /* direction the blank moves */
    for (uint32_t i = 0; i < plan.len; i++) putchar(MOVE[acts[i]]);
    putchar('\n');
    pf_gen_ctx_destroy(ctx);
    return r == PF_OK ? 0 : 1;
}
