/* test_hostile.c - hostile input at the library's edges (issue 14): every documented limit refused
 * with PF_TOO_LARGE before it is allocated, files bounded as they are read, messages escaped and
 * never cut short, outputs never destroyed by a failed write, size arithmetic that cannot wrap, and
 * statuses that never pass an error off as an answer (unknown algorithm names, infinite costs).
 *
 * Each test names the defect of the issue it guards. Limits that would need gigabytes to reach
 * through the front door are reached through sparse files (a regular file's size is checked before
 * reading) or, for streams, through pipes with the internal reader and a small bound.
 */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <xxhash.h>
#include "pathfind.h"
#include "batch_internal.h"
#include "common/pf_internal.h"
#include "testutil.h"
#include "tmpdir.h"

/* ---- defect 12: an unknown algorithm name is not A* ------------------------------------------ */

static void test_unknown_algo_is_not_astar(void **state)
{
    (void)state;
    pf_algo a = pf_algo_parse("astra");
    assert_int_not_equal(a, PF_ALGO_DEFAULT);
    assert_int_not_equal(a, PF_ALGO_ASTAR);
    assert_int_equal(a, PF_ALGO_UNKNOWN);
    /* and what it parses to is refused by a search, so a misspelt name cannot run as anything */
    pf_map *m;
    assert_int_equal(pf_grid_create(&(pf_grid_desc){.width = 4, .height = 4}, &m), PF_OK);
    pf_ctx *c;
    assert_int_equal(pf_ctx_create(m, NULL, &c), PF_OK);
    pf_stats st;
    assert_int_equal(pf_search(c, 0, 15, &(pf_search_desc){.algo = a}, NULL, &st), PF_INVALID_ARGUMENT);
    pf_ctx_destroy(c);
    pf_map_destroy(m);
}

/* ---- defect 12: a path whose cost overflows is an error, not PF_OK with cost inf ------------- */

static void test_cost_overflow_is_an_error(void **state)
{
    (void)state;
    pf_edge e[] = {{0, 1, DBL_MAX}, {1, 2, DBL_MAX}, {0, 3, 1.0}};
    pf_map *g;
    assert_int_equal(pf_graph_create(&(pf_graph_desc){.node_count = 4, .edge_count = 3, .edges = e}, &g), PF_OK);
    pf_ctx *c;
    assert_int_equal(pf_ctx_create(g, NULL, &c), PF_OK);
    static const pf_algo algos[] = {PF_ALGO_ASTAR, PF_ALGO_DIJKSTRA, PF_ALGO_BFS, PF_ALGO_GREEDY};
    for (size_t i = 0; i < sizeof algos / sizeof algos[0]; i++) {
        uint32_t nodes[8];
        pf_path p = {.nodes = nodes, .capacity = 8};
        pf_stats st;
        pf_status s = pf_search(c, 0, 2, &(pf_search_desc){.algo = algos[i]}, &p, &st);
        if (s != PF_COST_OVERFLOW) fail_msg("%s: %s, cost %g", pf_algo_name(algos[i]), pf_status_name(s), st.cost);
        assert_true(pf_failed(s));
        assert_int_equal(p.len, 0);
        /* the sliced form says the same when the path is read */
        assert_int_equal(pf_search_begin(c, 0, 2, &(pf_search_desc){.algo = algos[i]}), PF_IN_PROGRESS);
        pf_status r;
        while ((r = pf_search_step(c, 1)) == PF_IN_PROGRESS) {}
        assert_int_equal(pf_search_path(c, &p, &st), PF_COST_OVERFLOW);
        assert_true(isinf(st.cost));
    }
    /* a finite path on the same graph is still an answer */
    pf_stats st;
    assert_int_equal(pf_search(c, 0, 3, NULL, NULL, &st), PF_OK);
    assert_true(st.cost == 1.0);
    /* first-move tables walk graph paths too */
    pf_table *t;
    assert_int_equal(pf_table_create(g, &(pf_table_desc){.threads = 1}, &t), PF_OK);
    double cost = 0;
    assert_int_equal(pf_table_path(t, 0, 2, NULL, &cost), PF_COST_OVERFLOW);
    assert_int_equal(pf_table_path(t, 0, 3, NULL, &cost), PF_OK);
    pf_table_destroy(t);
    /* and batches carry the search's status */
    pf_batch *b;
    assert_int_equal(pf_batch_create(g, &(pf_batch_desc){.workers = 1}, &b), PF_OK);
    pf_query_id id;
    assert_int_equal(pf_batch_submit(b, &(pf_batch_query){.start = 0, .goal = 2}, &id), PF_OK);
    assert_int_equal(pf_batch_run(b, NULL), PF_OK);
    pf_batch_result r;
    assert_int_equal(pf_batch_get(b, id, &r), PF_OK);
    assert_int_equal(r.status, PF_COST_OVERFLOW);
    pf_batch_destroy(b);
    pf_ctx_destroy(c);
    pf_map_destroy(g);
}

