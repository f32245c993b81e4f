/* cmd_render.c - `pathfind render`: a PNG of the map, each search's expanded cells and its path. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "png_canvas.h"

static const char *HELP =
    "usage: pathfind render MAP.map (SX SY GX GY | --scen FILE.scen [--ids 0,5,9]) -o OUT.png\n"
    "                       [--algo astar,dijkstra,jps] [--weight W] [--moves 4|8|8cut|hex]\n"
    "                       [--max-px N] [--json] [--edits EDITS] [--size K] [--smooth]\n"
    "                       [--classes CHARS [--class-cost C=X[,C=X]]]\n"
    "\n"
    "Draws the map (terrain colours and a legend), the cells each search expanded shaded by expansion\n"
    "order (pale yellow = first, dark red = last), and the path on top in magenta (255,0,255); the\n"
    "start is a green square, the goal a blue one. One panel per algorithm (columns) and per query\n"
    "(rows), each labelled with the algorithm, the cost and the number of expansions.\n"
    "\n"
    "  SX SY GX GY   one query by coordinates (0-based, x = column, y = row)\n"
    "  --scen FILE   take queries from a Moving AI scenario file instead\n"
    "  --ids LIST    0-based indices into the scenario file, as in the id column of\n"
    "                `pathfind scen --csv` (default: the query with the longest optimal length)\n"
    "  --algo LIST   comma-separated: astar (default), wastar, dijkstra, bfs, greedy, jps, jps+,\n"
    "                auto (without an accelerator here: JPS+), theta\n"
    "  --weight W    weight for wastar (default 1.5), jps and jps+; an error when LIST has none\n"
    "  --moves M     8 = 8-connected without corner cutting (default), 8cut, 4, hex (drawn square)\n"
    "  --max-px N    longest side of one panel's map in pixels (default 1024). Small maps are\n"
    "                enlarged (up to 16 px per cell); large maps are reduced by averaging blocks of\n"
    "                cells, and paths, starts and goals are drawn with priority so they stay visible\n"
    "  --json        print one JSON object: image size, scale, and per panel the query, status,\n"
    "                cost, expansions, path length and the pixel origin of its map\n"
    "  --edits FILE  before and after: each algorithm gets a second column drawn after the edits\n"
    "                (pathfind edit --help) with the edited rectangles outlined in orange, the path found before\n"
    "                in dark orange when an edit broke it (it crosses a changed cell, or a corner a\n"
    "                diagonal step needs) and the new path in magenta\n"
    "  --size K      search for units of K x K cells (1..32); the path drawn is the unit's top-left cell\n"
    "  --smooth      draw each grid path pulled into straight segments (pf_path_smooth); --algo theta\n"
    "                draws its any-angle waypoints either way. path_len then counts waypoints\n"
    "  --classes CHARS  the Moving AI terrain the unit may enter: . G S ground, W water, T trees (e.g.\n"
    "                .W for a hover unit); without it a unit keeps to its start's terrain. jps and\n"
    "                jps+ answer when the terrains cost one multiplier (else A*, detail fallback),\n"
    "                auto by JPS; any --size; not with --smooth or theta\n"
    "  --class-cost C=X[,C=X]  with --classes: the multiplier of a step into terrain C (default 1)\n"
    "  -o FILE       output PNG (written with libpng)\n"
    "\n"
    "examples:\n"
    "  pathfind render maps/demo-512.map 20 20 490 300 --algo astar,dijkstra,jps -o cmp.png\n"
    "  pathfind render arena.map --scen arena.map.scen --ids 3,40 --algo astar,jps -o q.png\n"
    "  pathfind render arena.map 1 11 40 30 --edits walls.txt -o before-after.png\n";

#define MAX_ALGOS 9 /* each algorithm --help lists, once */
#define MAX_QUERIES 16
#define MARGIN 8

static const cli_rgb C_BG = {255, 255, 255}, C_TEXT = {20, 20, 20};
static const cli_rgb C_GROUND = {236, 232, 220}, C_SWAMP = {158, 150, 100}, C_WATER = {84, 140, 214},
                     C_TREES = {52, 128, 64}, C_BLOCKED = {44, 44, 50};
static const cli_rgb C_PATH = {255, 0, 255}, C_START = {0, 200, 0}, C_GOAL = {0, 70, 255},
                     C_OUTLINE = {0, 0, 0};
static const cli_rgb C_EDITED = {255, 160, 0}, C_OLD_PATH = {200, 80, 0};
/* Expansion order, first to last: light enough at the start that the terrain stays readable. */
static const cli_rgb GRAD[4] = {{255, 244, 160}, {253, 174, 97}, {228, 88, 60}, {150, 24, 70}};

typedef struct query { long id; int32_t sx, sy, gx, gy; } query;

