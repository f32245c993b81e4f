#!/bin/sh
# Installs the Debian 12 packages pathfind needs to build and test (idempotent; needs root or sudo).
# Skips apt entirely when everything is already there, so it is cheap to run before every build.
set -e
# The browser demo's test (ctest label `browser`, web/) adds emscripten (it pulls in nodejs: Debian's
# 18, or any nodejs already installed, such as nodesource's, which it accepts and keeps) and
# chromium, driven headless through the DevTools protocol by node alone: no npm package. locales:
# localedef, for the test that loads a .scen under a comma-decimal locale (test_parse_scen).
PKGS="build-essential cmake pkg-config locales libxxhash-dev libcmocka-dev libpng-dev libgif-dev gnuplot-nox clang libclang-rt-14-dev libomp-dev emscripten nodejs chromium"
missing=""
for p in $PKGS; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
SUDO=""
[ "$(id -u)" = 0 ] || SUDO="sudo"
echo "tools/deps.sh: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
