/* cmd_edit.c - `pathfind edit MAP EDITS -o OUT.map`, and the EDITS reader `scen --edits` shares. */
#define _POSIX_C_SOURCE 200809L /* mkstemp, fdopen */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"

static const char *HELP =
    "usage: pathfind edit MAP.map EDITS -o OUT.map\n"
    "\n"
    "Applies EDITS to the map and writes the result in Moving AI format. EDITS is text, one edit per\n"
    "line:\n"
    "  rect X Y W H C   set the W x H cells from column X, row Y to terrain character C\n"
    "                   (. G S ground, W water, T trees, @ O blocked)\n"
    "Blank lines and lines starting with # are skipped. A rectangle partly outside the map is an\n"
    "error naming the line. Cells no edit touched keep their character. OUT.map is written to a\n"
    "temporary file first and renamed, so an existing OUT.map is replaced only by a complete file.\n"
    "Prints one JSON object: edits, cells_changed, version, edit_us (mean microseconds per edit line,\n"
    "derived data included: components, fingerprint).\n"
    "\n"
    "example: pathfind edit arena.map walls.txt -o arena2.map\n";

/* Reads a whole file through the bounded text reader; NULL with a message on failure. */
static char *slurp(const char *cmd, const char *path, const char *what, uint64_t max_bytes, size_t *len)
{
    cli_text t;
    if (!cli_text_open(&t, cmd, path, what, max_bytes)) return NULL;
    char *text = cli_text_rest(&t, len);
    cli_text_close(&t);
    return text;
}

int cli_apply_edits(const char *cmd, pf_map *map, const char *path, cli_edit_cb cb, void *user, cli_edit_stats *out)
{
    *out = (cli_edit_stats){0};
    cli_text t;
    if (!cli_text_open(&t, cmd, path, "edit list", CLI_EDITS_MAX_BYTES)) return 0;
    char text[4096];
    int ok = 1, got;
    while (ok && (got = cli_text_line(&t, text, sizeof text)) != 0) {
        if (got < 0) {
            ok = 0;
            break;
        }
        pf_grid_edit ed;
        char ch;
        pf_diag dg;
        if (pf_grid_parse_edit(map, text, strlen(text), path, t.line, &ed, &ch, &dg) != PF_OK) {
            cli_error(cmd, "%s", dg.msg);
            ok = 0;
        } else if (ed.rect.w) {
            pf_edit_report rep;
            double t0 = cli_now();
            pf_status st = pf_grid_apply_edits(map, &ed, 1, &rep);
            out->seconds += cli_now() - t0;
            if (st != PF_OK) {
                cli_error(cmd, "%s:%u: edit failed: %s", path, t.line, pf_status_str(st));
                ok = 0;
            } else {
                out->edits++;
                out->cells_changed += rep.changed;
                if (cb) cb(&ed, ch, user);
            }
        }
    }
    cli_text_close(&t);
    return ok;
}

/* The map's rows of characters: the H lines after the "map" line, W characters each (the library
 * has validated the file already). */
static char *map_rows(const char *text, size_t len, uint32_t w, uint32_t h)
{
    char *rows = malloc((size_t)w * h);
    if (!rows) return NULL;
    const char *p = text, *end = text + len;
    int in_map = 0;
    uint32_t y = 0;
    while (p < end && y < h) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *e = nl ? nl : end;
        size_t n = (size_t)(e - p);
        if (n && p[n - 1] == '\r') n--;
        if (in_map) {
            if (n < w) break;
            memcpy(rows + (size_t)y * w, p, w);
            y++;
        } else {
            const char *s = p;
            while (s < p + n && (*s == ' ' || *s == '\t')) s++;
            const char *t = p + n;
            while (t > s && (t[-1] == ' ' || t[-1] == '\t')) t--;
            in_map = t - s == 3 && memcmp(s, "map", 3) == 0;
        }
        p = nl ? nl + 1 : end;
    }
    if (y < h) {
        free(rows);
        return NULL;
    }
    return rows;
}

