/* options.c - the commands' options read strictly: numbers as typed, algorithms, move rules,
 * movement-type filters, and the combinations refused. */
#include <errno.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

int cli_is_help(const char *a) { return a && (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0); }

int cli_is_option(const char *a) { return a && a[0] == '-' && a[1] && !(a[1] >= '0' && a[1] <= '9') && a[1] != '.'; }

int cli_has_value(int argc, char **argv, int i) { return i + 1 < argc && !cli_is_option(argv[i + 1]); }

int cli_repeated_option(const char *cmd, int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (!cli_is_option(argv[i]) || cli_is_help(argv[i])) continue;
        for (int j = 1; j < i; j++)
            if (strcmp(argv[i], argv[j]) == 0) {
                cli_error(cmd, "option '%s' given twice (the second would replace the first)", argv[i]);
                return 1;
            }
    }
    return 0;
}

/* strtol and strtod skip leading blanks and take "0x" and "inf": a number here starts with a digit
 * (after an optional '-'), so what was typed is what is read. */
static int starts_like_a_number(const char *s)
{
    const char *d = *s == '-' ? s + 1 : s;
    /* strtod also reads hex ("0x10" is 16) and "nan(...)": only decimal digits, a point and an
     * exponent are typed numbers */
    return *d >= '0' && *d <= '9' && s[strspn(s, "0123456789.eE+-")] == '\0';
}

int cli_read_int(const char *s, long lo, long hi, long *out)
{
    char *e = NULL;
    errno = 0;
    long v = s && starts_like_a_number(s) ? strtol(s, &e, 10) : 0;
    if (!e || *e || errno || v < lo || v > hi) return 0;
    *out = v;
    return 1;
}

int cli_parse_int(const char *cmd, const char *opt, const char *s, long lo, long hi, long *out)
{
    if (cli_read_int(s, lo, hi, out)) return 1;
    cli_error(cmd, "bad value '%s' for %s (expected an integer in %ld..%ld)", s ? s : "", opt, lo, hi);
    return 0;
}

int cli_parse_double(const char *cmd, const char *opt, const char *s, double lo, double *out)
{
    char *e = NULL;
    errno = 0;
    double v = s && starts_like_a_number(s) ? strtod(s, &e) : 0;
    if (!e || *e || errno || !isfinite(v) || v < lo) {
        cli_error(cmd, "bad value '%s' for %s (expected a number >= %g)", s ? s : "", opt, lo);
        return 0;
    }
    *out = v;
    return 1;
}

int cli_check_weight(const char *cmd, pf_algo algo, int weight_given, int grid)
{
    if (!weight_given || algo == PF_ALGO_WASTAR || algo == PF_ALGO_JPS || algo == PF_ALGO_JPS_PLUS) return 1;
    /* a graph runs no JPS: naming it there would send the user from one refusal to another */
    cli_error(cmd, "--weight applies to %s; %s ignores it (drop it or pick %s)", grid ? "wastar, jps and jps+" : "wastar",
              pf_algo_name(algo), grid ? "one of those" : "wastar");
    return 0;
}

int cli_check_moves(const char *cmd, pf_moves moves, pf_algo algo, int smooth, long size)
{
    if (moves != PF_MOVES_HEX) return 1;
    /* what the library answers PF_UNSUPPORTED on a hex grid, refused before any query runs */
    const char *what = algo == PF_ALGO_THETA ? "--algo theta" : smooth ? "--smooth" : size > 1 ? "--size" : NULL;
    if (!what) return 1;
    cli_error(cmd, "%s needs a square grid (--moves 4, 8 or 8cut): %s", what,
              size > 1 && algo != PF_ALGO_THETA && !smooth ? "hex maps have no clearance for larger units"
                                                            : "hex maps have no straight lines");
    return 0;
}

/* The class of a terrain character a unit may enter; 0 (with a message) for an unknown or blocked one. */
static uint8_t filter_class(const char *cmd, const char *opt, char ch)
{
    int k = pf_grid_terrain_class(ch);
    if (k > 0) return (uint8_t)k;
    if (k == 0) cli_error(cmd, "%s: '%c' is blocked terrain, which no unit enters", opt, ch);
    else cli_error(cmd, "%s: unknown terrain character '%c' (expected . G S W T)", opt, ch);
    return 0;
}

