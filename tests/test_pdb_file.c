/* test_pdb_file.c - pattern database files and the files around them (issue 24, defect 9).
 *
 * pf_pdb_save follows the library's one rule for output files (pf__out_open): a symbolic link is
 * followed (the file it names gets the database, the link stays a link), a device or a pipe is
 * written in place and stays what it was; it used to rename a temporary file over the name,
 * whatever the name was. And the examples' load-or-build (puz_pdb_get, behind bench_puzzle
 * --pdb-file) leaves a file that does not load exactly as it was, unless asked to rebuild: it used
 * to build and save over it. (bench_puzzle itself is run on such a file by tests/pdb_file_cli.cmake.)
 *
 * Devices: /dev/null is written only where a regression could not replace it: a save that renamed
 * over it would need to create a file in /dev, so the direct case runs only when /dev is not
 * writable (not as root). A link to /dev/null and a FIFO made here cover the rule for everyone. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "pathfind.h"
#include "domains/puzzle.h"
#include "testutil.h"
#include "tmpdir.h"

static pf_pdb *g_pdb; /* the 8-puzzle's 4-4 database, with the reflection */
static puz_pdb_set g_set;

/* The bytes a save must write: the in-memory bake. */
static uint8_t *baked(size_t *n)
{
    *n = pf_pdb_file_size(g_pdb);
    uint8_t *b = malloc(*n);
    assert_int_equal(pf_pdb_save_mem(g_pdb, b, *n, NULL), PF_OK);
    return b;
}

/* Temporary files of a save (NAME.tmp-XXXXXXXX) left in `dir`. */
static int count_tmp(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) return -1;
    int n = 0;
    for (struct dirent *e; (e = readdir(d));) n += strstr(e->d_name, ".tmp") != NULL;
    closedir(d);
    return n;
}

static int setup(void **state)
{
    (void)state;
    if (tmpdir_setup(state) != 0) return -1;
    if (!puz_pdb_set_init(&g_set, "4-4", 1, 1)) return -1;
    return pf_pdb_build(&g_set.desc, &g_pdb) == PF_OK ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    pf_pdb_destroy(g_pdb);
    return tmpdir_teardown(state);
}

/* ---- pf_pdb_save: the output rule ---------------------------------------------------------- */

/* A link is followed: the file it names gets the database, and the link stays a link. */
static void test_save_through_a_link(void **state)
{
    (void)state;
    const char *target = tmp("real.pfp"), *link = tmp("link.pfp");
    write_tmp_bytes("real.pfp", "an old database", 15);
    assert_int_equal(symlink(target, link), 0);
    pf_diag d;
    assert_int_equal(pf_pdb_save(g_pdb, link, &d), PF_OK);
    struct stat sb;
    assert_int_equal(lstat(link, &sb), 0);
    assert_true(S_ISLNK(sb.st_mode));
    size_t n, want;
    uint8_t *got = (uint8_t *)slurp_alloc(target, &n), *exp = baked(&want);
    assert_non_null(got);
    assert_int_equal(n, want);
    assert_memory_equal(got, exp, n);
    pf_pdb *back;
    assert_int_equal(pf_pdb_load(link, &g_set.desc, &back, &d), PF_OK);
    pf_pdb_destroy(back);
    /* a link to a file in another directory: the temporary file goes beside the target */
    const char *sub = tmp("sub");
    assert_int_equal(mkdir(sub, 0700), 0);
    const char *far = write_tmp_bytes("sub/far.pfp", "x", 1);
    const char *link2 = tmp("far-link.pfp");
    assert_int_equal(symlink(far, link2), 0);
    assert_int_equal(pf_pdb_save(g_pdb, link2, &d), PF_OK);
    assert_int_equal(lstat(link2, &sb), 0);
    assert_true(S_ISLNK(sb.st_mode));
    assert_int_equal(stat(far, &sb), 0);
    assert_int_equal((size_t)sb.st_size, want);
    assert_int_equal(count_tmp(sub), 0); /* no temporary file left behind */
    free(got);
    free(exp);
    unlink(link2);
    unlink(far);
    /* a dangling link (relative, to a file not made yet): the file it names is made, the link
     * stays a link (it was replaced by a regular file) */
    const char *link3 = tmp("new-link.pfp");
    assert_int_equal(symlink("sub/new.pfp", link3), 0);
    assert_int_equal(pf_pdb_save(g_pdb, link3, &d), PF_OK);
    assert_int_equal(lstat(link3, &sb), 0);
    assert_true(S_ISLNK(sb.st_mode));
    far = tmp("sub/new.pfp");
    assert_int_equal(stat(far, &sb), 0);
    assert_int_equal((size_t)sb.st_size, want);
    assert_int_equal(count_tmp(sub), 0);
    unlink(link3);
    unlink(far);
    rmdir(sub);
    unlink(link);
    unlink(target);
}

