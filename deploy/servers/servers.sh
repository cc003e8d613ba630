#!/usr/bin/env bash
# Real servers for the Wellstream test suite, on loopback, without Docker:
#   redis  - Debian package redis-server
#   kafka  - Apache Kafka 3.9.1, one KRaft broker+controller, jars from Maven Central
#   mongo  - FerretDB v1.24.2 (MongoDB wire protocol, SQLite backend), built from the Go proxy
#            with ferretdb/sqlite-id-index.patch applied (queries by _id use the _id index)
#
# Usage:
#   servers.sh install [redis|kafka|mongo ...]          install/build what is missing (cached)
#   servers.sh start <state-dir> [redis|kafka|mongo ...] start (default: all), write servers.env
#   servers.sh stop <state-dir> [redis|kafka|mongo ...]  stop by recorded pids (default: all)
#   servers.sh restart <state-dir> redis|kafka|mongo     (re)start one on the same port(s) and data
#   servers.sh restart-kafka <state-dir>                 the same as: restart <state-dir> kafka
#   servers.sh kill <state-dir> redis|kafka|mongo        SIGKILL one (a crash); data stays for restart
#   servers.sh status <state-dir>                        show what runs
#   servers.sh paths                                     print the cached kafka jars dir and FerretDB
#                                                        binary (the container images copy them)
#
# Downloads and builds are cached under ${WELLSTREAM_CACHE_DIR:-$HOME/.cache/wellstream}.
# Everything a server writes (data, logs, configs, pid files) goes under <state-dir>.
# See README.md next to this file.
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)"
CACHE_DIR="${WELLSTREAM_CACHE_DIR:-${HOME:-/root}/.cache/wellstream}"
READY_TIMEOUT="${WELLSTREAM_SERVERS_TIMEOUT:-120}"   # seconds, per server
STOP_TIMEOUT=15                                      # seconds between TERM and KILL

KAFKA_VERSION=3.9.1
FERRETDB_VERSION=v1.24.2
FERRETDB_MODULE=github.com/FerretDB/FerretDB
ALL_SERVERS=(redis mongo kafka)   # launch order: the slow one (kafka) last

FAIL_FILE=""   # set by start/restart-kafka: <state>/start-failed gets the failing server's name
CURRENT=""     # the server being installed/started, for FAIL_FILE

log() { printf '[servers] %s\n' "$*" >&2; }
die() {
  printf '[servers] ERROR: %s\n' "$*" >&2
  if [ -n "$FAIL_FILE" ] && [ ! -s "$FAIL_FILE" ]; then echo "${CURRENT:-unknown}" > "$FAIL_FILE"; fi
  exit 1
}
now() { date +%s; }

# ---------------------------------------------------------------- cache locations ---------

kafka_libs_dir() {
  # Keyed by the pom's content so editing the pom refetches the jars.
  local sum
  sum="$(sha256sum "$SCRIPT_DIR/kafka/pom.xml" | cut -c1-12)"
  printf '%s/kafka-%s-%s/libs' "$CACHE_DIR" "$KAFKA_VERSION" "$sum"
}
# FerretDB is built with deploy/servers/ferretdb/sqlite-id-index.patch applied (without it the
# SQLite backend never uses its _id index: every find, update and delete by _id scans the whole
# table). The patch's hash is in the path, so a machine holding a binary built without it, or with
# another version of it, builds again. WELLSTREAM_FERRETDB_UNPATCHED=1 selects (and builds) the
# upstream binary instead, for a before/after benchmark.
ferretdb_patch() { printf '%s/ferretdb/sqlite-id-index.patch' "$SCRIPT_DIR"; }
ferretdb_bin() {
  if [ "${WELLSTREAM_FERRETDB_UNPATCHED:-}" = 1 ]; then
    printf '%s/ferretdb-%s/ferretdb' "$CACHE_DIR" "$FERRETDB_VERSION"
  else
    printf '%s/ferretdb-%s-%s/ferretdb' "$CACHE_DIR" "$FERRETDB_VERSION" \
      "$(sha256sum "$(ferretdb_patch)" | cut -c1-12)"
  fi
}

# ---------------------------------------------------------------- install ------------------