/* ---- defect 3: graph sizes bounded by documented limits, decided before allocating ------------- */

static void test_graph_limits(void **state)
{
    (void)state;
    test_tracker c = {.countdown = -1, .limit = (size_t)64 << 20};
    pf_allocator a = test_tracked(&c);
    char text[128];
    pf_map *m;
    pf_diag d;
    /* the issue's 18-byte file: 2^30 - 1 nodes, no arcs */
    static const char issue[] = "p sp 1073741823 0";
    assert_int_equal(pf_graph_parse_dimacs(issue, sizeof issue - 1, NULL, 0, &(pf_graph_load_desc){.allocator = a}, &m, &d), PF_TOO_LARGE);
    assert_non_null(strstr(d.msg, "PF_GRAPH_MAX_NODES"));
    snprintf(text, sizeof text, "p sp %u 0\n", PF_GRAPH_MAX_NODES + 1);
    assert_int_equal(pf_graph_parse_dimacs(text, strlen(text), NULL, 0, &(pf_graph_load_desc){.allocator = a}, &m, &d), PF_TOO_LARGE);
    snprintf(text, sizeof text, "p sp 3 %u\na 1 2 1\n", PF_GRAPH_MAX_ARCS + 1);
    assert_int_equal(pf_graph_parse_dimacs(text, strlen(text), NULL, 0, &(pf_graph_load_desc){.allocator = a}, &m, &d), PF_TOO_LARGE);
    assert_non_null(strstr(d.msg, "PF_GRAPH_MAX_ARCS"));
    assert_int_equal(c.calls, 0);
    /* a .co header is bound to the graph's node count: a huge one is refused before allocating */
    static const char gr[] = "p sp 2 1\na 1 2 1\n", co[] = "p aux sp co 1073741823\n";
    assert_int_equal(pf_graph_parse_dimacs(gr, sizeof gr - 1, co, sizeof co - 1, &(pf_graph_load_desc){.allocator = a}, &m, &d), PF_PARSE_ERROR);
    assert_true(c.largest < 4096);
    assert_int_equal(c.live, 0);
    /* the same limits hold for graphs built from arrays */
    pf_edge e[1] = {{0, 0, 1.0}};
    assert_int_equal(pf_graph_create(&(pf_graph_desc){.node_count = PF_GRAPH_MAX_NODES + 1, .allocator = a}, &m),
                     PF_TOO_LARGE);
    assert_int_equal(pf_graph_create(&(pf_graph_desc){.node_count = 1, .edge_count = PF_GRAPH_MAX_ARCS + 1,
                                                      .edges = e, .allocator = a},
                                     &m),
                     PF_TOO_LARGE);
    /* just inside: the node limit passes and the allocator is asked */
    c.limit = 1024;
    assert_int_equal(pf_graph_create(&(pf_graph_desc){.node_count = PF_GRAPH_MAX_NODES, .allocator = a}, &m),
                     PF_OUT_OF_MEMORY);
    assert_int_equal(c.live, 0);
}

/* ---- defect 11: a DIMACS weight is one a double holds exactly, so it is written back as read ---- */