/* A reader of a FIFO, on its own thread: it drains what the save writes (a database larger than
 * the pipe's buffer would otherwise block the writer) and counts it. The read end is opened
 * non-blocking by the test before the save, so that a save that never opens the FIFO (one that
 * replaced it) cannot leave the reader waiting for a writer forever. */
typedef struct fifo_reader {
    int         fd;
    atomic_int  done;   /* set by the test once the save has returned */
    uint8_t    *buf;
    size_t      len, cap;
} fifo_reader;

static void *fifo_drain(void *arg)
{
    fifo_reader *r = arg;
    for (;;) {
        int done = atomic_load(&r->done);
        ssize_t k = read(r->fd, r->buf + r->len, r->cap - r->len);
        if (k > 0) {
            r->len += (size_t)k;
            if (r->len == r->cap) break; /* more than the save should ever write */
            continue;
        }
        if (k < 0 && errno != EAGAIN && errno != EINTR) break;
        /* nothing now (no writer yet, or it closed): once the save has returned, the pipe is
         * empty here, and what was read is all there is */
        if (done) break;
        nanosleep(&(struct timespec){0, 1000000}, NULL);
    }
    return NULL;
}

/* A pipe is written in place: the reader gets the database, and the FIFO stays a FIFO. */
static void test_save_to_a_fifo(void **state)
{
    (void)state;
    const char *fifo = tmp("db.fifo");
    assert_int_equal(mkfifo(fifo, 0600), 0);
    size_t want;
    uint8_t *exp = baked(&want);
    fifo_reader r = {.cap = want + 4096};
    r.buf = malloc(r.cap);
    r.fd = open(fifo, O_RDONLY | O_NONBLOCK);
    assert_true(r.fd >= 0);
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, fifo_drain, &r), 0);
    pf_diag d;
    pf_status st = pf_pdb_save(g_pdb, fifo, &d);
    atomic_store(&r.done, 1);
    pthread_join(th, NULL);
    close(r.fd);
    print_message("save to a FIFO: %s, %zu bytes read (%zu baked)\n", pf_status_name(st), r.len, want);
    struct stat sb;
    assert_int_equal(lstat(fifo, &sb), 0);
    assert_true(S_ISFIFO(sb.st_mode)); /* not replaced by a regular file */
    assert_int_equal(st, PF_OK);
    assert_int_equal(r.len, want);
    assert_memory_equal(r.buf, exp, want);
    assert_int_equal(count_tmp(g_dir), 0); /* no temporary file beside it */
    free(r.buf);
    free(exp);
    unlink(fifo);
}

/* Skips (SKIP_BECAUSE) where there is no /dev/null to write. */
static void need_dev_null(void)
{
    struct stat sb;
    if (stat("/dev/null", &sb) != 0 || !S_ISCHR(sb.st_mode) || access("/dev/null", W_OK) != 0)
        SKIP_BECAUSE("no writable /dev/null");
}

/* A character device is written in place and stays a device: through a link to /dev/null (safe
 * for anyone: what a regression replaces is the link, here). */
static void test_save_to_a_device(void **state)
{
    (void)state;
    need_dev_null();
    struct stat sb;
    const char *link = tmp("null.pfp");
    assert_int_equal(symlink("/dev/null", link), 0);
    pf_diag d;
    assert_int_equal(pf_pdb_save(g_pdb, link, &d), PF_OK);
    assert_int_equal(lstat(link, &sb), 0);
    assert_true(S_ISLNK(sb.st_mode));
    assert_int_equal(stat("/dev/null", &sb), 0);
    assert_true(S_ISCHR(sb.st_mode));
    unlink(link);
    assert_int_equal(count_tmp(g_dir), 0);
}

/* ... and /dev/null by name, where a regression could not replace it: not as root (a ctest of its
 * own, pdb_file_save_to_dev_null_by_name, that reports SKIPPED there; the link above stands for it). */
static void test_save_to_dev_null_by_name(void **state)
{
    (void)state;
    need_dev_null();
    if (access("/dev", W_OK) == 0) SKIP_BECAUSE("/dev is writable (root?): /dev/null by name not tried");
    struct stat sb;
    pf_diag d;
    assert_int_equal(pf_pdb_save(g_pdb, "/dev/null", &d), PF_OK);
    assert_int_equal(stat("/dev/null", &sb), 0);
    assert_true(S_ISCHR(sb.st_mode));
}

/* A directory is refused by name, on both sides. */
static void test_directory(void **state)
{
    (void)state;
    pf_diag d;
    pf_pdb *back;
    assert_int_equal(pf_pdb_save(g_pdb, g_dir, &d), PF_IO_ERROR);
    assert_non_null(strstr(d.msg, "directory"));
    assert_int_equal(pf_pdb_load(g_dir, &g_set.desc, &back, &d), PF_IO_ERROR);
    print_message("expected: %s\n", d.msg);
    assert_non_null(strstr(d.msg, "is a directory"));
    assert_null(back);
}

