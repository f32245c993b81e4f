/* replay_anim.c - the pictures of `pathfind replay --animate`: the map as it is (buildings come and
 * go with the log's edit lines, drawn orange where they wall open ground), every unit as a square of its size coloured by priority (pale
 * while its search is in flight, solid once it moves along its path), and a strip with the frame
 * number, that frame's time and how many searches are in flight. One picture per frame step. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "gif_writer.h"
#include "replay_anim.h"

/* The palette: every colour drawn (gif.c looks pixels up in it). */
enum { P_GROUND, P_SWAMP, P_WATER, P_TREES, P_BLOCKED, P_STRIP, P_TEXT, P_URGENT, P_NORMAL, P_BACKGROUND,
       P_URGENT_WAIT, P_NORMAL_WAIT, P_BACKGROUND_WAIT, P_OUTLINE, P_BUILDING, P__COUNT };
static const cli_rgb PAL[P__COUNT] = {
    {236, 232, 220}, {158, 150, 100}, {84, 140, 214}, {52, 128, 64}, {44, 44, 50}, {24, 24, 28}, {240, 240, 240},
    {228, 36, 36},   {36, 96, 228},   {110, 110, 110}, {248, 170, 170}, {160, 190, 248}, {200, 200, 200}, {0, 0, 0},
    {240, 150, 20}};
enum { STRIP = 12 }; /* pixels above the map: one line of the 5x7 font */

struct cli_anim {
    cli_gif   *gif;
    cli_canvas base, pic; /* the terrain alone, drawn again only after edits; and the picture */
    uint32_t   scale, fold; /* pixels per cell, or cells per pixel (one of them is 1) */
    uint32_t   mw, mh;
    uint64_t   version;   /* the map version `base` shows */
    uint8_t   *was;       /* [mw*mh] the classes before the first edit: what edits walled is a building */
};

static void draw_terrain(cli_anim *a, const pf_map *map)
{
    for (uint32_t py = 0; py * a->fold < a->mh && STRIP + py * a->scale < a->base.h; py++)
        for (uint32_t px = 0; px * a->fold < a->mw; px++) {
            /* a pixel that holds several cells shows a wall when any of them is one */
            uint8_t k = 255;
            int built = 0;
            for (uint32_t dy = 0; dy < a->fold && py * a->fold + dy < a->mh; dy++)
                for (uint32_t dx = 0; dx < a->fold && px * a->fold + dx < a->mw; dx++) {
                    uint32_t x = px * a->fold + dx, y = py * a->fold + dy;
                    uint8_t c = pf_grid_class(map, (int32_t)x, (int32_t)y);
                    k = c == 0 || k == 255 ? c : k;
                    built |= c == 0 && a->was[(size_t)y * a->mw + x] != 0;
                }
            int col = built ? P_BUILDING : k == 0 ? P_BLOCKED : k == 2 ? P_WATER : k == 3 ? P_TREES : P_GROUND;
            cli_canvas_rect(&a->base, (long)(px * a->scale), (long)(STRIP + py * a->scale), (long)a->scale,
                            (long)a->scale, PAL[col]);
        }
    a->version = pf_map_version(map);
}

cli_anim *cli_anim_open(const char *cmd, const char *path, const pf_map *map, long max_px, int delay_cs)
{
    cli_anim *a = calloc(1, sizeof *a);
    if (!a) {
        cli_error(cmd, "out of memory");
        return NULL;
    }
    a->mw = pf_grid_width(map);
    a->mh = pf_grid_height(map);
    if (!(a->was = malloc((size_t)a->mw * a->mh))) {
        cli_error(cmd, "out of memory");
        free(a);
        return NULL;
    }
    for (uint32_t y = 0; y < a->mh; y++)
        for (uint32_t x = 0; x < a->mw; x++) a->was[(size_t)y * a->mw + x] = pf_grid_class(map, (int32_t)x, (int32_t)y);
    uint32_t side = a->mw > a->mh ? a->mw : a->mh;
    a->scale = side <= (uint32_t)max_px ? (uint32_t)max_px / side : 1u;
    a->fold = side <= (uint32_t)max_px ? 1u : (side + (uint32_t)max_px - 1u) / (uint32_t)max_px;
    uint32_t w = (a->mw + a->fold - 1) / a->fold * a->scale, h = STRIP + (a->mh + a->fold - 1) / a->fold * a->scale;
    if (w < 160) w = 160; /* room for the strip's text */
    if (!cli_canvas_init(&a->base, w, h, PAL[P_STRIP]) || !cli_canvas_init(&a->pic, w, h, PAL[P_STRIP])) {
        cli_error(cmd, "out of memory for a %ux%u picture", w, h);
        cli_anim_close(a, 0);
        return NULL;
    }
    draw_terrain(a, map);
    if (!(a->gif = cli_gif_open(cmd, path, w, h, PAL, P__COUNT, delay_cs))) {
        cli_anim_close(a, 0);
        return NULL;
    }
    return a;
}

int cli_anim_picture(cli_anim *a, const pf_map *map, const cli_anim_unit *units, uint32_t n, uint64_t frame,
                     double frame_ms, uint32_t in_flight)
{
    if (pf_map_version(map) != a->version) draw_terrain(a, map);
    memcpy(a->pic.px, a->base.px, (size_t)a->pic.w * a->pic.h * 3u);
    for (uint32_t i = 0; i < n; i++) {
        const cli_anim_unit *u = &units[i];
        int col = u->prio == PF_PRIORITY_URGENT ? P_URGENT : u->prio == PF_PRIORITY_BACKGROUND ? P_BACKGROUND : P_NORMAL;
        if (u->waiting) col += P_URGENT_WAIT - P_URGENT;
        /* its footprint, at least 3 pixels so a one-cell unit is seen on a large map */
        long side = (long)((u->size ? u->size : 1u) * a->scale / a->fold);
        if (side < 3) side = 3;
        long x = (long)((uint32_t)u->x / a->fold * a->scale), y = (long)(STRIP + (uint32_t)u->y / a->fold * a->scale);
        cli_canvas_rect(&a->pic, x - 1, y - 1, side + 2, side + 2, PAL[P_OUTLINE]);
        cli_canvas_rect(&a->pic, x, y, side, side, PAL[col]);
    }
    char text[96];
    snprintf(text, sizeof text, "frame %llu  %.2f ms  in flight %u", (unsigned long long)frame, frame_ms, in_flight);
    cli_canvas_rect(&a->pic, 0, 0, (long)a->pic.w, STRIP, PAL[P_STRIP]);
    cli_canvas_text(&a->pic, 2, 2, text, 1, PAL[P_TEXT]);
    return cli_gif_frame(a->gif, &a->pic);
}

int cli_anim_finish(cli_anim *a) { return a && a->gif && cli_gif_finish(a->gif); }

int cli_anim_close(cli_anim *a, int ok)
{
    if (!a) return 0;
    int done = a->gif ? cli_gif_close(a->gif, ok) : 0;
    cli_canvas_free(&a->base);
    cli_canvas_free(&a->pic);
    free(a->was);
    free(a);
    return done;
}