static void test_dimacs_weight_limit(void **state)
{
    (void)state;
    char text[128];
    pf_map *m;
    pf_diag d;
    snprintf(text, sizeof text, "p sp 2 1\na 1 2 %llu\n", (unsigned long long)PF_DIMACS_MAX_WEIGHT);
    assert_int_equal(pf_graph_parse_dimacs(text, strlen(text), NULL, 0, NULL, &m, &d), PF_OK);
    const uint32_t *to;
    const double *w;
    assert_int_equal(pf_graph_arcs(m, 0, 0, &to, &w), 1);
    assert_true(w[0] == 9007199254740992.0);
    pf_map_destroy(m);
    static const char *const over[] = {"p sp 2 1\na 1 2 9007199254740993\n",
                                       "p sp 2 1\na 1 2 9223372036854775807\n"};
    for (int i = 0; i < 2; i++) {
        assert_int_equal(pf_graph_parse_dimacs(over[i], strlen(over[i]), NULL, 0, NULL, &m, &d), PF_TOO_LARGE);
        assert_int_equal(d.line, 2);
        assert_non_null(strstr(d.msg, "PF_DIMACS_MAX_WEIGHT"));
    }
}

/* ---- defect 9: loaders stop at the largest input the format allows for the limits ------------- */

static void test_read_bounds(void **state)
{
    (void)state;
    test_tracker c = {.countdown = -1, .limit = (size_t)16 << 20};
    pf_map *m;
    pf_scen *sc;
    pf_diag d;
    /* /dev/zero: refused at its first bytes, not after gigabytes */
    pf_grid_load_desc gd = {.allocator = test_tracked(&c)};
    assert_int_equal(pf_grid_load_movingai("/dev/zero", &gd, &m, &d), PF_PARSE_ERROR);
    assert_non_null(strstr(d.msg, "NUL byte"));
    assert_true(c.largest <= (size_t)1 << 17);
    assert_int_equal(pf_scen_load("/dev/zero", &(pf_scen_load_desc){.allocator = gd.allocator}, &sc, &d), PF_PARSE_ERROR);
    assert_int_equal(pf_graph_load_dimacs("/dev/zero", NULL, &(pf_graph_load_desc){.allocator = gd.allocator}, &m, &d), PF_PARSE_ERROR);
    /* a regular file over the limit: refused by its size, before a byte is read */
    c = (test_tracker){.countdown = -1, .limit = (size_t)16 << 20};
    const char *big = sparse_tmp("big.map", "type octile\n", PF_GRID_MAX_FILE_BYTES + 1);
    assert_int_equal(pf_grid_load_movingai(big, &gd, &m, &d), PF_TOO_LARGE);
    assert_non_null(strstr(d.msg, "largest .map"));
    assert_int_equal(c.calls, 0);
    const char *bigs = sparse_tmp("big.scen", "version 1\n", PF_SCEN_MAX_FILE_BYTES + 1);
    assert_int_equal(pf_scen_load(bigs, &(pf_scen_load_desc){.allocator = gd.allocator}, &sc, &d), PF_TOO_LARGE);
    const char *bigg = sparse_tmp("big.gr", "p sp 1 0\n", PF_DIMACS_MAX_FILE_BYTES + 1);
    assert_int_equal(pf_graph_load_dimacs(bigg, NULL, &(pf_graph_load_desc){.allocator = gd.allocator}, &m, &d), PF_TOO_LARGE);
    assert_int_equal(c.calls, 0);
    const char *gr = write_tmp_bytes("ok.gr", "p sp 1 0\n", 9);
    assert_int_equal(pf_graph_load_dimacs(gr, bigg, &(pf_graph_load_desc){.allocator = gd.allocator}, &m, &d), PF_TOO_LARGE);
    assert_true(c.largest <= (size_t)1 << 16); /* the .gr was read; the .co was refused by its size */
    /* exactly at the limit is not refused for its size (it is a sparse file of NULs: malformed) */
    const char *edge = sparse_tmp("edge.map", "type octile\n", PF_GRID_MAX_FILE_BYTES);
    assert_int_equal(pf_grid_load_movingai(edge, &gd, &m, &d), PF_PARSE_ERROR);
    /* a directory is said to be one (it used to read as an empty or unreadable file) */
    assert_int_equal(pf_grid_load_movingai(g_dir, NULL, &m, &d), PF_IO_ERROR);
    assert_non_null(strstr(d.msg, "directory"));
    assert_int_equal(pf_scen_load(g_dir, NULL, &sc, &d), PF_IO_ERROR);
    assert_non_null(strstr(d.msg, "directory"));
    assert_int_equal(c.live, 0);
}