/* ---- puz_pdb_get: the user's file is left alone -------------------------------------------- */

static void assert_file_is(const char *path, const void *data, size_t n)
{
    size_t len;
    uint8_t *b = (uint8_t *)slurp_alloc(path, &len);
    assert_non_null(b);
    assert_int_equal(len, n);
    assert_memory_equal(b, data, n);
    free(b);
}

static void test_get_missing_file_is_built_and_saved(void **state)
{
    (void)state;
    const char *path = tmp("new.pfp");
    pf_pdb *pdb, *back;
    puz_pdb_source src;
    pf_diag d;
    assert_int_equal(puz_pdb_get(&g_set, path, 0, &pdb, &src, &d), PF_OK);
    assert_int_equal(src, PUZ_PDB_BUILT);
    pf_pdb_destroy(pdb);
    assert_int_equal(pf_pdb_load(path, &g_set.desc, &back, &d), PF_OK);
    pf_pdb_destroy(back);
    /* and the next run loads it */
    assert_int_equal(puz_pdb_get(&g_set, path, 0, &pdb, &src, &d), PF_OK);
    assert_int_equal(src, PUZ_PDB_LOADED);
    pf_pdb_destroy(pdb);
    /* no file: built, nothing saved */
    assert_int_equal(puz_pdb_get(&g_set, NULL, 0, &pdb, &src, &d), PF_OK);
    assert_int_equal(src, PUZ_PDB_BUILT);
    pf_pdb_destroy(pdb);
    unlink(path);
}

static void test_get_garbage_is_left_alone(void **state)
{
    (void)state;
    const char *path = tmp("notes.txt");
    static const char text[] = "not a database: somebody's notes\n";
    write_tmp_bytes("notes.txt", text, sizeof text - 1);
    pf_pdb *pdb = (pf_pdb *)&pdb;
    puz_pdb_source src;
    pf_diag d;
    pf_status st = puz_pdb_get(&g_set, path, 0, &pdb, &src, &d);
    print_message("expected: %s\n", d.msg);
    assert_int_equal(st, PF_PARSE_ERROR);
    assert_int_equal(src, PUZ_PDB_REFUSED);
    assert_null(pdb);
    assert_non_null(strstr(d.msg, path));
    assert_file_is(path, text, sizeof text - 1);
    /* asked to rebuild: built and saved over it */
    assert_int_equal(puz_pdb_get(&g_set, path, 1, &pdb, &src, &d), PF_OK);
    assert_int_equal(src, PUZ_PDB_BUILT);
    pf_pdb_destroy(pdb);
    size_t want;
    uint8_t *exp = baked(&want);
    assert_file_is(path, exp, want);
    free(exp);
    unlink(path);
}

/* A database built with other options (here without the reflection) is a valid file of another
 * desc: refused as such, and kept. */
static void test_get_other_options_is_left_alone(void **state)
{
    (void)state;
    const char *path = tmp("plain.pfp");
    puz_pdb_set plain;
    assert_true(puz_pdb_set_init(&plain, "4-4", 0, 1));
    pf_pdb *pdb;
    puz_pdb_source src;
    pf_diag d;
    assert_int_equal(puz_pdb_get(&plain, path, 0, &pdb, &src, &d), PF_OK);
    assert_int_equal(src, PUZ_PDB_BUILT);
    pf_pdb_destroy(pdb);
    size_t n;
    uint8_t *before = (uint8_t *)slurp_alloc(path, &n);
    assert_non_null(before);
    assert_int_equal(puz_pdb_get(&g_set, path, 0, &pdb, &src, &d), PF_WRONG_MAP);
    print_message("expected: %s\n", d.msg);
    assert_int_equal(src, PUZ_PDB_REFUSED);
    assert_null(pdb);
    assert_file_is(path, before, n);
    /* the options it was built with still load it */
    assert_int_equal(puz_pdb_get(&plain, path, 0, &pdb, &src, &d), PF_OK);
    assert_int_equal(src, PUZ_PDB_LOADED);
    pf_pdb_destroy(pdb);
    free(before);
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_save_through_a_link),
        cmocka_unit_test(test_save_to_a_fifo),
        cmocka_unit_test(test_save_to_a_device),
        cmocka_unit_test(test_save_to_dev_null_by_name),
        cmocka_unit_test(test_directory),
        cmocka_unit_test(test_get_missing_file_is_built_and_saved),
        cmocka_unit_test(test_get_garbage_is_left_alone),
        cmocka_unit_test(test_get_other_options_is_left_alone),
    };
    return RUN_TESTS_WITH(tests, setup, teardown);
}
