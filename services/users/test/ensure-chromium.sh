#!/usr/bin/env bash
# Makes sure Debian's Chromium is at /usr/bin/chromium for the browser tests (marketplace, /docs).
# Idempotent: does nothing when it is there. Installs it with apt-get otherwise (waiting for a
# dpkg lock another install holds) and fails loudly, naming the reason, when it cannot.
# Quiet: apt's output goes to .wellstream/logs/chromium-install.log (WELLSTREAM_LOG_DIR); the
# terminal gets one line with the time it took, or the log's last lines and the retry command.
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
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
LOG_DIR="${WELLSTREAM_LOG_DIR:-$ROOT/.wellstream/logs}"
mkdir -p "$LOG_DIR"
LOG="$LOG_DIR/chromium-install.log"
export DEBIAN_FRONTEND=noninteractive
started=$SECONDS
printf '[wellstream] installing Chromium for the browser tests (apt-get, about a minute) … ' >&2
if ! { $SUDO apt-get -o DPkg::Lock::Timeout=600 update -qq \
       && $SUDO apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends chromium; } > "$LOG" 2>&1 \
   || [ ! -x /usr/bin/chromium ]; then
  echo "FAILED ($((SECONDS - started)) s)" >&2
  echo "ensure-chromium: apt-get could not install chromium (or /usr/bin/chromium is still missing); last lines of $LOG:" >&2
  tail -n 40 "$LOG" | sed 's/^/  | /' >&2
  echo "ensure-chromium: retry: bash $0" >&2
  exit 1
fi
echo "done ($((SECONDS - started)) s)" >&2
