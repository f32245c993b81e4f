#!/usr/bin/env bash
# examples/consumer/check.sh BUILD_DIR - installs the pathfind build in BUILD_DIR into a scratch
# prefix and builds this consumer against the installation four ways: CMake's find_package for the
# shared library and for the static one (COMPONENTS static), and pkg-config for each
# (`pkg-config --cflags --libs pathfind`; `--static` with the archive). Every program must run and
# agree with itself (main.c). The shared consumer's CMake cache must show that nothing looked for
# pkg-config, xxHash or OpenMP: those are the static library's dependencies only. It also checks
# what a packager or a game meets: the static library's OpenMP reaches the consumer's link line, never
# its compile lines; a C++-only project (cxx/) finds the static library; `pkg-config pathfind` for the
# shared library needs no libxxhash.pc; the .pc file's prefix holds when the libdir is two levels
# deep (lib/x86_64-linux-gnu, as Debian's /usr has it); and the installed `pathfind demo` finds the
# installed map.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:?usage: examples/consumer/check.sh BUILD_DIR}
cc=${CC:-cc}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix=$(cd "$work" && pwd -P)/prefix   # the real path: `pathfind demo` names its map by it

cmake --install "$build" --prefix "$prefix" >/dev/null
pc=$(find "$prefix" -name pathfind.pc)
[ -n "$pc" ] || { echo "check.sh: no pathfind.pc installed under $prefix" >&2; exit 1; }
libdir=$(dirname "$(dirname "$pc")")
fail=0

for kind in shared static; do
    static=OFF
    [ $kind = static ] && static=ON
    echo "== CMake, $kind"
    cmake -S "$here" -B "$work/cmake-$kind" -DCMAKE_PREFIX_PATH="$prefix" -DCONSUMER_STATIC=$static \
          -DCMAKE_C_COMPILER="$cc" -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >"$work/cmake-$kind.log" 2>&1 || { cat "$work/cmake-$kind.log"; exit 1; }
    cmake --build "$work/cmake-$kind" >>"$work/cmake-$kind.log" 2>&1 || { cat "$work/cmake-$kind.log"; exit 1; }
    "$work/cmake-$kind/consumer" || fail=1
done
if grep -E '^(PKG_CONFIG|XXHASH|OpenMP)[A-Za-z_]*:' "$work/cmake-shared/CMakeCache.txt"; then
    echo "check.sh: find_package(pathfind) for the shared library searched for the lines above" >&2
    fail=1
fi
# The static library's dependencies are link-only: OpenMP's -fopenmp on the consumer's own sources
# would turn on every `#pragma omp` in the game's code.
if grep -q -- '-fopenmp' "$work/cmake-static/compile_commands.json"; then
    echo "check.sh: linking pathfind::pathfind_static compiles the consumer's own sources with -fopenmp" >&2
    fail=1
fi
echo "== CMake, static, C++ only (no C enabled)"
if cmake -S "$here/cxx" -B "$work/cmake-cxx" -DCMAKE_PREFIX_PATH="$prefix" >"$work/cmake-cxx.log" 2>&1 &&
   cmake --build "$work/cmake-cxx" >>"$work/cmake-cxx.log" 2>&1; then
    "$work/cmake-cxx/consumer_cxx" || fail=1
else
    cat "$work/cmake-cxx.log"
    echo "check.sh: a C++-only project cannot find_package(pathfind COMPONENTS static)" >&2
    fail=1
fi
if ! readelf -d "$work/cmake-shared/consumer" | grep -q 'NEEDED.*libpathfind\.so'; then
    echo "check.sh: the shared CMake consumer does not link libpathfind.so" >&2
    fail=1
fi
if readelf -d "$work/cmake-static/consumer" | grep -q 'NEEDED.*libpathfind\.so'; then
    echo "check.sh: the static CMake consumer links libpathfind.so" >&2
    fail=1
fi

# The shared library through pkg-config on a machine without libxxhash-dev: no libxxhash.pc (only
# pathfind.pc is on the search path here); the public headers never include xxhash.h.
if ! PKG_CONFIG_LIBDIR="$libdir/pkgconfig" pkg-config --cflags --libs pathfind >/dev/null; then
    echo "check.sh: pkg-config pathfind (shared) fails without libxxhash.pc" >&2
    fail=1
