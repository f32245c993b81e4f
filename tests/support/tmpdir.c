/* tmpdir.c - the tests' scratch directory (see tmpdir.h). */
#define _GNU_SOURCE /* program_invocation_short_name; mkdtemp, truncate */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tmpdir.h"

char g_dir[64];

int tmpdir_setup(void **state)
{
    (void)state;
    /* named for the test program, so a directory left behind by a crash says whose it is */
    snprintf(g_dir, sizeof g_dir, "/tmp/pf_%.40s_XXXXXX", program_invocation_short_name);
    return mkdtemp(g_dir) ? 0 : -1;
}

int tmpdir_teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_dir);
    return system(cmd) == 0 ? 0 : -1;
}

const char *tmp(const char *name)
{
    static char bufs[128][256];
    static int k;
    char *b = bufs[k++ % 128];
    snprintf(b, sizeof bufs[0], "%s/%s", g_dir, name);
    return b;
}

const char *write_tmp_bytes(const char *name, const void *data, size_t n)
{
    const char *p = tmp(name);
    FILE *f = fopen(p, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, n, f), n);
    assert_int_equal(fclose(f), 0);
    return p;
}

const char *write_tmp(const char *name, const char *text) { return write_tmp_bytes(name, text, strlen(text)); }

const char *sparse_tmp(const char *name, const char *head, uint64_t size)
{
    const char *p = write_tmp(name, head);
    assert_int_equal(truncate(p, (off_t)size), 0);
    return p;
}

void slurp(const char *path, char *buf, size_t cap)
{
    FILE *f = fopen(path, "rb");
    size_t n = f ? fread(buf, 1, cap - 1, f) : 0;
    buf[n] = '\0';
    if (f) fclose(f);
}

char *slurp_alloc(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)n + 1);
    assert_non_null(b);
    assert_int_equal(fread(b, 1, (size_t)n, f), (size_t)n);
    b[n] = 0;
    fclose(f);
    *len = (size_t)n;
    return b;
}