/* A stream (no size to check beforehand) is cut at the same bound as it is read. */
static void test_read_bound_on_a_stream(void **state)
{
    (void)state;
    const char *fifo = tmp("fifo");
    assert_int_equal(mkfifo(fifo, 0600), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        signal(SIGPIPE, SIG_DFL);
        int fd = open(fifo, O_WRONLY);
        char line[4096];
        memset(line, 'y', sizeof line);
        for (int i = 0; i < 1024 && fd >= 0; i++)
            if (write(fd, line, sizeof line) < 0) break;
        _exit(0);
    }
    test_tracker c = {.countdown = -1, .limit = (size_t)1 << 30};
    pf_allocator a = test_tracked(&c);
    char *buf;
    size_t len;
    pf_diag d;
    assert_int_equal(pf__read_text(fifo, &a, 100000, ".test", &buf, &len, &d), PF_TOO_LARGE);
    assert_non_null(strstr(d.msg, "more than 100000 bytes"));
    assert_true(c.largest <= 262144); /* stopped near the bound, not at the 4 MiB offered */
    assert_int_equal(c.live, 0);
    int st;
    waitpid(pid, &st, 0);
    unlink(fifo);
}

/* ---- defect 12: control characters escaped, long file names whole ----------------------------- */

static void test_messages_escaped_and_whole(void **state)
{
    (void)state;
    pf_map *m;
    pf_diag d;
    static const char evil[] = "type octile\n\x1b]0;pwned\x07\x1b[2J\n";
    assert_int_equal(pf_grid_parse_movingai(evil, sizeof evil - 1, "e\x1b[31m.map", NULL, &m, &d), PF_PARSE_ERROR);
    for (const char *p = d.msg; *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7f) fail_msg("raw control byte 0x%02x in: %s", *p, d.msg);
    assert_non_null(strstr(d.msg, "e\\x1b[31m.map:2:1"));
    assert_non_null(strstr(d.msg, "\\x1b]0;pwned\\x07"));
    /* C1 controls in UTF-8 (CSI = U+009B) are escaped too; other UTF-8 is left alone */
    static const char c1[] = "type octile\n\xc2\x9b" "2J caf\xc3\xa9\n";
    assert_int_equal(pf_grid_parse_movingai(c1, sizeof c1 - 1, "x", NULL, &m, &d), PF_PARSE_ERROR);
    assert_null(strstr(d.msg, "\xc2\x9b"));
    assert_non_null(strstr(d.msg, "\\xc2\\x9b"));
    /* a file name of 1000 bytes is reported whole, not cut at 200 */
    char path[1100];
    int n = snprintf(path, sizeof path, "%s/", g_dir);
    while (n < 1000) n += snprintf(path + n, sizeof path - (size_t)n, "%s", "very-long-directory-name/");
    snprintf(path + n, sizeof path - (size_t)n, "missing.map");
    assert_int_equal(pf_grid_load_movingai(path, NULL, &m, &d), PF_IO_ERROR);
    assert_non_null(strstr(d.msg, path));
    assert_non_null(strstr(d.msg, "cannot open"));
    /* a message that cannot fit is cut on a whole escape and says so */
    char small[16];
    pf__escape(small, sizeof small, "abc\x01\x02\x03\x04", 7, 0);
    assert_string_equal(small, "abc\\x01\\x02...");
    pf__escape(small, sizeof small, "abc\x01\x02\x03", 6, 0); /* 15 bytes: fits exactly */
    assert_string_equal(small, "abc\\x01\\x02\\x03");
    /* bytes of no well-formed UTF-8 sequence are escaped too (a lone continuation byte, a cut
     * sequence, an overlong '/', a surrogate, past U+10FFFF); whole characters are not */
    char buf[128];
    static const char bad[] = "a\x80" "b\xe2\x82" "c\xc0\xaf" "d\xed\xa0\x80" "e\xf4\x90\x80\x80" "\xe2\x82\xac\xf0\x9f\x98\x80\xff";
    pf__escape(buf, sizeof buf, bad, sizeof bad - 1, 0);
    assert_string_equal(buf, "a\\x80b\\xe2\\x82c\\xc0\\xafd\\xed\\xa0\\x80e\\xf4\\x90\\x80\\x80\xe2\x82\xac\xf0\x9f\x98\x80\\xff");
    /* a text its writer's buffer cut in the middle of a character: the part dropped, not escaped,
     * and the cut said (it ended in "\xe2\x82", and pf_diag's without "...") */
    pf__escape(buf, sizeof buf, "ab\xe2\x82", 4, 1);
    assert_string_equal(buf, "ab...");
    pf__escape(buf, sizeof buf, "ab\xe2\x82\xac", 5, 1); /* cut after a whole character */
    assert_string_equal(buf, "ab\xe2\x82\xac...");
    pf__escape(buf, sizeof buf, "ab\x80", 3, 1); /* a stray byte before the cut stays escaped */
    assert_string_equal(buf, "ab\\x80...");
    char longer[700];
    size_t k = 0;
    longer[k++] = 'a';
    while (k + 3 < sizeof longer) {
        memcpy(longer + k, "\xe2\x82\xac", 3);
        k += 3;
    }
    longer[k] = '\0';
    pf__diag_set(&d, PF_PARSE_ERROR, "x", 0, 0, "%s", longer);
    size_t dl = strlen(d.msg);
    assert_true(dl > 300);
    assert_null(strstr(d.msg, "\\x"));
    assert_string_equal(d.msg + dl - 6, "\xe2\x82\xac...");
}