static cli_rgb mix(cli_rgb a, cli_rgb b, double t)
{
    return (cli_rgb){(uint8_t)lround(a.r + (b.r - a.r) * t), (uint8_t)lround(a.g + (b.g - a.g) * t),
                     (uint8_t)lround(a.b + (b.b - a.b) * t)};
}

static cli_rgb grad(double t)
{
    if (!(t > 0)) t = 0;
    if (t > 1) t = 1;
    double s = t * 3;
    int i = s >= 3 ? 2 : (int)s;
    return mix(GRAD[i], GRAD[i + 1], s - i);
}

static cli_rgb terrain(const pf_map *map, const char *chars, uint32_t x, uint32_t y)
{
    uint8_t cls = pf_grid_class(map, (int32_t)x, (int32_t)y);
    if (cls == 0) return C_BLOCKED;
    if (chars && chars[(size_t)y * pf_grid_width(map) + x] == 'S') return C_SWAMP;
    return cls == 2 ? C_WATER : cls == 3 ? C_TREES : C_GROUND;
}

/* Parses "a,b,c" into names or ids; returns the count, 0 on error (message printed). */
static int split_list(const char *s, char out[][16], int max)
{
    int n = 0;
    const char *p = s;
    while (*p) {
        size_t len = strcspn(p, ",");
        if (len == 0 || len >= 16 || n == max) {
            if (len == 0) cli_error("render", "bad list '%s': an empty item", s);
            else if (len >= 16) cli_error("render", "bad list '%s': an item of 16 characters or more", s);
            else cli_error("render", "bad list '%s': more than %d comma-separated items", s, max);
            return 0;
        }
        memcpy(out[n], p, len);
        out[n++][len] = '\0';
        p += len;
        if (*p == ',') p++;
    }
    if (n == 0) cli_error("render", "empty list");
    return n;
}

typedef struct layout {
    uint32_t w, h;          /* map cells */
    uint32_t cp, k;         /* pixels per cell (enlarging) or cells per pixel (reducing); one is 1 */
    uint32_t mw, mh;        /* map area of a panel in pixels */
    uint32_t pw, header;    /* panel width, label height */
    int ts;                 /* text scale */
} layout;

static void cell_center(const layout *L, long ox, long oy, uint32_t x, uint32_t y, long *px, long *py)
{
    if (L->k > 1) {
        *px = ox + (long)(x / L->k);
        *py = oy + (long)(y / L->k);
    } else {
        *px = ox + (long)(x * L->cp + L->cp / 2);
        *py = oy + (long)(y * L->cp + L->cp / 2);
    }
}

static void brush(cli_canvas *c, long x, long y, long b, cli_rgb col)
{
    cli_canvas_rect(c, x - (b - 1) / 2, y - (b - 1) / 2, b, b, col);
}

static void draw_line(cli_canvas *c, long x0, long y0, long x1, long y1, long b, cli_rgb col)
{
    long dx = labs(x1 - x0), dy = -labs(y1 - y0), sx = x0 < x1 ? 1 : -1, sy = y0 < y1 ? 1 : -1, e = dx + dy;
    for (;;) {
        brush(c, x0, y0, b, col);
        if (x0 == x1 && y0 == y1) break;
        long e2 = 2 * e;
        if (e2 >= dy) {
            e += dy;
            x0 += sx;
        }
        if (e2 <= dx) {
            e += dx;
            y0 += sy;
        }
    }
}

/* Map, expansions (order[] = 1-based expansion rank, 0 = not expanded), path and end markers. */
/* The edited cells and the path found before the edits, drawn under the new path (after panels). */
typedef struct overlay {
    const pf_rect  *rects;
    uint32_t        nrects;
    const uint32_t *old;   /* [opt] the earlier path, drawn when broken */
    uint32_t        old_len;
} overlay;

static void draw_path(cli_canvas *c, const layout *L, long ox, long oy, const uint32_t *path, uint32_t plen, long b,
                      cli_rgb col)
{
    uint32_t w = L->w;
    for (uint32_t i = 0; i + 1 < plen; i++) {
        long x0, y0, x1, y1;
        cell_center(L, ox, oy, path[i] % w, path[i] / w, &x0, &y0);
        cell_center(L, ox, oy, path[i + 1] % w, path[i + 1] / w, &x1, &y1);
        draw_line(c, x0, y0, x1, y1, b, col);
    }
    if (plen == 1) {
        long x0, y0;
        cell_center(L, ox, oy, path[0] % w, path[0] / w, &x0, &y0);
        brush(c, x0, y0, b, col);
    }
}