fi
# The .pc file finds its prefix from where it lies: here, and in a libdir two levels deep (Debian's
# lib/x86_64-linux-gnu); configured only (nothing built), placed, and asked where the headers are.
pc_includedir() { realpath -m "$(PKG_CONFIG_LIBDIR="$1" pkg-config --variable=includedir pathfind)"; }
if [ "$(pc_includedir "$libdir/pkgconfig")" != "$prefix/include" ]; then
    echo "check.sh: pathfind.pc's includedir is $(pc_includedir "$libdir/pkgconfig"), not $prefix/include" >&2
    fail=1
fi
cmake -S "$here/../.." -B "$work/deep" -DCMAKE_INSTALL_LIBDIR=lib/x86_64-linux-gnu -DPF_BUILD_CLI=OFF \
      -DPF_BUILD_TESTS=OFF -DPF_BUILD_BENCH=OFF -DPF_BUILD_EXAMPLES=OFF >"$work/deep.log" 2>&1 ||
    { cat "$work/deep.log"; exit 1; }
mkdir -p "$work/deep-prefix/lib/x86_64-linux-gnu/pkgconfig"
cp "$work/deep/pathfind.pc" "$work/deep-prefix/lib/x86_64-linux-gnu/pkgconfig/"
got=$(pc_includedir "$work/deep-prefix/lib/x86_64-linux-gnu/pkgconfig")
if [ "$got" != "$work/deep-prefix/include" ]; then
    echo "check.sh: with CMAKE_INSTALL_LIBDIR=lib/x86_64-linux-gnu, pathfind.pc's includedir is $got" >&2
    fail=1
fi

export PKG_CONFIG_PATH="$libdir/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
echo "== pkg-config, shared: $(pkg-config --cflags --libs pathfind)"
# shellcheck disable=SC2046
"$cc" -std=c11 -o "$work/pc-shared" "$here/main.c" $(pkg-config --cflags --libs pathfind)
# LD_LIBRARY_PATH: the scratch prefix is no directory the dynamic loader searches. An install into
# /usr/local/lib is one, but found through ld.so.cache: after `cmake --install`, run `ldconfig` (as
# root) before such a program starts (README, docs/embedding.md).
LD_LIBRARY_PATH="$libdir" "$work/pc-shared" || fail=1
# --static adds Libs.private (xxHash, libm, pthreads, OpenMP); the archive replaces
# -lpathfind (the linker would pick the shared library beside it)
static_libs=$(pkg-config --static --libs pathfind | sed "s|-lpathfind\b|$libdir/libpathfind.a|")
echo "== pkg-config, static: $static_libs"
# shellcheck disable=SC2046,SC2086
"$cc" -std=c11 -o "$work/pc-static" "$here/main.c" $(pkg-config --cflags pathfind) $static_libs
"$work/pc-static" || fail=1

# The installed tool's demo reads the installed map, whatever the directory and wherever the sources are.
if [ -x "$prefix/bin/pathfind" ]; then
    echo "== installed pathfind demo"
    if ! (cd "$work" && "$prefix/bin/pathfind" demo --queries 20 >"$work/demo.out" 2>&1) ||
       ! grep -q "^map .*$prefix/bin/\.\./share/pathfind/demo-512\.map" "$work/demo.out"; then
        cat "$work/demo.out"
        echo "check.sh: the installed 'pathfind demo' does not read the installed map" >&2
        fail=1
    fi
fi

# Vendored in an engine's tree (add_subdirectory), on a machine without libpng's headers: the
# library alone is built (no tool, tests, benchmarks or examples), as strict ISO C11
# (-pedantic-errors: no compiler extension but the builtins), and the engine links it.
echo "== add_subdirectory, libpng disabled, -std=c11 -pedantic-errors"
cmake -S "$here/../embed" -B "$work/embed" -DCMAKE_C_COMPILER="$cc" -DCMAKE_DISABLE_FIND_PACKAGE_PNG=ON \
      "-DCMAKE_C_FLAGS=-std=c11 -pedantic-errors" >"$work/embed.log" 2>&1 || { cat "$work/embed.log"; exit 1; }
cmake --build "$work/embed" >>"$work/embed.log" 2>&1 || { cat "$work/embed.log"; exit 1; }
"$work/embed/engine" || fail=1
for t in pathfind_cli pf_cli test_smoke bench_astar example_quickstart; do
    if cmake --build "$work/embed" --target help | grep -qw "$t"; then
        echo "check.sh: add_subdirectory builds $t: an engine should get the library alone" >&2
        fail=1
    fi
done

[ $fail = 0 ] && echo "check.sh: the consumer builds and runs against the installed package (CMake and pkg-config, shared and static, C++ only), vendored with add_subdirectory, and the installed demo finds its map"
exit $fail
