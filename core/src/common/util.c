/* util.c - allocation defaults, diagnostics, file reading and strict number parsing. */
#define _DEFAULT_SOURCE /* madvise, fileno, fstat */
#include <errno.h>
#include <float.h>
#include <locale.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "common/pf_internal.h"
#if defined(__linux__)
#include <sys/mman.h>
#endif
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

/* Blocks from this size up (node records of big maps) are aligned to 2 MiB and offered to the kernel
 * as transparent huge pages: a search on a 2000x2000 map hops across 64 MiB of records, and with 4 KiB
 * pages nearly every step is a TLB miss. */
#define PF__HUGE_BLOCK ((size_t)4 << 20)
#define PF__HUGE_ALIGN ((size_t)2 << 20)

static void *default_alloc(size_t size, size_t align, void *user)
{
    (void)user;
    /* a size near SIZE_MAX (a count multiplied past it) would round up to a tiny block below */
    if (size > SIZE_MAX - PF__HUGE_ALIGN) return NULL;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (size >= PF__HUGE_BLOCK && align <= PF__HUGE_ALIGN) {
        size_t n = (size + PF__HUGE_ALIGN - 1) / PF__HUGE_ALIGN * PF__HUGE_ALIGN;
        void *p = aligned_alloc(PF__HUGE_ALIGN, n);
        if (p) madvise(p, n, MADV_HUGEPAGE); /* advice only: failure is harmless */
        return p;
    }
#endif
    if (align < sizeof(void *)) align = sizeof(void *);
    size = (size + align - 1) / align * align; /* aligned_alloc wants a multiple of the alignment */
    if (size == 0) size = align;
    return aligned_alloc(align, size);
}

static void default_free(void *p, size_t size, void *user)
{
    (void)size;
    (void)user;
    free(p);
}

pf_allocator pf__alloc_resolve(const pf_allocator *a)
{
    if (a && a->alloc && a->free) return *a;
    return (pf_allocator){default_alloc, default_free, NULL};
}

static void *none_alloc(size_t size, size_t align, void *user)
{
    (void)size;
    (void)align;
    (void)user;
    return NULL;
}

static void none_free(void *p, size_t size, void *user)
{
    (void)p;
    (void)size;
    (void)user;
}

pf_allocator pf__alloc_none(void) { return (pf_allocator){none_alloc, none_free, NULL}; }

void *pf__alloc(const pf_allocator *a, size_t size, size_t align)
{
    pf_allocator r = pf__alloc_resolve(a);
    return r.alloc(size ? size : 1, align ? align : 16, r.user);
}

void *pf__calloc(const pf_allocator *a, size_t size, size_t align)
{
    void *p = pf__alloc(a, size, align);
    if (p) memset(p, 0, size);
    return p;
}

void pf__free(const pf_allocator *a, void *p, size_t size)
{
    if (!p) return;
    pf_allocator r = pf__alloc_resolve(a);
    r.free(p, size ? size : 1, r.user);
}

#if defined(__linux__)
#define PF__LAZY_PAGES 1
#else
#define PF__LAZY_PAGES 0
#endif

/* Lazy memory is mapped directly, not taken from malloc: only a fresh mapping is known to read as
 * zeros, so the records' stamps need no clearing (which would map every page of them), and only a
 * mapping can be given back page by page while the block stays in use. */
void *pf__alloc_lazy(const pf_allocator *a, size_t size, int huge, int *lazy)
{
    *lazy = 0;
#if PF__LAZY_PAGES
    /* small blocks are malloc's: a mapping each would cost a system call per context for little */
    if (size >= PF__HUGE_BLOCK && pf__alloc_resolve(a).alloc == default_alloc) { /* hooks zero, or resolved */
        if (!size) size = 1;
        /* big blocks start on a 2 MiB boundary, as default_alloc's do, so every 2 MiB of them can
         * be a huge page: map 2 MiB more and cut off the ends */
        size_t pad = size >= PF__HUGE_BLOCK ? PF__HUGE_ALIGN : 0;
        if (size > SIZE_MAX - pad) return NULL;
        char *m = mmap(NULL, size + pad, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (m == MAP_FAILED) return NULL;
        char *p = m;
        if (pad) {
            p = (char *)(((uintptr_t)m + PF__HUGE_ALIGN - 1) & ~(uintptr_t)(PF__HUGE_ALIGN - 1));
            size_t page = pf__page_size(), end = ((uintptr_t)p + size + page - 1) & ~(uintptr_t)(page - 1);
            if (p > m) munmap(m, (size_t)(p - m));
            if ((uintptr_t)m + size + pad > end) munmap((void *)end, (uintptr_t)m + size + pad - end);
        }
#if defined(MADV_HUGEPAGE)
        if (huge && size >= PF__HUGE_BLOCK) madvise(p, size, MADV_HUGEPAGE); /* advice only */
#endif
#if defined(MADV_NOHUGEPAGE)
        /* where the system makes huge pages unasked, a first touch would map (and zero) 2 MiB */
        if (!huge) (void)madvise(p, size, MADV_NOHUGEPAGE);
#endif
#if !defined(MADV_HUGEPAGE)
        (void)huge;
#endif
        *lazy = 1;
        return p;
    }
#endif
    (void)huge;
    return pf__alloc(a, size, 64);
}

void pf__free_lazy(const pf_allocator *a, void *p, size_t size, int lazy)
{
    if (!p) return;
#if PF__LAZY_PAGES
    if (lazy) {
        munmap(p, size ? size : 1); /* the pages of the range, whatever its end's alignment */
        return;
    }
#endif
    (void)lazy;
    pf__free(a, p, size);
}

int pf__release_lazy(void *p, size_t size)
{
#if PF__LAZY_PAGES
    return madvise(p, size, MADV_DONTNEED) == 0;
#else
    (void)p;
    (void)size;
    return 0;
#endif
}

size_t pf__page_size(void)
{
#if PF__POSIX_FILES
    long ps = sysconf(_SC_PAGESIZE);
    if (ps > 0) return (size_t)ps;
#endif
    return 4096;
}

int pf__resident_pages(void *p, size_t size, unsigned char *map)
{
#if PF__LAZY_PAGES
    return mincore(p, size, map) == 0;
#else
    (void)p;
    (void)size;
    (void)map;
    return 0;
#endif
}

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

/* ---- files ------------------------------------------------------------------------------------ */

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
    return PF_OK;
}

pf_status pf__out_close(pf__outfile *o, int ok, pf_diag *diag)
{
    FILE *f = o->f;
    /* the cause of the caller's failed write (fwrite sets errno): the stream's error flag below
     * says only that one failed, and a full disk was reported as "Input/output error" */
    const int prior = errno;
    int err = 0;
    errno = 0;
    if (f) {
        if (fflush(f) != 0) err = errno ? errno : EIO;
        else if (ferror(f)) err = prior ? prior : EIO; /* not when only `ok` is 0: errno may be anything */
        if (fclose(f) != 0 && !err) err = errno ? errno : EIO;
    }
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
    const struct lconv *lc = localeconv();
    const char *dp = lc && lc->decimal_point && lc->decimal_point[0] ? lc->decimal_point : ".";
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

