#!/bin/sh
# Builds the browser demo into OUT (default build/web): the library's C sources and web/pf_web.c
# compiled to WebAssembly by emscripten (Debian 12: 3.1.6), the page, and the bundled maps.
# Serve OUT with any static file host, e.g. `python3 -m http.server -d build/web 8000`.
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-"$src/build/web"}
command -v emcc >/dev/null 2>&1 || { echo "web/build.sh: emcc not found (sh tools/deps.sh installs emscripten)" >&2; exit 127; }
mkdir -p "$out/maps" "$out/include"
out=$(cd "$out" && pwd)
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
[ -f "$xx" ] || { echo "web/build.sh: $xx not found (libxxhash-dev)" >&2; exit 1; }
cp "$xx" "$out/include/xxhash.h"
funcs=$(grep -o '^KEEP [^(]*(' "$src/web/pf_web.c" | sed 's/.*[ *]\([a-z_0-9]*\)($/_\1/' | paste -sd, -)
# the library and the glue see the experimental tier (pf_export.h, TIERS), as CMake builds do
emcc -std=c11 -O2 -Wall -Wextra -Werror -ffp-contract=off -DPF_EXPERIMENTAL_API \
    -I"$out/include" -I"$src/include" -I"$src/core/include" -I"$src/core/include/pathfind" \
    -I"$src/batch/include" -I"$src/batch/include/pathfind" \
    -I"$src/core/src" -I"$src/core/internal" -I"$src/batch/src" \
    "$src"/core/src/*/*.c "$src"/batch/src/*.c "$src/web/xxhash_impl.c" "$src/web/pf_web.c" \
    -sALLOW_MEMORY_GROWTH=1 -sMAXIMUM_MEMORY=2GB -sMODULARIZE=1 -sEXPORT_NAME=createPathfind \
    -sEXPORTED_FUNCTIONS="$funcs,_malloc,_free" \
    -sEXPORTED_RUNTIME_METHODS=ccall,UTF8ToString,stringToUTF8,lengthBytesUTF8 \
    -o "$out/pathfind.js"
cp "$src/web/index.html" "$src/web/demo.js" "$out/"
cp "$src"/maps/*.map "$out/maps/"
ls "$src"/maps/*.map | sed 's|.*/||' > "$out/maps/index.txt"
echo "web/build.sh: built $out (open it through a static file host)"
