#!/usr/bin/env bash
# Validates every manifest in deploy/kubernetes against the Kubernetes API schemas (strict: unknown
# fields are errors) with kubeconform, a Go module. Installs what it needs into the cache:
#   kubeconform  go install github.com/yannh/kubeconform/cmd/kubeconform@$KUBECONFORM_VERSION
#   schemas      the kubernetes-validate wheel from PyPI (pip download), made self-contained by
#                standalone-schemas.mjs (kubeconform's default schema host is unreachable here)
# Usage: deploy/kubernetes/validate.sh [file.yaml …]   (default: all of deploy/kubernetes/*.yaml)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
KUBECONFORM_VERSION=v0.6.7
KUBERNETES_VERSION=1.30.0
SCHEMAS_WHEEL_VERSION=1.37.0   # kubernetes-validate, carries the schemas of Kubernetes 1.25–1.34
cache="${WELLSTREAM_CACHE_DIR:-$HOME/.cache/wellstream}/kubeconform"
die() { echo "validate.sh: $*" >&2; exit 1; }

bin="$cache/kubeconform-$KUBECONFORM_VERSION"
if [ ! -x "$bin" ]; then
  command -v go >/dev/null || die "go is required to install kubeconform"
  mkdir -p "$cache/gobin"
  GOBIN="$cache/gobin" go install "github.com/yannh/kubeconform/cmd/kubeconform@$KUBECONFORM_VERSION" \
    || die "go install kubeconform@$KUBECONFORM_VERSION failed"
  mv "$cache/gobin/kubeconform" "$bin"
fi

files=("$@"); [ ${#files[@]} -gt 0 ] || files=("$here"/*.yaml)
mapfile -t kinds < <(sed -n 's/^kind: *\([A-Za-z]*\).*/\1/p' "${files[@]}" | sort -u)
schemas="$cache/schemas-$SCHEMAS_WHEEL_VERSION"
strict="$schemas/v$KUBERNETES_VERSION-standalone-strict"
missing=()
for kind in "${kinds[@]}"; do compgen -G "$strict/${kind,,}-*.json" >/dev/null || missing+=("$kind"); done
if [ ${#missing[@]} -gt 0 ]; then
  work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
  wheel="$cache/kubernetes_validate-$SCHEMAS_WHEEL_VERSION-py3-none-any.whl"
  if [ ! -s "$wheel" ]; then
    command -v pip3 >/dev/null || die "pip3 is required to fetch the Kubernetes schemas"
    pip3 download -q --no-deps "kubernetes-validate==$SCHEMAS_WHEEL_VERSION" -d "$work" >&2 || die "pip download kubernetes-validate failed"
    mkdir -p "$cache"; mv "$work"/kubernetes_validate-*.whl "$wheel"
  fi
  dir="kubernetes_validate/kubernetes-json-schema/v$KUBERNETES_VERSION-local-strict"
  (cd "$work" && python3 -m zipfile -e "$wheel" . >/dev/null) || die "cannot unpack $wheel"
  node "$here/standalone-schemas.mjs" "$work/$dir" "$strict" "${missing[@]}"
fi
"$bin" -strict -summary -kubernetes-version "$KUBERNETES_VERSION" \
  -schema-location "$schemas/{{.NormalizedKubernetesVersion}}-standalone{{.StrictSuffix}}/{{.ResourceKind}}{{.KindSuffix}}.json" \
  "${files[@]}"