int cli_filter_opt(const char *cmd, const char *opt, const char *arg, cli_filter *cf)
{
    if (strcmp(opt, "--classes") == 0) {
        if (!*arg) {
            cli_error(cmd, "--classes needs at least one terrain character (e.g. --classes .W)");
            return 0;
        }
        for (const char *p = arg; *p; p++) {
            uint8_t k = filter_class(cmd, opt, *p);
            if (!k) return 0;
            cf->f.classes[k >> 3] = (uint8_t)(cf->f.classes[k >> 3] | (1u << (k & 7u)));
        }
        cf->classes = 1;
        return 1;
    }
    if (strcmp(opt, "--class-cost") != 0) return -1;
    /* C=X[,C=X]: one character, '=', a positive finite number, each item whole */
    for (const char *p = arg;;) {
        const char *end = strchr(p, ',');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        char num[64];
        if (n < 3 || p[1] != '=' || n - 2 >= sizeof num) {
            cli_error(cmd, "bad value '%s' for --class-cost (expected C=X[,C=X], e.g. W=2.5)", arg);
            return 0;
        }
        uint8_t k = filter_class(cmd, opt, p[0]);
        if (!k) return 0;
        if (cf->cost_set[k >> 3] & (1u << (k & 7u))) { /* the last one won: say which is meant */
            cli_error(cmd, "--class-cost: the class of '%c' is given a multiplier twice (. G S name one class)", p[0]);
            return 0;
        }
        memcpy(num, p + 2, n - 2);
        num[n - 2] = 0;
        char *e = num;
        double x = starts_like_a_number(num) ? strtod(num, &e) : 0.0;
        /* kept as a float: below its normal range a multiplier became 0 there ("the default, 1") or
         * a subnormal that priced every step at 0 */
        if (e == num || *e || !((float)x >= FLT_MIN) || !(x <= 1e30)) {
            cli_error(cmd, "bad multiplier '%s' for --class-cost %c (expected a number from %.9g to 1e30)", num, p[0],
                      (double)FLT_MIN);
            return 0;
        }
        cf->f.class_cost[k] = (float)x;
        cf->cost_set[k >> 3] = (uint8_t)(cf->cost_set[k >> 3] | (1u << (k & 7u)));
        if (!end) break;
        p = end + 1;
    }
    cf->costs = 1;
    return 1;
}

int cli_filter_done(const char *cmd, cli_filter *cf, const pf_move_filter **out)
{
    *out = NULL;
    if (!cf->classes && !cf->costs) return 1;
    if (!cf->classes) {
        cli_error(cmd, "--class-cost needs --classes (the terrain the unit may enter)");
        return 0;
    }
    for (uint32_t k = 1; k < 4; k++) /* the classes terrain characters name */
        if (((cf->cost_set[k >> 3] >> (k & 7u)) & 1u) && !((cf->f.classes[k >> 3] >> (k & 7u)) & 1u)) {
            cli_error(cmd, "--class-cost names terrain '%c', which --classes does not allow", "?.WT"[k < 4 ? k : 0]);
            return 0;
        }
    *out = &cf->f;
    return 1;
}

int cli_parse_moves(const char *cmd, const char *s, pf_moves *out)
{
    if (s && strcmp(s, "4") == 0) *out = PF_MOVES_4;
    else if (s && strcmp(s, "8") == 0) *out = PF_MOVES_8_NO_CUT;
    else if (s && strcmp(s, "8cut") == 0) *out = PF_MOVES_8_CUT;
    else if (s && strcmp(s, "hex") == 0) *out = PF_MOVES_HEX;
    else {
        cli_error(cmd, "bad value '%s' for --moves (expected 4, 8, 8cut or hex)", s ? s : "");
        return 0;
    }
    return 1;
}

int cli_parse_algo(const char *cmd, const char *s, pf_algo *out)
{
    pf_algo a = pf_algo_parse(s);
    if (a == PF_ALGO_UNKNOWN) {
        /* the list comes from the library, so it cannot fall behind a new algorithm */
        char names[160] = "";
        for (int k = PF_ALGO_ASTAR; k < PF_ALGO__COUNT; k++) {
            size_t l = strlen(names);
            snprintf(names + l, sizeof names - l, "%s%s", k > PF_ALGO_ASTAR ? ", " : "", pf_algo_name((pf_algo)k));
        }
        cli_error(cmd, "unknown algorithm '%s' (valid: %s)", s ? s : "", names);
        return 0;
    }
    *out = a;
    return 1;
}
