/*
 * pf_broken.h - a deliberately broken public header: the fixture of the export check's own test
 * (tests/check_exports_fixture.cmake). Never installed, never compiled. The check must FAIL on it
 * and name each planted fault; a check that passes here cannot see the faults it exists to catch.
 *
 * What broke the old check: an unmatched bracket in a comment, as in "ranks in [0, size)". CMake's
 * list splitting treats [ ... ] as a group, so a header read line by line into a list ended at the
 * first such comment, and every declaration below it went unread; so does a ; in a comment.
 */
#ifndef PF_BROKEN_H
#define PF_BROKEN_H

#include "pathfind/pf_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Marked and before the bracket: seen by any scanner, but not in the library. */
PF_API pf_status pf_fixture_marked_missing(void);

/** Rank of the state in [0, size) -- the unmatched bracket; and a ; for good measure. */
pf_status pf_fixture_unmarked(const void *state, unsigned size);

// a line comment with [ and ; and an apostrophe that isn't a char literal
PF_API pf_status
pf_fixture_split(int a,
                 int b[4]);

#define PF_FIXTURE_MACRO(x) pf_fixture_not_a_function(x) /* a macro, not a declaration */ \
    + pf_fixture_continued(x)

/* Not declarations: a typedef of a function type, a struct member, a static inline definition
 * (header-only, never exported), and this comment: pf_status pf_fixture_in_comment(void); */
typedef pf_status (*pf_fixture_fn)(int);
typedef struct pf_fixture_desc { pf_status (*cb)(int x); int n[2]; } pf_fixture_desc;
static inline int pf_fixture_inline(int x) { return x < 0 ? 0 : x; }

/** Unmarked, after everything above. */
unsigned long long pf_fixture_last(const pf_fixture_desc *d, pf_fixture_fn fn);

#ifdef __cplusplus
}
#endif
#endif
