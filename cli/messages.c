/* messages.c - what the commands say: errors and notes on stderr, control bytes escaped, and
 * strings for JSON. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

/* Formats like vprintf and writes the result to f with control characters escaped, then a newline. */
static void put_escaped(FILE *f, const char *fmt, va_list ap)
{
    char raw[8192];
    int n = vsnprintf(raw, sizeof raw, fmt, ap);
    size_t len = n < 0 ? 0 : (size_t)n < sizeof raw ? (size_t)n : sizeof raw - 1;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)raw[i];
        /* C0 controls and DEL, and C1 controls as UTF-8 (0xC2 0x80..0x9F): a terminal acts on them */
        int c1 = c == 0xc2 && i + 1 < len && (unsigned char)raw[i + 1] >= 0x80 && (unsigned char)raw[i + 1] <= 0x9f;
        if (c < 0x20 || c == 0x7f) fprintf(f, "\\x%02x", c);
        else if (c1) fprintf(f, "\\x%02x\\x%02x", c, (unsigned char)raw[++i]);
        else fputc(c, f);
    }
    if (n >= 0 && (size_t)n >= sizeof raw) fputs("...", f);
    fputc('\n', f);
}

void cli_error(const char *cmd, const char *fmt, ...)
{
    if (*cmd) fprintf(stderr, "pathfind %s: ", cmd);
    else fputs("pathfind: ", stderr);
    va_list ap;
    va_start(ap, fmt);
    put_escaped(stderr, fmt, ap);
    va_end(ap);
}

void cli_say(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    put_escaped(stdout, fmt, ap);
    va_end(ap);
}

void cli_json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\') fprintf(f, "\\%c", *p);
        else if (*p < 0x20 || *p == 0x7f) fprintf(f, "\\u%04x", *p);
        else fputc(*p, f);
    }
    fputc('"', f);
}
