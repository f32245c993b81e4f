#!/usr/bin/env bash
# tools/fuzz.sh - build the libFuzzer targets (preset `fuzz`: clang, ASan+UBSan) and run each for a
# bounded time. Used by .ci/run as `tools/fuzz.sh 60`.
#
#   tools/fuzz.sh [SECONDS] [TARGET...]      SECONDS per target (default 60); TARGET: movingai scen
#                                            dimacs search ... (default: every tests/fuzz/fuzz_*.c)
#
# Longer runs: give more seconds, several workers, or no limit at all, e.g.
#   tools/fuzz.sh 3600                       one hour per target
#   FUZZ_JOBS=4 tools/fuzz.sh 7200 search    four parallel workers on one target for two hours
#   tools/fuzz.sh 0 dimacs                   until interrupted (Ctrl-C still prints the totals)
# Extra libFuzzer flags go in FUZZ_FLAGS (e.g. FUZZ_FLAGS="-use_value_profile=1 -max_len=8192").
#
# The working corpus lives in build/fuzz/corpus/<target> and grows from run to run; the checked-in
# seeds in tests/fuzz/corpus/<target> are only read. A crash leaves its input in
# build/fuzz/artifacts/<target>/ and makes the script exit 1. Fix the bug, then copy the input to
# tests/fuzz/corpus/<target>/ under a descriptive name: ctest replays it from then on (fuzz_<target>).
# Reproduce one input: build/fuzz/tests/fuzz/fuzz_<target> FILE (or regression_<target> FILE in any
# build).
set -uo pipefail
cd "$(dirname "$0")/.."

secs=${1:-60}
shift || true
build=${FUZZ_BUILD_DIR:-build/fuzz}
jobs=${FUZZ_JOBS:-1}

if ! command -v clang >/dev/null 2>&1; then
    echo "fuzz.sh: clang not found; skipping the fuzz runs (Debian: apt-get install clang libclang-rt-dev)"
    exit 0
fi

if [ "$build" = build/fuzz ]; then
    cmake --preset fuzz >/dev/null || exit 1
else
    cmake -S . -B "$build" -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=Debug -DPF_WERROR=ON \
          -DPF_BUILD_FUZZERS=ON -DPF_SANITIZE=address,undefined >/dev/null || exit 1
fi
cmake --build "$build" -j"$(nproc 2>/dev/null || echo 2)" >/dev/null || exit 1

targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    for f in tests/fuzz/fuzz_*.c; do
        t=${f##*/fuzz_}
        targets+=("${t%.c}")
    done
fi

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
# libomp's own blocks (see the file); nothing of pathfind's is suppressed
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/tests/fuzz/lsan.supp:print_suppressions=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

status=0
summary=()
for t in "${targets[@]}"; do
    bin=$build/tests/fuzz/fuzz_$t
    if [ ! -x "$bin" ]; then
        echo "fuzz.sh: no target '$t' ($bin)"
        status=1
        continue
    fi
    work=$build/corpus/$t
    art=$build/artifacts/$t
    log=$build/fuzz-$t.log
    mkdir -p "$work" "$art"
    dict=()
    [ -f "tests/fuzz/$t.dict" ] && dict=(-dict="tests/fuzz/$t.dict")
    par=()
    [ "$jobs" -gt 1 ] && par=(-jobs="$jobs" -workers="$jobs")
    echo "fuzz.sh: $t for ${secs}s (log: $log)"
    # new inputs go to the first directory; the checked-in seeds are read only
    # shellcheck disable=SC2086
    "$bin" -max_total_time="$secs" -print_final_stats=1 -timeout=30 -rss_limit_mb=2048 \
        -artifact_prefix="$art/" "${dict[@]}" "${par[@]}" ${FUZZ_FLAGS:-} \
        "$work" "tests/fuzz/corpus/$t" >"$log" 2>&1
    rc=$?
    if [ "$jobs" -gt 1 ]; then cat fuzz-*.log >>"$log" 2>/dev/null && rm -f fuzz-*.log; fi
    execs=$(grep -h 'stat::number_of_executed_units' "$log" | awk '{s += $2} END {print s + 0}')
    crashes=$(find "$art" -type f \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \) | wc -l)
    corpus=$(find "$work" -type f | wc -l)
    summary+=("$(printf '%-10s %12s execs  %5s corpus files  %3s crash/leak/timeout/oom inputs  exit %s' \
        "$t" "$execs" "$corpus" "$crashes" "$rc")")
    if [ $rc -ne 0 ] || [ "$crashes" -ne 0 ]; then
        status=1
        echo "fuzz.sh: $t FAILED; tail of $log:"
        tail -n 40 "$log"
        find "$art" -type f | sed 's/^/  artifact: /'
    fi
done

echo "fuzz.sh summary (${secs}s per target):"
printf '  %s\n' "${summary[@]}"
exit $status