with_install_lock() {
  # Serialise concurrent installs (two test runs at once) on one cache folder.
  mkdir -p "$CACHE_DIR"
  if command -v flock >/dev/null 2>&1; then
    exec 9>"$CACHE_DIR/.install.lock"
    flock 9
  fi
  "$@"
  if command -v flock >/dev/null 2>&1; then exec 9>&-; fi
}

need_cmd() { command -v "$1" >/dev/null 2>&1 || die "$1 is required ($2) but was not found on PATH"; }

install_redis() {
  # redis-server and redis-cli come from deploy/tools/tools.tsv (group servers), installed there.
  if command -v redis-server >/dev/null 2>&1 && command -v redis-cli >/dev/null 2>&1; then
    return 0
  fi
  bash "$SCRIPT_DIR/../tools/ensure-tools.sh" servers >&2 || die "redis: deploy/tools/ensure-tools.sh servers failed (above)"
  # The package may try to start its own service on 6379; tests never use it.
}

install_kafka() {
  local libs; libs="$(kafka_libs_dir)"
  if [ -f "$libs/.complete" ]; then return 0; fi
  need_cmd java "Kafka runs on Java 17+"
  need_cmd mvn "Kafka jars are fetched from Maven Central with Maven"
  log "kafka: fetching Kafka $KAFKA_VERSION jars from Maven Central into $libs"
  local work="$libs.tmp.$$"
  rm -rf "$work"; mkdir -p "$work/pom" "$work/libs"
  # Run Maven on a copy of the pom so nothing is written into the repository.
  cp "$SCRIPT_DIR/kafka/pom.xml" "$work/pom/pom.xml"
  # (-B and the sed: Maven 3.8 still prints colour codes with -q.)
  if ! (cd "$work/pom" && mvn -q -B dependency:copy-dependencies -DincludeScope=runtime \
          -DoutputDirectory="$work/libs" 2>&1 | sed 's/\x1b\[[0-9;]*m//g' >&2); then
    rm -rf "$work"
    die "kafka: mvn dependency:copy-dependencies failed (see Maven output above)"
  fi
  ls "$work/libs"/kafka_2.13-"$KAFKA_VERSION".jar >/dev/null 2>&1 \
    || { rm -rf "$work"; die "kafka: kafka_2.13-$KAFKA_VERSION.jar missing after Maven"; }
  rm -rf "$libs"; mkdir -p "$(dirname "$libs")"
  mv "$work/libs" "$libs"; rm -rf "$work"
  touch "$libs/.complete"
  log "kafka: $(ls "$libs" | wc -l) jars cached"
}

install_mongo() {
  local bin; bin="$(ferretdb_bin)"
  # (Capture, then match: `--version | grep -q` can fail under pipefail when grep exits first.)
  if [ -x "$bin" ] && [[ "$("$bin" --version 2>/dev/null || true)" == *"version: $FERRETDB_VERSION"* ]]; then
    return 0
  fi
  need_cmd go "FerretDB is built from the Go module proxy"
  log "mongo: building FerretDB $FERRETDB_VERSION (first time only, takes 1-3 min)"
  local dir
  # `go install ...@v1.24.2` gives a binary that panics at start: build/version/version.txt is
  # git-ignored upstream and so missing from the module zip. Build from a copy with it written.
  dir="$(cd "$CACHE_DIR" && go mod download -json "$FERRETDB_MODULE@$FERRETDB_VERSION" \
          | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",\{0,1\}$/\1/p')" \
    || die "mongo: go mod download $FERRETDB_MODULE@$FERRETDB_VERSION failed"
  [ -n "$dir" ] && [ -d "$dir" ] || die "mongo: go mod download gave no module directory"
  local work; work="$(dirname "$bin")/src.tmp.$$"
  rm -rf "$work"; mkdir -p "$(dirname "$work")"
  cp -R "$dir" "$work"; chmod -R u+w "$work"
  printf '%s' "$FERRETDB_VERSION" > "$work/build/version/version.txt"
  if [ "${WELLSTREAM_FERRETDB_UNPATCHED:-}" != 1 ]; then
    # git apply (git is on every machine; `patch` is not). GIT_CEILING_DIRECTORIES: it must treat
    # the copy as plain files, not as part of a repository above it.
    (cd "$work" && GIT_CEILING_DIRECTORIES="$(dirname "$work")" git apply "$(ferretdb_patch)") >&2 \
      || { rm -rf "$work"; die "mongo: applying $(ferretdb_patch) to FerretDB $FERRETDB_VERSION failed"; }
  fi
  if ! (cd "$work" && CGO_ENABLED=0 go build -buildvcs=false -trimpath -o "$bin.tmp" ./cmd/ferretdb); then
    rm -rf "$work" "$bin.tmp"
    die "mongo: go build of FerretDB failed (see Go output above)"
  fi
  rm -rf "$work"
  [[ "$("$bin.tmp" --version 2>&1 || true)" == *"version: $FERRETDB_VERSION"* ]] \
    || { rm -f "$bin.tmp"; die "mongo: built FerretDB does not report version $FERRETDB_VERSION"; }
  mv -f "$bin.tmp" "$bin"
  log "mongo: FerretDB binary cached at $bin"
}

