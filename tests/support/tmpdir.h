/* tmpdir.h - one scratch directory per test program, made by its group setup and removed, with
 * everything written in it, by its group teardown; paths and files in it for the cases. */
#ifndef PF_TEST_TMPDIR_H
#define PF_TEST_TMPDIR_H

#include <stddef.h>
#include <stdint.h>

/* The directory, /tmp/pf_<program>_XXXXXX once tmpdir_setup has made it. */
extern char g_dir[64];

/* Makes g_dir; 0, or -1 when it cannot. A cmocka group setup:
 *     return cmocka_run_group_tests(tests, tmpdir_setup, tmpdir_teardown); */
int tmpdir_setup(void **state);
/* Removes g_dir and all it holds; 0, or -1 when it cannot. A cmocka group teardown. */
int tmpdir_teardown(void **state);

/* g_dir/name, in one of 128 rotating buffers: enough that no case outlives its own. */
const char *tmp(const char *name);
/* Writes `text` to g_dir/name (a failed write fails the case); returns the path. */
const char *write_tmp(const char *name, const char *text);
/* The same for `n` bytes that may hold NULs. */
const char *write_tmp_bytes(const char *name, const void *data, size_t n);
/* A regular file of `size` bytes that starts with `head`: the rest is a hole, so a size limit of
 * gigabytes costs no disk. */
const char *sparse_tmp(const char *name, const char *head, uint64_t size);

/* Reads at most cap - 1 bytes of `path` into buf, NUL-terminated (empty when it cannot be read). */
void slurp(const char *path, char *buf, size_t cap);
/* The whole of `path`, NUL-terminated, in memory the caller frees; its length in *len. NULL when
 * it cannot be opened. */
char *slurp_alloc(const char *path, size_t *len);

#endif