/* ---- defect 4: a .pft header's sizes are checked before its payload is allocated -------------- */

static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static void put64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}

static void test_table_header_checked_before_allocating(void **state)
{
    (void)state;
    static const char grtext[] = "p sp 3 2\na 1 2 1\na 2 3 1\n";
    pf_map *g;
    assert_int_equal(pf_graph_parse_dimacs(grtext, sizeof grtext - 1, NULL, 0, NULL, &g, NULL), PF_OK);
    pf_table *t;
    assert_int_equal(pf_table_create(g, NULL, &t), PF_OK);
    uint8_t good[64 + 9];
    assert_int_equal(pf_table_save_mem(t, good, sizeof good, NULL), PF_OK);
    pf_table_destroy(t);
    test_tracker c = {.countdown = -1, .limit = (size_t)1 << 20};
    pf_table_desc td = {.allocator = test_tracked(&c)};
    pf_diag d;
    /* the issue's 64-byte file: a header (checksum and all) announcing 16 GiB */
    uint8_t h[64];
    memcpy(h, good, 64);
    put32(h + 24, 65536);
    put32(h + 32, 4);
    put64(h + 40, (uint64_t)65536 * 65536 * 4);
    put64(h + 56, XXH3_64bits(h, 56));
    const char *f = write_tmp_bytes("huge.pft", h, sizeof h);
    assert_int_equal(pf_table_load(f, g, &td, &t, &d), PF_WRONG_MAP);
    assert_null(strstr(d.msg, "out of memory"));
    assert_int_equal(c.calls, 0);
    /* a header that matches the map but a file shorter than it says: truncated, nothing allocated */
    f = write_tmp_bytes("short.pft", good, 64 + 4);
    assert_int_equal(pf_table_load(f, g, &td, &t, &d), PF_PARSE_ERROR);
    assert_non_null(strstr(d.msg, "truncated"));
    uint8_t longer[sizeof good + 7] = {0};
    memcpy(longer, good, sizeof good); /* the table, then 7 bytes more */
    f = write_tmp_bytes("long.pft", longer, sizeof longer);
    assert_int_equal(pf_table_load(f, g, &td, &t, &d), PF_PARSE_ERROR);
    assert_non_null(strstr(d.msg, "trailing"));
    assert_int_equal(c.calls, 0);
    /* the whole file loads */
    f = write_tmp_bytes("good.pft", good, sizeof good);
    assert_int_equal(pf_table_load(f, g, &td, &t, &d), PF_OK);
    pf_table_destroy(t);
    assert_int_equal(c.live, 0);
    pf_map_destroy(g);
}

/* ---- defect 5: a failed save leaves the old file (and a device) as it was ---------------------- */

static pf_table *ring_table(pf_map **g, uint32_t n)
{
    pf_edge *e = malloc(n * sizeof *e);
    for (uint32_t i = 0; i < n; i++) e[i] = (pf_edge){i, (i + 1) % n, 1.0};
    assert_int_equal(pf_graph_create(&(pf_graph_desc){.node_count = n, .edge_count = n, .edges = e}, g), PF_OK);
    free(e);
    pf_table *t;
    assert_int_equal(pf_table_create(*g, &(pf_table_desc){.threads = 1}, &t), PF_OK);
    return t;
}

