/* dispatch.c - the pathfind command-line tool: the subcommand table and the dispatch to it. */
#include <string.h>
#include "cli.h"

typedef struct cmd { const char *name; int (*fn)(int, char **); const char *summary; } cmd;

static const cmd CMDS[] = {
    {"demo", pf_cli_demo, "run the main job on the bundled default map"},
    {"scen", pf_cli_scen, "solve a Moving AI scenario file and check the optimal lengths"},
    {"graph", pf_cli_graph, "solve s-t pairs on a DIMACS road graph"},
    {"path", pf_cli_path, "find one path on a grid map and print it"},
    {"gen", pf_cli_gen, "generate a map (how the bundled default map was made)"},
    {"render", pf_cli_render, "draw searches on a map as a PNG (expanded cells, paths)"},
    {"bench", pf_cli_bench, "time algorithms and thread counts on a scenario file (JSON, --plot)"},
    {"plot", pf_cli_plot, "plot benchmark results (JSON/CSV) as PNGs with gnuplot"},
    {"table", pf_cli_table, "build, query and incrementally update baked first-move tables"},
    {"edit", pf_cli_edit, "apply rectangle edits (buildings, walls) to a map and write it"},
    {"prep", pf_cli_prep, "bake the long-query accelerator of a map (for --algo auto --prep FILE)"},
    {"replay", pf_cli_replay, "replay an RTS order log frame by frame through a batch (CSV, JSON)"},
};

static void usage(FILE *f)
{
    fprintf(f, "usage: pathfind COMMAND [ARGS...]   (pathfind COMMAND --help for details)\n\ncommands:\n");
    for (size_t i = 0; i < sizeof CMDS / sizeof CMDS[0]; i++) fprintf(f, "  %-7s %s\n", CMDS[i].name, CMDS[i].summary);
    fprintf(f, "\npathfind %s\n", PF_VERSION_STRING);
}

int pf_cli_main(int argc, char **argv)
{
    if (argc < 2 || cli_is_help(argv[1])) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("pathfind %s\n", PF_VERSION_STRING);
        return 0;
    }
    for (size_t i = 0; i < sizeof CMDS / sizeof CMDS[0]; i++)
        if (strcmp(argv[1], CMDS[i].name) == 0)
            return cli_repeated_option(CMDS[i].name, argc - 1, argv + 1) ? 2 : CMDS[i].fn(argc - 1, argv + 1);
    cli_error("", "unknown command '%s'", argv[1]);
    fputc('\n', stderr);
    usage(stderr);
    return 2;
}