static void draw_panel(cli_canvas *c, const layout *L, long ox, long oy, const pf_map *map, const char *chars,
                       const uint32_t *order, uint32_t nexp, const uint32_t *path, uint32_t plen, uint32_t s,
                       uint32_t g, const overlay *ov)
{
    double inv = nexp > 1 ? 1.0 / (nexp - 1) : 0.0;
    if (L->k == 1) {
        for (uint32_t y = 0; y < L->h; y++)
            for (uint32_t x = 0; x < L->w; x++) {
                size_t i = (size_t)y * L->w + x;
                cli_rgb col = terrain(map, chars, x, y);
                if (order[i]) col = mix(col, grad((order[i] - 1) * inv), 0.85);
                cli_canvas_rect(c, ox + (long)(x * L->cp), oy + (long)(y * L->cp), L->cp, L->cp, col);
                if (L->cp >= 6) { /* faint cell borders make small maps countable */
                    cli_rgb edge = mix(col, C_OUTLINE, 0.12);
                    cli_canvas_rect(c, ox + (long)((x + 1) * L->cp) - 1, oy + (long)(y * L->cp), 1, L->cp, edge);
                    cli_canvas_rect(c, ox + (long)(x * L->cp), oy + (long)((y + 1) * L->cp) - 1, L->cp, 1, edge);
                }
            }
    } else {
        /* reduce: average the block's terrain, then tint by the share and mean rank of its expansions */
        for (uint32_t py = 0; py < L->mh; py++)
            for (uint32_t px = 0; px < L->mw; px++) {
                double r = 0, gg = 0, b = 0, rank = 0;
                uint32_t n = 0, ne = 0;
                for (uint32_t y = py * L->k; y < (py + 1) * L->k && y < L->h; y++)
                    for (uint32_t x = px * L->k; x < (px + 1) * L->k && x < L->w; x++) {
                        cli_rgb t = terrain(map, chars, x, y);
                        r += t.r;
                        gg += t.g;
                        b += t.b;
                        n++;
                        uint32_t o = order[(size_t)y * L->w + x];
                        if (o) {
                            ne++;
                            rank += (o - 1) * inv;
                        }
                    }
                cli_rgb col = {(uint8_t)lround(r / n), (uint8_t)lround(gg / n), (uint8_t)lround(b / n)};
                if (ne) col = mix(col, grad(rank / ne), 0.85 * fmin(1.0, 2.0 * ne / n));
                cli_canvas_set(c, ox + (long)px, oy + (long)py, col);
            }
    }
    uint32_t w = L->w;
    long b = L->k > 1 ? 3 : L->cp >= 3 ? (long)(L->cp / 3 > 1 ? L->cp / 3 : 1) : 3;
    if (ov) {
        /* edited rectangles outlined (their cells keep the new terrain's colour) */
        for (uint32_t r = 0; r < ov->nrects; r++) {
            const pf_rect *q = &ov->rects[r];
            if (L->k > 1) {
                long x0, y0, x1, y1;
                cell_center(L, ox, oy, (uint32_t)q->x, (uint32_t)q->y, &x0, &y0);
                cell_center(L, ox, oy, (uint32_t)q->x + q->w - 1u, (uint32_t)q->y + q->h - 1u, &x1, &y1);
                cli_canvas_rect(c, x0 - 1, y0 - 1, x1 - x0 + 3, 1, C_EDITED);
                cli_canvas_rect(c, x0 - 1, y1 + 1, x1 - x0 + 3, 1, C_EDITED);
                cli_canvas_rect(c, x0 - 1, y0 - 1, 1, y1 - y0 + 3, C_EDITED);
                cli_canvas_rect(c, x1 + 1, y0 - 1, 1, y1 - y0 + 3, C_EDITED);
            } else {
                long t = L->cp >= 8 ? 2 : 1, x0 = ox + (long)((uint32_t)q->x * L->cp), y0 = oy + (long)((uint32_t)q->y * L->cp);
                long wpx = (long)(q->w * L->cp), hpx = (long)(q->h * L->cp);
                cli_canvas_rect(c, x0, y0, wpx, t, C_EDITED);
                cli_canvas_rect(c, x0, y0 + hpx - t, wpx, t, C_EDITED);
                cli_canvas_rect(c, x0, y0, t, hpx, C_EDITED);
                cli_canvas_rect(c, x0 + wpx - t, y0, t, hpx, C_EDITED);
            }
        }
        if (ov->old) draw_path(c, L, ox, oy, ov->old, ov->old_len, b, C_OLD_PATH);
    }
    draw_path(c, L, ox, oy, path, plen, b, C_PATH);
    /* markers: exactly the cell when cells are big, else a 7 px square with an outline */
    for (int k = 0; k < 2; k++) {
        uint32_t n = k ? g : s;
        cli_rgb col = k ? C_GOAL : C_START;
        uint32_t x = n % w, y = n / w;
        if (L->k == 1 && L->cp >= 7) {
            cli_canvas_rect(c, ox + (long)(x * L->cp), oy + (long)(y * L->cp), L->cp, L->cp, col);
        } else {
            long cx, cy;
            cell_center(L, ox, oy, x, y, &cx, &cy);
            brush(c, cx, cy, 9, C_OUTLINE);
            brush(c, cx, cy, 7, col);
        }
    }
}

