/* scen_run.c - see scen_run.h. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "scen_run.h"
#include "testutil.h"

uint32_t scen_stride(const char *env, uint32_t n, uint32_t want)
{
    const char *e = getenv(env);
    if (e && atoi(e) > 0) return (uint32_t)atoi(e);
    double s = env_scale();
    uint32_t w = (uint32_t)(want * s) ? (uint32_t)(want * s) : 1u;
    return n > w ? (n + w - 1) / w : 1u;
}

int scen_load_pair(const char *map_path, const char *scen_path, pf_map **m, pf_scen **sc)
{
    pf_diag d;
    if (pf_grid_load_movingai(map_path, NULL, m, &d) != PF_OK) {
        printf("cannot load %s: %s\n", map_path, d.msg);
        return 0;
    }
    if (pf_scen_load(scen_path, NULL, sc, &d) != PF_OK) {
        printf("cannot load %s: %s\n", scen_path, d.msg);
        pf_map_destroy(*m);
        return 0;
    }
    return 1;
}

typedef struct dir_run {
    scen_check_fn check;
    uint32_t      want, bad, checked;
} dir_run;

static void one_file(const char *map, const char *scen, void *user)
{
    dir_run *r = user;
    r->bad += r->check(map, scen, r->want, &r->checked);
}

void scen_check_dir(const char *dir, scen_check_fn check, uint32_t want, const char *searches, const char *failures)
{
    dir_run r = {.check = check, .want = want};
    unsigned files = each_scen_file(dir, one_file, &r);
    printf("%u Moving AI files, %u %s, %u %s\n", files, r.checked, searches, r.bad, failures);
    assert_true(files > 0);
    assert_int_equal(r.bad, 0);
}

unsigned scen_run_grids(const char *const (*pairs)[2], size_t npairs, scen_check_fn check, uint32_t want,
                        uint32_t want_short)
{
    char mp[1024], sp[1024];
    uint32_t bad = 0, files = 0, checked = 0;
    unsigned absent = 0;
    for (size_t i = 0; i < npairs; i++) {
        snprintf(mp, sizeof mp, "%s/grids/%s", PF_SHARED_DATA, pairs[i][0]);
        snprintf(sp, sizeof sp, "%s/grids/%s", PF_SHARED_DATA, pairs[i][1]);
        /* a listed file that exists must load (the check counts a refusal); one that does not is
         * a skip, so that ctest says SKIPPED and not passed while the others run */
        if (!path_exists(sp)) {
            print_message("SKIP: %s does not exist (listed, absent from the shared benchmark data)\n", sp);
            absent++;
            continue;
        }
        bad += check(mp, sp, strstr(sp, "short") ? want_short : want, &checked);
        files++;
    }
    if (!files) fail_msg("none of the listed scenario files is in %s/grids", PF_SHARED_DATA);
    assert_int_equal(bad, 0);
    return absent;
}
