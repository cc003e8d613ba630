# Sourced by the container scripts: podman with this project's settings, found the same way in CI,
# on a laptop and in the jest containers project.
WELLSTREAM_CONTAINERS_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
export CONTAINERS_CONF="$WELLSTREAM_CONTAINERS_DIR/containers.conf"
WELLSTREAM_CACHE_DIR="${WELLSTREAM_CACHE_DIR:-$HOME/.cache/wellstream}"
# Node.js 20 from the npm registry (the official binary, headers included) and the npm that runs it.
WELLSTREAM_NODE_VERSION="${WELLSTREAM_NODE_VERSION:-20.20.2}"
WELLSTREAM_NPM_VERSION="${WELLSTREAM_NPM_VERSION:-10.8.2}"
WELLSTREAM_BASE_IMAGE="localhost/wellstream/node:${WELLSTREAM_NODE_VERSION}-bookworm"
die() { echo "wellstream containers: $*" >&2; exit 1; }
need_podman() {
  command -v podman >/dev/null || die "podman is not installed (apt-get install podman runc; see docs/deployment.md)"
  command -v runc >/dev/null || [ -x /usr/sbin/runc ] || die "runc is not installed (apt-get install runc)"
}
