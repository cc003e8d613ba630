#!/usr/bin/env bash
# Makes sure schemathesis (PyPI, pinned) is installed in a cached virtualenv and prints the path of
# its command. Idempotent: reuses the virtualenv when the pinned version is there. Needs Python 3
# with pip; fails loudly, naming the reason, when it cannot install.
# Quiet: pip's output goes to .wellstream/logs/schemathesis-install.log (WELLSTREAM_LOG_DIR); the
# terminal gets one line with the time it took, or the log's last lines and the retry command.
set -euo pipefail
VERSION=4.32.5
CACHE="${WELLSTREAM_CACHE_DIR:-$HOME/.cache/wellstream}"
VENV="$CACHE/schemathesis-$VERSION"
BIN="$VENV/bin/schemathesis"
if [ -f "$VENV/.complete" ] && [ -x "$BIN" ] && "$VENV/bin/python" -c "import schemathesis, sys; sys.exit(schemathesis.__version__ != '$VERSION')" 2>/dev/null; then
  echo "$BIN"
  exit 0
fi
PY="$(command -v python3 || true)"
if [ -z "$PY" ]; then
  echo "ensure-schemathesis: python3 is not installed (the OpenAPI fuzzer needs Python 3 with pip)" >&2
  exit 1
fi
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
LOG_DIR="${WELLSTREAM_LOG_DIR:-$ROOT/.wellstream/logs}"
mkdir -p "$CACHE" "$LOG_DIR"
LOG="$LOG_DIR/schemathesis-install.log"
fail() {
  echo "FAILED ($((SECONDS - started)) s)" >&2
  echo "ensure-schemathesis: $1; last lines of $LOG:" >&2
  tail -n 40 "$LOG" | sed 's/^/  | /' >&2
  echo "ensure-schemathesis: retry: bash $0" >&2
  exit 1
}
started=$SECONDS
printf '[wellstream] installing schemathesis %s from PyPI into %s (about 20 s) … ' "$VERSION" "$VENV" >&2
# A marker written last tells a complete install from one that was interrupted.
rm -rf "$VENV"
"$PY" -m venv "$VENV" > "$LOG" 2>&1 || fail "'python3 -m venv' failed (Debian: apt-get install python3-venv)"
"$VENV/bin/python" -m pip install --disable-pip-version-check "schemathesis==$VERSION" >> "$LOG" 2>&1 || fail "pip could not install schemathesis $VERSION"
touch "$VENV/.complete"
echo "done ($((SECONDS - started)) s)" >&2
echo "$BIN"
