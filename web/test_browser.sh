#!/bin/sh
# ctest `browser`: builds the WebAssembly page into BUILD/web and runs web/test_browser.js on it in
# headless Chromium against the native tool PATHFIND. Exit 77 (SKIP_RETURN_CODE) when emcc,
# Chromium or node is missing: a skip, never a pass (sh tools/deps.sh installs them); with
# PF_BROWSER_REQUIRED=1 (CI) a missing tool fails the test instead.
#   web/test_browser.sh BUILD_DIR PATHFIND
set -eu
skip() {
    if [ "${PF_BROWSER_REQUIRED:-0}" = 1 ]; then echo "FAILED (PF_BROWSER_REQUIRED=1): $1"; exit 1; fi
    echo "SKIPPED: $1"
    exit 77
}
src=$(cd "$(dirname "$0")/.." && pwd)
build=$1
pathfind=$2
chromium=${PF_CHROMIUM:-}
if [ -z "$chromium" ]; then
    for c in chromium chromium-browser google-chrome; do
        if command -v "$c" >/dev/null 2>&1; then chromium=$(command -v "$c"); break; fi
    done
fi
for need in emcc node; do
    command -v "$need" >/dev/null 2>&1 || skip "$need not found (sh tools/deps.sh installs it)"
done
[ -n "$chromium" ] || skip "no Chromium found (sh tools/deps.sh installs Debian's chromium)"
t0=$(date +%s)
sh "$src/web/build.sh" "$build/web"
echo "test_browser.sh: page built in $(( $(date +%s) - t0 )) s"
exec node "$src/web/test_browser.js" --page "$build/web" --pathfind "$pathfind" --out "$build/browser-test" \
    --chromium "$chromium"