install_some() {
  # The Maven download (network-bound) runs in the background while the rest installs (the
  # FerretDB build is CPU-bound), which saves ~45 s on a cold machine. Each step dies loudly.
  local s kafka_pid=""
  if [ $# -gt 1 ] && [[ " $* " == *" kafka "* ]] && [ ! -f "$(kafka_libs_dir)/.complete" ]; then
    ( CURRENT=kafka; install_kafka ) &
    kafka_pid=$!
  fi
  for s in "$@"; do
    [ "$s" = kafka ] && [ -n "$kafka_pid" ] && continue
    CURRENT="$s"; "install_$s"
  done
  if [ -n "$kafka_pid" ]; then
    CURRENT=kafka
    wait "$kafka_pid" || die "kafka: installing the Kafka jars failed (see above)"
  fi
  CURRENT=""
}

# ---------------------------------------------------------------- helpers ------------------

valid_servers() {
  # Set SERVERS to the requested names (default all), validated, de-duplicated, in fixed order.
  local s r out=()
  for r in "$@"; do
    case "$r" in redis|kafka|mongo) ;; *) die "unknown server '$r' (expected redis, kafka or mongo)";; esac
  done
  for s in "${ALL_SERVERS[@]}"; do
    if [ $# -eq 0 ]; then out+=("$s"); continue; fi
    for r in "$@"; do [ "$r" = "$s" ] && { out+=("$s"); break; }; done
  done
  SERVERS=("${out[@]}")
}

abs_state_dir() {
  [ -n "${1:-}" ] || die "missing <state-dir> argument"
  mkdir -p "$1"
  (cd "$1" && pwd -P)
}

free_ports() {
  # Print N distinct free loopback ports: bind them all to port 0 at once, then release.
  local n="$1"
  if command -v node >/dev/null 2>&1; then
    node -e '
      const net = require("net"); const n = +process.argv[1]; const socks = []; const ports = [];
      const next = () => {
        if (socks.length === n) { console.log(ports.join(" ")); socks.forEach(s => s.close()); return; }
        const s = net.createServer(); s.on("error", e => { console.error(e.message); process.exit(1); });
        s.listen(0, "127.0.0.1", () => { ports.push(s.address().port); socks.push(s); next(); });
      };
      next();' "$n"
  elif command -v python3 >/dev/null 2>&1; then
    python3 -c '
import socket, sys
socks = []
for _ in range(int(sys.argv[1])):
    s = socket.socket(); s.bind(("127.0.0.1", 0)); socks.append(s)
print(" ".join(str(s.getsockname()[1]) for s in socks))' "$n"
  else
    die "node or python3 is needed to pick free ports"
  fi
}

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

http_status() {
  if command -v curl >/dev/null 2>&1; then
    curl -s -o /dev/null -m 2 -w '%{http_code}' "$1" 2>/dev/null || true
  else
    node -e 'require("http").get(process.argv[1], r => { console.log(r.statusCode); r.resume(); })
      .on("error", () => console.log(0)).setTimeout(2000, function () { this.destroy(); })' "$1" 2>/dev/null || true
  fi
}

