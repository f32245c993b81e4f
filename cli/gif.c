/* gif.c - animated GIFs of canvases through giflib (Debian's libgif-dev), for `replay --animate`.
 *
 * Pictures are drawn in a small fixed palette, so no colour is quantised: each RGB pixel is looked
 * up in it. After the first picture only what changed is written: the rectangle that holds every
 * changed pixel, with the unchanged pixels inside it transparent (each picture is laid over the one
 * before), so a map that stays still costs nothing from picture to picture and the long runs of
 * the transparent index compress to almost nothing. The file is written through cli_out: beside
 * its target and renamed once complete, every write checked. */
#include <gif_lib.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "gif_writer.h"

struct cli_gif {
    GifFileType *gif;
    cli_out      out;
    FILE        *f;
    const char  *cmd;
    uint32_t     w, h;
    cli_rgb      pal[255];
    int          npal;
    int          delay_cs;
    uint8_t     *prev, *cur, *row; /* [w*h] indices of the last picture and of this one; [w] */
    int          frames, failed;
};

enum { TRANSPARENT = 255 };

static int write_fn(GifFileType *gif, const GifByteType *buf, int len)
{
    cli_gif *g = gif->UserData;
    if (len <= 0) return 0;
    if (fwrite(buf, 1, (size_t)len, g->f) != (size_t)len) {
        g->failed = 1;
        return 0;
    }
    return len;
}

cli_gif *cli_gif_open(const char *cmd, const char *path, uint32_t w, uint32_t h, const cli_rgb *pal, int npal,
                      int delay_cs)
{
    if (w == 0 || h == 0 || w > 65535 || h > 65535 || npal < 1 || npal > 255) {
        cli_error(cmd, "internal error: a %ux%u GIF of %d colours", w, h, npal);
        return NULL;
    }
    cli_gif *g = calloc(1, sizeof *g);
    if (!g || !(g->prev = malloc((size_t)w * h)) || !(g->cur = malloc((size_t)w * h)) || !(g->row = malloc(w))) {
        cli_error(cmd, "out of memory");
        cli_gif_close(g, 0);
        return NULL;
    }
    g->cmd = cmd;
    g->w = w;
    g->h = h;
    g->npal = npal;
    g->delay_cs = delay_cs;
    memcpy(g->pal, pal, (size_t)npal * sizeof *pal);
    if (!(g->f = cli_out_open(&g->out, cmd, path))) {
        free(g->prev);
        free(g->cur);
        free(g->row);
        free(g);
        return NULL;
    }
    int err = 0;
    g->gif = EGifOpen(g, write_fn, &err);
    GifColorType colors[256];
    memset(colors, 0, sizeof colors);
    for (int i = 0; i < npal; i++) colors[i] = (GifColorType){pal[i].r, pal[i].g, pal[i].b};
    ColorMapObject *map = g->gif ? GifMakeMapObject(256, colors) : NULL;
    int ok = map != NULL;
    if (ok) {
        EGifSetGifVersion(g->gif, true);
        ok = EGifPutScreenDesc(g->gif, (int)w, (int)h, 8, 0, map) == GIF_OK;
    }
    GifFreeMapObject(map);
    /* loop forever (the NETSCAPE2.0 application extension) */
    static const GifByteType app[11] = {'N', 'E', 'T', 'S', 'C', 'A', 'P', 'E', '2', '.', '0'};
    static const GifByteType loop[3] = {1, 0, 0};
    ok = ok && EGifPutExtensionLeader(g->gif, APPLICATION_EXT_FUNC_CODE) == GIF_OK &&
         EGifPutExtensionBlock(g->gif, 11, app) == GIF_OK && EGifPutExtensionBlock(g->gif, 3, loop) == GIF_OK &&
         EGifPutExtensionTrailer(g->gif) == GIF_OK;
    if (!ok) {
        cli_error(cmd, "cannot start the GIF '%s': %s", path, GifErrorString(g->gif ? g->gif->Error : err));
        cli_gif_close(g, 0);
        return NULL;
    }
    return g;
}

/* The palette index of c: exact colours only are drawn; anything else takes the nearest. */
static uint8_t index_of(const cli_gif *g, cli_rgb c, int *last)
{
    const cli_rgb *p = &g->pal[*last];
    if (p->r == c.r && p->g == c.g && p->b == c.b) return (uint8_t)*last;
    int best = 0;
    long bd = -1;
    for (int i = 0; i < g->npal; i++) {
        long dr = (long)g->pal[i].r - c.r, dg = (long)g->pal[i].g - c.g, db = (long)g->pal[i].b - c.b;
        long d = dr * dr + dg * dg + db * db;
        if (bd < 0 || d < bd) {
            bd = d;
            best = i;
        }
        if (d == 0) break;
    }
    *last = best;
    return (uint8_t)best;
}

