/* fuzz_cli.c - the pathfind tool's argument handling, every subcommand, in-process (pf_cli_main).
 *
 * Input layout: byte 0 is the mode, the rest is the argument list, arguments separated by NUL
 * bytes (at most 48; argv[0] "pathfind" is added). Mode bit 0:
 *   0  arguments only: every subcommand stops after parsing and checking its arguments
 *      (cli_args_only), so any argument, however long or strange, is fair: nothing is opened.
 *   1  a full run, in a scratch directory of small fixtures (m.map, m.scen, g.gr, g.co, p.txt,
 *      e.txt, r.txt, o.txt, o2.txt, g.pft, m.pft, f.json, f.csv): '/' in an argument becomes '_' and ".."
 *      becomes "_.",
 *      so every path the tool opens or writes stays in that directory, which is restored after each
 *      run. demo and bench (minutes of work by design) and runs with a number above 256 anywhere in
 *      their arguments are only parsed: the range checks are what the arguments-only mode is for.
 *      replay runs whole: OMP_WAIT_POLICY is set, so it does not re-execute itself.
 * Checks: no crash, no sanitizer report, no leak (LeakSanitizer), and an exit code of 0, 1 or 2.
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "fuzz_common.h"
#include "cli.h"

enum { MAX_ARGS = 48 };

static char g_dir[64];
static FILE *g_null;

typedef struct fixture { const char *name, *text; } fixture;
static const fixture FIXTURES[] = {
    {"m.map", "type octile\nheight 5\nwidth 6\nmap\n......\n.@@@@.\n..S...\n.WW.T.\n......\n"},
    {"m.scen", "version 1\n0\tm.map\t6\t5\t0\t0\t5\t0\t5\n0\tm.map\t6\t5\t0\t0\t5\t2\t7\n"},
    {"g.gr", "c tiny\np sp 4 5\na 1 2 5\na 2 3 5\na 1 3 20\na 3 4 1\na 4 1 2\n"},
    {"g.co", "p aux sp co 4\nv 1 0 0\nv 2 5 0\nv 3 10 0\nv 4 10 1\n"},
    {"p.txt", "1 3 10\n3 1\n# comment\n2 4 6\n"},
    {"e.txt", "remove 1 3\nadd 3 1 7\nset 1 2 4\n"},
    {"r.txt", "# a wall and a pond\nrect 1 0 2 1 @\nrect 3 4 2 1 W\n"},
    {"o.txt", "orders 1\n0 1 0 0 5 4 urgent\n0 2 0 4 5 0 normal\n1 1 5 0 0 4 background\n2 2 cancel\n"},
    {"o2.txt", "orders 1\n0 1 0 0 5 4 normal size=2\n1 rect 2 0 1 3 @\n1 2 0 4 2 2 urgent partial\n3 rect 2 0 1 3 .\n"},
    {"f.json", "{\"algo\":\"a\",\"runs\":[{\"threads\":1,\"qps\":100},{\"threads\":2,\"qps\":190}],"
               "\"frame_ms\":[1,2,3]}\n{\"algo\":\"b\",\"path_len\":4,\"us\":2.5}\n"},
    {"f.csv", "id,bucket,sx,sy,gx,gy,status,cost,expanded,path_len,us\n0,0,0,0,5,0,ok,5,6,6,1.5\n"},
};

static void write_file(const char *name, const void *data, size_t n)
{
    FILE *f = fopen(name, "wb");
    FUZZ_CHECK(f != NULL);
    FUZZ_CHECK(fwrite(data, 1, n, f) == n);
    FUZZ_CHECK(fclose(f) == 0);
}

/* The baked tables of g.gr and m.map, made once through the library as `table build` would. */
static uint8_t *g_pft[2];
static size_t g_pft_size[2];
static const char *const PFT_NAME[2] = {"g.pft", "m.pft"};

static void bake(int k, const char *map)
{
    pf_map *m;
    pf_diag d;
    pf_status s = k ? pf_grid_load_movingai(map, NULL, &m, &d) : pf_graph_load_dimacs(map, NULL, NULL, &m, &d);
    FUZZ_CHECK(s == PF_OK);
    pf_table *t;
    FUZZ_CHECK(pf_table_create(m, &(pf_table_desc){.threads = 1}, &t) == PF_OK);
    g_pft_size[k] = pf_table_file_size(t);
    FUZZ_CHECK((g_pft[k] = malloc(g_pft_size[k])) != NULL);
    FUZZ_CHECK(pf_table_save_mem(t, g_pft[k], g_pft_size[k], NULL) == PF_OK);
    pf_table_destroy(t);
    pf_map_destroy(m);
}

static void restore_fixtures(void)
{
    for (size_t i = 0; i < sizeof FIXTURES / sizeof FIXTURES[0]; i++)
        write_file(FIXTURES[i].name, FIXTURES[i].text, strlen(FIXTURES[i].text));
    if (!g_pft[0]) {
        bake(0, "g.gr");
        bake(1, "m.map");
    }
    for (int k = 0; k < 2; k++) write_file(PFT_NAME[k], g_pft[k], g_pft_size[k]);
}

