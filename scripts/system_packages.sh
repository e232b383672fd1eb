#!/usr/bin/env bash
# The system packages `make test` needs besides Python and Node: Chromium's headless shell for the
# browser tests (testing/chromium.py) and systemd-analyze, which checks deploy/'s units. Missing ones
# are installed from Debian's packages when this user may (root, or sudo without a password);
# otherwise it stops at once and says what to run.
set -euo pipefail

missing=()
command -v chromium-headless-shell >/dev/null 2>&1 || missing+=(chromium-headless-shell)
command -v systemd-analyze >/dev/null 2>&1 || missing+=(systemd)
[ ${#missing[@]} -eq 0 ] && exit 0

install="apt-get install -y ${missing[*]}"
as_root=""  # how to become root: "" (already), "sudo", or "no" (cannot)
if ! command -v apt-get >/dev/null 2>&1; then
  as_root=no
elif [ "$(id -u)" -ne 0 ]; then
  as_root=no
  command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null && as_root=sudo
fi
if [ "$as_root" = no ]; then
  echo "The tests need ${missing[*]}, which this machine lacks. Install it, then run make test again:" >&2
  echo "    sudo $install" >&2
  exit 1
fi
echo "Installing ${missing[*]} from Debian's packages (the tests need it)…" >&2
export DEBIAN_FRONTEND=noninteractive
$as_root apt-get update -qq
$as_root apt-get install -y -qq "${missing[@]}" >/dev/null
