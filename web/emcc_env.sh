# Sourced by web/build.sh and web/test_wasm32.sh with src (the checkout) and out (a folder of the
# build) set: readies emcc and names the flags and sources of the library's WebAssembly build.
command -v emcc >/dev/null 2>&1 || { echo "web: emcc not found (sh tools/deps.sh installs emscripten)" >&2; exit 127; }
mkdir -p "$out/include"
# Debian's emcc runs its JS tools with the system node, whose module path may lack Debian's own
# node packages (acorn) when node comes from elsewhere (nodesource): name their folder.
export NODE_PATH="${NODE_PATH:+$NODE_PATH:}/usr/share/nodejs"
# Debian ships emscripten's system libraries prebuilt in a frozen cache under /usr/share (emcc never
# builds or writes there: FROZEN_CACHE in /usr/share/emscripten/.emscripten). emcc still locks the
# cache's cache.lock, which a user other than root cannot write: the cache it is given (EM_CACHE) is a
# folder of the build whose entries link to Debian's, with a lock file of its own.
if [ -z "${EM_CACHE:-}" ]; then
    EM_CACHE="$out/em-cache"
    sys=/usr/share/emscripten/cache
    if [ ! -e "$EM_CACHE/cache.lock" ] && [ -d "$sys" ]; then
        mkdir -p "$EM_CACHE"
        for e in "$sys"/*; do
            [ "${e##*/}" = cache.lock ] || ln -sfn "$e" "$EM_CACHE/${e##*/}"
        done
        : >"$EM_CACHE/cache.lock"
    fi
fi
export EM_CACHE
# xxHash is header-only here: the library's .c files include <xxhash.h>; the one copy of its
# functions is web/xxhash_impl.c. A private include folder keeps the host's /usr/include out of emcc.
xx=${PF_XXHASH_H:-/usr/include/xxhash.h}
[ -f "$xx" ] || { echo "web: $xx not found (libxxhash-dev)" >&2; exit 1; }
cp "$xx" "$out/include/xxhash.h"
# pf_emcc ARGS...: emcc on the library's sources (and web/xxhash_impl.c) with the flags of its
# WebAssembly build, then ARGS (more sources, link flags, -o). The library sees the experimental
# tier (pf_export.h, TIERS), as CMake builds do.
pf_emcc() {
    emcc -std=c11 -O2 -Wall -Wextra -Werror -ffp-contract=off -DPF_EXPERIMENTAL_API \
        -I"$out/include" -I"$src/include" -I"$src/core/include" -I"$src/core/include/pathfind" \
        -I"$src/batch/include" -I"$src/batch/include/pathfind" \
        -I"$src/core/src" -I"$src/core/internal" -I"$src/batch/src" \
        "$src"/core/src/*/*.c "$src"/batch/src/*.c "$src/web/xxhash_impl.c" "$@"
}
