#!/usr/bin/env bash
# Does FerretDB v1.24.2 use indexes on its PostgreSQL backend? Starts a private PostgreSQL cluster
# (Debian's postgresql package; initdb + pg_ctl on a free loopback port, as the `postgres` user
# when run as root, since PostgreSQL refuses to run as root) and FerretDB on it, and beside it
# FerretDB on SQLite (what servers.sh runs), then runs ferretdb-explain-probe.mjs against both:
# FerretDB's explain of each of the platform's query shapes (pushdown flags and the backend's own
# plan) and its time. Everything goes under <state-dir>; everything it started is stopped at the
# end. The findings are in docs/decisions.md ("The MongoDB API server") and README.md here.
#
# Usage: ferretdb-pg-explain.sh <state-dir> [documents]      (default 20000 documents)
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)"
PG_BIN="${WELLSTREAM_PG_BIN:-/usr/lib/postgresql/15/bin}"
STATE="${1:?usage: ferretdb-pg-explain.sh <state-dir> [documents]}"
DOCS="${2:-20000}"
mkdir -p "$STATE"; STATE="$(cd "$STATE" && pwd -P)"

log() { printf '[pg-explain] %s\n' "$*" >&2; }
die() { printf '[pg-explain] ERROR: %s\n' "$*" >&2; exit 1; }

if [ ! -x "$PG_BIN/initdb" ]; then
  [ "$(id -u)" = 0 ] || die "PostgreSQL is not installed ($PG_BIN/initdb missing): apt-get install -y postgresql"
  log "installing PostgreSQL (apt-get install -y --no-install-recommends postgresql)"
  apt-get install -y --no-install-recommends postgresql >&2 || die "apt-get install postgresql failed (above)"
  [ -x "$PG_BIN/initdb" ] || die "$PG_BIN/initdb still missing after the install (set WELLSTREAM_PG_BIN)"
fi
bash "$SCRIPT_DIR/servers.sh" install mongo
FERRETDB="$(bash "$SCRIPT_DIR/servers.sh" paths | sed -n 's/^WELLSTREAM_FERRETDB_BIN=//p')"
[ -x "$FERRETDB" ] || die "no FerretDB binary at '$FERRETDB'"

read -r PG_PORT F_PG F_PG_DEBUG F_LITE F_LITE_DEBUG <<< "$(node -e '
  const net = require("net"); const ports = []; const socks = [];
  const next = () => { if (ports.length === 5) { console.log(ports.join(" ")); socks.forEach((s) => s.close()); return; }
    const s = net.createServer(); s.listen(0, "127.0.0.1", () => { ports.push(s.address().port); socks.push(s); next(); }); };
  next();')"

# As root, PostgreSQL runs as the postgres user (the package creates it) in a directory it owns.
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
PG_DIR="$STATE/pg"
rm -rf "$PG_DIR" "$STATE/ferretdb-pg" "$STATE/ferretdb-sqlite"
mkdir -p "$PG_DIR" "$STATE/ferretdb-pg" "$STATE/ferretdb-sqlite/data"
[ "$(id -u)" = 0 ] && chown postgres "$PG_DIR"

PIDS=()
cleanup() {
  local p
  for p in "${PIDS[@]+"${PIDS[@]}"}"; do kill "$p" 2>/dev/null || true; done
  as_pg "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m fast stop >/dev/null 2>&1 || true
}
trap cleanup EXIT

log "PostgreSQL: initdb and start on 127.0.0.1:$PG_PORT"
as_pg "$PG_BIN/initdb" -D "$PG_DIR/data" -U postgres --auth=trust -E UTF8 >"$PG_DIR/initdb.log" 2>&1 \
  || { tail -n 40 "$PG_DIR/initdb.log" >&2; die "initdb failed"; }
as_pg "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/postgres.log" -w -t 60 \
  -o "-c listen_addresses=127.0.0.1 -p $PG_PORT -k $PG_DIR -c fsync=off" start >&2 \
  || { tail -n 40 "$PG_DIR/postgres.log" >&2; die "PostgreSQL did not start"; }
as_pg "$PG_BIN/createdb" -h 127.0.0.1 -p "$PG_PORT" -U postgres ferretdb || die "createdb ferretdb failed"

start_ferretdb() {  # <dir> <port> <debug-port> <handler flags...>
  local dir="$1" port="$2" dport="$3"; shift 3
  "$FERRETDB" "$@" --listen-addr="127.0.0.1:$port" --state-dir="$dir" --debug-addr="127.0.0.1:$dport" \
    --telemetry=disable --log-level=warn >"$dir/ferretdb.log" 2>&1 </dev/null &
  PIDS+=("$!")
  local i
  for ((i = 0; i < 120; i++)); do
    [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$dport/debug/readyz" || true)" = 200 ] && return 0
    sleep 0.25
  done
  tail -n 40 "$dir/ferretdb.log" >&2
  die "FerretDB ($*) was not ready within 30 s"
}
start_ferretdb "$STATE/ferretdb-pg" "$F_PG" "$F_PG_DEBUG" --handler=pg --postgresql-url="postgres://postgres@127.0.0.1:$PG_PORT/ferretdb"
start_ferretdb "$STATE/ferretdb-sqlite" "$F_LITE" "$F_LITE_DEBUG" --handler=sqlite --sqlite-url="file:$STATE/ferretdb-sqlite/data/"
log "FerretDB on PostgreSQL at 127.0.0.1:$F_PG, on SQLite at 127.0.0.1:$F_LITE"

node "$SCRIPT_DIR/ferretdb-explain-probe.mjs" "mongodb://127.0.0.1:$F_PG/" "FerretDB $("$FERRETDB" --version 2>&1 | sed -n 's/^version: //p') on PostgreSQL $("$PG_BIN/postgres" --version | awk '{print $3}')" "$DOCS"
node "$SCRIPT_DIR/ferretdb-explain-probe.mjs" "mongodb://127.0.0.1:$F_LITE/" "FerretDB on SQLite" "$DOCS"
# The indexes FerretDB made in PostgreSQL, as PostgreSQL holds them.
echo "## PostgreSQL's indexes on the probe's table"
as_pg "$PG_BIN/psql" -h 127.0.0.1 -p "$PG_PORT" -U postgres -d ferretdb -Atc \
  "SELECT indexdef FROM pg_indexes WHERE schemaname = 'explain_probe' AND tablename LIKE 'records%'"
