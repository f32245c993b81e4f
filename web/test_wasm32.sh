#!/bin/sh
# ctest `wasm32`: builds web/wasm32_check.c with the library for WebAssembly (32-bit: the browser
# demo's target) into BUILD/wasm32 and runs it with node. Exit 77 (SKIP_RETURN_CODE) when emcc or
# node is missing: a skip, never a pass (sh tools/deps.sh installs them); with PF_BROWSER_REQUIRED=1
# (CI) a missing tool fails the test instead.
#   web/test_wasm32.sh BUILD_DIR
set -eu
for need in emcc node; do
    if ! command -v "$need" >/dev/null 2>&1; then
        if [ "${PF_BROWSER_REQUIRED:-0}" = 1 ]; then echo "FAILED (PF_BROWSER_REQUIRED=1): $need not found"; exit 1; fi
        echo "SKIPPED: $need not found (sh tools/deps.sh installs it)"
        exit 77
    fi
done
src=$(cd "$(dirname "$0")/.." && pwd)
out=$1/wasm32
mkdir -p "$out"
out=$(cd "$out" && pwd)
. "$src/web/emcc_env.sh"
pf_emcc "$src/web/wasm32_check.c" -sALLOW_MEMORY_GROWTH=1 -sMAXIMUM_MEMORY=2GB -o "$out/wasm32_check.js"
# emscripten 3.1.6 fetches its .wasm by URL where node has fetch (18 and later): read it as a file
exec node --no-experimental-fetch "$out/wasm32_check.js"