static int is_fixture(const char *name)
{
    if (strcmp(name, "g.pft") == 0 || strcmp(name, "m.pft") == 0) return 1;
    for (size_t i = 0; i < sizeof FIXTURES / sizeof FIXTURES[0]; i++)
        if (strcmp(name, FIXTURES[i].name) == 0) return 1;
    return 0;
}

/* Removes everything under `path` (a file or a directory tree the run made). */
static void remove_tree(const char *path)
{
    struct stat sb;
    if (lstat(path, &sb) != 0) return;
    if (S_ISDIR(sb.st_mode)) {
        DIR *d = opendir(path);
        if (d) {
            for (struct dirent *e; (e = readdir(d));) {
                if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
                size_t n = strlen(path) + strlen(e->d_name) + 2;
                char *sub = malloc(n);
                FUZZ_CHECK(sub != NULL);
                snprintf(sub, n, "%s/%s", path, e->d_name);
                remove_tree(sub);
                free(sub);
            }
            closedir(d);
        }
        rmdir(path);
    } else {
        unlink(path);
    }
}

static void clean_scratch(void)
{
    DIR *d = opendir(".");
    FUZZ_CHECK(d != NULL);
    char *names[256];
    int n = 0;
    for (struct dirent *e; (e = readdir(d)) && n < 256;)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") && !is_fixture(e->d_name)) names[n++] = strdup(e->d_name);
    closedir(d);
    for (int i = 0; i < n; i++) {
        remove_tree(names[i]);
        free(names[i]);
    }
    restore_fixtures();
}

static void remove_scratch(void) { remove_tree(g_dir); }

static void init(void)
{
    if (g_dir[0]) return;
    /* files are made and removed on every run: in memory where there is a tmpfs for it */
    snprintf(g_dir, sizeof g_dir, "%s/pf_fuzz_cli_XXXXXX", access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
    FUZZ_CHECK(mkdtemp(g_dir) != NULL);
    int home = open(".", O_RDONLY | O_DIRECTORY);
    FUZZ_CHECK(home >= 0 && chdir(g_dir) == 0);
    restore_fixtures();
    FUZZ_CHECK(fchdir(home) == 0);
    close(home);
    atexit(remove_scratch);
    /* never start gnuplot; no progress bars; replay keeps this process (it re-executes itself only
     * to choose OpenMP's wait policy, which is chosen here) */
    setenv("OMP_WAIT_POLICY", "passive", 1);
    setenv("PF_GNUPLOT", "/nonexistent/gnuplot", 1);
    setenv("PF_NO_PROGRESS", "1", 1);
    g_null = fopen("/dev/null", "w");
    FUZZ_CHECK(g_null != NULL);
}

static int is_big_number(const char *s)
{
    const char *p = s;
    while (*p == '-' || *p == ',' || *p == ' ') p++;
    for (; *p; p++)
        if (*p >= '0' && *p <= '9') {
            long v = strtol(p, NULL, 10);
            if (v > 256 || v < -256) return 1;
            while (p[1] >= '0' && p[1] <= '9') p++;
        }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    init();
    if (size == 0 || size > 4096) return 0;
    int full = data[0] & 1;
    /* split the rest at NUL bytes into a private, NUL-terminated copy */
    char *buf = malloc(size);
    FUZZ_CHECK(buf != NULL);
    memcpy(buf, data + 1, size - 1);
    buf[size - 1] = '\0';
    char *argv[MAX_ARGS + 2] = {"pathfind"};
    int argc = 1;
    for (char *p = buf; argc <= MAX_ARGS && p < buf + size - 1; p += strlen(p) + 1) argv[argc++] = p;
    argv[argc] = NULL;

    int heavy = argc > 1 && (strcmp(argv[1], "demo") == 0 || strcmp(argv[1], "bench") == 0);
    for (int i = 1; full && i < argc; i++) {
        for (char *c = argv[i]; *c; c++)
            if (*c == '/') *c = '_';
        if (strcmp(argv[i], "..") == 0) argv[i][0] = '_';
        heavy |= is_big_number(argv[i]);
    }
    cli_args_only = !full || heavy;
    /* the tool's output is expected here: keep it off the log while it runs (the FILE pointers
     * only: sanitizer reports go to descriptor 2 and libFuzzer keeps its own stream) */
    FILE *out = stdout, *err = stderr;
    stdout = stderr = g_null;
    int home = open(".", O_RDONLY | O_DIRECTORY); /* the run happens in the scratch directory */
    FUZZ_CHECK(home >= 0 && chdir(g_dir) == 0);
    int rc = pf_cli_main(argc, argv);
    stdout = out;
    stderr = err;
    cli_args_only = 0;
    FUZZ_CHECK(rc == 0 || rc == 1 || rc == 2);
    if (full && !heavy) clean_scratch();
    FUZZ_CHECK(fchdir(home) == 0);
    close(home);
    free(buf);
    return 0;
}
