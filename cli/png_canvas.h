/* png_canvas.h - RGB canvas, drawing helpers and a 5x7 bitmap font for `pathfind render`; PNG via libpng. */
#ifndef PF_CLI_PNG_CANVAS_H
#define PF_CLI_PNG_CANVAS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct cli_rgb { uint8_t r, g, b; } cli_rgb;

/* A w x h RGB image, rows top to bottom, 3 bytes per pixel. */
typedef struct cli_canvas {
    uint32_t w, h;
    uint8_t *px; /* [len: w*h*3] */
} cli_canvas;

/* Allocates a canvas filled with `bg`. Returns 0 on allocation failure or an oversized request. */
int  cli_canvas_init(cli_canvas *c, uint32_t w, uint32_t h, cli_rgb bg);
void cli_canvas_free(cli_canvas *c);
/* Out-of-range coordinates are ignored (clipped), so callers may draw past the edges. */
void cli_canvas_set(cli_canvas *c, long x, long y, cli_rgb col);
void cli_canvas_rect(cli_canvas *c, long x, long y, long w, long h, cli_rgb col);
/* Draws `text` with the built-in 5x7 font scaled by `scale` (glyph cell 6*scale x 8*scale).
 * Returns the advance in pixels. Characters outside printable ASCII draw as '?'. */
long cli_canvas_text(cli_canvas *c, long x, long y, const char *text, int scale, cli_rgb col);
/* Width in pixels that cli_canvas_text would advance. */
long cli_text_width(const char *text, int scale);

/* Writes an 8-bit RGB PNG with libpng to f (the caller opens, checks and closes it: cli_out). On
 * failure returns 0 and puts the reason in err. */
int cli_png_write(FILE *f, const cli_canvas *c, char *err, size_t errlen);

#endif
