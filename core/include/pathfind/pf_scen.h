/*
 * pf_scen.h - Moving AI scenario files (.scen): queries with their optimal lengths.
 *
 * Format: "version 1" (or "version 1.0"), then one line per query, tab- or space-separated:
 *     bucket  map  map_width  map_height  start_x  start_y  goal_x  goal_y  optimal_length
 * The listed lengths are rounded (to 2 decimals in some sets): compare with PF_SCEN_TOLERANCE.
 *
 * OWNERSHIP: pf_scen_load allocates; pf_scen_destroy frees. THREAD SAFETY: read-only after load.
 */
#ifndef PATHFIND_PF_SCEN_H
#define PATHFIND_PF_SCEN_H

#include <stdint.h>
#include "pf_status.h"
#include "pf_alloc.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Absolute tolerance for listed optimal lengths (they are rounded to as few as 2 decimals). */
#define PF_SCEN_TOLERANCE 0.006
/** Largest .scen file the loader reads (1 GiB, so at most 2^26 lines of 18 bytes or more; Moving AI's
 *  files hold a few thousand). A larger file, or a stream that runs past it, is PF_TOO_LARGE. */
#define PF_SCEN_MAX_FILE_BYTES ((uint64_t)1 << 30)

typedef struct pf_scen_entry {
    uint32_t bucket;
    uint32_t map_width, map_height;
    int32_t  sx, sy, gx, gy;
    double   optimal;
} pf_scen_entry;

typedef struct pf_scen pf_scen;

/* Options for the scenario loader (all zero: defaults). */
typedef struct pf_scen_load_desc {
    pf_allocator allocator;   /* all zero = malloc */
} pf_scen_load_desc;

/**
 * Optimal lengths must be finite and >= 0 ("nan", "inf" and overflowing values such as 1e999 are
 * PF_PARSE_ERROR; one too small for a double reads as 0 or subnormal), so every listed length can
 * be compared with a search's cost. Their decimal point is '.', whatever the host's locale (an
 * application that called setlocale in a comma-decimal locale loads them the same).
 * @return PF_OK, PF_IO_ERROR, PF_PARSE_ERROR (line and reason in diag), PF_TOO_LARGE (more than
 *         PF_SCEN_MAX_FILE_BYTES bytes), PF_OUT_OF_MEMORY.
 */
PF_API pf_status pf_scen_load(const char *path, const pf_scen_load_desc *desc, pf_scen **out, pf_diag *diag);
PF_API pf_status pf_scen_parse(const char *text, size_t len, const char *name, const pf_scen_load_desc *desc,
                               pf_scen **out, pf_diag *diag);
PF_API uint32_t             pf_scen_count(const pf_scen *s);
/** Entry i, or NULL when out of range. */
PF_API const pf_scen_entry *pf_scen_get(const pf_scen *s, uint32_t i);
/** Map name of the first line as written in the file ("" when empty). */
PF_API const char          *pf_scen_map_name(const pf_scen *s);
PF_API void                 pf_scen_destroy(pf_scen *s);

#ifdef __cplusplus
}
#endif
#endif
