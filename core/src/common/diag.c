/* diag.c - status messages: pf_diag's "NAME:LINE:COL: message" with control bytes escaped, and
 * the misuse hook of handle checks. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common/pf_internal.h"

/* Bytes the escaped form of src[i] takes (0xC2 0x80..0x9F: a C1 control, 8 for the pair). */
static size_t escaped_len(const char *src, size_t n, size_t i)
{
    unsigned char c = (unsigned char)src[i];
    if (c < 0x20 || c == 0x7f) return 4;
    if (c == 0xc2 && i + 1 < n && (unsigned char)src[i + 1] >= 0x80 && (unsigned char)src[i + 1] <= 0x9f) return 8;
    return 1;
}

size_t pf__escape(char *dst, size_t cap, const char *src, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    if (!cap) return 0;
    size_t total = 0;
    for (size_t i = 0; i < n; i += escaped_len(src, n, i) == 8 ? 2 : 1) total += escaped_len(src, n, i);
    /* when it cannot all fit, stop on a whole escape and leave room to say it was cut */
    size_t room = total < cap ? cap - 1 : (cap > 4 ? cap - 4 : 0);
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        size_t need = escaped_len(src, n, i);
        if (o + need > room) break;
        if (need == 1) {
            dst[o++] = src[i];
            continue;
        }
        for (size_t k = 0; k < need / 4; k++) {
            unsigned char b = (unsigned char)src[i + k];
            dst[o++] = '\\';
            dst[o++] = 'x';
            dst[o++] = hex[b >> 4];
            dst[o++] = hex[b & 15];
        }
        i += need / 4 - 1;
    }
    if (total >= cap && cap > 4) {
        memcpy(dst + o, "...", 3);
        o += 3;
    }
    dst[o] = '\0';
    return o;
}

pf_status pf__diag_set(pf_diag *diag, pf_status st, const char *name, uint32_t line, uint32_t col,
                       const char *fmt, ...)
{
    if (!diag) return st;
    diag->status = st;
    diag->line = line;
    diag->column = col;
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    /* the whole message is escaped as one: file names and echoed input may hold control bytes */
    char raw[PF_DIAG_MSG_SIZE + sizeof msg];
    const char *n = name ? name : "<input>";
    int len;
    if (line && col) len = snprintf(raw, sizeof raw, "%s:%u:%u: %s", n, line, col, msg);
    else if (line) len = snprintf(raw, sizeof raw, "%s:%u: %s", n, line, msg);
    else len = snprintf(raw, sizeof raw, "%s: %s", n, msg);
    size_t rl = len < 0 ? 0 : (size_t)len < sizeof raw ? (size_t)len : sizeof raw - 1;
    pf__escape(diag->msg, sizeof diag->msg, raw, rl);
    return st;
}

static pf_misuse_fn g_misuse_fn;
static void *g_misuse_user;

void pf_set_misuse_hook(pf_misuse_fn fn, void *user)
{
    g_misuse_fn = fn;
    g_misuse_user = user;
}

#ifdef PF__DEBUG_HANDLES
void pf__handle_fail(const char *fn, const char *type, const char *why)
{
    char msg[256];
    snprintf(msg, sizeof msg, "%s %s", type, why);
    if (g_misuse_fn) g_misuse_fn(fn, msg, g_misuse_user); /* the engine's hook first: it may not return */
    fprintf(stderr, "pathfind: %s: %s\n", fn, msg);
    abort();
}
#endif
