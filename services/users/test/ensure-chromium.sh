#!/usr/bin/env bash
# Makes sure Debian's Chromium is at /usr/bin/chromium for the marketplace browser test.
# Idempotent: does nothing when it is there. Installs it with apt-get otherwise (waiting for a
# dpkg lock another install holds) and fails loudly, naming the reason, when it cannot.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "ensure-chromium: /usr/bin/chromium is missing and apt-get is not available to install it" >&2
  exit 1
fi
SUDO=""
if [ "$(id -u)" != "0" ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo -n"; else
    echo "ensure-chromium: /usr/bin/chromium is missing and this user cannot run apt-get (not root, no sudo)" >&2
    exit 1
  fi
fi
export DEBIAN_FRONTEND=noninteractive
echo "ensure-chromium: installing Debian's chromium package…" >&2
$SUDO apt-get -o DPkg::Lock::Timeout=600 update -qq >&2
$SUDO apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends chromium >&2
if [ ! -x /usr/bin/chromium ]; then
  echo "ensure-chromium: apt-get finished but /usr/bin/chromium is still missing" >&2
  exit 1
fi