int cli_gif_frame(cli_gif *g, const cli_canvas *c)
{
    if (!g || g->failed || c->w != g->w || c->h != g->h) return 0;
    int last = 0;
    for (size_t i = 0; i < (size_t)g->w * g->h; i++) {
        const uint8_t *px = &c->px[3 * i];
        g->cur[i] = index_of(g, (cli_rgb){px[0], px[1], px[2]}, &last);
    }
    /* the rectangle of what changed (the whole picture first) */
    uint32_t x0 = 0, y0 = 0, x1 = g->w - 1, y1 = g->h - 1;
    if (g->frames) {
        x0 = g->w;
        y0 = g->h;
        x1 = y1 = 0;
        for (uint32_t y = 0; y < g->h; y++)
            for (uint32_t x = 0; x < g->w; x++)
                if (g->cur[(size_t)y * g->w + x] != g->prev[(size_t)y * g->w + x]) {
                    x0 = x < x0 ? x : x0;
                    x1 = x > x1 ? x : x1;
                    y0 = y < y0 ? y : y0;
                    y1 = y > y1 ? y : y1;
                }
        if (x0 > x1) x0 = x1 = y0 = y1 = 0; /* nothing changed: one transparent pixel holds the delay */
    }
    GraphicsControlBlock gcb = {.DisposalMode = DISPOSE_DO_NOT, .UserInputFlag = false, .DelayTime = g->delay_cs,
                                .TransparentColor = g->frames ? TRANSPARENT : NO_TRANSPARENT_COLOR};
    GifByteType ext[4];
    EGifGCBToExtension(&gcb, ext);
    int ok = EGifPutExtension(g->gif, GRAPHICS_EXT_FUNC_CODE, 4, ext) == GIF_OK &&
             EGifPutImageDesc(g->gif, (int)x0, (int)y0, (int)(x1 - x0 + 1), (int)(y1 - y0 + 1), false, NULL) == GIF_OK;
    for (uint32_t y = y0; ok && y <= y1; y++) {
        for (uint32_t x = x0; x <= x1; x++) {
            size_t i = (size_t)y * g->w + x;
            g->row[x - x0] = g->frames && g->cur[i] == g->prev[i] ? (uint8_t)TRANSPARENT : g->cur[i];
        }
        ok = EGifPutLine(g->gif, g->row, (int)(x1 - x0 + 1)) == GIF_OK;
    }
    if (!ok || g->failed) {
        /* a failed write is said once, with its reason, when the file is closed (cli_out_close) */
        if (!g->failed) cli_error(g->cmd, "writing the GIF failed: %s", GifErrorString(g->gif->Error));
        g->failed = 1;
        return 0;
    }
    uint8_t *t = g->prev;
    g->prev = g->cur;
    g->cur = t;
    g->frames++;
    return 1;
}

int cli_gif_finish(cli_gif *g)
{
    if (!g) return 0;
    if (g->gif) {
        int err = 0;
        if (EGifCloseFile(g->gif, &err) != GIF_OK) {
            if (!g->failed) cli_error(g->cmd, "finishing the GIF failed: %s", GifErrorString(err));
            g->failed = 1;
        }
        g->gif = NULL;
        if (!g->failed && g->frames == 0) {
            cli_error(g->cmd, "no frame to animate: the GIF is not written");
            g->failed = 1;
        }
        /* a full disk shows here, before any output is renamed; cli_out_close (in cli_gif_close)
         * then finds the stream's error and says it */
        if (!g->failed && fflush(g->f) != 0) g->failed = 1;
    }
    return !g->failed;
}

int cli_gif_close(cli_gif *g, int ok)
{
    if (!g) return 0;
    if (ok) {
        ok = cli_gif_finish(g);
    } else if (g->gif) { /* discarded: the trailer's fate does not matter */
        int err = 0;
        EGifCloseFile(g->gif, &err);
        g->gif = NULL;
    }
    int done = g->f ? cli_out_close(&g->out, g->cmd, ok) : 0;
    free(g->prev);
    free(g->cur);
    free(g->row);
    free(g);
    return done;
}
