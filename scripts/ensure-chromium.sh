#!/usr/bin/env bash
# Makes sure Debian's Chromium is installed at /usr/bin/chromium: the console's end-to-end tests drive
# it through playwright-core (which downloads no browser of its own). Quiet when it is already there.
# CHROMIUM_PATH points the tests at another binary; then nothing is installed.
set -euo pipefail
bin="${CHROMIUM_PATH:-/usr/bin/chromium}"
[ -x "$bin" ] && exit 0
if [ -n "${CHROMIUM_PATH:-}" ]; then echo "CHROMIUM_PATH=$bin is not an executable" >&2; exit 1; fi
if ! command -v apt-get >/dev/null; then echo "no $bin and no apt-get: install Chromium and set CHROMIUM_PATH" >&2; exit 1; fi
sudo=""
[ "$(id -u)" = 0 ] || sudo="sudo"
echo "installing chromium (apt)…"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq >/dev/null
$sudo apt-get install -y -qq --no-install-recommends chromium >/dev/null
[ -x "$bin" ] || { echo "chromium installed but $bin is missing" >&2; exit 1; }
