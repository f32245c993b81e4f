/* regression_driver.c - replays files through one fuzz target as an ordinary test (zstd's
 * tests/fuzz/regression_driver.c). Built without libFuzzer, with any compiler, for every
 * tests/fuzz/fuzz_<name>.c; ctest runs it over tests/fuzz/corpus/<name>/.
 *
 *     regression_movingai tests/fuzz/corpus/movingai [more files or directories...]
 *
 * Each file is copied into a heap block of exactly its size, so a sanitizer build flags any read past
 * the end just as libFuzzer would. A target reports a bug by crashing or aborting, so reaching the end
 * means every input passed. Finding no input at all is a failure: an empty or misplaced corpus must
 * not pass silently.
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static unsigned long g_files;

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "regression: cannot open %s\n", path);
        return 1;
    }
    size_t cap = 4096, n = 0;
    uint8_t *buf = malloc(cap);
    for (;;) {
        if (!buf) break;
        if (n == cap) {
            uint8_t *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
        size_t r = fread(buf + n, 1, cap - n, f);
        if (r == 0) break;
        n += r;
    }
    fclose(f);
    if (!buf) {
        fprintf(stderr, "regression: out of memory reading %s\n", path);
        return 1;
    }
    /* exact-size copy: a one-byte over-read lands outside the block */
    uint8_t *exact = malloc(n ? n : 1);
    if (!exact) {
        free(buf);
        return 1;
    }
    memcpy(exact, buf, n);
    free(buf);
    fprintf(stderr, "regression: %s (%zu bytes)\n", path, n);
    LLVMFuzzerTestOneInput(exact, n);
    free(exact);
    g_files++;
    return 0;
}

static int run_path(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        fprintf(stderr, "regression: no such file or directory: %s\n", path);
        return 1;
    }
    if (!S_ISDIR(st.st_mode)) return run_file(path);
    DIR *d = opendir(path);
    if (!d) {
        fprintf(stderr, "regression: cannot read directory %s\n", path);
        return 1;
    }
    int rc = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.') continue; /* ".", "..", and hidden files such as .gitkeep */
        size_t len = strlen(path) + strlen(e->d_name) + 2;
        char *sub = malloc(len);
        if (!sub) {
            rc = 1;
            break;
        }
        snprintf(sub, len, "%s/%s", path, e->d_name);
        rc |= run_path(sub);
        free(sub);
    }
    closedir(d);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s FILE_OR_DIR...\n", argv[0]);
        return 2;
    }
    int rc = 0;
    for (int i = 1; i < argc; i++) rc |= run_path(argv[i]);
    if (g_files == 0) {
        fprintf(stderr, "regression: no input files found\n");
        return 1;
    }
    fprintf(stderr, "regression: %lu inputs replayed%s\n", g_files, rc ? " (with errors)" : "");
    return rc;
}