/* The legend flows left to right and wraps; with draw = 0 it only measures the height. */
static long legend(cli_canvas *c, long x0, long y0, long width, int ts, int draw, int edits)
{
    static const char *names[] = {"ground", "swamp", "water", "trees", "blocked", "path", "start", "goal",
                                  "edited", "path before, broken"};
    const cli_rgb cols[] = {C_GROUND, C_SWAMP, C_WATER, C_TREES, C_BLOCKED, C_PATH, C_START, C_GOAL, C_EDITED, C_OLD_PATH};
    long sw = 8 * ts, lh = 12 * ts, x = x0, y = y0;
    for (int i = 0; i <= 8 + 2 * !!edits; i++) {
        int ni = i < 8 ? i : i - 1; /* the gradient comes ninth */
        const char *label = i == 8 ? "expanded, first -> last" : names[ni];
        long bar = i != 8 ? sw : 48 * ts;
        long item = bar + 4 * ts + cli_text_width(label, ts) + 10 * ts;
        if (x > x0 && x + item > x0 + width) {
            x = x0;
            y += lh;
        }
        if (draw) {
            if (i != 8) {
                cli_canvas_rect(c, x, y, sw, sw, C_OUTLINE);
                cli_canvas_rect(c, x + 1, y + 1, sw - 2, sw - 2, cols[ni]);
            } else {
                for (long k = 0; k < bar; k++) cli_canvas_rect(c, x + k, y, 1, sw, grad((double)k / (bar - 1)));
            }
            cli_canvas_text(c, x + bar + 4 * ts, y, label, ts, C_TEXT);
        }
        x += item;
    }
    return y + lh - y0;
}

static void fit_text(char *s, long max_px, int ts)
{
    size_t max = (size_t)(max_px / (6 * ts));
    if (strlen(s) > max) s[max] = '\0';
}

typedef struct render_args {
    const char *map, *pos[4], *scen, *ids, *out, *algos, *edits;
    int npos, json, weight_given;
    long max_px;
    double weight;
    pf_moves moves;
    char names[MAX_ALGOS][16];    /* --algo, split */
    pf_search_desc descs[MAX_ALGOS];
    long size;                    /* --size, 0 = one cell */
    int smooth;                   /* --smooth */
    int nalgo;
    cli_filter filt;              /* --classes, --class-cost: descs[i].filter points here */
} render_args;

/* Returns -1 when the arguments are good, else the exit code (0 after --help). */
static int parse_args(int argc, char **argv, render_args *a)
{
    const char *pos[5] = {0};
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        int has = cli_has_value(argc, argv, i);
        if (cli_is_help(s)) {
            fputs(HELP, stdout);
            return 0;
        } else if (strcmp(s, "--scen") == 0 && has) {
            a->scen = argv[++i];
        } else if (strcmp(s, "--ids") == 0 && has) {
            a->ids = argv[++i];
        } else if (strcmp(s, "--algo") == 0 && has) {
            a->algos = argv[++i];
        } else if (strcmp(s, "--weight") == 0 && has) {
            if (!cli_parse_double("render", s, argv[++i], 1.0, &a->weight)) return 2;
            a->weight_given = 1;
        } else if (strcmp(s, "--moves") == 0 && has) {
            if (!cli_parse_moves("render", argv[++i], &a->moves)) return 2;
        } else if (strcmp(s, "--max-px") == 0 && has) {
            if (!cli_parse_int("render", s, argv[++i], 16, 8192, &a->max_px)) return 2;
        } else if (strcmp(s, "-o") == 0 && has) {
            a->out = argv[++i];
        } else if (strcmp(s, "--edits") == 0 && has) {
            a->edits = argv[++i];
        } else if (strcmp(s, "--json") == 0) {
            a->json = 1;
        } else if (strcmp(s, "--smooth") == 0) {
            a->smooth = 1;
        } else if (strcmp(s, "--size") == 0 && has) {
            if (!cli_parse_int("render", s, argv[++i], 1, PF_UNIT_SIZE_MAX, &a->size)) return 2;
        } else if ((strcmp(s, "--classes") == 0 || strcmp(s, "--class-cost") == 0) && has) {
            if (cli_filter_opt("render", s, argv[++i], &a->filt) != 1) return 2;
        } else if (s[0] == '-' && s[1] && !(s[1] >= '0' && s[1] <= '9')) {
            cli_error("render", "unknown or incomplete option '%s' (see --help)", s);
            return 2;
        } else if (a->npos < 5) {
            pos[a->npos++] = s;
        } else {
            cli_error("render", "unexpected argument '%s'", s);
            return 2;
        }
    }
    if (a->npos == 0 || !a->out || (a->scen ? a->npos != 1 : a->npos != 5)) {
        cli_error("render", "need MAP, then SX SY GX GY or --scen FILE, and -o OUT.png");
        fputc('\n', stderr);
        fputs(HELP, stderr);
        return 2;
    }
    a->map = pos[0];
    for (int k = 0; k < 4; k++) a->pos[k] = pos[k + 1];
    const char *const in_opts[] = {"MAP", "--scen", "--edits"}, *const ins[] = {a->map, a->scen, a->edits};
    if (cli_out_names_input("render", "-o", a->out, 3, in_opts, ins)) return 2;
    if (a->ids && !a->scen) {
        cli_error("render", "--ids needs --scen");
        return 2;
    }
    if (!(a->nalgo = split_list(a->algos, a->names, MAX_ALGOS))) return 2;
    const pf_move_filter *flt;
    if (!cli_filter_done("render", &a->filt, &flt)) return 2;
    int weighted = 0;
    for (int i = 0; i < a->nalgo; i++) {
        pf_algo al;
        if (!cli_parse_algo("render", a->names[i], &al)) return 2;
        int takes = al == PF_ALGO_WASTAR || al == PF_ALGO_JPS || al == PF_ALGO_JPS_PLUS;
        weighted |= takes;
        if (!cli_check_moves("render", a->moves, al, a->smooth, a->size)) return 2;
        a->descs[i] = (pf_search_desc){.algo = al, .weight = takes && a->weight > 0 ? a->weight
                                                                : al == PF_ALGO_WASTAR ? 1.5 : 0,
                                       .unit_size = (uint32_t)a->size, .filter = flt};
        if (flt && (a->smooth || al == PF_ALGO_THETA)) {
            cli_error("render", "--classes goes with grid paths (not --smooth or theta)");
            return 2;
        }
    }
    if (a->weight_given && !weighted) {
        cli_error("render", "--weight applies to wastar, jps and jps+; none of '%s' reads it", a->algos);
        return 2;
    }
    return -1;
}

