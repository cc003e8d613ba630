#!/usr/bin/env bash
# Stops and removes the containers up.sh started (SIGTERM first: each service drains). -v: volumes too.
set -euo pipefail
. "$(dirname "$0")/env.sh"
repo="$(cd "$WELLSTREAM_CONTAINERS_DIR/../.." && pwd)"
cd "$repo"
[ -f .wellstream-containers.env ] && { set -a; . ./.wellstream-containers.env; set +a; }
export WELLSTREAM_ADMIN_TOKEN="${WELLSTREAM_ADMIN_TOKEN:-unused-when-stopping}" \
  WELLSTREAM_GATEWAY_KEYS="${WELLSTREAM_GATEWAY_KEYS:-unused-when-stopping-0123456789abcdef}" \
  WELLSTREAM_SOURCE_TOKEN_KEY="${WELLSTREAM_SOURCE_TOKEN_KEY:-unused-when-stopping-0123456789abcdef}"
podman-compose -p "${WELLSTREAM_COMPOSE_PROJECT:-wellstream}" -f docker-compose.yml -f docker-compose.podman.yml down "$@"
