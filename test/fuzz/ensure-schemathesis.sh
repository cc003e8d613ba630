#!/usr/bin/env bash
# Makes sure schemathesis (PyPI, pinned) is installed in a cached virtualenv and prints the path of
# its command. Idempotent: reuses the virtualenv when the pinned version is there. Needs Python 3
# with pip; fails loudly, naming the reason, when it cannot install.
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
mkdir -p "$CACHE"
# A marker written last tells a complete install from one that was interrupted.
echo "ensure-schemathesis: installing schemathesis $VERSION from PyPI into $VENV…" >&2
rm -rf "$VENV"
if ! "$PY" -m venv "$VENV" >&2; then
  echo "ensure-schemathesis: 'python3 -m venv' failed (Debian: apt-get install python3-venv)" >&2
  exit 1
fi
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check "schemathesis==$VERSION" >&2
touch "$VENV/.complete"
echo "$BIN"
