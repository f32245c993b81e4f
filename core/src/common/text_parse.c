/* text_parse.c - the text readers' pieces: lines (LF or CR LF), tokens, and numbers read
 * strictly (no sign where none may be, no overflow, '.' whatever the locale). */
#define _XOPEN_SOURCE 700 /* nl_langinfo's RADIXCHAR */
#include <errno.h>
#include <float.h>
#include <locale.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "common/pf_internal.h"
#if defined(__unix__) || defined(__APPLE__)
#include <langinfo.h>
#endif

int pf__next_line(pf__lines *ls, const char **s, size_t *n)
{
    if (ls->p >= ls->end) return 0;
    const char *b = ls->p;
    const char *e = memchr(b, '\n', (size_t)(ls->end - b));
    if (!e) e = ls->end;
    ls->p = e < ls->end ? e + 1 : e;
    if (e > b && e[-1] == '\r') e--;
    *s = b;
    *n = (size_t)(e - b);
    ls->line++;
    return 1;
}

int pf__next_token(const char **p, const char *end, const char **tok, size_t *tlen)
{
    const char *q = *p;
    while (q < end && (*q == ' ' || *q == '\t')) q++;
    if (q >= end) {
        *p = q;
        return 0;
    }
    const char *t = q;
    while (q < end && *q != ' ' && *q != '\t') q++;
    *tok = t;
    *tlen = (size_t)(q - t);
    *p = q;
    return 1;
}

int pf__parse_u64(const char *t, size_t n, uint64_t *out)
{
    while (n > 1 && t[0] == '0') { /* leading zeros say nothing of the size ("0005" is 5) */
        t++;
        n--;
    }
    if (n == 0 || n > 20) return 0;
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++) {
        if (t[i] < '0' || t[i] > '9') return 0;
        uint64_t d = (uint64_t)(t[i] - '0');
        if (v > (UINT64_MAX - d) / 10) return 0;
        v = v * 10 + d;
    }
    *out = v;
    return 1;
}

int pf__parse_i64(const char *t, size_t n, int64_t *out)
{
    int neg = 0;
    if (n && (t[0] == '-' || t[0] == '+')) {
        neg = t[0] == '-';
        t++;
        n--;
    }
    uint64_t u;
    if (!pf__parse_u64(t, n, &u) || u > (uint64_t)INT64_MAX) return 0;
    *out = neg ? -(int64_t)u : (int64_t)u;
    return 1;
}

/* The decimal point strtod reads now. nl_langinfo reads the locale's without the one static
 * record localeconv rewrites on every call (MT-Unsafe in glibc's manual: two threads loading
 * files at once raced on it, a review). */
static const char *decimal_point(void)
{
#if defined(__unix__) || defined(__APPLE__)
    const char *d = nl_langinfo(RADIXCHAR);
#else
    const struct lconv *lc = localeconv();
    const char *d = lc ? lc->decimal_point : NULL;
#endif
    return d && d[0] ? d : ".";
}

/* A number of a file: digits, at most one '.', an exponent. strtod reads the decimal point of the
 * host's locale (a comma once an application called setlocale(LC_ALL, "") in much of Europe, as
 * Qt and GTK do at start-up: no .scen length with a fraction loaded there, a review), so the
 * file's '.' is handed to it as the locale's. A number too small for a double is 0 or subnormal
 * (strtod's ERANGE on underflow): it is finite and is taken; one too large is refused. */
int pf__parse_double(const char *t, size_t n, double *out)
{
    char buf[64 + 8];
    if (n == 0 || n >= 64) return 0;
    for (size_t i = 0; i < n; i++) {
        char ch = t[i];
        if (!((ch >= '0' && ch <= '9') || ch == '.' || ch == '-' || ch == '+' || ch == 'e' || ch == 'E'))
            return 0; /* no "nan", "inf" or hex floats */
    }
    const char *dot = memchr(t, '.', n);
    const char *dp = decimal_point();
    const size_t dpn = strlen(dp);
    size_t len = n;
    if (dot && strcmp(dp, ".") != 0) {
        if (dpn > 8) return 0; /* no locale has one so long */
        const size_t at = (size_t)(dot - t);
        memcpy(buf, t, at);
        memcpy(buf + at, dp, dpn);
        memcpy(buf + at + dpn, t + at + 1, n - at - 1);
        len = n - 1 + dpn;
    } else {
        memcpy(buf, t, n);
    }
    buf[len] = '\0';
    char *e;
    errno = 0;
    double v = strtod(buf, &e);
    if (e != buf + len || !isfinite(v)) return 0;
    if (errno == ERANGE && fabs(v) > DBL_MIN) return 0; /* overflow (HUGE_VAL is not finite anyway) */
    *out = v;
    return 1;
}
