/* main.c - the pathfind executable: the tool lives in the pf_cli library (dispatch.c). */
#include "cli.h"

int main(int argc, char **argv) { return cli_close_stdout(pf_cli_main(argc, argv)); }