/* The queries to draw: SX SY GX GY, or --ids of the scenario file (default: its longest query,
 * where the searches differ most). Returns -1 when good, else the exit code (message printed). */
static int collect_queries(const render_args *a, const pf_scen *sc, query *qs, int *nq)
{
    *nq = 0;
    if (!sc) {
        static const char *const names[4] = {"SX", "SY", "GX", "GY"};
        long c[4];
        for (int k = 0; k < 4; k++)
            if (!cli_parse_int("render", names[k], a->pos[k], 0, PF_GRID_MAX_SIDE - 1, &c[k])) return 2;
        qs[(*nq)++] = (query){-1, (int32_t)c[0], (int32_t)c[1], (int32_t)c[2], (int32_t)c[3]};
        return -1;
    }
    uint32_t cnt = pf_scen_count(sc);
    if (cnt == 0) {
        cli_error("render", "%s: no queries in the file", a->scen);
        return 1;
    }
    char ids[MAX_QUERIES][16];
    int nid = 0;
    if (a->ids && !(nid = split_list(a->ids, ids, MAX_QUERIES))) return 2;
    long longest = 0;
    for (uint32_t i = 1; i < cnt; i++)
        if (pf_scen_get(sc, i)->optimal > pf_scen_get(sc, (uint32_t)longest)->optimal) longest = i;
    for (int k = 0; k < (a->ids ? nid : 1); k++) {
        long id = longest;
        if (a->ids && !cli_parse_int("render", "--ids", ids[k], 0, (long)cnt - 1, &id)) {
            cli_error("render", "(%s has %u queries)", a->scen, cnt);
            return 2;
        }
        const pf_scen_entry *e = pf_scen_get(sc, (uint32_t)id);
        qs[(*nq)++] = (query){id, e->sx, e->sy, e->gx, e->gy};
    }
    return -1;
}

/* Every start and goal inside the map and on an open cell; 0 with a message otherwise. */
static int check_queries(const pf_map *map, const query *qs, int nq)
{
    uint32_t w = pf_grid_width(map), h = pf_grid_height(map);
    for (int q = 0; q < nq; q++) {
        int32_t c[4] = {qs[q].sx, qs[q].sy, qs[q].gx, qs[q].gy};
        for (int k = 0; k < 4; k += 2) {
            const char *what = k ? "goal" : "start";
            if (c[k] < 0 || c[k + 1] < 0 || (uint32_t)c[k] >= w || (uint32_t)c[k + 1] >= h) {
                cli_error("render", "%s (%d,%d)%s is outside the %ux%u map", what, c[k], c[k + 1],
                          qs[q].id >= 0 ? " of the scenario query" : "", w, h);
                return 0;
            }
            if (!pf_grid_class(map, c[k], c[k + 1])) {
                cli_error("render", "%s (%d,%d) is a blocked cell", what, c[k], c[k + 1]);
                return 0;
            }
        }
    }
    return 1;
}

