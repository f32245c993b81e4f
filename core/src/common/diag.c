/* diag.c - status messages: pf_diag's "NAME:LINE:COL: message" with control bytes escaped, and
 * the misuse hook of handle checks. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common/pf_internal.h"

size_t pf__utf8_len(const unsigned char *s, size_t n)
{
    unsigned char c = s[0];
    size_t len = c < 0x80 ? 1 : c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
    if (!len || len > n) return 0;
    /* the second byte's range is narrower after E0, ED, F0 and F4: that is what rules out the
     * overlong forms, the surrogates and what lies past U+10FFFF */
    unsigned char lo = c == 0xe0 ? 0xa0 : c == 0xf0 ? 0x90 : 0x80, hi = c == 0xed ? 0x9f : c == 0xf4 ? 0x8f : 0xbf;
    for (size_t k = 1; k < len; k++) {
        if (s[k] < (k == 1 ? lo : 0x80) || s[k] > (k == 1 ? hi : 0xbf)) return 0;
    }
    return len;
}

/* What src[i] starts: *take bytes, escaped (each as \xNN) or copied as they are. Controls (C0,
 * DEL, and C1 as UTF-8: 0xC2 0x80..0x9F) drive a terminal; a byte of no well-formed UTF-8
 * sequence is escaped too, so that a message stays text a terminal or a log shows as written. */
static int escaped_at(const char *src, size_t n, size_t i, size_t *take)
{
    const unsigned char *s = (const unsigned char *)src + i;
    size_t len = pf__utf8_len(s, n - i);
    *take = len ? len : 1;
    return !len || s[0] < 0x20 || s[0] == 0x7f || (s[0] == 0xc2 && s[1] <= 0x9f);
}

/* n less the bytes of a character that src[0..n) ends in the middle of (a text cut at n by a
 * buffer), so that the cut does not show as escaped bytes of no character. */
static size_t whole_chars(const char *src, size_t n)
{
    const unsigned char *s = (const unsigned char *)src;
    for (size_t back = 1; back <= 3 && back <= n; back++) {
        unsigned char c = s[n - back];
        if (c >= 0x80 && c <= 0xbf) continue; /* a continuation byte: its lead is further back */
        size_t len = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
        return len > back ? n - back : n;
    }
    return n;
}

size_t pf__escape(char *dst, size_t cap, const char *src, size_t n, int cut)
{
    static const char hex[] = "0123456789abcdef";
    if (!cap) return 0;
    if (cut) n = whole_chars(src, n);
    size_t total = 0, take;
    for (size_t i = 0; i < n; i += take) total += escaped_at(src, n, i, &take) ? 4 * take : take;
    /* when it cannot all fit, or was cut before it came here, stop on a whole escape (or character)
     * and leave room to say it was cut */
    const int mark = cut || total >= cap;
    size_t room = !mark ? cap - 1 : (cap > 4 ? cap - 4 : 0);
    size_t o = 0;
    for (size_t i = 0; i < n; i += take) {
        int esc = escaped_at(src, n, i, &take);
        if (o + (esc ? 4 * take : take) > room) break;
        for (size_t k = 0; k < take; k++) {
            unsigned char b = (unsigned char)src[i + k];
            if (!esc) {
                dst[o++] = (char)b;
                continue;
            }
            dst[o++] = '\\';
            dst[o++] = 'x';
            dst[o++] = hex[b >> 4];
            dst[o++] = hex[b & 15];
        }
    }
    if (mark && cap > 4) {
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
    int ml = vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    /* the whole message is escaped as one: file names and echoed input may hold control bytes */
    char raw[PF_DIAG_MSG_SIZE + sizeof msg];
    const char *n = name ? name : "<input>";
    int len;
    if (line && col) len = snprintf(raw, sizeof raw, "%s:%u:%u: %s", n, line, col, msg);
    else if (line) len = snprintf(raw, sizeof raw, "%s:%u: %s", n, line, msg);
    else len = snprintf(raw, sizeof raw, "%s: %s", n, msg);
    size_t rl = len < 0 ? 0 : (size_t)len < sizeof raw ? (size_t)len : sizeof raw - 1;
    /* the message ends raw: cut by either buffer, it is said with "..." */
    const int cut = (ml >= 0 && (size_t)ml >= sizeof msg) || (len >= 0 && (size_t)len >= sizeof raw);
    pf__escape(diag->msg, sizeof diag->msg, raw, rl, cut);
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
