/* file_out.c - writing a user's file: through a temporary file beside it, renamed over it only
 * once complete (a link is followed, its target replaced), or in place for devices and the
 * process's own streams. */
#define _DEFAULT_SOURCE /* fileno, fstat, readlink */
/* Outputs through a cookie stream (below) where the C library has fopencookie: glibc and musl;
 * bionic from API 28. */
#if defined(__linux__) && (!defined(__ANDROID__) || __ANDROID_API__ >= 28)
#define PF__OUT_COOKIE 1
#define _GNU_SOURCE /* fopencookie (glibc, musl): each write's failure is seen where it happens */
#else
#define PF__OUT_COOKIE 0
#endif
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdatomic.h>
#include <time.h>
#include "common/pf_internal.h"
/* Where POSIX is at hand, files are stat'ed: directories and oversized regular files are refused
 * before reading, and devices are written in place. Elsewhere only the stream bound applies. */
#if defined(__unix__) || defined(__APPLE__)
#define PF__POSIX_FILES 1
#include <limits.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#else
#define PF__POSIX_FILES 0
#endif

int pf__link_target(const char *link, char *out, size_t cap)
{
#if PF__POSIX_FILES
    if (cap >= PATH_MAX && realpath(link, out)) return 1;
    /* dangling, or a chain of links ending in a name that does not exist: the last name held,
     * each taken from its link's own directory when relative; a loop (or more than 40) names none */
    char cur[4096], name[4096];
    size_t ll = strlen(link);
    if (ll >= sizeof cur) return 0;
    memcpy(cur, link, ll + 1);
    for (int depth = 0; depth < 40; depth++) {
        ssize_t n = readlink(cur, name, sizeof name - 1);
        if (n <= 0) return 0;
        name[n] = '\0';
        const char *slash = strrchr(cur, '/');
        size_t dir = name[0] == '/' || !slash ? 0 : (size_t)(slash - cur) + 1;
        if (dir + (size_t)n + 1 > sizeof cur) return 0;
        memmove(cur + dir, name, (size_t)n + 1);
        struct stat sb;
        if (lstat(cur, &sb) == 0 && S_ISLNK(sb.st_mode)) continue; /* a link to a link */
        if (strlen(cur) + 1 > cap) return 0;
        memcpy(out, cur, strlen(cur) + 1);
        return 1;
    }
    return 0;
#else
    (void)link, (void)out, (void)cap;
    return 0;
#endif
}

#if PF__POSIX_FILES
/* 1 or 2 when the file `sb` describes is this process's stdout or stderr, else 0. */
static int std_stream_of(const struct stat *sb)
{
    struct stat so;
    for (int fd = 1; fd <= 2; fd++)
        if (fstat(fd, &so) == 0 && so.st_dev == sb->st_dev && so.st_ino == sb->st_ino) return fd;
    return 0;
}

/* Whether `path` names one of the process's streams (/dev/stdout, /proc/self/fd/1 and the like)
 * or a file its stdout or stderr writes to: written in place. Replaced by rename, the stream
 * would keep the old file, and what the program writes to it after would be lost with it; a
 * pipe's link names no file to make beside it. */
static int names_stream(const char *path)
{
    static const char *const pre[] = {"/dev/stdout", "/dev/stderr", "/dev/fd/", "/proc/self/fd/", "/proc/thread-self/fd/"};
    for (size_t i = 0; i < sizeof pre / sizeof pre[0]; i++)
        if (strncmp(path, pre[i], strlen(pre[i])) == 0) return 1;
    if (strncmp(path, "/proc/", 6) == 0) {
        const char *p = path + 6;
        while (*p >= '0' && *p <= '9') p++;
        if (p > path + 6 && strncmp(p, "/fd/", 4) == 0) return 1;
    }
    struct stat sb;
    return stat(path, &sb) == 0 && S_ISREG(sb.st_mode) && std_stream_of(&sb);
}

