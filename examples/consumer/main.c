/* main.c - a program outside the pathfind tree, built against the installed package (see
 * CMakeLists.txt and check.sh beside it): a small walled grid, one search on a context and the
 * same query through a batch, which must agree. */
#include <stdio.h>
#include <pathfind.h>

int main(void)
{
    enum { W = 12, H = 6 };
    uint8_t cells[W * H];
    for (int i = 0; i < W * H; i++) cells[i] = 1;
    for (int y = 0; y < H - 1; y++) cells[y * W + 5] = 0; /* a wall with a gap in the bottom row */
    pf_map *map;
    pf_status s = pf_grid_create(&(pf_grid_desc){.width = W, .height = H, .cells = cells}, &map);
    if (s != PF_OK) {
        fprintf(stderr, "pf_grid_create: %s\n", pf_status_str(s));
        return 1;
    }
    uint32_t start = pf_grid_node(map, 0, 0), goal = pf_grid_node(map, W - 1, 0);

    pf_ctx *ctx;
    pf_stats st = {0};
    uint32_t nodes[W * H];
    pf_path path = {.nodes = nodes, .capacity = W * H};
    s = pf_ctx_create(map, NULL, &ctx);
    if (s == PF_OK) s = pf_search(ctx, start, goal, NULL, &path, &st);
    pf_ctx_destroy(ctx);

    pf_batch *b;
    pf_query_id id;
    pf_batch_result r = {.status = PF_INVALID_ARGUMENT};
    pf_status bs = pf_batch_create(map, &(pf_batch_desc){.workers = 1}, &b);
    if (bs == PF_OK) bs = pf_batch_submit(b, &(pf_batch_query){.start = start, .goal = goal}, &id);
    if (bs == PF_OK) bs = pf_batch_run(b, NULL);
    if (bs == PF_OK) bs = pf_batch_get(b, id, &r);

    printf("pathfind %s: search %s, cost %.3f over %u cells; batch %s, cost %.3f\n", PF_VERSION_STRING,
           pf_status_name(s), st.cost, path.len, pf_status_name(r.status), r.stats.cost);
    int ok = s == PF_OK && bs == PF_OK && r.status == PF_OK && r.stats.cost == st.cost &&
             r.path_len == path.len && path.len > W;
    pf_batch_destroy(b);
    pf_map_destroy(map);
    return ok ? 0 : 1;
}
