/* status_word.c - cli_status_word: the one table (status_word.h). Built into the CLI and, by
 * web/build.sh, into the browser demo. */
#include "status_word.h"

const char *cli_status_word(pf_status s)
{
    switch (s) {
    case PF_OK: return "ok";
    case PF_NO_PATH: return "no_path";
    case PF_PARTIAL: return "partial";
    case PF_LIMIT_REACHED: return "limit";
    case PF_INVALID_START: case PF_INVALID_GOAL: case PF_INVALID_ARGUMENT: return "invalid";
    case PF_OUT_OF_MEMORY: return "oom";
    case PF_COST_OVERFLOW: return "overflow";
    case PF_CANCELLED: return "cancelled";   /* a batch's order cancelled (pf_batch_cancel) */
    case PF_SUPERSEDED: return "superseded"; /* replaced by a newer order for the same unit */
    case PF_IN_PROGRESS: return "pending";   /* not answered yet */
    default: return "error";
    }
}
