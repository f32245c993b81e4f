/* quickstart.c - the README's example: load a map, search, print the path. */
#include <stdio.h>
#include <pathfind.h>

int main(int argc, char **argv)
{
    const char *file = argc > 1 ? argv[1] : "maps/demo-512.map";
    pf_map *map;
    pf_diag diag;
    if (pf_grid_load_movingai(file, NULL, &map, &diag) != PF_OK) { fprintf(stderr, "%s\n", diag.msg); return 1; }
    pf_ctx *ctx; /* one per thread; reuse it for every query */
    if (pf_ctx_create(map, NULL, &ctx) != PF_OK) return 1;

    uint32_t cells[4096];
    pf_path path = { .nodes = cells, .capacity = 4096 };
    pf_stats st;
    pf_status s = pf_search(ctx, pf_grid_node(map, 40, 40), pf_grid_node(map, 200, 180),
                            &(pf_search_desc){ .algo = PF_ALGO_ASTAR }, &path, &st);
    printf("%s: cost %.3f, %u cells, %u expanded\n", pf_status_str(s), st.cost, path.len, st.expanded);
    for (uint32_t i = 0; s == PF_OK && i < path.len; i += 40) {
        pf_point p = pf_grid_point(map, cells[i]);
        printf("  (%d,%d)\n", p.x, p.y);
    }
    pf_ctx_destroy(ctx);
    pf_map_destroy(map);
    return s == PF_OK ? 0 : 1;
}