pf_map *cli_map_read(const char *cmd, const char *path, const pf_grid_load_desc *desc, char **rows)
{
    if (rows) *rows = NULL;
    size_t len;
    char *text = slurp(cmd, path, "Moving AI map", PF_GRID_MAX_FILE_BYTES, &len);
    if (!text) return NULL;
    pf_diag diag;
    pf_map *map = NULL;
    if (pf_grid_parse_movingai(text, len, path, desc, &map, &diag) != PF_OK) {
        cli_error(cmd, "%s", diag.msg);
    } else if (rows && !(*rows = map_rows(text, len, pf_grid_width(map), pf_grid_height(map)))) {
        cli_error(cmd, "out of memory for the rows of '%s'", path); /* the parse has checked them */
        pf_map_destroy(map);
        map = NULL;
    }
    free(text);
    return map;
}

void cli_paint_edit(const pf_grid_edit *e, char ch, void *user)
{
    cli_paint *pt = user;
    for (uint32_t y = 0; y < e->rect.h; y++)
        memset(pt->rows + ((size_t)((uint32_t)e->rect.y + y) * pt->w + (uint32_t)e->rect.x), ch, e->rect.w);
}

/* Writes the map to `out` beside it, renamed over it when complete (cli_out). */
static int write_map(const char *out, const char *rows, uint32_t w, uint32_t h)
{
    cli_out o;
    FILE *f = cli_out_open(&o, "edit", out);
    if (!f) return 0;
    int ok = fprintf(f, "type octile\nheight %u\nwidth %u\nmap\n", h, w) > 0;
    for (uint32_t y = 0; ok && y < h; y++)
        ok = fwrite(rows + (size_t)y * w, 1, w, f) == w && fputc('\n', f) != EOF;
    return cli_out_close(&o, "edit", ok);
}

int pf_cli_edit(int argc, char **argv)
{
    const char *pos[2] = {0}, *out = NULL;
    int npos = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (cli_is_help(a)) {
            fputs(HELP, stdout);
            return 0;
        }
        if (strcmp(a, "-o") == 0 && cli_has_value(argc, argv, i)) {
            out = argv[++i];
        } else if (a[0] == '-' && a[1]) {
            cli_error("edit", "unknown or incomplete option '%s' (see --help)", a);
            return 2;
        } else if (npos < 2) {
            pos[npos++] = a;
        } else {
            cli_error("edit", "unexpected argument '%s'", a);
            return 2;
        }
    }
    if (npos != 2 || !out) {
        fputs(HELP, stderr);
        return 2;
    }
    /* -o MAP edits the map in place (its new cells are written whole, then renamed over it); the
     * edit list is not to be replaced by a map */
    if (cli_out_same("edit", "EDITS", pos[1], "-o", out)) return 2;
    if (cli_args_only) return 0;
    /* read once: a pipe or a FIFO read a second time for its characters hung (a review) */
    char *rows;
    pf_map *map = cli_map_read("edit", pos[0], NULL, &rows);
    if (!map) return 1;
    uint32_t w = pf_grid_width(map), h = pf_grid_height(map);
    cli_paint pt = {rows, w};
    cli_edit_stats es;
    int ok = cli_apply_edits("edit", map, pos[1], cli_paint_edit, &pt, &es);
    /* the characters written mean the cells the library holds (a cheap end-to-end check) */
    for (uint32_t y = 0; ok && y < h; y++)
        for (uint32_t x = 0; ok && x < w; x++)
            if (pf_grid_terrain_class(pt.rows[(size_t)y * w + x]) != pf_grid_class(map, (int32_t)x, (int32_t)y)) {
                cli_error("edit", "internal error: cell %u,%u disagrees with the map", x, y);
                ok = 0;
            }
    if (ok) ok = write_map(out, pt.rows, w, h);
    if (ok) {
        printf("{\"map\":");
        cli_json_str(stdout, pos[0]);
        printf(",\"edits\":%u,\"cells_changed\":%llu,\"version\":%llu,\"edit_us\":%.3f,\"fingerprint\":\"%016llx\"}\n",
               es.edits, (unsigned long long)es.cells_changed, (unsigned long long)pf_map_version(map),
               es.edits ? es.seconds * 1e6 / es.edits : 0.0, (unsigned long long)pf_map_fingerprint(map));
    }
    free(pt.rows);
    pf_map_destroy(map);
    return ok ? 0 : 1;
}
