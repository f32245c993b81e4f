/* orders.c - the order log `pathfind replay` reads: parsed whole before the replay, into records
 * of one kind each. A line is a frame number and then either a tag (a unit: an order or a cancel)
 * or a word naming another kind of record (parse_word_line). Nothing the file announces is
 * allocated ahead: arrays grow with the lines actually read. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

static int log_push(cli_orders *lg, const cli_order *r)
{
    if (lg->n == lg->cap) {
        uint32_t nc = lg->cap ? lg->cap * 2u : 1024u;
        cli_order *nr = realloc(lg->r, (size_t)nc * sizeof *nr);
        if (!nr) return 0;
        lg->r = nr;
        lg->cap = nc;
    }
    lg->r[lg->n++] = *r;
    return 1;
}

static int parse_u64(const char *s, uint64_t max, uint64_t *out)
{
    if (!s || *s < '0' || *s > '9') return 0;
    char *e;
    errno = 0;
    unsigned long long v = strtoull(s, &e, 10);
    if (*e || errno || v > max) return 0;
    *out = v;
    return 1;
}

static int parse_i32(const char *s, int32_t *out)
{
    /* strtol skips leading white space, \v and \f too, which the split on spaces and tabs leaves
     * in a token: a number starts with its sign or a digit */
    if (!s || !(*s == '-' || *s == '+' || (*s >= '0' && *s <= '9'))) return 0;
    char *e;
    errno = 0;
    long v = strtol(s, &e, 10);
    if (*e || errno || v < -2147483647L || v > 2147483647L) return 0;
    *out = (int32_t)v;
    return 1;
}

static int bad(const char *path, uint32_t line, const char *msg, const char *what)
{
    cli_error("replay", "%s:%u: %s%s%s%s", path, line, msg, what ? " '" : "", what ? what : "",
            what ? "'" : "");
    return 0;
}

/* A record whose second token is a word rather than a tag: a map edit, `FRAME rect X Y W H C`
 * (its rectangle and terrain are checked against the map once it is loaded, before frame 0:
 * cmd_replay.c's check_edits; it is not loaded yet). */
static int parse_word_line(const char *path, uint32_t line, const char *buf, char **tok, int ntok, cli_order *r)
{
    if (strcmp(tok[1], "rect") != 0) return bad(path, line, "unknown record kind", tok[1]);
    if (ntok != 7) return bad(path, line, "expected FRAME rect X Y W H C", NULL);
    for (int k = 0; k < 6; k++) r->ecol[k] = (uint16_t)(tok[1 + k] - buf); /* lines are under 4 KB */
    int32_t *c[4] = {&r->sx, &r->sy, &r->w, &r->h};
    for (int k = 0; k < 4; k++)
        if (!parse_i32(tok[2 + k], c[k])) return bad(path, line, "bad number", tok[2 + k]);
    if (strlen(tok[6]) != 1) return bad(path, line, "expected one terrain character, not", tok[6]);
    r->terrain = tok[6][0];
    r->kind = CLI_EDIT;
    return 1;
}

/* What may follow an order's priority: `size=K` (1..PF_UNIT_SIZE_MAX) and `partial`, once each. */
static int parse_order_options(const char *path, uint32_t line, char **tok, int ntok, cli_order *r)
{
    for (int k = 0; k < ntok; k++) {
        if (strncmp(tok[k], "size=", 5) == 0 && !r->size) {
            uint64_t v;
            if (!parse_u64(tok[k] + 5, PF_UNIT_SIZE_MAX, &v) || v == 0) return bad(path, line, "bad size", tok[k]);
            r->size = (uint8_t)v;
        } else if (strcmp(tok[k], "partial") == 0 && !r->partial) {
            r->partial = 1;
        } else {
            return bad(path, line, "expected size=K or partial after the priority, not", tok[k]);
        }
    }
    return 1;
}

