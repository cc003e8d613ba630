#!/usr/bin/env bash
# Makes sure Debian's Chromium is at /usr/bin/chromium for the browser tests (marketplace, /docs,
# provider consent pages). Idempotent: does nothing when it is there; otherwise installs it the way
# deploy/tools/tools.tsv says (group browser), which prints one line with the time it took, or the
# log's last lines and the retry command, and fails loudly when it cannot.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then
  exit 0
fi
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
bash "$ROOT/deploy/tools/ensure-tools.sh" browser
[ -x /usr/bin/chromium ] || { echo "ensure-chromium: /usr/bin/chromium is still missing after the install" >&2; exit 1; }
