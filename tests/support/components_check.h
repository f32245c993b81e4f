/* components_check.h - the component labels' consistency check (tests/support/components_check.c). */
#ifndef PF_TEST_COMPONENTS_CHECK_H
#define PF_TEST_COMPONENTS_CHECK_H

#include <stddef.h>
#include "pathfind.h"

/* Checks the bookkeeping against the cells: 0 and a message in `why` when inconsistent. */
int pf__grid_components_check(const pf_map *m, char *why, size_t len);

#endif