/* `path` opened for writing in place; where it is this process's stdout or stderr (through any
 * links, a file redirected to, a pipe), that stream's own descriptor, so that the output and
 * what is printed after it go one after the other, not over each other from two offsets. */
static FILE *open_in_place(const char *path)
{
    struct stat sb;
    const int fd = stat(path, &sb) == 0 ? std_stream_of(&sb) : 0;
    if (!fd) return fopen(path, "wb");
    fflush(fd == 1 ? stdout : stderr);
    const int d = dup(fd);
    FILE *f = d >= 0 ? fdopen(d, "wb") : NULL;
    if (!f && d >= 0) close(d);
    return f;
}
#endif

#if PF__OUT_COOKIE
/* The stream the caller writes is a cookie over the file's descriptor: a failed write records
 * its errno in o->werr as it happens. Read at close, errno held whatever the calls after the
 * failure left there (another output's close, the rest of a run: "Input/output error" for a
 * full disk). Nothing is written after the first failure: the file is discarded anyway. */
static ssize_t cookie_write(void *cookie, const char *buf, size_t n)
{
    pf__outfile *o = cookie;
    const int fd = fileno((FILE *)o->raw);
    size_t done = 0;
    while (!o->werr && done < n) {
        ssize_t w = write(fd, buf + done, n - done);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) o->werr = w < 0 ? errno : EIO;
        else done += (size_t)w;
    }
    return (ssize_t)done; /* short: the stream's error flag is set (fopencookie: never negative) */
}

/* The caller's stream over o->f (which becomes o->raw); o must not move until it is closed. */
static void out_wrap(pf__outfile *o)
{
    FILE *c = fopencookie(o, "wb", (cookie_io_functions_t){.write = cookie_write});
    if (!c) return; /* written directly: a failure's cause is then read from errno at close */
    o->raw = o->f;
    o->f = c;
}
#else
static void out_wrap(pf__outfile *o) { (void)o; }
#endif

int pf__out_in_place(const char *path)
{
#if PF__POSIX_FILES
    struct stat sb;
    return (stat(path, &sb) == 0 && !S_ISREG(sb.st_mode) && !S_ISDIR(sb.st_mode)) || names_stream(path);
#else
    (void)path;
    return 0;
#endif
}

