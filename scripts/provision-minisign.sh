#!/bin/sh
# Makes sure this machine has the stock `minisign` tool: the signing tests check that svc's
# package signatures verify with it and that its signatures verify in svc. Debian/Ubuntu only;
# a no-op when it is there already.
#
#   sh scripts/provision-minisign.sh        # exit 0: ready; exit 1: say what is missing
set -eu

if command -v minisign >/dev/null 2>&1; then
  echo "minisign: installed"
  exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
  echo "minisign: missing, and this is not a Debian/Ubuntu machine. Install minisign with your package manager." >&2
  exit 1
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "minisign: missing. Install it as root:" >&2
  echo "  sudo apt-get install -y minisign" >&2
  exit 1
fi

echo "minisign: installing"
export DEBIAN_FRONTEND=noninteractive
# The package lists of a fresh container are often empty or stale: update only when needed.
if ! apt-get install -y --no-install-recommends minisign; then
  apt-get update
  apt-get install -y --no-install-recommends minisign
fi
