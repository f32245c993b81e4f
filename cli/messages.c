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
#include "common/pf_internal.h" /* pf__escape: the library's messages are escaped alike */

/* Formats like vprintf and writes the result to f escaped as pf_diag's messages are (pf__escape:
 * controls and bytes that are not UTF-8 as \xNN), then a newline. */
static void put_escaped(FILE *f, const char *fmt, va_list ap)
{
    char raw[8192], small[1024];
    int n = vsnprintf(raw, sizeof raw, fmt, ap);
    size_t len = n < 0 ? 0 : (size_t)n < sizeof raw ? (size_t)n : sizeof raw - 1;
    /* room for every byte as an escape; without the memory the message is cut ("...") rather
     * than lost, and a worker thread's stack is not asked for 32 KB */
    char *out = malloc(4 * len + 4);
    size_t cap = out ? 4 * len + 4 : sizeof small;
    if (!out) out = small;
    fwrite(out, 1, pf__escape(out, cap, raw, len, n >= 0 && (size_t)n >= sizeof raw), f);
    if (out != small) free(out);
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
    const size_t n = strlen(s);
    const unsigned char *u = (const unsigned char *)s;
    for (size_t i = 0, take; i < n; i += take) {
        take = pf__utf8_len(u + i, n - i);
        if (!take) { /* a byte of no character (a file name in Latin-1): JSON is UTF-8 (RFC 8259) */
            take = 1;
            fputs("\\ufffd", f);
        } else if (u[i] == '"' || u[i] == '\\') fprintf(f, "\\%c", u[i]);
        else if (u[i] < 0x20 || u[i] == 0x7f) fprintf(f, "\\u%04x", u[i]);
        else fwrite(u + i, 1, take, f);
    }
    fputc('"', f);
}
