/* run_cli.c - fork and exec of the CLI for the end-to-end tests (see run_cli.h). */
#define _POSIX_C_SOURCE 200809L /* popen */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include "run_cli.h"
#include "tmpdir.h"

#if defined(__SANITIZE_ADDRESS__)
#define RUN_CLI_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RUN_CLI_ASAN 1
#endif
#endif
#ifndef RUN_CLI_ASAN
#define RUN_CLI_ASAN 0
#endif

int cli_run(const cli_confine *c, const char *const *args, char *out, size_t out_cap, char *err, size_t err_cap)
{
    static const cli_confine none = {0};
    if (!c) c = &none;
    const char *o = tmp("stdout"), *e = tmp("stderr");
    const char *argv[64] = {PF_CLI_PATH};
    int n = 1;
    for (; args[n - 1] && n < 63; n++) argv[n] = args[n - 1];
    argv[n] = NULL;
    fflush(NULL); /* nothing buffered twice by the child */
    pid_t pid = fork();
    if (pid == 0) {
        int fo = open(c->stdout_path ? c->stdout_path : o, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int fe = open(e, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        dup2(fo, 1);
        dup2(fe, 2);
        if (c->cwd && chdir(c->cwd) != 0) _exit(126);
        if (c->as_bytes && !RUN_CLI_ASAN) setrlimit(RLIMIT_AS, &(struct rlimit){c->as_bytes, c->as_bytes});
        if (c->fsize_bytes) {
            signal(SIGXFSZ, SIG_IGN);
            setrlimit(RLIMIT_FSIZE, &(struct rlimit){c->fsize_bytes, c->fsize_bytes});
        }
        if (c->alarm_s) alarm(c->alarm_s);
        execv(PF_CLI_PATH, (char *const *)argv);
        _exit(127);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    out[0] = '\0';
    if (!c->stdout_path) slurp(o, out, out_cap);
    slurp(e, err, err_cap);
    if (!WIFEXITED(st)) return -1;
    return WEXITSTATUS(st);
}

int cli_run_shell(const char *args, const char *err_name, char *out, size_t cap)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "cd %s && '%s' %s 2>%s", g_dir, PF_CLI_PATH, args, err_name);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t n = fread(out, 1, cap - 1, p);
    out[n] = '\0';
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}
