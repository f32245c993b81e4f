/* run_cli.h - runs the real `pathfind` binary (PF_CLI_PATH) the way a user would, for the CLI's
 * end-to-end tests, and hands back its exit code and what it wrote. Its stdout and stderr pass
 * through files in g_dir (tmpdir.h), which must exist. */
#ifndef PF_TEST_RUN_CLI_H
#define PF_TEST_RUN_CLI_H

#include <stddef.h>

/* How a run is confined; all zero: as it is, in the test's own directory. */
typedef struct cli_confine {
    const char *stdout_path; /* [opt] stdout goes there (a path such as /dev/full), not read back */
    const char *cwd;         /* [opt] directory it runs in; it exits 126 when it cannot go there */
    unsigned    alarm_s;     /* wall-clock alarm kept across exec, so a hang ends as a signal; 0: none */
    size_t      as_bytes;    /* address-space limit, 0: none; never under ASan, whose shadow needs
                                terabytes (the alarm still bounds the run) */
    size_t      fsize_bytes; /* file-size limit (SIGXFSZ ignored: writes fail instead), 0: none */
} cli_confine;

/* Runs the CLI with `args` (NULL-terminated, at most 62) under `c` ([opt]); its stdout into out
 * (empty with c->stdout_path) and stderr into err, each cut to its cap and NUL-terminated.
 * Returns the exit code, or -1 when a signal ended it. */
int cli_run(const cli_confine *c, const char *const *args, char *out, size_t out_cap, char *err, size_t err_cap);

/* Runs `cd g_dir && pathfind ARGS 2>ERR_NAME` through the shell (ARGS split and quoted as the shell
 * does); stdout into out, NUL-terminated. Returns the exit code, or -1 when a signal ended it. */
int cli_run_shell(const char *args, const char *err_name, char *out, size_t cap);

/* Fails the case, showing `buf` (what a run wrote), unless it holds `s`; HASNT: unless it does
 * not. Include <string.h> and cmocka.h first. */
#define HAS(buf, s)                                                                                          \
    do {                                                                                                     \
        if (!strstr(buf, s)) fail_msg("expected '%s' in:\n%s", s, buf);                                      \
    } while (0)
#define HASNT(buf, s)                                                                                        \
    do {                                                                                                     \
        if (strstr(buf, s)) fail_msg("did not expect '%s' in:\n%s", s, buf);                                 \
    } while (0)

#endif
