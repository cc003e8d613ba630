#!/usr/bin/env bash
# `npm run images`: every image the platform runs from, built with podman from a clean clone.
#   1. the local base image (build-base.sh: Debian bookworm + Node.js 20 from the npm registry),
#   2. one image per deployable from deploy/docker/Dockerfile (wellstream/<name>:local),
#   3. the podman stand-ins for the servers docker-compose.yml pulls elsewhere (wellstream/kafka,
#      wellstream/ferretdb, wellstream/redis), from the jars and binary deploy/servers caches.
# Then it prints each image's size. Usage: build-images.sh [name ...] (default: all).
# WELLSTREAM_NODE_IMAGE=node:20-bookworm-slim uses the official image instead of the local base.
set -euo pipefail
. "$(dirname "$0")/env.sh"
need_podman
repo="$(cd "$WELLSTREAM_CONTAINERS_DIR/../.." && pwd)"
DEPLOYABLES=(gateway edge users records streams notifications rules sources)
INFRA=(kafka ferretdb redis)
wanted=("$@"); [ ${#wanted[@]} -gt 0 ] || wanted=("${DEPLOYABLES[@]}" "${INFRA[@]}")

node_image="${WELLSTREAM_NODE_IMAGE:-}"
if [ -z "$node_image" ]; then
  "$WELLSTREAM_CONTAINERS_DIR/build-base.sh"
  node_image="$WELLSTREAM_BASE_IMAGE"
fi
version="$(node -p "require('$repo/package.json').version || '0.0.0'" 2>/dev/null || echo 0.0.0)"
revision="$(git -C "$repo" rev-parse HEAD 2>/dev/null || echo unknown)"

build_deployable() {
  local name="$1" t0=$SECONDS
  echo "image wellstream/$name:local …"
  # --layers: the build stage (install, compile, prune) is shared by all eight and built once.
  # --format docker: the OCI format has no HEALTHCHECK (podman would drop it).
  podman build --quiet --layers --format docker --network host \
    -f "$repo/deploy/docker/Dockerfile" --ignorefile "$repo/deploy/docker/Dockerfile.dockerignore" \
    --build-arg "NODE_IMAGE=$node_image" --build-arg "SERVICE=$name" \
    --build-arg "VERSION=$version" --build-arg "REVISION=$revision" \
    -t "wellstream/$name:local" "$repo" >/dev/null \
    || die "building wellstream/$name:local failed (podman build output above)"
  echo "  built in $((SECONDS - t0)) s"
}

build_infra() {
  local name="$1" ctx
  ctx="$(mktemp -d "${TMPDIR:-/tmp}/wellstream-$name.XXXXXX")"
  # shellcheck disable=SC2064
  trap "rm -rf '$ctx'" RETURN
  # Kafka's jars and the FerretDB binary: what deploy/servers fetches and builds (cached there).
  case "$name" in
    kafka|ferretdb)
      bash "$repo/deploy/servers/servers.sh" install "$([ "$name" = ferretdb ] && echo mongo || echo kafka)" >&2 \
        || die "deploy/servers could not install $name"
      eval "$(bash "$repo/deploy/servers/servers.sh" paths)" ;;
  esac
  cp "$WELLSTREAM_CONTAINERS_DIR/infra/$name.Containerfile" "$ctx/Containerfile"
  case "$name" in
    kafka) cp -R "$WELLSTREAM_KAFKA_LIBS" "$ctx/libs"; rm -f "$ctx/libs/.complete"
           cp "$WELLSTREAM_CONTAINERS_DIR/infra/kafka-entrypoint.sh" "$repo/deploy/servers/kafka/log4j.properties" "$ctx/" ;;
    ferretdb) cp "$WELLSTREAM_FERRETDB_BIN" "$ctx/ferretdb" ;;
  esac
  echo "image wellstream/$name:local …"
  podman build --quiet --layers --format docker --network host --build-arg "BASE_IMAGE=$node_image" -t "wellstream/$name:local" "$ctx" >/dev/null \
    || die "building wellstream/$name:local failed"
}

for name in "${wanted[@]}"; do
  case " ${INFRA[*]} " in *" $name "*) build_infra "$name" ;; *) build_deployable "$name" ;; esac
done
echo
printf '%-36s %8s\n' image size
for name in "${wanted[@]}"; do
  printf '%-36s %5.0f MB\n' "wellstream/$name:local" "$(podman image inspect --format '{{.Size}}' "wellstream/$name:local" | awk '{print $1/1e6}')"
done
