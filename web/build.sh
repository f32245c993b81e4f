#!/bin/sh
# Builds the browser demo into OUT (default build/web): the library's C sources and web/pf_web.c
# compiled to WebAssembly by emscripten (Debian 12: 3.1.6), the page, and the bundled maps.
# Serve OUT with any static file host, e.g. `python3 -m http.server -d build/web 8000`.
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-"$src/build/web"}
mkdir -p "$out/maps"
out=$(cd "$out" && pwd)
. "$src/web/emcc_env.sh"
funcs=$(grep -o '^KEEP [^(]*(' "$src/web/pf_web.c" | sed 's/.*[ *]\([a-z_0-9]*\)($/_\1/' | paste -sd, -)
pf_emcc "$src/web/pf_web.c" "$src/cli/status_word.c" \
    -sALLOW_MEMORY_GROWTH=1 -sMAXIMUM_MEMORY=2GB -sMODULARIZE=1 -sEXPORT_NAME=createPathfind \
    -sEXPORTED_FUNCTIONS="$funcs,_malloc,_free" \
    -sEXPORTED_RUNTIME_METHODS=ccall,UTF8ToString,stringToUTF8,lengthBytesUTF8 \
    -o "$out/pathfind.js"
cp "$src/web/index.html" "$src/web/demo.js" "$out/"
cp "$src"/maps/*.map "$out/maps/"
ls "$src"/maps/*.map | sed 's|.*/||' > "$out/maps/index.txt"
echo "web/build.sh: built $out (open it through a static file host)"