static int parse_line(const char *path, uint32_t line, const char *buf, char **tok, int ntok, uint32_t last_frame,
                      cli_order *r)
{
    uint64_t v;
    *r = (cli_order){.line = line, .row = UINT32_MAX};
    if (!parse_u64(tok[0], UINT32_MAX - 1u, &v)) return bad(path, line, "bad frame number", tok[0]);
    r->frame = (uint32_t)v;
    if (r->frame < last_frame) return bad(path, line, "frame goes backwards", tok[0]);
    if (ntok < 2) return bad(path, line, "expected TAG SX SY GX GY PRIORITY or TAG cancel after the frame", NULL);
    if (tok[1][0] < '0' || tok[1][0] > '9') return parse_word_line(path, line, buf, tok, ntok, r);
    if (!parse_u64(tok[1], UINT64_MAX, &r->tag)) return bad(path, line, "bad tag", tok[1]);
    if (ntok >= 3 && strcmp(tok[2], "cancel") == 0) {
        if (ntok != 3) return bad(path, line, "unexpected text after cancel", tok[3]);
        r->kind = CLI_CANCEL;
        return 1;
    }
    if (ntok < 7)
        return bad(path, line, "expected FRAME TAG SX SY GX GY PRIORITY [size=K] [partial] or FRAME TAG cancel", NULL);
    int32_t *c[4] = {&r->sx, &r->sy, &r->gx, &r->gy};
    for (int k = 0; k < 4; k++)
        if (!parse_i32(tok[2 + k], c[k])) return bad(path, line, "bad coordinate", tok[2 + k]);
    if (strcmp(tok[6], "urgent") == 0) r->prio = PF_PRIORITY_URGENT;
    else if (strcmp(tok[6], "normal") == 0) r->prio = PF_PRIORITY_NORMAL;
    else if (strcmp(tok[6], "background") == 0) r->prio = PF_PRIORITY_BACKGROUND;
    else return bad(path, line, "priority must be urgent, normal or background, not", tok[6]);
    if (!parse_order_options(path, line, tok + 7, ntok - 7, r)) return 0;
    r->kind = CLI_ORDER;
    return 1;
}

static int read_lines(const char *path, cli_orders *lg)
{
    cli_text t;
    if (!cli_text_open(&t, "replay", path, "order log", CLI_ORDERS_MAX_BYTES)) return 0;
    char buf[4096];
    uint32_t last = 0;
    int ok = 1, got;
    while (ok && (got = cli_text_line(&t, buf, sizeof buf)) != 0) {
        if (got < 0) {
            ok = 0;
            break;
        }
        uint32_t line = t.line;
        /* A comment is free text: skipped before it is split, so its word count does not matter. */
        if (line > 1 && buf[strspn(buf, " \t")] == '#') continue;
        char *tok[9];
        int ntok = 0;
        for (char *p = strtok(buf, " \t"); p; p = strtok(NULL, " \t")) {
            if (ntok == 9) {
                ok = bad(path, line, "too many fields", NULL);
                break;
            }
            tok[ntok++] = p;
        }
        if (!ok) break;
        if (line == 1) {
            if (ntok != 2 || strcmp(tok[0], "orders") != 0 || strcmp(tok[1], "1") != 0)
                ok = bad(path, line, "expected the header 'orders 1'", NULL);
            continue;
        }
        if (ntok == 0) continue;
        cli_order r;
        if (!(ok = parse_line(path, line, buf, tok, ntok, last, &r))) break;
        last = r.frame;
        if (r.kind == CLI_ORDER) r.row = lg->orders++;
        if (!(ok = log_push(lg, &r))) cli_error("replay", "out of memory at %s:%u", path, line);
    }
    if (ok && t.line == 0) ok = bad(path, 1, "empty file: expected the header 'orders 1'", NULL);
    cli_text_close(&t);
    return ok;
}

/* Links each cancel to its unit's latest earlier order: units sorted by tag, lines kept in order. */
static int by_tag_then_line(const void *pa, const void *pb)
{
    const cli_order *a = *(const cli_order *const *)pa, *b = *(const cli_order *const *)pb;
    if (a->tag != b->tag) return a->tag < b->tag ? -1 : 1;
    return (a->line > b->line) - (a->line < b->line);
}

static int link_cancels(cli_orders *lg)
{
    cli_order **p = malloc((size_t)(lg->n ? lg->n : 1) * sizeof *p);
    if (!p) return 0;
    for (uint32_t i = 0; i < lg->n; i++) p[i] = &lg->r[i];
    qsort(p, lg->n, sizeof *p, by_tag_then_line);
    for (uint32_t i = 0, last = UINT32_MAX; i < lg->n; i++) {
        if (i == 0 || p[i]->tag != p[i - 1]->tag) last = UINT32_MAX;
        if (p[i]->kind == CLI_ORDER) {
            p[i]->prev = last;
            last = p[i]->row;
        }
        else if (p[i]->kind == CLI_CANCEL) p[i]->row = last;
    }
    free(p);
    return 1;
}

int cli_orders_read(const char *path, cli_orders *out)
{
    *out = (cli_orders){0};
    int ok = read_lines(path, out);
    if (ok && !(ok = link_cancels(out))) cli_error("replay", "out of memory");
    if (!ok) cli_orders_free(out);
    return ok;
}

void cli_orders_free(cli_orders *o)
{
    free(o->r);
    *o = (cli_orders){0};
}
