#!/bin/sh
# Makes sure this machine can run a real Secret Service for the tests: gnome-keyring (the
# service), dbus (a private session bus, `dbus-run-session`) and libsecret-tools (`secret-tool`,
# handy to look inside by hand). Debian/Ubuntu only; a no-op when everything is there already.
#
#   sh scripts/provision-secret-service.sh        # exit 0: ready; exit 1: say what is missing
#
# It never starts a daemon: the tests start their own session bus and keyring, and end them.
set -eu

missing=""
command -v gnome-keyring-daemon >/dev/null 2>&1 || missing="$missing gnome-keyring"
command -v dbus-run-session >/dev/null 2>&1 || missing="$missing dbus"
command -v dbus-daemon >/dev/null 2>&1 || missing="$missing dbus"
command -v secret-tool >/dev/null 2>&1 || missing="$missing libsecret-tools"

if [ -z "$missing" ]; then
  echo "secret service: gnome-keyring, dbus and secret-tool are installed"
  exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
  echo "secret service: missing$missing, and this is not a Debian/Ubuntu machine." >&2
  echo "Install gnome-keyring, dbus and libsecret-tools with your package manager." >&2
  exit 1
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "secret service: missing$missing. Install them as root:" >&2
  echo "  sudo apt-get install -y gnome-keyring dbus libsecret-tools" >&2
  exit 1
fi

echo "secret service: installing gnome-keyring dbus libsecret-tools"
export DEBIAN_FRONTEND=noninteractive
# The package lists of a fresh container are often empty or stale: update only when needed.
if ! apt-get install -y --no-install-recommends gnome-keyring dbus libsecret-tools; then
  apt-get update
  apt-get install -y --no-install-recommends gnome-keyring dbus libsecret-tools
fi
