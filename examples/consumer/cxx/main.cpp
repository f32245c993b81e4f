// main.cpp - a C++ program linking the installed static library (CMakeLists.txt beside it): one
// search and the same query through a batch (which runs on OpenMP when the library has it).
#include <cstdio>
#include <vector>
#include <pathfind.h>

int main()
{
    const uint32_t W = 12, H = 6;
    std::vector<uint8_t> cells(W * H, 1);
    for (uint32_t y = 0; y + 1 < H; y++) cells[y * W + 5] = 0; // a wall with a gap in the bottom row
    pf_grid_desc gd{};
    gd.width = W;
    gd.height = H;
    gd.cells = cells.data();
    pf_map *map = nullptr;
    if (pf_grid_create(&gd, &map) != PF_OK) return 1;
    uint32_t start = pf_grid_node(map, 0, 0), goal = pf_grid_node(map, W - 1, 0);

    pf_ctx *ctx = nullptr;
    pf_stats st{};
    std::vector<uint32_t> nodes(W * H);
    pf_path path{};
    path.nodes = nodes.data();
    path.capacity = W * H;
    pf_status s = pf_ctx_create(map, nullptr, &ctx);
    if (s == PF_OK) s = pf_search(ctx, start, goal, nullptr, &path, &st);
    pf_ctx_destroy(ctx);

    pf_batch_desc bd{};
    bd.workers = 2;
    pf_batch *b = nullptr;
    pf_query_id id{};
    pf_batch_query q{};
    q.start = start;
    q.goal = goal;
    pf_batch_result r{};
    r.status = PF_INVALID_ARGUMENT;
    pf_status bs = pf_batch_create(map, &bd, &b);
    if (bs == PF_OK) bs = pf_batch_submit(b, &q, &id);
    if (bs == PF_OK) bs = pf_batch_run(b, nullptr);
    if (bs == PF_OK) bs = pf_batch_get(b, id, &r);

    std::printf("pathfind %s from C++: search %s, cost %.3f; batch %s, cost %.3f\n", PF_VERSION_STRING,
                pf_status_name(s), st.cost, pf_status_name(r.status), r.stats.cost);
    bool ok = s == PF_OK && bs == PF_OK && r.status == PF_OK && r.stats.cost == st.cost && path.len > W;
    pf_batch_destroy(b);
    pf_map_destroy(map);
    return ok ? 0 : 1;
}