/* Panel and picture sizes: cells enlarged up to 16 px, or reduced by k cells per pixel. Returns 0
 * (message printed) when the picture would pass 16384 px a side. */
static int plan_layout(layout *L, long max_px, int nalgo, int nq, int edits, uint64_t *W, uint64_t *H,
                       uint64_t *legend_h, int *lts)
{
    uint32_t longest = L->w > L->h ? L->w : L->h;
    if (longest <= (uint32_t)max_px) {
        L->cp = (uint32_t)max_px / longest;
        if (L->cp > 16) L->cp = 16;
        L->mw = L->w * L->cp;
        L->mh = L->h * L->cp;
    } else {
        L->k = (longest + (uint32_t)max_px - 1) / (uint32_t)max_px;
        L->mw = (L->w + L->k - 1) / L->k;
        L->mh = (L->h + L->k - 1) / L->k;
    }
    L->ts = L->mw >= 400 ? 2 : 1;
    L->pw = L->mw > 200 ? L->mw : 200;
    L->header = 2 * 10 * (uint32_t)L->ts + 4;
    const int ncol = edits ? 2 * nalgo : nalgo; /* with edits: before and after, side by side */
    *W = MARGIN + (uint64_t)ncol * (L->pw + MARGIN);
    *lts = *W >= 900 ? 2 : 1;
    *legend_h = (uint64_t)legend(NULL, MARGIN, 0, (long)*W - 2 * MARGIN, *lts, 0, edits) + MARGIN;
    *H = MARGIN + (uint64_t)nq * (L->header + L->mh + MARGIN) + *legend_h;
    if (*W > 16384 || *H > 16384) {
        cli_error("render", "picture would be %llux%llu pixels; lower --max-px or draw fewer panels",
                  (unsigned long long)*W, (unsigned long long)*H);
        return 0;
    }
    return 1;
}

typedef struct panel_info {
    int a, q, after, broke; /* after: drawn after the edits; broke: an edit broke the earlier path */
    pf_status r;
    pf_stats st;
    uint32_t len;
    long x, y;
} panel_info;

/* The buffers one search and its panel need, sized to the map once; with --edits, the paths found
 * before the edits (to draw them after and tell which broke) and the edited rectangles. */
typedef struct render_bufs {
    uint32_t *trace, *order, *path;
    char *chars;
    pf_ctx *ctx;
    uint32_t *before[MAX_ALGOS * MAX_QUERIES], before_len[MAX_ALGOS * MAX_QUERIES];
    pf_rect *edited;
    uint32_t nedited;
} render_bufs;

/* Searches query q with algorithm i and draws its panel (pass 1: after the edits, in the column
 * beside pass 0's); 0 (message printed) on a failed search. */
