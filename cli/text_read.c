/* text_read.c - the one reader of the tool's text inputs (order logs, edit lists, PAIRS, table
 * edits, plot inputs): bounded in total and per line, refused at the first NUL byte, every error
 * naming the file and line. The library's loaders follow the same rule for maps, scenarios and
 * graphs; this is its counterpart for what only the tool reads. */
#define _POSIX_C_SOURCE 200809L /* getc_unlocked */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "cli.h"

static void text_init(cli_text *t, FILE *f, const char *cmd, const char *path, const char *what, uint64_t max_bytes)
{
    *t = (cli_text){.f = f, .cmd = cmd, .path = path, .what = what, .max_bytes = max_bytes};
}

/* A regular file over the bound is refused by its size before a byte is read. */
static int size_fits(const cli_text *t)
{
    struct stat sb;
    if (fstat(fileno(t->f), &sb) != 0 || !S_ISREG(sb.st_mode) || (uint64_t)sb.st_size <= t->max_bytes) return 1;
    cli_error(t->cmd, "%s: %llu bytes, more than %llu (the largest %s the documented limits allow)", t->path,
              (unsigned long long)sb.st_size, (unsigned long long)t->max_bytes, t->what);
    return 0;
}

int cli_text_open(cli_text *t, const char *cmd, const char *path, const char *what, uint64_t max_bytes)
{
    text_init(t, NULL, cmd, path, what, max_bytes);
    FILE *f = cli_open_read(cmd, path); /* refuses a directory */
    if (!f) return 0;
    t->f = f;
    t->owned = 1;
    if (size_fits(t)) return 1;
    cli_text_close(t);
    return 0;
}

int cli_text_from(cli_text *t, FILE *f, const char *cmd, const char *path, const char *what, uint64_t max_bytes)
{
    text_init(t, f, cmd, path, what, max_bytes);
    return size_fits(t);
}

void cli_text_close(cli_text *t)
{
    if (t->owned && t->f) fclose(t->f);
    t->f = NULL;
}

static int nul_byte(const cli_text *t, unsigned line)
{
    cli_error(t->cmd, "%s:%u: NUL byte: binary data, not a text %s", t->path, line, t->what);
    return -1;
}

static int too_big(const cli_text *t)
{
    cli_error(t->cmd, "%s: more than %llu bytes (the largest %s the documented limits allow)", t->path,
              (unsigned long long)t->max_bytes, t->what);
    return -1;
}

static int read_error(const cli_text *t, unsigned line)
{
    cli_error(t->cmd, "%s:%u: read error: %s", t->path, line, strerror(errno ? errno : EIO));
    return -1;
}

int cli_text_line(cli_text *t, char *buf, size_t cap)
{
    FILE *f = t->f;
    size_t n = 0;
    int c;
    errno = 0;
    while ((c = getc_unlocked(f)) != EOF && c != '\n') {
        if (++t->bytes > t->max_bytes) return too_big(t);
        if (c == '\0') return nul_byte(t, t->line + 1);
        if (n + 2 >= cap) { /* room for the line, its '\n' and the terminator, as fgets counts */
            cli_error(t->cmd, "%s:%u: line longer than %zu bytes", t->path, t->line + 1, cap - 2);
            return -1;
        }
        buf[n++] = (char)c;
    }
    if (c == EOF) {
        if (ferror(f)) return read_error(t, t->line + 1);
        if (n == 0) return 0;
    } else if (++t->bytes > t->max_bytes) {
        return too_big(t);
    }
    t->line++;
    if (n && buf[n - 1] == '\r') n--;
    buf[n] = '\0';
    return 1;
}

char *cli_text_rest(cli_text *t, size_t *len)
{
    size_t cap = 1 << 16, n = 0;
    uint64_t room = t->max_bytes - t->bytes;
    unsigned line = t->line + 1;
    char *buf = malloc(cap);
    while (buf) {
        if (n + 1 == cap) {
            /* doubling, but never past the bound and the byte that shows it was passed */
            uint64_t want = (uint64_t)cap * 2u < room + 2u ? (uint64_t)cap * 2u : room + 2u;
            char *g = want > cap && want <= SIZE_MAX ? realloc(buf, (size_t)want) : NULL;
            if (!g) break;
            buf = g;
            cap = (size_t)want;
        }
        errno = 0;
        size_t r = fread(buf + n, 1, cap - n - 1, t->f);
        if (r == 0) {
            if (ferror(t->f)) {
                read_error(t, line);
                free(buf);
                return NULL;
            }
            buf[n] = '\0';
            t->bytes += n;
            *len = n;
            return buf;
        }
        const char *z = memchr(buf + n, '\0', r);
        for (const char *p = buf + n, *e = z ? z : buf + n + r; (p = memchr(p, '\n', (size_t)(e - p))) != NULL; p++)
            line++;
        if (z) {
            nul_byte(t, line);
            free(buf);
            return NULL;
        }
        n += r;
        if ((uint64_t)n > room) {
            too_big(t);
            free(buf);
            return NULL;
        }
    }
    free(buf);
    cli_error(t->cmd, "%s: out of memory", t->path);
    return NULL;
}
