/* test_pdb.c - pattern databases (pf_pdb.h): exact against IDA* on the 8-puzzle, admissible and
 * additive, the same at any thread count, the depth limit, baked files (round trip, corruption,
 * stale files, failed saves), bad input and allocation failure. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "pathfind.h"
#include "domains/puzzle.h"
#include "testutil.h"
#include "tmpdir.h"

/* A random 8-puzzle state (solvable or not). */
static void random_eight(uint64_t *rs, uint8_t *s)
{
    for (int i = 0; i < 9; i++) s[i] = (uint8_t)i;
    for (int i = 8; i > 0; i--) {
        int j = (int)rng_below(rs, (uint32_t)i + 1);
        uint8_t t = s[i];
        s[i] = s[j];
        s[j] = t;
    }
    puz_domain d = {3, PUZ_MANHATTAN, NULL};
    assert_true(puz_finish(&d, s));
}

/* The whole 8-puzzle as one pattern: every tile and the blank, one rank per state. */
typedef struct full8 {
    puz_pattern    pp;
    pf_pdb_pattern pat;
    puz_domain     dom;
    uint8_t        goal[10];
    pf_pdb_desc    desc;
} full8;

static void full8_init(full8 *f, uint32_t threads)
{
    static const uint8_t tiles[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    f->pat = puz_pattern_init(&f->pp, 3, tiles, 8);
    f->dom = (puz_domain){3, PUZ_MANHATTAN, NULL};
    for (int i = 0; i < 9; i++) f->goal[i] = (uint8_t)i;
    f->goal[9] = 0;
    f->desc = (pf_pdb_desc){.state_size = 10, .successors = puz_moves, .goal = f->goal, .patterns = &f->pat,
                            .pattern_count = 1, .domain_id = 8, .threads = threads, .user = &f->dom};
}

static void test_exact_eight(void **state)
{
    (void)state;
    full8 f;
    full8_init(&f, 0);
    assert_int_equal(f.pat.size, 362880);
    assert_int_equal(f.pat.group, 1);
    pf_pdb *pdb;
    assert_int_equal(pf_pdb_build(&f.desc, &pdb), PF_OK);
    pf_pdb_info in;
    assert_int_equal(pf_pdb_get_pattern_info(pdb, 0, &in), PF_OK);
    assert_int_equal(in.entries, 362880);
    assert_int_equal(in.unreached, 181440); /* the odd permutations */
    assert_int_equal(in.max_moves, 31);     /* the 8-puzzle's diameter */
    assert_true(in.bits == 4 || in.bits == 8);
    pf_gen_ctx *ctx;
    assert_int_equal(pf_gen_ctx_create(NULL, &ctx), PF_OK);
    puz_domain md = {3, PUZ_MANHATTAN, NULL};
    pf_gen_problem p = puz_problem(&md);
    uint64_t rs = 11;
    int rounds = (int)(40 * env_scale());
    for (int r = 0; r < rounds; r++) {
        uint8_t s[10];
        random_eight(&rs, s);
        double v = pf_pdb_value(pdb, s);
        if (!puz_solvable(&md, s)) {
            assert_true(isinf(v));
            continue;
        }
        pf_gen_stats st;
        assert_int_equal(pf_gen_search(ctx, &p, s, &(pf_gen_desc){.algo = PF_GEN_IDASTAR}, NULL, &st), PF_OK);
        if (v != st.cost) print_error("round %d: database %g, IDA* %g\n", r, v, st.cost);
        assert_true(v == st.cost);
    }
    /* an exact heuristic: IDA* walks straight to the goal in one iteration */
    puz_domain exact = {3, PUZ_PDB, pdb};
    pf_gen_problem pe = puz_problem(&exact);
    uint8_t s[10] = {8, 6, 7, 2, 5, 4, 3, 0, 1, 0};
    assert_true(puz_finish(&md, s) && puz_solvable(&md, s));
    pf_gen_stats st;
    assert_int_equal(pf_gen_search(ctx, &pe, s, &(pf_gen_desc){.algo = PF_GEN_IDASTAR}, NULL, &st), PF_OK);
    assert_int_equal(st.iterations, 1);
    assert_true(st.cost == pf_pdb_value(pdb, s));
    assert_int_equal(st.expanded, st.plan_len);
    pf_gen_ctx_destroy(ctx);
    pf_pdb_destroy(pdb);
}

/* Two disjoint patterns added, maximised over the reflection: between Manhattan and the truth. */
static void test_additive_eight(void **state)
{
    (void)state;
    full8 f;
    full8_init(&f, 0);
    pf_pdb *exact, *add, *plain;
    assert_int_equal(pf_pdb_build(&f.desc, &exact), PF_OK);
    puz_pdb_set s44, s44p;
    assert_true(puz_pdb_set_init(&s44, "4-4", 1, 0));
    assert_true(puz_pdb_set_init(&s44p, "4-4", 0, 0));
    assert_int_equal(pf_pdb_build(&s44.desc, &add), PF_OK);
    assert_int_equal(pf_pdb_build(&s44p.desc, &plain), PF_OK);
    puz_domain md = {3, PUZ_MANHATTAN, NULL};
    uint64_t rs = 5;
    int above_md = 0, reflect_helps = 0, n = 0;
    for (int r = 0; r < 2000; r++) {
        uint8_t s[10];
        random_eight(&rs, s);
        if (!puz_solvable(&md, s)) continue;
        n++;
        double h = pf_pdb_value(add, s), hp = pf_pdb_value(plain, s), e = pf_pdb_value(exact, s);
        double parts = pf_pdb_pattern_value(plain, 0, s) + pf_pdb_pattern_value(plain, 1, s);
        double m = (double)puz_manhattan(&md, s);
        assert_true(hp == parts);
        assert_true(m <= hp && hp <= h && h <= e);
        above_md += hp > m;
        reflect_helps += h > hp;
    }
    /* the databases see interactions Manhattan cannot, and the reflection adds to them */
    assert_true(above_md > n / 4);
    assert_true(reflect_helps > 0);
    /* IDA* with the database is optimal and expands fewer nodes than with Manhattan */
    pf_gen_ctx *ctx;
    assert_int_equal(pf_gen_ctx_create(NULL, &ctx), PF_OK);
    puz_domain dp = {3, PUZ_PDB, add};
    pf_gen_problem pp = puz_problem(&dp), pm = puz_problem(&md);
    uint64_t gen_pdb = 0, gen_md = 0;
    for (int r = 0; r < (int)(30 * env_scale()) + 1; r++) {
        uint8_t s[10];
        random_eight(&rs, s);
        if (!puz_solvable(&md, s)) continue;
        pf_gen_stats a, b;
        pf_gen_desc d = {.algo = PF_GEN_IDASTAR, .cycles = PF_GEN_CYCLES_PARENT};
        assert_int_equal(pf_gen_search(ctx, &pp, s, &d, NULL, &a), PF_OK);
        assert_int_equal(pf_gen_search(ctx, &pm, s, &d, NULL, &b), PF_OK);
        assert_true(a.cost == pf_pdb_value(exact, s) && b.cost == a.cost);
        gen_pdb += a.generated;
        gen_md += b.generated;
    }
    assert_true(gen_pdb * 2 < gen_md);
    pf_gen_ctx_destroy(ctx);
    pf_pdb_destroy(exact);
    pf_pdb_destroy(add);
    pf_pdb_destroy(plain);
}

static void assert_same_tables(const pf_pdb *a, const pf_pdb *b, uint32_t count)
{
    for (uint32_t i = 0; i < count; i++) {
        pf_pdb_info ia, ib;
        assert_int_equal(pf_pdb_get_pattern_info(a, i, &ia), PF_OK);
        assert_int_equal(pf_pdb_get_pattern_info(b, i, &ib), PF_OK);
        assert_memory_equal(&ia, &ib, sizeof ia);
        for (uint64_t e = 0; e < ia.entries; e++)
            if (pf_pdb_entry(a, i, e) != pf_pdb_entry(b, i, e)) fail_msg("pattern %u entry %llu differs", i, (unsigned long long)e);
    }
}

/* The same tables at any thread count, and with or without the domain's neighbours fast path
 * (which skips unrank, the successor callback and rank). */
static void test_threads_and_fast_path(void **state)
{
    (void)state;
    full8 f1, f2;
    full8_init(&f1, 1);
    full8_init(&f2, 2);
    f1.pat.neighbours = NULL;
    pf_pdb *a, *b;
    assert_int_equal(pf_pdb_build(&f1.desc, &a), PF_OK);
    assert_int_equal(pf_pdb_build(&f2.desc, &b), PF_OK);
    assert_same_tables(a, b, 1);
    pf_pdb_destroy(a);
    pf_pdb_destroy(b);
    static const char *const parts[] = {"4-4", "5-5-5"};
    for (int i = 0; i < (env_scale() >= 0.5 ? 2 : 1); i++) {
        puz_pdb_set s1, s2;
        assert_true(puz_pdb_set_init(&s1, parts[i], 1, 1) && puz_pdb_set_init(&s2, parts[i], 1, 2));
        for (uint32_t k = 0; k < s1.desc.pattern_count; k++) s1.pattern[k].neighbours = NULL;
        assert_int_equal(pf_pdb_build(&s1.desc, &a), PF_OK);
        assert_int_equal(pf_pdb_build(&s2.desc, &b), PF_OK);
        assert_same_tables(a, b, s1.desc.pattern_count);
        pf_pdb_destroy(a);
        pf_pdb_destroy(b);
    }
}

/* ---- a line of states 0..len-1 (a non-puzzle domain): entries are the distance to 0 ---------- */

typedef struct line {
    uint16_t len;
    int      bad_cost, bad_rank;
} line;

static void line_succ(const void *s, pf_gen_sink *out, void *u)
{
    const line *l = u;
    uint16_t v;
    memcpy(&v, s, 2);
    uint16_t a = (uint16_t)(v - 1), b = (uint16_t)(v + 1);
    if (v > 0) pf_gen_push(out, &a, l->bad_cost ? -1.0 : 1.0, 0);
    if (v + 1 < l->len) pf_gen_push(out, &b, 1.0, 1);
}
static uint64_t line_rank(const void *s, void *u)
{
    const line *l = u;
    uint16_t v;
    memcpy(&v, s, 2);
    return l->bad_rank && v == 3 ? l->len : v;
}
static void line_unrank(uint64_t r, void *s, void *u)
{
    (void)u;
    uint16_t v = (uint16_t)r;
    memcpy(s, &v, 2);
}

static pf_status line_build(line *l, pf_pdb **out)
{
    static const uint16_t zero = 0;
    pf_pdb_pattern pat = {.size = l->len, .rank = line_rank, .unrank = line_unrank, .user = l};
    pf_pdb_desc d = {.state_size = 2, .successors = line_succ, .goal = &zero, .patterns = &pat, .pattern_count = 1,
                     .unit_cost = 2.5, .user = l};
    return pf_pdb_build(&d, out);
}

static void test_limits_and_bad_input(void **state)
{
    (void)state;
    line l = {200, 0, 0};
    pf_pdb *pdb;
    assert_int_equal(line_build(&l, &pdb), PF_OK);
    pf_pdb_info in;
    assert_int_equal(pf_pdb_get_pattern_info(pdb, 0, &in), PF_OK);
    assert_int_equal(in.max_moves, 199);
    assert_int_equal(in.bits, 8);
    uint16_t v = 123;
    assert_true(pf_pdb_value(pdb, &v) == 2.5 * 123);
    pf_pdb_destroy(pdb);
    /* 254 moves is the most a byte holds beside the unreached mark */
    l.len = 255;
    assert_int_equal(line_build(&l, &pdb), PF_OK);
    pf_pdb_destroy(pdb);
    l.len = 256;
    assert_int_equal(line_build(&l, &pdb), PF_TOO_LARGE);
    assert_null(pdb);
    l = (line){20, 1, 0};
    assert_int_equal(line_build(&l, &pdb), PF_INVALID_ARGUMENT);
    l = (line){20, 0, 1};
    assert_int_equal(line_build(&l, &pdb), PF_INVALID_ARGUMENT);
    /* descs */
    full8 f;
    full8_init(&f, 1);
    pf_pdb_desc d = f.desc;
    assert_int_equal(pf_pdb_build(NULL, &pdb), PF_INVALID_ARGUMENT);
    assert_int_equal(pf_pdb_build(&d, NULL), PF_INVALID_ARGUMENT);
    d.pattern_count = 0;
    assert_int_equal(pf_pdb_build(&d, &pdb), PF_INVALID_ARGUMENT);
    d = f.desc;
    d.goal = NULL;
    assert_int_equal(pf_pdb_build(&d, &pdb), PF_INVALID_ARGUMENT);
    pf_pdb_pattern odd = f.pat;
    odd.group = 11; /* 9! is not a multiple of 11 */
    d = f.desc;
    d.patterns = &odd;
    assert_int_equal(pf_pdb_build(&d, &pdb), PF_INVALID_ARGUMENT);
    d = f.desc;
    d.symmetry_count = 1;
    assert_int_equal(pf_pdb_build(&d, &pdb), PF_INVALID_ARGUMENT);
    d = f.desc;
    d.unit_cost = -1;
    assert_int_equal(pf_pdb_build(&d, &pdb), PF_INVALID_ARGUMENT);
    /* lookups on nothing */
    assert_true(isnan(pf_pdb_value(NULL, &v)));
    assert_int_equal(pf_pdb_entry(NULL, 0, 0), UINT32_MAX);
    assert_int_equal(pf_pdb_get_pattern_info(NULL, 0, &in), PF_INVALID_ARGUMENT);
    pf_pdb_destroy(NULL);
}

/* ---- files ------------------------------------------------------------------------------------- */

static int file_exists(const char *path)
{
    FILE *fp = fopen(path, "rb");
    if (fp) fclose(fp);
    return fp != NULL;
}

/* The little-endian XXH3 the format uses, recomputed after a deliberate edit: the loader must
 * then catch the inconsistency itself, not by a checksum. */
#include <xxhash.h>
static void rehash(uint8_t *b, uint32_t patterns)
{
    uint64_t dh = XXH3_64bits(b + 64, (size_t)patterns * 32);
    for (int i = 0; i < 8; i++) b[48 + i] = (uint8_t)(dh >> (8 * i));
    uint64_t hh = XXH3_64bits(b, 56);
    for (int i = 0; i < 8; i++) b[56 + i] = (uint8_t)(hh >> (8 * i));
}


static void test_files(void **state)
{
    (void)state;
    const char *path = "test_pdb_44.pfp";
    remove(path);
    puz_pdb_set s;
    assert_true(puz_pdb_set_init(&s, "4-4", 1, 0));
    pf_pdb *pdb, *back;
    assert_int_equal(pf_pdb_build(&s.desc, &pdb), PF_OK);
    pf_diag diag;
    assert_int_equal(pf_pdb_save(pdb, path, &diag), PF_OK);
    assert_int_equal(pf_pdb_load(path, &s.desc, &back, &diag), PF_OK);
    assert_int_equal(diag.status, PF_OK);
    assert_same_tables(pdb, back, 2);
    assert_true(pf_pdb_build_seconds(back) == 0.0);
    pf_pdb_destroy(back);
    /* saving again replaces the file and leaves no temporary behind */
    assert_int_equal(pf_pdb_save(pdb, path, &diag), PF_OK);
    assert_false(file_exists("test_pdb_44.pfp.tmp0"));
    /* a save that cannot write leaves nothing */
    assert_int_equal(pf_pdb_save(pdb, "no-such-dir/x.pfp", &diag), PF_IO_ERROR);
    print_message("expected: %s\n", diag.msg);
    assert_false(file_exists("no-such-dir/x.pfp"));
    assert_int_equal(pf_pdb_load("no-such-file.pfp", &s.desc, &back, &diag), PF_IO_ERROR);
    assert_null(back);

    size_t n;
    uint8_t *good = (uint8_t *)slurp_alloc(path, &n);
    assert_non_null(good);
    uint8_t *b = malloc(n + 1);
    /* the file is exactly the in-memory bake */
    size_t need = 0;
    assert_int_equal(pf_pdb_save_mem(pdb, NULL, 0, &need), PF_BUFFER_TOO_SMALL);
    assert_int_equal(need, n);
    assert_int_equal(pf_pdb_file_size(pdb), n);
    assert_int_equal(pf_pdb_save_mem(pdb, b, n, &need), PF_OK);
    assert_memory_equal(b, good, n);
    assert_int_equal(pf_pdb_load_mem(good, n, "mem", &s.desc, &back, &diag), PF_OK);
    pf_pdb_destroy(back);
    struct {
        const char *what;
        size_t      at;      /* byte to change (SIZE_MAX: none) */
        uint8_t     xor_;
        int         fix;     /* recompute the header and directory checksums */
        long        resize;  /* bytes added (or removed) at the end */
        pf_status   want;
    } cases[] = {
        {"bad magic", 0, 0x20, 0, 0, PF_PARSE_ERROR},
        {"header bit flip", 17, 0x01, 0, 0, PF_PARSE_ERROR},
        {"other version", 8, 0x02, 1, 0, PF_UNSUPPORTED},
        {"fingerprint edited", 16, 0x01, 1, 0, PF_WRONG_MAP},
        {"directory bit flip", 64 + 3, 0x01, 0, 0, PF_PARSE_ERROR},
        {"entry width edited", 64 + 16, 0x0C, 1, 0, PF_PARSE_ERROR},     /* 4 -> 8 bits */
        {"payload size edited", 32 + 5, 0x10, 1, 0, PF_PARSE_ERROR},     /* ~1 TB announced */
        {"table bit flip", SIZE_MAX, 0, 0, 0, PF_PARSE_ERROR},
        {"truncated", SIZE_MAX, 0, 0, -1, PF_PARSE_ERROR},
        {"truncated header", SIZE_MAX, 0, 0, -(long)n + 40, PF_PARSE_ERROR},
        {"trailing byte", SIZE_MAX, 0, 0, 1, PF_PARSE_ERROR},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        memcpy(b, good, n);
        size_t len = (size_t)((long)n + cases[c].resize);
        if (cases[c].resize > 0) b[n] = 0;
        if (cases[c].at != SIZE_MAX) b[cases[c].at] ^= cases[c].xor_;
        else if (cases[c].resize == 0) b[n - 5] ^= 0x40;
        if (cases[c].fix) rehash(b, 2);
        test_tracker t = {.countdown = -1};
        pf_pdb_desc d = s.desc;
        d.allocator = (pf_allocator){test_track_alloc, test_track_free, &t};
        pf_status st = pf_pdb_load_mem(b, len, "mem", &d, &back, &diag);
        print_message("%s: %s (%s)\n", cases[c].what, pf_status_name(st), diag.msg);
        assert_int_equal(st, cases[c].want);
        assert_int_equal(diag.status, cases[c].want);
        assert_null(back);
        assert_int_equal(t.live, 0);
        assert_true(t.largest < 64 * 1024); /* never what a header announces */
    }
    /* directory fields resealed (checksums recomputed) to values the tables contradict: each was
     * accepted, a scale of 2^31 giving h of billions of moves (inadmissible); the loader recounts
     * the unreached entries and the largest stored value while it reads the tables */
    struct {
        const char *what;
        size_t      at;    /* a 32-bit field of the directory */
        uint32_t    value;
    } lies[] = {
        {"scale 2^31", 64 + 20, 0x7fffffffu},
        {"scale 200", 64 + 20, 200},
        {"max_moves 0", 64 + 24, 0},
        {"unreached 5", 64 + 8, 5},
        {"second pattern's unreached 1", 64 + 32 + 8, 1},
        {"second pattern's scale 100", 64 + 32 + 20, 100},
    };
    for (size_t c = 0; c < sizeof lies / sizeof lies[0]; c++) {
        memcpy(b, good, n);
        for (int i = 0; i < 4; i++) b[lies[c].at + (size_t)i] = (uint8_t)(lies[c].value >> (8 * i));
        rehash(b, 2);
        pf_status st = pf_pdb_load_mem(b, n, "mem", &s.desc, &back, &diag);
        print_message("%s: %s (%s)\n", lies[c].what, pf_status_name(st), diag.msg);
        assert_int_equal(st, PF_PARSE_ERROR);
        assert_null(back);
    }
    /* a file for another desc: other domain id, other pattern count, changed ranking */
    pf_pdb_desc other = s.desc;
    other.domain_id ^= 1;
    assert_int_equal(pf_pdb_load_mem(good, n, "mem", &other, &back, &diag), PF_WRONG_MAP);
    other = s.desc;
    other.pattern_count = 1;
    assert_int_equal(pf_pdb_load_mem(good, n, "mem", &other, &back, &diag), PF_WRONG_MAP);
    puz_pdb_set swapped;
    assert_true(puz_pdb_set_init(&swapped, "4-4", 1, 0));
    swapped.pat[0].tiles[0] = 2; /* same sizes and id, another ranking: the goal's entry is not 0 */
    swapped.pat[0].tiles[1] = 1;
    swapped.pat[0].slot[1] = 1;
    swapped.pat[0].slot[2] = 0;
    assert_int_equal(pf_pdb_load_mem(good, n, "mem", &swapped.desc, &back, &diag), PF_WRONG_MAP);
    print_message("expected: %s\n", diag.msg);
    assert_null(back);
    /* allocation failure while loading: no leak, the status says so */
    for (int k = 0; k < 8; k++) {
        test_tracker t = {.countdown = k};
        pf_pdb_desc d = s.desc;
        d.allocator = (pf_allocator){test_track_alloc, test_track_free, &t};
        pf_status st = pf_pdb_load_mem(good, n, "mem", &d, &back, &diag);
        assert_true(st == PF_OK || st == PF_OUT_OF_MEMORY);
        pf_pdb_destroy(back);
        assert_int_equal(t.live, 0);
    }
    free(good);
    free(b);
    pf_pdb_destroy(pdb);
    remove(path);
}

static void test_alloc_failure(void **state)
{
    (void)state;
    int ok_seen = 0;
    for (int k = 0; k < 200 && !ok_seen; k++) {
        test_tracker t = {.countdown = k};
        puz_pdb_set s;
        assert_true(puz_pdb_set_init(&s, "4-4", 1, 1));
        s.desc.allocator = (pf_allocator){test_track_alloc, test_track_free, &t};
        pf_pdb *pdb;
        pf_status st = pf_pdb_build(&s.desc, &pdb);
        assert_true(st == PF_OK || st == PF_OUT_OF_MEMORY);
        if (st == PF_OK) {
            ok_seen = 1;
            assert_int_equal(t.bytes, pf_pdb_mem_size(pdb));
        } else {
            assert_null(pdb);
        }
        pf_pdb_destroy(pdb);
        assert_int_equal(t.live, 0);
    }
    assert_true(ok_seen);
}

/* A database as the heuristic (pf_pdb.h's example) on a domain with a dead end: states 0..3, moves
 * 0->1 (1 has none), 0->2, 2->3, goal 3. h(1) = INFINITY (unreached), which every heuristic search
 * refused with PF_INVALID_ARGUMENT; now it is a dead end and each finds the plan of cost 2. */
static void de_succ(const void *s, pf_gen_sink *o, void *u)
{
    (void)u;
    uint8_t v = *(const uint8_t *)s, t;
    if (v == 0) {
        t = 1;
        pf_gen_push(o, &t, 1, 0);
        t = 2;
        pf_gen_push(o, &t, 1, 1);
    }
    if (v == 2) {
        t = 3;
        pf_gen_push(o, &t, 1, 0);
    }
}
static void de_pred(const void *s, pf_gen_sink *o, void *u)
{
    (void)u;
    uint8_t v = *(const uint8_t *)s, t;
    if (v == 1 || v == 2) {
        t = 0;
        pf_gen_push(o, &t, 1, 0);
    }
    if (v == 3) {
        t = 2;
        pf_gen_push(o, &t, 1, 0);
    }
}
static uint64_t de_rank(const void *s, void *u) { (void)u; return *(const uint8_t *)s; }
static void de_unrank(uint64_t r, void *s, void *u) { (void)u; *(uint8_t *)s = (uint8_t)r; }
static int de_goal(const void *s, void *u) { (void)u; return *(const uint8_t *)s == 3; }
static double de_h(const void *s, void *u) { return pf_pdb_value((const pf_pdb *)u, s); }
static void test_dead_end_as_heuristic(void **state)
{
    (void)state;
    uint8_t g = 3;
    pf_pdb_pattern pat = {.size = 4, .rank = de_rank, .unrank = de_unrank};
    pf_pdb_desc d = {.state_size = 1, .successors = de_succ, .predecessors = de_pred, .goal = &g,
                     .patterns = &pat, .pattern_count = 1};
    pf_pdb *pdb;
    assert_int_equal(pf_pdb_build(&d, &pdb), PF_OK);
    uint8_t one = 1;
    assert_true(isinf(pf_pdb_value(pdb, &one)));
    pf_gen_problem p = {.state_size = 1, .successors = de_succ, .heuristic = de_h, .is_goal = de_goal, .user = pdb};
    pf_gen_ctx *ctx;
    assert_int_equal(pf_gen_ctx_create(NULL, &ctx), PF_OK);
    for (int a = PF_GEN_ASTAR; a < PF_GEN__COUNT; a++) {
        uint8_t s0 = 0;
        pf_gen_stats st;
        assert_int_equal(pf_gen_search(ctx, &p, &s0, &(pf_gen_desc){.algo = (pf_gen_algo)a}, NULL, &st), PF_OK);
        assert_true(st.cost == 2.0);
        s0 = 1;
        assert_int_equal(pf_gen_search(ctx, &p, &s0, &(pf_gen_desc){.algo = (pf_gen_algo)a}, NULL, &st), PF_NO_PATH);
    }
    pf_gen_ctx_destroy(ctx);
    pf_pdb_destroy(pdb);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exact_eight), cmocka_unit_test(test_additive_eight),
        cmocka_unit_test(test_threads_and_fast_path), cmocka_unit_test(test_limits_and_bad_input),
        cmocka_unit_test(test_files),       cmocka_unit_test(test_alloc_failure),
        cmocka_unit_test(test_dead_end_as_heuristic),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