static int draw_search(cli_canvas *cv, const layout *L, const pf_map *map, render_bufs *b, const render_args *a,
                       int i, int q, int pass, const query *qq, panel_info *info)
{
    uint32_t nodes = pf_map_node_count(map);
    uint32_t s = pf_grid_node(map, qq->sx, qq->sy), g = pf_grid_node(map, qq->gx, qq->gy);
    pf_trace tr = {.nodes = b->trace, .capacity = nodes};
    pf_path path = {.nodes = b->path, .capacity = nodes};
    pf_stats st;
    pf_ctx_use_trace(b->ctx, &tr);
    pf_status r = pf_search(b->ctx, s, g, &a->descs[i], &path, &st);
    pf_ctx_use_trace(b->ctx, NULL);
    int ok = r == PF_OK;
    /* after edits a start or goal may be walled in: that is an answer to draw */
    if (pf_failed(r) && !(pass && (r == PF_INVALID_START || r == PF_INVALID_GOAL))) {
        cli_error("render", "%s: %s", a->names[i], pf_status_str(r));
        return 0;
    }
    if (pf_failed(r)) tr.len = 0;
    int k = q * a->nalgo + i, broke = 0;
    if (a->edits && pass == 0) {
        b->before_len[k] = ok ? path.len : 0;
        b->before[k] = malloc(((size_t)b->before_len[k] + 1) * sizeof(uint32_t));
        if (!b->before[k]) {
            cli_error("render", "out of memory");
            return 0;
        }
        memcpy(b->before[k], b->path, (size_t)b->before_len[k] * sizeof(uint32_t));
    }
    if (pass == 1) broke = pf_grid_path_changed(map, 0, b->before[k], b->before_len[k]) != PF_NODE_NONE;
    if (a->smooth && ok && path.len > 1) { /* waypoints, drawn as straight segments */
        uint32_t nw = path.len;
        pf_status ss = pf_path_smooth(map, b->path, path.len, &(pf_smooth_desc){.unit_size = a->descs[i].unit_size}, b->path,
                                      path.len, &nw, NULL);
        if (ss != PF_OK) { /* never the unsmoothed path drawn as if it were smoothed */
            cli_error("render", "%s: smoothing failed: %s", a->names[i], pf_status_str(ss));
            return 0;
        }
        path.len = nw;
    }
    memset(b->order, 0, (size_t)nodes * sizeof *b->order);
    for (uint32_t e = tr.len; e-- > 0;) b->order[b->trace[e]] = e + 1; /* first expansion wins */
    int col = a->edits ? 2 * i + pass : i;
    long ox = MARGIN + (long)col * (L->pw + MARGIN);
    long oy = MARGIN + (long)q * (L->header + L->mh + MARGIN);
    char l1[96], l2[96];
    const char *an = pf_algo_name(a->descs[i].algo);
    if (qq->id >= 0) snprintf(l1, sizeof l1, "%s  #%ld", an, qq->id);
    else snprintf(l1, sizeof l1, "%s", an);
    if (st.detail & PF_DETAIL_FALLBACK) strncat(l1, " (ran astar)", sizeof l1 - strlen(l1) - 1);
    if (a->edits)
        strncat(l1, !pass ? "  before" : broke ? "  after: path broke" : "  after: path kept", sizeof l1 - strlen(l1) - 1);
    if (ok) snprintf(l2, sizeof l2, "cost %.2f  exp %u", st.cost, st.expanded);
    else snprintf(l2, sizeof l2, "%s  exp %u", cli_status_word(r), st.expanded);
    fit_text(l1, L->pw, L->ts);
    fit_text(l2, L->pw, L->ts);
    cli_canvas_text(cv, ox, oy, l1, L->ts, C_TEXT);
    cli_canvas_text(cv, ox, oy + 10 * L->ts, l2, L->ts, C_TEXT);
    long my = oy + (long)L->header;
    overlay ov = {b->edited, b->nedited, broke ? b->before[k] : NULL, b->before_len[k]};
    draw_panel(cv, L, ox, my, map, b->chars, b->order, tr.len, b->path, ok ? path.len : 0, s, g, pass ? &ov : NULL);
    *info = (panel_info){i, q, pass, broke, r, st, ok ? path.len : 0, ox, my};
    return 1;
}

/* One line per panel, or with --json one object for the picture. */
static void print_report(const render_args *a, const layout *L, uint64_t W, uint64_t H, const query *qs,
                         const panel_info *info, int ninfo)
{
    if (a->json) {
        printf("{\"map\":");
        cli_json_str(stdout, a->map);
        printf(",\"output\":");
        cli_json_str(stdout, a->out);
        printf(",\"width\":%llu,\"height\":%llu,\"cell_px\":%u,\"cells_per_px\":%u,\"path_rgb\":[%d,%d,%d],\"panels\":[",
               (unsigned long long)W, (unsigned long long)H, L->cp, L->k, C_PATH.r, C_PATH.g, C_PATH.b);
    }
    for (int i = 0; i < ninfo; i++) {
        const panel_info *p = &info[i];
        const query *qq = &qs[p->q];
        const char *an = pf_algo_name(a->descs[p->a].algo);
        int ok = p->r == PF_OK;
        if (a->json) {
            printf("%s{\"algo\":\"%s\",\"id\":%ld,\"sx\":%d,\"sy\":%d,\"gx\":%d,\"gy\":%d,\"status\":\"%s\","
                   "\"cost\":%.8f,\"expanded\":%u,\"path_len\":%u,\"map_x\":%ld,\"map_y\":%ld",
                   i ? "," : "", an, qq->id, qq->sx, qq->sy, qq->gx, qq->gy, cli_status_word(p->r),
                   ok ? p->st.cost : -1.0, p->st.expanded, p->len, p->x, p->y);
            if (a->edits) printf(",\"after_edits\":%s,\"path_broke\":%s", p->after ? "true" : "false",
                                   p->broke ? "true" : "false");
            printf("}");
            continue;
        }
        char name[80];
        if (qq->id >= 0) snprintf(name, sizeof name, "%s #%ld", an, qq->id);
        else snprintf(name, sizeof name, "%s (%d,%d)->(%d,%d)", an, qq->sx, qq->sy, qq->gx, qq->gy);
        if (a->edits) strncat(name, !p->after ? " before" : p->broke ? " after (path broke)" : " after",
                                sizeof name - strlen(name) - 1);
        if (ok) printf("%s: cost %.4f, %u expanded, %u path nodes\n", name, p->st.cost, p->st.expanded, p->len);
        else printf("%s: %s (%u expanded)\n", name, pf_status_str(p->r), p->st.expanded);
    }
    if (a->json) printf("]}\n");
    else if (L->k > 1) cli_say("wrote %s (%llux%llu px, %u cells per px)", a->out, (unsigned long long)W, (unsigned long long)H, L->k);
    else cli_say("wrote %s (%llux%llu px, %u px per cell)", a->out, (unsigned long long)W, (unsigned long long)H, L->cp);
}

