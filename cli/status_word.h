/* status_word.h - the word a status is written as in the CLI's CSV and JSON output ("ok",
 * "no_path", ...), and in the browser demo (web/pf_web.c), whose orders are checked against
 * `pathfind replay`'s CSV: one table for both. */
#ifndef PF_CLI_STATUS_WORD_H
#define PF_CLI_STATUS_WORD_H

#include "pathfind.h"

/* Every status has its word; the ones no command writes yet ("error") are the library's errors. */
const char *cli_status_word(pf_status s);

#endif
