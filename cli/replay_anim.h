/* replay_anim.h - the animated GIF of `pathfind replay --animate` (replay_anim.c). */
#ifndef PF_CLI_REPLAY_ANIM_H
#define PF_CLI_REPLAY_ANIM_H

#include <stdint.h>
#include "pathfind.h"

typedef struct cli_anim cli_anim;

/* A unit as a picture shows it: where it stands (its top-left cell), its size and priority, and
 * whether its search is still in flight (drawn pale) or it follows its path (solid). */
typedef struct cli_anim_unit {
    int32_t     x, y;
    uint32_t    size;
    pf_priority prio;
    int         waiting;
} cli_anim_unit;

/* Opens the GIF at `path` for `map`, at most max_px pixels on its longer side (a cell is then
 * max_px / side pixels, or a pixel several cells), each picture shown delay_cs hundredths of a
 * second. NULL with a message. */
cli_anim *cli_anim_open(const char *cmd, const char *path, const pf_map *map, long max_px, int delay_cs);
/* Adds the picture of one frame: the map as it is now (edits redraw it), the units, and the
 * strip's frame number, frame time and searches in flight. 0 with a message. */
int       cli_anim_picture(cli_anim *a, const pf_map *map, const cli_anim_unit *units, uint32_t n, uint64_t frame,
                           double frame_ms, uint32_t in_flight);
/* Writes the GIF's end and flushes it, leaving only its rename to cli_anim_close (cli_gif_finish);
 * 1 when complete, 0 with a message. NULL-safe. */
int       cli_anim_finish(cli_anim *a);
/* Finishes the file (ok = 0 discards it) and renames it over its target; 1 when complete.
 * NULL-safe. */
int       cli_anim_close(cli_anim *a, int ok);

#endif