int pf_cli_render(int argc, char **argv)
{
    render_args a = {.max_px = 1024, .moves = PF_MOVES_8_NO_CUT, .algos = "astar"};
    int rc = parse_args(argc, argv, &a);
    if (rc >= 0) return rc;
    query qs[MAX_QUERIES];
    int nq = 0;
    if (!a.scen && (rc = collect_queries(&a, NULL, qs, &nq)) >= 0) return rc; /* coordinates: usage */
    if (cli_args_only) return 0;
    pf_diag diag;
    /* read once, its characters kept for swamp's colour: a FIFO read a second time hung */
    char *chars = NULL;
    pf_map *map = cli_map_read("render", a.map, &(pf_grid_load_desc){.moves = a.moves}, &chars);
    if (!map) return 1;
    rc = 1;
    pf_scen *sc = NULL;
    render_bufs b = {0};
    cli_canvas cv = {0};
    if (a.scen) {
        if (pf_scen_load(a.scen, NULL, &sc, &diag) != PF_OK) {
            cli_error("render", "%s", diag.msg);
            goto done;
        }
        int qrc = collect_queries(&a, sc, qs, &nq);
        if (qrc >= 0) {
            rc = qrc;
            goto done;
        }
    }
    if (!check_queries(map, qs, nq)) goto done;
    layout L = {.w = pf_grid_width(map), .h = pf_grid_height(map), .cp = 1, .k = 1};
    uint64_t W, H, legend_h;
    int lts;
    if (!plan_layout(&L, a.max_px, a.nalgo, nq, a.edits != NULL, &W, &H, &legend_h, &lts)) {
        rc = 2; /* a limit the command line's --max-px and panels hit (docs/hardening.md, limits) */
        goto done;
    }
    uint32_t nodes = pf_map_node_count(map);
    b.chars = chars;
    chars = NULL;
    b.trace = malloc((size_t)nodes * sizeof *b.trace);
    b.order = malloc((size_t)nodes * sizeof *b.order);
    b.path = malloc((size_t)nodes * sizeof *b.path);
    if (!b.trace || !b.order || !b.path || !cli_canvas_init(&cv, (uint32_t)W, (uint32_t)H, C_BG) ||
        pf_ctx_create(map, NULL, &b.ctx) != PF_OK) {
        cli_error("render", "out of memory for a %ux%u map", L.w, L.h);
        goto done;
    }
    panel_info info[2 * MAX_ALGOS * MAX_QUERIES];
    int ninfo = 0;
    for (int pass = 0; pass < (a.edits ? 2 : 1); pass++) {
        if (pass == 1) {
            /* the map changes in place (the context follows); the character rows get the edits too */
            cli_paint pt = {b.chars, L.w};
            cli_edit_stats es;
            if (!cli_apply_edits("render", map, a.edits, b.chars ? cli_paint_edit : NULL, &pt, &es)) goto done;
            pf_grid_changes_since(map, 0, NULL, 0, &b.nedited);
            b.edited = malloc(((size_t)b.nedited + 1) * sizeof *b.edited);
            if (!b.edited || pf_grid_changes_since(map, 0, b.edited, b.nedited, &b.nedited) != PF_OK) {
                cli_error("render", "cannot list the edited cells (out of memory, or more than the log holds)");
                goto done;
            }
        }
        for (int q = 0; q < nq; q++)
            for (int i = 0; i < a.nalgo; i++)
                if (!draw_search(&cv, &L, map, &b, &a, i, q, pass, &qs[q], &info[ninfo++])) goto done;
    }
    legend(&cv, MARGIN, (long)(H - legend_h), (long)W - 2 * MARGIN, lts, 1, a.edits != NULL);
    cli_out o;
    FILE *f = cli_out_open(&o, "render", a.out);
    if (!f) goto done;
    char err[256] = "";
    int wrote = cli_png_write(f, &cv, err, sizeof err);
    /* a failed write is said by cli_out_close, once, with its cause (libpng says "Write Error") */
    if (!wrote && !ferror(f)) cli_error("render", "%s: %s", a.out, err);
    if (!cli_out_close(&o, "render", wrote)) goto done;
    print_report(&a, &L, W, H, qs, info, ninfo);
    rc = 0;
done:
    for (int k = 0; k < MAX_ALGOS * MAX_QUERIES; k++) free(b.before[k]);
    free(b.edited);
    cli_canvas_free(&cv);
    free(b.trace);
    free(b.order);
    free(b.path);
    free(b.chars);
    free(chars); /* not handed to b: a failure before the panels */
    pf_ctx_destroy(b.ctx);
    pf_scen_destroy(sc);
    pf_map_destroy(map);
    return rc;
}