pid_file() { printf '%s/%s.pid' "$1" "$2"; }
log_file() {
  case "$2" in
    redis) printf '%s/redis/redis.log' "$1" ;;
    kafka) printf '%s/kafka/kafka.log' "$1" ;;
    mongo) printf '%s/mongo/ferretdb.log' "$1" ;;
  esac
}

# A recorded pid counts only if that process is alive and its command line mentions the state
# dir (every server is started with a path under it) or, for redis-server (which rewrites its
# process title), its working directory is under the state dir. A recycled pid is never killed.
live_pid() {
  local state="$1" name="$2" f pid
  f="$(pid_file "$state" "$name")"
  [ -f "$f" ] || return 1
  pid="$(cat "$f" 2>/dev/null || true)"
  [[ "$pid" =~ ^[0-9]+$ ]] || return 1
  kill -0 "$pid" 2>/dev/null || return 1
  local cmd; cmd="$(tr '\0' ' ' < "/proc/$pid/cmdline" 2>/dev/null || true)"
  if [[ "$cmd" != *"$state/"* ]]; then
    local cwd; cwd="$(readlink "/proc/$pid/cwd" 2>/dev/null || true)"
    case "$cwd/" in "$state"/*) ;; *) return 1 ;; esac
  fi
  printf '%s' "$pid"
}

# Alive = /proc entry readable and not a zombie (our own children stay zombies until reaped).
# One read of /proc only: a kill -0 followed by a separate read races with reaping.
alive() {
  local st
  st="$(grep '^State:' "/proc/$1/status" 2>/dev/null)" || return 1
  [[ ! "$st" =~ State:[[:space:]]*[ZX] ]]
}

stop_one() {
  local state="$1" name="$2" pid i
  if pid="$(live_pid "$state" "$name")"; then
    log "$name: stopping pid $pid"
    kill -TERM "$pid" 2>/dev/null || true
    for ((i = 0; i < STOP_TIMEOUT * 10; i++)); do
      alive "$pid" || break
      sleep 0.1
    done
    if alive "$pid"; then
      log "$name: still running after ${STOP_TIMEOUT}s ($(grep '^State:' "/proc/$pid/status" 2>/dev/null | tr -s '[:space:]' ' ')), sending KILL"
      kill -KILL "$pid" 2>/dev/null || true
      for ((i = 0; i < 50; i++)); do alive "$pid" || break; sleep 0.1; done
    fi
  fi
  rm -f "$(pid_file "$state" "$name")"
}

show_failure() {
  local state="$1" name="$2" why="$3" lf
  lf="$(log_file "$state" "$name")"
  {
    printf '\n[servers] ===== FAILED to start %s: %s =====\n' "$name" "$why"
    if [ -f "$lf" ]; then
      printf '[servers] last 40 lines of %s:\n' "$lf"
      tail -n 40 "$lf"
    else
      printf '[servers] (no log file %s)\n' "$lf"
    fi
    printf '[servers] ===== end of %s log =====\n\n' "$name"
  } >&2
}

# ---------------------------------------------------------------- launching ----------------

# Each launcher starts one server in the background in its own session (setsid execs in the
# forked child, so $! is the server's own pid), records the pid, and returns immediately.

launch_redis() {
  local state="$1" port="$2" dir="$state/redis"
  mkdir -p "$dir"
  echo "$port" > "$dir/port"
  setsid redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no \
    --dir "$dir" --daemonize no --logfile '' --pidfile '' \
    > "$(log_file "$state" redis)" 2>&1 < /dev/null &
  echo $! > "$(pid_file "$state" redis)"
}

write_kafka_config() {
  local state="$1" port="$2" cport="$3" dir="$state/kafka"
  mkdir -p "$dir/data"
  printf '%s %s\n' "$port" "$cport" > "$dir/ports"
  cat > "$dir/server.properties" <<EOF
# Generated by deploy/servers/servers.sh: one combined KRaft broker+controller for tests.
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$cport
listeners=PLAINTEXT://127.0.0.1:$port,CONTROLLER://127.0.0.1:$cport
advertised.listeners=PLAINTEXT://127.0.0.1:$port
inter.broker.listener.name=PLAINTEXT
controller.listener.names=CONTROLLER
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT
log.dirs=$dir/data
offsets.topic.replication.factor=1
offsets.topic.num.partitions=1
# A stream keeps its position at least 7 days without clients (Kafka's default is exactly 7 days
# after the group empties): 14 days, as in docker-compose.yml and deploy/README.md.
offsets.retention.minutes=20160
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
group.initial.rebalance.delay.ms=0
group.min.session.timeout.ms=1000
num.network.threads=2
num.io.threads=2
auto.create.topics.enable=true
log.cleaner.backoff.ms=1000
EOF
}

kafka_jvm() {
  # Set JVM to the java command line (without main class) for the Kafka of state dir $1.
  JVM=(java -Xms256m -Xmx1g -XX:+UseG1GC -XX:+ExitOnOutOfMemoryError -Djava.awt.headless=true
       "-Dlog4j.configuration=file:$SCRIPT_DIR/kafka/log4j.properties"
       "-Dkafka.logs.dir=$1/kafka" -cp "$(kafka_libs_dir)/*")
}
kafka_tool() {
  # Short-lived Kafka tool (StorageTool): a lighter JVM starts ~0.5 s faster.
  java -Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Djava.awt.headless=true \
    "-Dlog4j.configuration=file:$SCRIPT_DIR/kafka/log4j.properties" \
    -cp "$(kafka_libs_dir)/*" "$@"
}

format_kafka() {
  local state="$1" dir="$state/kafka" id
  if [ ! -f "$dir/cluster-id" ]; then
    # A cluster id is a random UUID in unpadded base64url (what `StorageTool random-uuid`
    # prints), made here to save a JVM start. Kafka rejects ids starting with '-'.
    id="-"
    while [ "${id:0:1}" = "-" ]; do
      id="$(head -c 16 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=\n')"
    done
    [[ "$id" =~ ^[A-Za-z0-9_-]{22}$ ]] || die "kafka: could not generate a cluster id (got '$id')"
    echo "$id" > "$dir/cluster-id"
  fi
  if ! kafka_tool kafka.tools.StorageTool format -t "$(cat "$dir/cluster-id")" \
        -c "$dir/server.properties" --ignore-formatted > "$dir/format.log" 2>&1; then
    cat "$dir/format.log" >> "$(log_file "$state" kafka)"
    return 1
  fi
}

launch_kafka() {
  # Assumes server.properties exists and the log dir is formatted.
  local state="$1" lf
  lf="$(log_file "$state" kafka)"
  [ -f "$lf" ] && mv -f "$lf" "$lf.prev"
  # setsid execs java in the forked child, so $! is the JVM's pid.
  kafka_jvm "$state"
  setsid "${JVM[@]}" kafka.Kafka "$state/kafka/server.properties" > "$lf" 2>&1 < /dev/null &
  echo $! > "$(pid_file "$state" kafka)"
}

launch_mongo() {
  local state="$1" port="$2" dport="$3" dir="$state/mongo"
  mkdir -p "$dir/data" "$dir/state"
  printf '%s %s\n' "$port" "$dport" > "$dir/ports"
  setsid "$(ferretdb_bin)" --handler=sqlite --sqlite-url="file:$dir/data/" \
    --listen-addr="127.0.0.1:$port" --state-dir="$dir/state" \
    --debug-addr="127.0.0.1:$dport" --telemetry=disable --log-level=INFO \
    > "$(log_file "$state" mongo)" 2>&1 < /dev/null &
  echo $! > "$(pid_file "$state" mongo)"
}

# ready_<name> <state>: 0 = ready, 1 = not yet
ready_redis() {
  local port; port="$(cat "$1/redis/port")"
  [ "$(redis-cli -h 127.0.0.1 -p "$port" ping 2>/dev/null || true)" = PONG ]
}
ready_kafka() {
  local port _c; read -r port _c < "$1/kafka/ports"
  grep -q "Kafka Server started" "$(log_file "$1" kafka)" 2>/dev/null && port_open "$port"
}
ready_mongo() {
  local port dport; read -r port dport < "$1/mongo/ports"
  [ "$(http_status "http://127.0.0.1:$dport/debug/readyz")" = 200 ] && port_open "$port"
}

# wait_ready <state> <names...>: waits for all of them; on failure prints the log tail of the
# first one that failed, writes <state>/start-failed (names), and returns 1.
wait_ready() {
  local state="$1"; shift
  local deadline=$(( $(now) + READY_TIMEOUT ))
  local pending=("$@") next name pid
  local t0; t0="$(now)"
  while [ ${#pending[@]} -gt 0 ]; do
    next=()
    for name in "${pending[@]}"; do
      if "ready_$name" "$state"; then
        log "$name: ready after $(( $(now) - t0 ))s"
        continue
      fi
      pid="$(cat "$(pid_file "$state" "$name")" 2>/dev/null || true)"
      if [ -z "$pid" ] || ! alive "$pid"; then
        show_failure "$state" "$name" "process exited before it was ready"
        echo "$name" > "$state/start-failed"
        return 1
      fi
      next+=("$name")
    done
    pending=("${next[@]+"${next[@]}"}")
    [ ${#pending[@]} -eq 0 ] && break
    if [ "$(now)" -ge "$deadline" ]; then
      for name in "${pending[@]}"; do
        show_failure "$state" "$name" "not ready within ${READY_TIMEOUT}s"
      done
      printf '%s\n' "${pending[@]}" > "$state/start-failed"
      return 1
    fi
    sleep 0.25
  done
}

write_env() {
  # servers.env lists every server of this state dir that is running now.
  local state="$1" tmp="$1/servers.env.tmp" p _x
  : > "$tmp"
  if live_pid "$state" redis >/dev/null; then
    echo "WELLSTREAM_TEST_REDIS_URL=redis://127.0.0.1:$(cat "$state/redis/port")" >> "$tmp"
  fi
  if live_pid "$state" kafka >/dev/null; then
    read -r p _x < "$state/kafka/ports"
    echo "WELLSTREAM_TEST_KAFKA_BROKERS=127.0.0.1:$p" >> "$tmp"
  fi
  if live_pid "$state" mongo >/dev/null; then
    read -r p _x < "$state/mongo/ports"
    echo "WELLSTREAM_TEST_MONGO_URL=mongodb://127.0.0.1:$p" >> "$tmp"
  fi
  if [ -s "$tmp" ]; then mv -f "$tmp" "$state/servers.env"; else rm -f "$tmp" "$state/servers.env"; fi
}

# ---------------------------------------------------------------- commands -----------------

cmd_install() {
  valid_servers "$@"; local names=("${SERVERS[@]}")
  with_install_lock install_some "${names[@]}"
}

cmd_start() {
  local state; state="$(abs_state_dir "${1:-}")"; shift
  valid_servers "$@"; local names=("${SERVERS[@]}")
  local t0; t0="$(now)"
  rm -f "$state/start-failed"
  FAIL_FILE="$state/start-failed"

  with_install_lock install_some "${names[@]}"

  # Start from a clean slate: stop leftovers of an earlier run of this state dir, wipe data.
  local name
  for name in "${names[@]}"; do
    stop_one "$state" "$name"
    rm -rf "${state:?}/$name"
  done

  local ports; read -r -a ports <<< "$(free_ports 5)"
  [ ${#ports[@]} -eq 5 ] || die "could not pick free ports"

  local started=()
  on_fail() {
    local n
    log "stopping what was started: ${started[*]-none}"
    for n in "${started[@]+"${started[@]}"}"; do stop_one "$state" "$n"; done
    write_env "$state"
  }

  for name in "${names[@]}"; do
    case "$name" in
      redis)
        launch_redis "$state" "${ports[0]}"; started+=(redis) ;;
      kafka)
        write_kafka_config "$state" "${ports[1]}" "${ports[2]}"
        if ! format_kafka "$state"; then
          show_failure "$state" kafka "kafka-storage format failed"
          echo kafka > "$state/start-failed"
          on_fail; exit 1
        fi
        launch_kafka "$state"; started+=(kafka) ;;
      mongo)
        launch_mongo "$state" "${ports[3]}" "${ports[4]}"; started+=(mongo) ;;
    esac
  done

  if ! wait_ready "$state" "${names[@]}"; then
    on_fail
    die "could not start: $(tr '\n' ' ' < "$state/start-failed")(state dir $state)"
  fi
  write_env "$state"
  log "all ready in $(( $(now) - t0 ))s; env in $state/servers.env:"
  sed 's/^/[servers]   /' "$state/servers.env" >&2
}

cmd_stop() {
  local state; state="$(abs_state_dir "${1:-}")"; shift
  local name; valid_servers "$@"; local names=("${SERVERS[@]}")
  for name in "${names[@]}"; do stop_one "$state" "$name"; done
  if [ $# -eq 0 ]; then rm -f "$state/servers.env"; else write_env "$state"; fi
}

# kill <state> <name>: SIGKILL, as a crash would (data stays; tests restart it on the same port).
cmd_kill() {
  local state; state="$(abs_state_dir "${1:-}")"; local name="${2:-}"
  valid_servers "$name"
  local pid i
  if pid="$(live_pid "$state" "$name")"; then
    log "$name: killing pid $pid (SIGKILL)"
    kill -KILL "$pid" 2>/dev/null || true
    for ((i = 0; i < 100; i++)); do alive "$pid" || break; sleep 0.1; done
  fi
  rm -f "$(pid_file "$state" "$name")"
}

# restart <state> <name>: stop it if it runs, start it again on the same port(s) and data.
cmd_restart() {
  local state; state="$(abs_state_dir "${1:-}")"; local name="${2:-}"
  valid_servers "$name"
  local port _x
  case "$name" in
    kafka) [ -f "$state/kafka/server.properties" ] && [ -f "$state/kafka/ports" ] && read -r port _x < "$state/kafka/ports" ;;
    mongo) [ -f "$state/mongo/ports" ] && read -r port _x < "$state/mongo/ports" ;;
    redis) [ -f "$state/redis/port" ] && port="$(cat "$state/redis/port")" ;;
  esac
  [ -n "${port:-}" ] || die "$name was never started in $state (run: servers.sh start $state $name)"
  rm -f "$state/start-failed"
  FAIL_FILE="$state/start-failed"; CURRENT="$name"
  with_install_lock install_some "$name"
  CURRENT="$name"
  local t0; t0="$(now)"
  stop_one "$state" "$name"
  # The port may linger for a moment after the old process exits.
  local i; for ((i = 0; i < 100; i++)); do port_open "$port" || break; sleep 0.1; done
  case "$name" in
    kafka) launch_kafka "$state" ;;
    mongo) read -r port _x < "$state/mongo/ports"; launch_mongo "$state" "$port" "$_x" ;;
    redis) launch_redis "$state" "$port" ;;
  esac
  if ! wait_ready "$state" "$name"; then
    stop_one "$state" "$name"
    write_env "$state"
    die "could not restart $name (state dir $state)"
  fi
  write_env "$state"
  log "$name: restarted on 127.0.0.1:$port in $(( $(now) - t0 ))s"
}

cmd_status() {
  local state; state="$(abs_state_dir "${1:-}")"
  local name pid
  for name in "${ALL_SERVERS[@]}"; do
    if pid="$(live_pid "$state" "$name")"; then echo "$name: running (pid $pid)"; else echo "$name: stopped"; fi
  done
  [ -f "$state/servers.env" ] && cat "$state/servers.env"
  return 0
}

usage() { sed -n '2,19p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2; exit 2; }

main() {
  local cmd="${1:-}"; [ $# -gt 0 ] && shift
  case "$cmd" in
    install) cmd_install "$@" ;;
    start) [ $# -ge 1 ] || usage; cmd_start "$@" ;;
    stop) [ $# -ge 1 ] || usage; cmd_stop "$@" ;;
    restart-kafka) [ $# -eq 1 ] || usage; cmd_restart "$1" kafka ;;
    restart) [ $# -eq 2 ] || usage; cmd_restart "$@" ;;
    kill) [ $# -eq 2 ] || usage; cmd_kill "$@" ;;
    status) [ $# -eq 1 ] || usage; cmd_status "$@" ;;
    paths) printf 'WELLSTREAM_KAFKA_LIBS=%s\nWELLSTREAM_FERRETDB_BIN=%s\n' "$(kafka_libs_dir)" "$(ferretdb_bin)" ;;
    -h|--help|help) usage ;;
    *) usage ;;
  esac
}

main "$@"
