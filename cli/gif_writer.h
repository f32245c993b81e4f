/* gif_writer.h - animated GIFs of canvases (gif.c, through giflib), for `replay --animate`. */
#ifndef PF_CLI_GIF_WRITER_H
#define PF_CLI_GIF_WRITER_H

#include "png_canvas.h"

typedef struct cli_gif cli_gif;

/* Opens an animated GIF of w x h pixels, looping, at `path` (written beside it and renamed once
 * complete, like every output of the tool). Pictures are drawn in `pal` (1..255 colours; others
 * are taken to the nearest), each shown delay_cs hundredths of a second. NULL with a message. */
cli_gif *cli_gif_open(const char *cmd, const char *path, uint32_t w, uint32_t h, const cli_rgb *pal, int npal,
                      int delay_cs);
/* Adds a picture (the canvas must be w x h); 0 with a message on a write error. */
int      cli_gif_frame(cli_gif *g, const cli_canvas *c);
/* Writes the file's end and flushes it, so that only the rename is left: a caller with several
 * outputs finishes each before any replaces its target. 1 when complete; 0 with a message (a
 * write error is said by cli_gif_close). Further calls return the same. NULL-safe. */
int      cli_gif_finish(cli_gif *g);
/* Finishes the file (cli_gif_finish, unless done) and renames it over its target; ok = 0
 * discards it. Returns 1 when the file is complete and in place. NULL-safe. */
int      cli_gif_close(cli_gif *g, int ok);

#endif
