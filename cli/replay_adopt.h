/* replay_adopt.h - replay's accelerator after edit lines (replay_adopt.c): rebuilt off the frame on
 * a thread of its own, adopted by the batch a fixed number of frames after the edit. */
#ifndef PF_CLI_REPLAY_ADOPT_H
#define PF_CLI_REPLAY_ADOPT_H

#include <stdint.h>
#include <stdio.h>
#include "pathfind.h"

typedef struct cli_adopt cli_adopt;

/* Follows `acc` (the batch's accelerator, owned by the caller; NULL: nothing to follow), adopting a
 * rebuild `frames` frames after the edit that made it stale (0: never rebuilt, with
 * PF_ACCEL_EDITS_CHECK the diff alone follows the edits); the rebuilds are made with
 * `edits` (PF_ACCEL_EDITS_CHECK: adopted with their diff against the map at their frame, whatever
 * edits came since the copy). NULL on out of memory. */
cli_adopt *cli_adopt_open(const pf_accel *acc, uint64_t frames, pf_accel_edits edits);
/* Before frame `frame`'s run, after its edits: a rebuild whose frame came is joined (waited for) and
 * adopted for this run when it is of the map's cells now (else dropped), and a rebuild is started
 * when the batch's accelerator is stale and none is under way. Counts the frame as one on JPS when
 * the batch's accelerator is stale for it. 0 with a message on failure. */
int        cli_adopt_frame(cli_adopt *a, pf_batch *b, const pf_map *map, uint64_t frame);
/* After the frame's run: the accelerator it replaced is destroyed. */
void       cli_adopt_after_run(cli_adopt *a);
/* The JSON fields (each preceded by a comma): accel_adopt_frames, accel_rebuilds, accel_adoptions
 * [{copy_frame, frame, wait_ms, build_s}], accel_dropped, accel_jps_frames, accel_edited_frames,
 * accel_copy_us, accel_wait_ms_max. */
void       cli_adopt_json(FILE *f, const cli_adopt *a);
/* Joins a rebuild still under way (its result is dropped) and frees everything. NULL-safe. */
void       cli_adopt_close(cli_adopt *a);

#endif
