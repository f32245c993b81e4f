/* file_in.c - reading a user's file: opened as a regular file of a kind (a directory or a file
 * past the documented size is refused before anything is read), read whole as text, NUL refused. */
#define _DEFAULT_SOURCE /* fileno, fstat */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

pf_status pf__open_read(const char *path, const char *what, void **out, pf_diag *diag)
{
    *out = NULL;
    if (!path) return pf__diag_set(diag, PF_INVALID_ARGUMENT, NULL, 0, 0, "no file name given");
    FILE *f = fopen(path, "rb");
    if (!f) return pf__diag_set(diag, PF_IO_ERROR, path, 0, 0, "cannot open: %s", strerror(errno));
#if PF__POSIX_FILES
    /* fopen takes a directory and every read then fails: "truncated: 0 bytes" would blame the file */
    struct stat sb;
    if (fstat(fileno(f), &sb) == 0 && S_ISDIR(sb.st_mode)) {
        fclose(f);
        return pf__diag_set(diag, PF_IO_ERROR, path, 0, 0, "is a directory, not a %s file", what);
    }
#endif
    *out = f;
    return PF_OK;
}

pf_status pf__open_read_regular(const char *path, const char *what, void **out, pf_diag *diag)
{
#if PF__POSIX_FILES
    *out = NULL;
    if (!path) return pf__diag_set(diag, PF_INVALID_ARGUMENT, NULL, 0, 0, "no file name given");
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return pf__diag_set(diag, PF_IO_ERROR, path, 0, 0, "cannot open: %s", strerror(errno));
    struct stat sb;
    if (fstat(fd, &sb) != 0) {
        const int e = errno;
        close(fd);
        return pf__diag_set(diag, PF_IO_ERROR, path, 0, 0, "cannot read its size: %s", strerror(e));
    }
    if (!S_ISREG(sb.st_mode)) {
        const int dir = S_ISDIR(sb.st_mode);
        close(fd);
        if (dir) return pf__diag_set(diag, PF_IO_ERROR, path, 0, 0, "is a directory, not a %s file", what);
        return pf__diag_set(diag, PF_IO_ERROR, path, 0, 0, "not a regular file (a %s file is read by its size)", what);
    }
    /* a regular file never blocks; the flag goes all the same, as a plain open would have it */
    const int fl = fcntl(fd, F_GETFL);
    if (fl != -1) (void)fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        const int e = errno;
        close(fd);
        return pf__diag_set(diag, PF_IO_ERROR, path, 0, 0, "cannot open: %s", strerror(e));
    }
    *out = f;
    return PF_OK;
#else
    return pf__open_read(path, what, out, diag);
#endif
}

pf_status pf__read_text(const char *path, const pf_allocator *a, uint64_t max_bytes, const char *what,
                        char **out, size_t *len, pf_diag *diag)
{
    *out = NULL;
    *len = 0;
    void *fv;
    pf_status ost = pf__open_read(path, what, &fv, diag);
    if (ost != PF_OK) return ost;
    FILE *f = fv;
#if PF__POSIX_FILES
    struct stat sb;
    if (fstat(fileno(f), &sb) == 0) {
        if (S_ISREG(sb.st_mode) && (uint64_t)sb.st_size > max_bytes) {
            fclose(f);
            return pf__diag_set(diag, PF_TOO_LARGE, path, 0, 0,
                                "%llu bytes; the largest %s file the documented limits allow is %llu bytes",
                                (unsigned long long)sb.st_size, what, (unsigned long long)max_bytes);
        }
    }
#endif
    size_t cap = 1 << 16, n = 0;
    char *buf = pf__alloc(a, cap, 16);
    if (!buf) {
        fclose(f);
        return pf__diag_set(diag, PF_OUT_OF_MEMORY, path, 0, 0, "out of memory reading file");
    }
    pf_status st = PF_OK;
    for (;;) {
        if (n + 1 >= cap) {
            size_t ncap = cap * 2;
            char *nb = pf__alloc(a, ncap, 16);
            if (!nb) {
                st = pf__diag_set(diag, PF_OUT_OF_MEMORY, path, 0, 0, "out of memory reading file");
                break;
            }
            memcpy(nb, buf, n);
            pf__free(a, buf, cap);
            buf = nb;
            cap = ncap;
        }
        size_t r = fread(buf + n, 1, cap - n - 1, f);
        if (r == 0) {
            if (ferror(f))
                st = pf__diag_set(diag, PF_IO_ERROR, path, 0, 0, "read error: %s", strerror(errno));
            break;
        }
        const char *z = memchr(buf + n, '\0', r);
        if (z) {
            st = pf__diag_set(diag, PF_PARSE_ERROR, path, 0, 0,
                              "NUL byte at offset %zu: binary data, not a text %s file", (size_t)(z - buf), what);
            break;
        }
        n += r;
        if ((uint64_t)n > max_bytes) {
            st = pf__diag_set(diag, PF_TOO_LARGE, path, 0, 0,
                              "more than %llu bytes, the largest %s file the documented limits allow",
                              (unsigned long long)max_bytes, what);
            break;
        }
    }
    fclose(f);
    if (st != PF_OK) {
        pf__free(a, buf, cap);
        return st;
    }
    buf[n] = '\0';
    /* Callers free with the exact capacity: shrink-free by recording it in *len's neighbour is
     * awkward, so copy into an exactly-sized block. */
    char *exact = pf__alloc(a, n + 1, 16);
    if (!exact) {
        pf__free(a, buf, cap);
        return pf__diag_set(diag, PF_OUT_OF_MEMORY, path, 0, 0, "out of memory reading file");
    }
    memcpy(exact, buf, n + 1);
    pf__free(a, buf, cap);
    *out = exact;
    *len = n;
    return PF_OK;
}
