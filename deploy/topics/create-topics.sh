#!/usr/bin/env bash
# Creates (or brings the configs up to date of) the topics in topics.json with Kafka's own CLI, for
# clusters where the services should not create topics themselves. Idempotent.
#   deploy/topics/create-topics.sh <bootstrap host:port> [topic prefix] [replication factor]
# Needs kafka-topics.sh / kafka-configs.sh on PATH (any Kafka distribution's bin/) and node.
set -euo pipefail
BOOTSTRAP="${1:?usage: create-topics.sh <bootstrap host:port> [topic prefix] [replication factor]}"
PREFIX="${2:-${WELLSTREAM_TOPIC_PREFIX:-}}"
RF="${3:-1}"
DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

# One line per topic: <name> <partitions> <key=value>... (values never contain spaces)
node -e '
  for (const t of require(process.argv[1]).topics)
    console.log([t.name, t.partitions, ...Object.entries(t.config).map(([k, v]) => `${k}=${v}`)].join(" "));
' "$DIR/topics.json" | while read -r name partitions configs; do
  topic="${PREFIX}${name}"
  create_args=()
  alter_list=()
  for kv in $configs; do
    create_args+=(--config "$kv")
    # kafka-configs splits on commas: a list value goes in brackets.
    case "$kv" in *,*) alter_list+=("${kv%%=*}=[${kv#*=}]") ;; *) alter_list+=("$kv") ;; esac
  done
  echo "[topics] $topic: $partitions partitions, $configs"
  kafka-topics.sh --bootstrap-server "$BOOTSTRAP" --create --if-not-exists --topic "$topic" \
    --partitions "$partitions" --replication-factor "$RF" "${create_args[@]}"
  kafka-configs.sh --bootstrap-server "$BOOTSTRAP" --alter --entity-type topics --entity-name "$topic" \
    --add-config "$(IFS=,; echo "${alter_list[*]}")"
done