pf_status pf__out_open(pf__outfile *o, const char *path, const pf_allocator *a, pf_diag *diag)
{
    *o = (pf__outfile){.path = path, .target = path, .alloc = pf__alloc_resolve(a)};
    if (!path) {
        o->fail = PF__OUT_NO_PATH;
        return pf__diag_set(diag, PF_INVALID_ARGUMENT, NULL, 0, 0, "no file name given");
    }
    int keep_mode = 0;
#if PF__POSIX_FILES
    struct stat sb;
    mode_t mode = 0;
    /* a device, a pipe or a stream of this process (followed through any links): written in
     * place (renaming over /dev/full would replace the node) */
    const int exists = stat(path, &sb) == 0;
    if (exists && S_ISDIR(sb.st_mode)) {
        o->fail = PF__OUT_IS_DIR;
        return pf__diag_set(diag, PF_IO_ERROR, path, 0, 0, "is a directory");
    }
    if (pf__out_in_place(path)) { /* the directory was refused above */
        o->f = open_in_place(path);
        if (!o->f) {
            o->fail = PF__OUT_NO_OPEN;
            o->err = errno;
            return pf__diag_set(diag, PF_IO_ERROR, path, 0, 0, "cannot write: %s", strerror(o->err));
        }
        out_wrap(o);
        return PF_OK;
    }
    /* a link is followed: the file it names is replaced (or made, when the link dangles), the link
     * stays a link */
    if (lstat(path, &sb) == 0 && S_ISLNK(sb.st_mode)) {
        /* a loop of links names no file: replacing one of its links would break it */
        if (!pf__link_target(path, o->real, sizeof o->real)) {
            o->fail = PF__OUT_LINK_LOOP;
            return pf__diag_set(diag, PF_IO_ERROR, path, 0, 0, "a loop of symbolic links, or one too long to follow");
        }
        o->target = o->real;
    }
    if (stat(o->target, &sb) == 0) { /* a file replaced keeps its mode (a read-only one too) */
        mode = sb.st_mode & 07777;
        keep_mode = 1;
    }
#endif
    size_t pl = strlen(o->target);
    o->tmp_size = pl + 32;
    o->tmp = pf__alloc(&o->alloc, o->tmp_size, 16);
    if (!o->tmp) {
        o->fail = PF__OUT_NO_MEMORY;
        return pf__diag_set(diag, PF_OUT_OF_MEMORY, path, 0, 0, "out of memory");
    }
    /* "wbx" (C11) creates exclusively: an existing file of that name is never reused or removed */
    static atomic_uint counter;
    uint64_t seed = (uint64_t)(uintptr_t)o ^ ((uint64_t)time(NULL) << 20);
    for (unsigned tries = 0; tries < 64 && !o->f; tries++) {
        unsigned k = atomic_fetch_add(&counter, 1u) + 1u;
        snprintf(o->tmp, o->tmp_size, "%s.tmp-%08x", o->target, pf__mix32(seed + k * 0x9E3779B97F4A7C15ull));
        o->f = fopen(o->tmp, "wbx");
        if (!o->f && errno != EEXIST) break;
    }
    if (!o->f) {
        o->fail = PF__OUT_NO_OPEN;
        o->err = errno;
        pf__free(&o->alloc, o->tmp, o->tmp_size);
        o->tmp = NULL;
        return pf__diag_set(diag, PF_IO_ERROR, path, 0, 0, "cannot create a file beside it: %s", strerror(o->err));
    }
#if PF__POSIX_FILES
    /* the new file was made with the process's default mode; failing to change it is harmless */
    if (keep_mode && fchmod(fileno(o->f), mode) != 0) keep_mode = 0;
#endif
    (void)keep_mode;
    out_wrap(o);
    return PF_OK;
}

pf_status pf__out_close(pf__outfile *o, int ok, pf_diag *diag)
{
    FILE *f = o->f, *raw = o->raw;
    /* without the cookie (out_wrap): the cause of the caller's failed write, if errno still holds
     * it; the stream's error flag says only that one failed */
    const int prior = errno;
    int err = 0;
    if (f) {
        errno = 0;
        if (fflush(f) != 0) err = errno ? errno : EIO;
        else if (ferror(f)) err = !raw && prior ? prior : EIO; /* not when only `ok` is 0: errno may be anything */
        if (fclose(f) != 0 && !err) err = errno ? errno : EIO;
        if (raw && fclose(raw) != 0 && !err) err = errno ? errno : EIO; /* a late error (NFS) */
        /* the first failure is the one said: the flush and the closes after it fail for its sake */
        if (o->werr) err = o->werr;
    }
    o->raw = NULL;
    o->f = NULL;
    pf_status st = PF_OK;
    if (!f) st = PF_IO_ERROR; /* pf__out_open failed and said why (o->fail stays as it set it) */
    else if (err || !ok) {
        o->fail = PF__OUT_WRITE;
        o->err = err;
        st = pf__diag_set(diag, PF_IO_ERROR, o->path, 0, 0, "write failed: %s", strerror(err ? err : EIO));
    } else if (o->tmp && rename(o->tmp, o->target) != 0) {
        o->fail = PF__OUT_RENAME;
        o->err = errno;
        st = pf__diag_set(diag, PF_IO_ERROR, o->path, 0, 0, "cannot replace it: %s", strerror(o->err));
    }
    if (o->tmp) {
        if (st != PF_OK) remove(o->tmp); /* ours: made exclusively by pf__out_open */
        pf__free(&o->alloc, o->tmp, o->tmp_size);
        o->tmp = NULL;
    }
    return st;
}
