/* wasm32_check.c - what a 32-bit target (wasm32: the browser demo's) changes, checked there by
 * web/test_wasm32.sh: sizes past its address space are refused before anything is allocated.
 * Prints one line a check and exits 1 when any fails. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "pathfind.h"

static int failed;
static size_t largest; /* the largest block the table's allocator was asked for */

static void *count_alloc(size_t size, size_t align, void *user)
{
    (void)user;
    if (size > largest) largest = size;
    return aligned_alloc(align, (size + align - 1) / align * align);
}

static void count_free(void *p, size_t size, void *user)
{
    (void)size;
    (void)user;
    free(p);
}

static void check(int ok, const char *what)
{
    printf("%s: %s\n", ok ? "ok" : "FAILED", what);
    failed |= !ok;
}

/* A table of map: its status, and the largest block asked for on the way. */
static pf_status table_of(const pf_map *m, pf_table **t)
{
    largest = 0;
    pf_table_desc d = {.allocator = {count_alloc, count_free, NULL}, .threads = 1};
    return pf_table_create(m, &d, t);
}

/* A graph of n nodes whose node 0 has deg arcs (to nodes 1, 2, ... and round again): its table's
 * entries are 1 byte up to 254 arcs a node, 2 up to 65,534, else 4. */
static pf_map *star(uint32_t n, uint32_t deg)
{
    pf_edge *e = malloc((size_t)deg * sizeof *e);
    if (!e) return NULL;
    for (uint32_t i = 0; i < deg; i++) e[i] = (pf_edge){0, 1 + i % (n - 1), 1.0};
    pf_map *m = NULL;
    pf_status st = pf_graph_create(&(pf_graph_desc){.node_count = n, .edge_count = deg, .edges = e}, &m);
    free(e);
    return st == PF_OK ? m : NULL;
}

int main(void)
{
    check(sizeof(size_t) == 4, "size_t is 32 bits (else this check proves nothing)");
    pf_table *t = NULL;

    /* 65,536 nodes of 1 byte: 2^32 bytes, which wrapped to 0 and made a block of a byte */
    pf_map *g = NULL;
    check(pf_grid_create(&(pf_grid_desc){.width = 256, .height = 256}, &g) == PF_OK, "256x256 grid made");
    pf_status st = table_of(g, &t);
    check(st == PF_TOO_LARGE && !t && largest < 4096, "a 256x256 grid's table (4 GiB) is PF_TOO_LARGE, nothing large allocated");
    pf_map_destroy(g);

    /* 46,341 nodes of 2 bytes (a node of 255 arcs) and 32,768 of 4 (65,535 arcs) wrap too */
    pf_map *s2 = star(46341, 255), *s4 = star(32768, 65535);
    check(s2 && s4, "graphs of 46,341 and 32,768 nodes made");
    if (s2) {
        st = table_of(s2, &t);
        check(st == PF_TOO_LARGE && !t && largest < 65536, "46,341 nodes at 2 bytes: PF_TOO_LARGE");
    }
    if (s4) {
        st = table_of(s4, &t);
        check(st == PF_TOO_LARGE && !t && largest < 65536, "32,768 nodes at 4 bytes: PF_TOO_LARGE");
    }
    pf_map_destroy(s2);
    pf_map_destroy(s4);

    /* and a table that fits is built and walked */
    check(pf_grid_create(&(pf_grid_desc){.width = 32, .height = 32}, &g) == PF_OK, "32x32 grid made");
    st = table_of(g, &t);
    check(st == PF_OK && largest >= 1024u * 1024u, "a 32x32 grid's table (1 MiB) is built");
    if (st == PF_OK) {
        uint32_t nodes[64];
        pf_path p = {.nodes = nodes, .capacity = 64};
        double cost = 0.0;
        st = pf_table_path(t, pf_grid_node(g, 0, 0), pf_grid_node(g, 31, 0), &p, &cost);
        check(st == PF_OK && p.len == 32 && cost == 31.0, "its path across the top row: 31 steps");
    }
    pf_table_destroy(t);
    pf_map_destroy(g);
    return failed;
}