static int count_entries(const char *dir)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));) n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    return n;
}

static void test_table_save_never_destroys(void **state)
{
    (void)state;
    pf_map *g;
    pf_table *t = ring_table(&g, 200); /* 40 KB of entries */
    char sub[200];
    snprintf(sub, sizeof sub, "%s/save", g_dir);
    assert_int_equal(mkdir(sub, 0700), 0);
    char target[260];
    snprintf(target, sizeof target, "%s/t.pft", sub);
    FILE *f = fopen(target, "w");
    fputs("the old table", f);
    fclose(f);
    /* the disk fills up halfway through the write (a file size limit stands in for a full disk) */
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        signal(SIGXFSZ, SIG_IGN);
        struct rlimit rl = {4096, 4096};
        setrlimit(RLIMIT_FSIZE, &rl);
        pf_diag d;
        pf_status s = pf_table_save(t, target, &d);
        _exit(s == PF_IO_ERROR && strstr(d.msg, "write failed") ? 0 : 1);
    }
    int st;
    waitpid(pid, &st, 0);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    char text[64] = {0};
    f = fopen(target, "r");
    assert_non_null(f);
    assert_true(fread(text, 1, sizeof text - 1, f) > 0);
    fclose(f);
    assert_string_equal(text, "the old table");
    assert_int_equal(count_entries(sub), 1); /* and no temporary file left behind */
    /* a device is written in place and never removed: a link to /dev/full stays a link */
    char link[260];
    snprintf(link, sizeof link, "%s/full", sub);
    assert_int_equal(symlink("/dev/full", link), 0);
    pf_diag d;
    assert_int_equal(pf_table_save(t, link, &d), PF_IO_ERROR);
    struct stat sb;
    assert_int_equal(lstat(link, &sb), 0);
    assert_true(S_ISLNK(sb.st_mode));
    assert_int_equal(stat("/dev/full", &sb), 0);
    assert_true(S_ISCHR(sb.st_mode));
    /* a directory is not replaced */
    assert_int_equal(pf_table_save(t, sub, &d), PF_IO_ERROR);
    /* a link to a file: the file is replaced, the link stays a link */
    char other[260], link2[260];
    snprintf(other, sizeof other, "%s/real.pft", sub);
    snprintf(link2, sizeof link2, "%s/link.pft", sub);
    f = fopen(other, "w");
    fputs("old", f);
    fclose(f);
    assert_int_equal(symlink(other, link2), 0);
    assert_int_equal(pf_table_save(t, link2, &d), PF_OK);
    assert_int_equal(lstat(link2, &sb), 0);
    assert_true(S_ISLNK(sb.st_mode));
    assert_int_equal(stat(other, &sb), 0);
    assert_int_equal((size_t)sb.st_size, pf_table_file_size(t));
    unlink(link2);
    unlink(other);
    /* and a good save replaces the old file whole */
    assert_int_equal(pf_table_save(t, target, &d), PF_OK);
    assert_int_equal(count_entries(sub), 2);
    pf_table *back;
    assert_int_equal(pf_table_load(target, g, NULL, &back, &d), PF_OK);
    pf_table_destroy(back);
    pf_table_destroy(t);
    pf_map_destroy(g);
}

/* ---- defect 2: size arithmetic on the caller's values cannot wrap ------------------------------ */

