/* files.c - the commands' files: inputs opened as regular files, outputs written through the
 * library's (beside the target, renamed over it once complete), two outputs naming one file
 * refused, and standard output checked at exit. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <sys/stat.h>
#include <unistd.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "common/pf_internal.h" /* pf__out_open, pf__link_target: the library's output files */

/* The output files are the library's (pf__out_open, pf__out_close: written beside the target and
 * renamed over it, links followed, devices and this process's streams written in place); the
 * CLI words its own messages from the reason the library records. */
static void out_error(const char *cmd, const pf__outfile *p)
{
    const char *path = p->path ? p->path : "";
    switch (p->fail) {
    case PF__OUT_IS_DIR: cli_error(cmd, "cannot write '%s': it is a directory", path); break;
    case PF__OUT_LINK_LOOP:
        cli_error(cmd, "cannot write '%s': a loop of symbolic links, or one too long to follow", path);
        break;
    case PF__OUT_NO_MEMORY: cli_error(cmd, "out of memory"); break;
    case PF__OUT_WRITE: /* err 0: the caller discarded the output (ok = 0) and has said why */
        if (p->err) cli_error(cmd, "error writing '%s': %s", path, strerror(p->err));
        break;
    case PF__OUT_RENAME: cli_error(cmd, "cannot replace '%s': %s", path, strerror(p->err)); break;
    default: cli_error(cmd, "cannot write '%s': %s", path, strerror(p->err ? p->err : EIO)); break;
    }
}

FILE *cli_out_open(cli_out *o, const char *cmd, const char *path)
{
    *o = (cli_out){.path = path};
    pf__outfile *p = malloc(sizeof *p);
    if (!p) {
        cli_error(cmd, "out of memory");
        return NULL;
    }
    if (pf__out_open(p, path, NULL, NULL) != PF_OK) {
        out_error(cmd, p);
        free(p);
        return NULL;
    }
    o->impl = p;
    o->f = p->f;
    o->tmp = p->tmp;
    return o->f;
}

/* The file an output named `path` is written to, as an absolute name: resolved when it exists;
 * else (through a dangling link as cli_out_open follows it) its directory resolved and its own
 * name. NULL when that cannot be told (a loop of links, a missing directory, out of memory). */
static char *out_target(const char *path)
{
    char *real = realpath(path, NULL);
    if (real) return real;
    struct stat sb;
    char link[4096];
    const char *p = path;
    if (lstat(path, &sb) == 0 && S_ISLNK(sb.st_mode)) {
        if (!pf__link_target(path, link, sizeof link)) return NULL;
        p = link;
    }
    const char *slash = strrchr(p, '/'), *base = slash ? slash + 1 : p;
    char dir[4096];
    size_t dl = slash ? (size_t)(slash - p) : 0;
    if (dl >= sizeof dir) return NULL;
    if (!slash) strcpy(dir, ".");
    else if (dl == 0) strcpy(dir, "/");
    else {
        memcpy(dir, p, dl);
        dir[dl] = '\0';
    }
    char *rd = realpath(dir, NULL), *out = NULL;
    if (rd && (out = malloc(strlen(rd) + strlen(base) + 2)))
        sprintf(out, "%s%s%s", rd, strcmp(rd, "/") == 0 ? "" : "/", base);
    free(rd);
    return out;
}

int cli_out_same(const char *cmd, const char *opt_a, const char *a, const char *opt_b, const char *b)
{
    if (!a || !b) return 0;
    struct stat sa, sb;
    int same = strcmp(a, b) == 0 ||
               (stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino);
    if (!same) { /* one not made yet, named two ways ("./x" and "x", or a link to where it will be) */
        char *ta = out_target(a), *tb = out_target(b);
        same = ta && tb && strcmp(ta, tb) == 0;
        free(ta);
        free(tb);
    }
    if (same) cli_error(cmd, "%s and %s name the same file ('%s'): one would replace the other", opt_a, opt_b, a);
    return same;
}

int cli_out_check(const char *cmd, const char *path)
{
    /* a pipe, a device or a stream is written in place: opened to check, a pipe's reader would see
     * its end */
    if (pf__out_in_place(path)) return 1;
    cli_out o;
    if (!cli_out_open(&o, cmd, path)) return 0;
    cli_out_close(&o, cmd, 0); /* the temporary file goes; the target is not touched */
    return 1;
}

int cli_out_close(cli_out *o, const char *cmd, int ok)
{
    if (!o || !o->impl) return 0;
    pf__outfile *p = o->impl;
    const int done = pf__out_close(p, ok, NULL) == PF_OK;
    if (!done) out_error(cmd, p);
    free(p);
    *o = (cli_out){.path = o->path};
    return done;
}

FILE *cli_open_read(const char *cmd, const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        cli_error(cmd, "%s: cannot open: %s", path, strerror(errno)); /* as the library's loaders say it */
        return NULL;
    }
    struct stat sb;
    if (fstat(fileno(f), &sb) == 0 && S_ISDIR(sb.st_mode)) {
        cli_error(cmd, "%s: is a directory, not a file", path);
        fclose(f);
        return NULL;
    }
    return f;
}

int cli_close_stdout(int rc)
{
    errno = 0;
    int bad = fflush(stdout) != 0 || ferror(stdout);
    int e = errno;
    if (fclose(stdout) != 0 && !bad) {
        bad = 1;
        e = errno;
    }
    if (!bad) return rc;
    fprintf(stderr, "pathfind: error writing standard output: %s\n", strerror(e ? e : EIO));
    return rc ? rc : 1;
}

int cli_out_names_input(const char *cmd, const char *opt, const char *out, int n, const char *const *in_opts,
                        const char *const *ins)
{
    for (int k = 0; k < n; k++)
        if (ins[k] && cli_out_same(cmd, in_opts[k], ins[k], opt, out)) return 1;
    return 0;
}
