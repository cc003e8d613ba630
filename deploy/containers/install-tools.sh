#!/usr/bin/env bash
# Installs what the container work needs when it is missing (CI on a clean machine; idempotent):
#   podman, runc, debootstrap  Debian packages (apt-get update first)
#   podman-compose             PyPI, pinned (pip)
# Needs root or password-less sudo for apt-get. Fails with the reason; never half-succeeds quietly.
set -euo pipefail
. "$(dirname "$0")/env.sh"
PODMAN_COMPOSE_VERSION=1.2.0
sudo=()
if [ "$(id -u)" != 0 ]; then sudo=(sudo -n); fi
missing=()
command -v podman >/dev/null || missing+=(podman)
command -v runc >/dev/null || [ -x /usr/sbin/runc ] || missing+=(runc)
command -v debootstrap >/dev/null || [ -x /usr/sbin/debootstrap ] || missing+=(debootstrap)
if [ ${#missing[@]} -gt 0 ]; then
  command -v apt-get >/dev/null || die "apt-get not found: install ${missing[*]} yourself (docs/deployment.md)"
  echo "installing ${missing[*]} (apt-get) …"
  "${sudo[@]}" apt-get update -qq >/dev/null || die "apt-get update failed"
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null \
    || die "apt-get install ${missing[*]} failed"
fi
if ! podman-compose --version 2>/dev/null | grep -q "$PODMAN_COMPOSE_VERSION"; then
  echo "installing podman-compose $PODMAN_COMPOSE_VERSION (pip) …"
  python3 -m pip install -q "podman-compose==$PODMAN_COMPOSE_VERSION" >/dev/null 2>&1 \
    || python3 -m pip install -q --break-system-packages "podman-compose==$PODMAN_COMPOSE_VERSION" >/dev/null \
    || die "pip install podman-compose==$PODMAN_COMPOSE_VERSION failed"
  command -v podman-compose >/dev/null || die "podman-compose installed but not on PATH (pip's bin folder)"
fi
