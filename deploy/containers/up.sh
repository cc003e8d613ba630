#!/usr/bin/env bash
# Starts the distributed platform in containers with podman: docker-compose.yml plus the podman
# override (docker-compose.podman.yml), then waits until /health answers 200 on the public port
# (the edge's, WS_PORT_GATEWAY; it forwards to the two gateways, gateway-a and gateway-b).
#   deploy/containers/up.sh            (images from `npm run images`)
#   deploy/containers/down.sh          stops and removes the containers (volumes kept; -v drops them)
# Keys: WELLSTREAM_ADMIN_TOKEN, WELLSTREAM_GATEWAY_KEYS and WELLSTREAM_SOURCE_TOKEN_KEY are taken
# from the environment, else generated once into .wellstream-containers.env (git-ignored) and
# reused. Ports: the WS_PORT_* variables (docker-compose.podman.yml lists them and their defaults).
set -euo pipefail
. "$(dirname "$0")/env.sh"
need_podman
command -v podman-compose >/dev/null || die "podman-compose is not installed (pip install podman-compose==1.2.0)"
repo="$(cd "$WELLSTREAM_CONTAINERS_DIR/../.." && pwd)"
project="${WELLSTREAM_COMPOSE_PROJECT:-wellstream}"
for image in gateway edge users records streams notifications rules sources kafka ferretdb redis; do
  podman image exists "localhost/wellstream/$image:local" || die "image wellstream/$image:local is missing: run npm run images first"
done
keys="$repo/.wellstream-containers.env"
if [ ! -f "$keys" ]; then
  key() { node -e "console.log(require('crypto').randomBytes(33).toString('base64url'))"; }
  umask 077
  printf 'WELLSTREAM_ADMIN_TOKEN=%s\nWELLSTREAM_GATEWAY_KEYS=%s\nWELLSTREAM_SOURCE_TOKEN_KEY=%s\n' "$(key)" "$(key)" "$(key)" > "$keys"
fi
set -a; . "$keys"; set +a
cd "$repo"
podman-compose -p "$project" -f docker-compose.yml -f docker-compose.podman.yml up -d >"${TMPDIR:-/tmp}/wellstream-compose-up.log" 2>&1 \
  || { tail -30 "${TMPDIR:-/tmp}/wellstream-compose-up.log" >&2; die "podman-compose up failed (log above)"; }
url="http://127.0.0.1:${WS_PORT_GATEWAY:-18080}"
deadline=$((SECONDS + ${WELLSTREAM_UP_TIMEOUT_S:-180}))
until [ "$(curl -s -o /dev/null -w '%{http_code}' -m 3 "$url/health" || true)" = 200 ]; do
  if [ $SECONDS -ge $deadline ]; then
    curl -s -m 3 "$url/health" >&2 || true
    podman ps -a --filter "label=io.podman.compose.project=$project" --format '{{.Names}} {{.Status}}' >&2
    die "the platform at $url (the edge, then a gateway) did not become healthy (podman logs <container> says why)"
  fi
  sleep 1
done
echo "wellstream is up: $url (admin token in $keys)"