static void test_batch_sizes(void **state)
{
    (void)state;
    pf_map *m;
    assert_int_equal(pf_grid_create(&(pf_grid_desc){.width = 16, .height = 16}, &m), PF_OK);
    test_tracker c = {.countdown = -1, .limit = (size_t)64 << 20};
    pf_batch *b = (pf_batch *)&b;
    /* the issue's value: header plus bytes wrapped to a tiny block recorded as a huge one */
    static const size_t huge[] = {SIZE_MAX, SIZE_MAX - 63, SIZE_MAX / 2 + 1, PF_BATCH_MAX_ARENA_BYTES + 1};
    for (size_t i = 0; i < sizeof huge / sizeof huge[0]; i++) {
        pf_batch_desc d = {.workers = 1, .arena_bytes = huge[i], .allocator = test_tracked(&c)};
        assert_int_equal(pf_batch_create(m, &d, &b), PF_TOO_LARGE);
        assert_null(b);
    }
    assert_int_equal(pf_batch_create(m, &(pf_batch_desc){.workers = PF_BATCH_MAX_WORKERS + 1}, &b), PF_TOO_LARGE);
    assert_int_equal(pf_batch_create(m, &(pf_batch_desc){.workers = 1, .suspend_slots = PF_BATCH_MAX_WORKERS + 1},
                                     &b),
                     PF_TOO_LARGE);
    assert_int_equal(c.calls, 0);
    /* at the arena limit the size is accepted and asked of the allocator whole */
    c.limit = (size_t)1 << 20;
    pf_batch_desc at = {.workers = 1, .arena_bytes = PF_BATCH_MAX_ARENA_BYTES, .allocator = test_tracked(&c)};
    assert_int_equal(pf_batch_create(m, &at, &b), PF_OUT_OF_MEMORY);
    assert_true(c.largest >= PF_BATCH_MAX_ARENA_BYTES);
    assert_int_equal(c.live, 0);
    /* the arena itself: requests that would wrap fail, and the arena stays usable */
    pf__arena a;
    c.limit = (size_t)1 << 20;
    pf_allocator al = test_tracked(&c);
    assert_true(pf__arena_init(&a, &al, 256));
    assert_null(pf__arena_alloc(&a, SIZE_MAX, 8));
    assert_null(pf__arena_alloc(&a, SIZE_MAX - 8, 64));
    assert_null(pf__arena_alloc(&a, SIZE_MAX / 2 + 1, 8));
    uint32_t *p = pf__arena_alloc(&a, 1000 * sizeof *p, 8);
    assert_non_null(p);
    memset(p, 0xab, 1000 * sizeof *p); /* ASan checks the block really is that big */
    pf__arena_free(&a);
    pf_map_destroy(m);
}

/* The queue limit: PF_BATCH_MAX_QUERIES queries, and one more is PF_TOO_LARGE. */
static void test_batch_query_limit(void **state)
{
    (void)state;
    pf_map *m;
    assert_int_equal(pf_grid_create(&(pf_grid_desc){.width = 4, .height = 4}, &m), PF_OK);
    pf_batch *b;
    assert_int_equal(pf_batch_create(m, &(pf_batch_desc){.workers = 1}, &b), PF_OK);
    pf_batch_query q = {.start = 0, .goal = 5};
    for (uint32_t i = 0; i < PF_BATCH_MAX_QUERIES; i++)
        if (pf_batch_submit(b, &q, NULL) != PF_OK) fail_msg("query %u refused", i);
    assert_int_equal(pf_batch_submit(b, &q, NULL), PF_TOO_LARGE);
    pf_batch_destroy(b);
    pf_map_destroy(m);
}

/* ---- the table-size limit ---------------------------------------------------------------------- */

static void test_table_node_limit(void **state)
{
    (void)state;
    pf_map *m;
    /* 257 x 256 cells: one row more than PF_TABLE_MAX_NODES */
    assert_int_equal(pf_grid_create(&(pf_grid_desc){.width = 257, .height = 256}, &m), PF_OK);
    test_tracker c = {.countdown = -1, .limit = (size_t)1 << 20};
    pf_table *t = (pf_table *)&t;
    assert_int_equal(pf_table_create(m, &(pf_table_desc){.allocator = test_tracked(&c)}, &t), PF_TOO_LARGE);
    assert_null(t);
    assert_int_equal(c.calls, 0);
    pf_map_destroy(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unknown_algo_is_not_astar),
        cmocka_unit_test(test_cost_overflow_is_an_error),
        cmocka_unit_test(test_graph_limits),
        cmocka_unit_test(test_dimacs_weight_limit),
        cmocka_unit_test(test_read_bounds),
        cmocka_unit_test(test_read_bound_on_a_stream),
        cmocka_unit_test(test_messages_escaped_and_whole),
        cmocka_unit_test(test_table_header_checked_before_allocating),
        cmocka_unit_test(test_table_save_never_destroys),
        cmocka_unit_test(test_batch_sizes),
        cmocka_unit_test(test_batch_query_limit),
        cmocka_unit_test(test_table_node_limit),
    };
    return cmocka_run_group_tests(tests, tmpdir_setup, tmpdir_teardown);
}
