/* fuzz_text.c - the tool's own text readers: replay's order log (cli_orders_read) and the edit list
 * that `edit`, `scen --edits` and `render --edits` apply (cli_apply_edits), both through the bounded
 * text reader (cli/text_read.c).
 *
 * Input layout: byte 0 bit 0 picks the reader (0 order log, 1 edit list); the rest is the file.
 * Checks beyond "no crash, no sanitizer report, no leak":
 *   - a file holding a NUL byte is never accepted;
 *   - an order log that loads has lines in increasing order, frames non-decreasing, order rows
 *     0, 1, 2... in file order, and every cancel linked to the latest earlier order of its tag (or to
 *     none), checked against a quadratic search;
 *   - an edit list that applies leaves the map exactly as painting each reported rectangle with its
 *     character onto a copy of the rows does.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "fuzz_common.h"
#include "cli.h"

enum { W = 7, H = 5 };
static const char MAP[] = "type octile\nheight 5\nwidth 7\nmap\n"
                          ".......\n"
                          ".@@@@..\n"
                          "..S.T..\n"
                          ".WW.T..\n"
                          "..G....\n";

static char g_file[64], g_map[64];
static FILE *g_null;

static void init(void)
{
    if (g_file[0]) return;
    const char *dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    snprintf(g_map, sizeof g_map, "%s/pf_fuzz_text_%ld.map", dir, (long)getpid());
    snprintf(g_file, sizeof g_file, "%s/pf_fuzz_text_%ld.txt", dir, (long)getpid());
    FILE *f = fopen(g_map, "wb");
    FUZZ_CHECK(f && fputs(MAP, f) >= 0 && fclose(f) == 0);
    g_null = fopen("/dev/null", "w");
    FUZZ_CHECK(g_null != NULL);
}

static void check_orders(const cli_orders *lg)
{
    uint32_t rows = 0;
    for (uint32_t i = 0; i < lg->n; i++) {
        const cli_order *r = &lg->r[i];
        FUZZ_CHECK(r->kind == CLI_ORDER || r->kind == CLI_CANCEL || r->kind == CLI_EDIT);
        FUZZ_CHECK(r->line >= 2); /* line 1 is the header */
        if (i) {
            FUZZ_CHECK(r->line > lg->r[i - 1].line);
            FUZZ_CHECK(r->frame >= lg->r[i - 1].frame);
        }
        FUZZ_CHECK(r->frame < UINT32_MAX);
        if (r->kind == CLI_EDIT) {
            FUZZ_CHECK(r->row == UINT32_MAX && r->terrain != '\0');
            continue;
        }
        if (r->kind == CLI_ORDER) {
            FUZZ_CHECK(r->size <= PF_UNIT_SIZE_MAX && r->partial <= 1);
            FUZZ_CHECK(r->row == rows);
            rows++;
            FUZZ_CHECK(r->prio == PF_PRIORITY_URGENT || r->prio == PF_PRIORITY_NORMAL ||
                       r->prio == PF_PRIORITY_BACKGROUND);
            continue;
        }
        uint32_t want = UINT32_MAX; /* the latest earlier order of this tag */
        for (uint32_t j = 0; j < i; j++)
            if (lg->r[j].kind == CLI_ORDER && lg->r[j].tag == r->tag) want = lg->r[j].row;
        FUZZ_CHECK(r->row == want);
    }
    FUZZ_CHECK(rows == lg->orders);
}

typedef struct paint { char rows[H][W]; uint32_t edits; } paint;

static void on_edit(const pf_grid_edit *e, char ch, void *user)
{
    paint *p = user;
    FUZZ_CHECK(e->rect.x >= 0 && e->rect.y >= 0 && e->rect.x + (int64_t)e->rect.w <= W && e->rect.y + (int64_t)e->rect.h <= H);
    for (uint32_t y = 0; y < e->rect.h; y++)
        for (uint32_t x = 0; x < e->rect.w; x++) p->rows[(uint32_t)e->rect.y + y][(uint32_t)e->rect.x + x] = ch;
    p->edits++;
}

static int check_edits(void)
{
    pf_map *map;
    pf_diag d;
    FUZZ_CHECK(pf_grid_load_movingai(g_map, NULL, &map, &d) == PF_OK);
    paint p = {.edits = 0};
    const char *row = strstr(MAP, "map\n") + 4;
    for (int y = 0; y < H; y++, row += W + 1) memcpy(p.rows[y], row, W);
    uint64_t v0 = pf_map_version(map);
    cli_edit_stats st;
    int ok = cli_apply_edits("fuzz", map, g_file, on_edit, &p, &st);
    FUZZ_CHECK(st.edits == p.edits);
    if (ok) {
        FUZZ_CHECK(pf_map_version(map) - v0 <= st.edits);
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) FUZZ_CHECK(pf_grid_terrain_class(p.rows[y][x]) == pf_grid_class(map, x, y));
    }
    pf_map_destroy(map);
    return ok;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    init();
    if (size == 0 || size > 1 << 16) return 0;
    FILE *f = fopen(g_file, "wb");
    FUZZ_CHECK(f != NULL);
    FUZZ_CHECK(fwrite(data + 1, 1, size - 1, f) == size - 1 && fclose(f) == 0);
    int has_nul = memchr(data + 1, '\0', size - 1) != NULL;
    FILE *err = stderr;
    stderr = g_null; /* the messages are expected; sanitizer reports go to descriptor 2 */
    if (data[0] & 1) {
        int ok = check_edits();
        stderr = err;
        FUZZ_CHECK(!(ok && has_nul));
    } else {
        cli_orders lg;
        int ok = cli_orders_read(g_file, &lg);
        stderr = err;
        FUZZ_CHECK(!(ok && has_nul));
        if (ok) check_orders(&lg);
        cli_orders_free(&lg);
    }
    stderr = err;
    return 0;
}
