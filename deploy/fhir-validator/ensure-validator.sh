#!/usr/bin/env bash
# Makes sure the FHIR validator harness is built in the cache and prints its folder (last line of
# stdout): <cache>/fhir-validator-<hash of pom.xml and sources>/ with libs/ (the jars, from Maven
# Central) and classes/ (ValidatorServer compiled). Run it as
#   java -cp "<dir>/classes:<dir>/libs/*" dev.wellstream.fhirvalidator.ValidatorServer
# Idempotent and safe to run concurrently (flock on the cache folder); a changed pom or source gets a
# new folder. Progress goes to stderr, one line with its time; on failure the Maven or javac output
# is printed and it exits non-zero.
set -euo pipefail
DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$DIR/../.." && pwd)"
CACHE_DIR="${WELLSTREAM_CACHE_DIR:-$HOME/.cache/wellstream}"
die() { echo "ensure-validator: $*" >&2; exit 1; }

bash "$ROOT/deploy/tools/ensure-tools.sh" fhir >&2
command -v java >/dev/null 2>&1 || die "java not found (the validator runs on Java 17)"
command -v javac >/dev/null 2>&1 || die "javac not found (the harness is compiled with the JDK's javac)"
command -v mvn >/dev/null 2>&1 || die "mvn not found (the validator's jars come from Maven Central)"

sum="$(cat "$DIR/pom.xml" $(find "$DIR/src" -name '*.java' | sort) | sha256sum | cut -c1-12)"
out="$CACHE_DIR/fhir-validator-$sum"
if [ -f "$out/.complete" ]; then echo "$out"; exit 0; fi

mkdir -p "$CACHE_DIR"
exec 9>"$CACHE_DIR/.fhir-validator.lock"
flock 9
if [ -f "$out/.complete" ]; then echo "$out"; exit 0; fi

started=$SECONDS
printf '[fhir-validator] fetching HAPI FHIR validator jars (Maven Central) and compiling the harness … ' >&2
work="$(mktemp -d "$CACHE_DIR/.fhir-validator-build.XXXXXX")"
log="$work/build.log"
mkdir -p "$work/pom" "$work/libs" "$work/classes"
cp "$DIR/pom.xml" "$work/pom/pom.xml"
if ! (cd "$work/pom" && mvn -q -B dependency:copy-dependencies -DincludeScope=runtime \
        -DoutputDirectory="$work/libs") >"$log" 2>&1; then
  echo "FAILED ($((SECONDS - started)) s)" >&2; tail -n 40 "$log" >&2
  die "mvn dependency:copy-dependencies failed (retry: bash $0)"
fi
if ! javac -nowarn -encoding UTF-8 -d "$work/classes" -cp "$work/libs/*" $(find "$DIR/src" -name '*.java') >>"$log" 2>&1; then
  echo "FAILED ($((SECONDS - started)) s)" >&2; tail -n 40 "$log" >&2
  die "javac failed (retry: bash $0)"
fi
rm -rf "$out"
mv "$work" "$out"
touch "$out/.complete"
echo "done ($((SECONDS - started)) s, $(ls "$out/libs" | wc -l) jars)" >&2
echo "$out"
