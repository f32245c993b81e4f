#!/usr/bin/env bash
# tools/partial_callgrind.sh - partial queries against a plain A* to the cell each returned, by
# instructions: runs bench/bench_partial_callgrind under callgrind, one map at a time, and passes
# its JSON through (one object per map and move rule: clicks, over2, worst_ratio, sum_ratio...).
# These are the counts of docs/units.md's table of partial answers.
#
#   tools/partial_callgrind.sh [MAP...]     default: the Moving AI maps of that table, in
#                                           ../shared/data/movingai (about a minute each)
#   PF_BUILD_DIR=build/release tools/partial_callgrind.sh ...    another build (default: build)
#   PF_CLICKS=200 PF_RADIUS=64              clicks per move rule, and how far the start may be
#
# Needs valgrind (Debian: apt-get install valgrind) when it runs, and its headers when the bench is
# built: configure after installing it. Nothing in CI runs this.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${PF_BUILD_DIR:-$root/build}
bin=$build/bench/bench_partial_callgrind
data=${PF_SHARED_DATA:-$root/../shared/data}
[ -d "$data" ] && data=$(cd "$data" && pwd)

if ! command -v valgrind >/dev/null 2>&1; then
    echo "partial_callgrind.sh: valgrind not found (Debian: apt-get install valgrind)" >&2
    exit 2
fi
if [ ! -x "$bin" ]; then
    echo "partial_callgrind.sh: no $bin (configure $build after installing valgrind, then build" \
         "target bench_partial_callgrind; or set PF_BUILD_DIR)" >&2
    exit 2
fi
if [ $# -eq 0 ]; then
    set --
    for m in 8room_000 AR0011SR Berlin_0_1024 TheFrozenSea den520d maze512-1-0 nighthaven orz700d \
             random512-10-0; do
        set -- "$@" "$data/movingai/$m.map"
    done
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for map in "$@"; do
    # The bench reads each dump (PREFIX.1, PREFIX.2, ...) back as soon as callgrind writes it;
    # --dump-instr=no keeps the files to per-function totals.
    if ! valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" --dump-instr=no \
            "$bin" --out "$tmp/cg.out" "$map" "${PF_CLICKS:-200}" "${PF_RADIUS:-64}" 2>"$tmp/vg.err"; then
        cat "$tmp/vg.err" >&2
        exit 1
    fi
    rm -f "$tmp"/cg.out*
done
