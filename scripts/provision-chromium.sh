#!/bin/sh
# Makes sure this machine has Debian's Chromium for the UI tests (test/ui/), which drive it
# through playwright-core with executablePath: playwright never downloads a browser.
# Debian/Ubuntu only; a no-op when it is there already.
#
#   sh scripts/provision-chromium.sh        # exit 0: ready; exit 1: say what is missing
#
# SVC_CHROMIUM names another Chromium binary (the tests use it too).
set -eu

chromium="${SVC_CHROMIUM:-/usr/bin/chromium}"
if [ -x "$chromium" ]; then
  echo "chromium: $chromium is installed"
  exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
  echo "chromium: $chromium is missing, and this is not a Debian/Ubuntu machine." >&2
  echo "Install Chromium with your package manager and set SVC_CHROMIUM to its binary." >&2
  exit 1
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "chromium: $chromium is missing. Install it as root:" >&2
  echo "  sudo apt-get install -y chromium fonts-dejavu-core" >&2
  exit 1
fi

echo "chromium: installing chromium"
export DEBIAN_FRONTEND=noninteractive
# The package lists of a fresh container are often empty or stale: update only when needed.
if ! apt-get install -y --no-install-recommends chromium fonts-dejavu-core; then
  apt-get update
  apt-get install -y --no-install-recommends chromium fonts-dejavu-core
fi
