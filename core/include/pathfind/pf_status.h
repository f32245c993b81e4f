/*
 * pf_status.h - one status enum for outcomes and errors, with names and messages.
 *
 * Every fallible call returns a pf_status. Negative values are errors (the call did nothing useful);
 * zero and positive values are outcomes (PF_NO_PATH is an answer, not a failure). Parsers can also
 * fill a caller-owned pf_diag with the line and column of the problem.
 *
 * PF_TOO_LARGE is every documented limit (map side, node and arc counts, file bytes, table nodes,
 * batch sizes: docs/hardening.md, Limits). PF_COST_OVERFLOW is a path that exists but whose cost
 * sums to infinity in double precision (graph weights near DBL_MAX): no cost is returned for it.
 *
 *     pf_diag d;
 *     pf_status s = pf_grid_load_movingai("m.map", NULL, &map, &d);
 *     if (pf_failed(s)) fprintf(stderr, "%s\n", d.msg);   // "m.map:7:12: unknown terrain character 'X'"
 *
 * THREAD SAFETY: all functions here are pure.
 */
#ifndef PATHFIND_PF_STATUS_H
#define PATHFIND_PF_STATUS_H

#include <stdint.h>
#include "pf_export.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PF_STATUS_LIST(X)                                                                          \
    X(OK,                 0, "success")                                                             \
    X(NO_PATH,            1, "goal is unreachable from start")                                      \
    X(LIMIT_REACHED,      2, "expansion or cost limit reached")                                     \
    X(IN_PROGRESS,        3, "sliced search not finished")                                          \
    X(FALLBACK,           4, "reserved: no longer returned (see PF_DETAIL_FALLBACK)")              \
    X(CANCELLED,          5, "query was cancelled")                                                 \
    X(SUPERSEDED,         6, "query was replaced by a newer one with the same tag")                 \
    X(PARTIAL,            7, "goal unreachable; path to the reachable cell nearest it")            \
    X(INVALID_ARGUMENT,  -1, "invalid argument")                                                    \
    X(OUT_OF_MEMORY,     -2, "allocation failed")                                                   \
    X(BUFFER_TOO_SMALL,  -3, "output buffer too small")                                             \
    X(PARSE_ERROR,       -4, "malformed input")                                                     \
    X(IO_ERROR,          -5, "file could not be read")                                              \
    X(INVALID_START,     -6, "start is outside the map or blocked")                                 \
    X(INVALID_GOAL,      -7, "goal is outside the map or blocked")                                  \
    X(TOO_LARGE,         -8, "input exceeds a documented size limit")                               \
    X(WRONG_MAP,         -9, "object was made for a different map")                                 \
    X(UNSUPPORTED,      -10, "operation unsupported for this map or algorithm")                     \
    X(CAPACITY_EXCEEDED, -11, "fixed capacity exceeded (an object in caller memory cannot grow)")   \
    X(COST_OVERFLOW,    -12, "path cost is not a finite number (weights too large)")                \
    X(EXPIRED_ID,       -13, "query id unknown or expired (finished before a reset)")               \
    X(BATCH_BUSY,       -14, "batch is running (between prepare and finish)")                       \
    X(NOT_PREPARED,     -15, "batch has no prepared run")                                           \
    X(JOB_ALREADY_RUN,  -16, "job already run in this prepared run")                                \
    X(BAD_JOB,          -17, "job index out of range for the prepared run")                         \
    X(BAD_WORKER,       -18, "worker index out of range")                                           \
    X(MAP_BUSY,         -19, "map is being searched or edited (edits belong between runs)")         \
    X(MAP_CHANGED,      -20, "map was edited since this search ran")

typedef enum pf_status {
#define PF__STATUS_ENUM(name, value, text) PF_##name = value,
    PF_STATUS_LIST(PF__STATUS_ENUM)
#undef PF__STATUS_ENUM
} pf_status;

/** Human-readable message, e.g. "goal is unreachable from start". Never NULL. */
PF_API const char *pf_status_str(pf_status s);
/** Enum name without prefix, e.g. "NO_PATH". Never NULL ("UNKNOWN" for foreign values). */
PF_API const char *pf_status_name(pf_status s);

/** Non-zero when `s` is an error (negative). Outcomes such as PF_NO_PATH are not failures. */
static inline int pf_failed(pf_status s) { return (int)s < 0; }

/**
 * Misuse that a status cannot report: debug builds (NDEBUG not defined) check the handles of the
 * main calls and stop on a destroyed or foreign map, context or batch, or a map destroyed under
 * live contexts. Before stopping they call the hook set here, with the call's name and the
 * message, so an engine can log it, break into its debugger or write its crash report; if the hook
 * returns, the message goes to stderr and the process aborts (carrying on would be undefined).
 * Release builds compile the checks out, and never call it. Set it once, before any other thread
 * uses pathfind; NULL restores the default (stderr, then abort).
 */
typedef void (*pf_misuse_fn)(const char *call, const char *message, void *user);
PF_API void pf_set_misuse_hook(pf_misuse_fn fn, void *user);

/** Size of pf_diag.msg: room for a file name of PATH_MAX (4096) bytes and the message. */
#define PF_DIAG_MSG_SIZE 4352

/**
 * Caller-owned diagnostic filled by loaders: status, 1-based line and column (0 when unknown).
 * Control characters of the input (and of the file name) are written escaped, as \xNN, so a
 * message can be printed on a terminal as it is.
 */
typedef struct pf_diag {
    pf_status status;
    uint32_t  line, column;
    char      msg[PF_DIAG_MSG_SIZE];
} pf_diag;

#ifdef __cplusplus
}
#endif
#endif
