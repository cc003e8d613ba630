#!/usr/bin/env bash
# Makes sure the executables of the given groups are on this machine, installing each missing one
# the way deploy/tools/tools.tsv says (apt-get or pip), and says what it installed. Idempotent: a
# machine that has everything gets no apt or pip call. Fails, naming the tool and the reason, when a
# tool cannot be installed or still does not run afterwards; never half-succeeds quietly.
#
# Usage: ensure-tools.sh [--plan] [--assume-missing] <group>...
#   --plan            print what would be installed ("<tool>\t<source>"), install nothing
#   --assume-missing  treat every tool as missing: what a fresh machine of this kind gets
#                     (with --plan, this is how the tests check the list without a fresh machine)
# Groups are the second column of tools.tsv (base, servers, browser, containers, fhir).
# Progress (what it installs, how long it took) goes to stdout, failures to stderr; apt output goes to $WELLSTREAM_LOG_DIR (default .wellstream/logs)/tools-install.log.
set -euo pipefail
DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$DIR/../.." && pwd)"
LIST="$DIR/tools.tsv"
plan=false; assume_missing=false; groups=()
for a in "$@"; do
  case "$a" in
    --plan) plan=true ;;
    --assume-missing) assume_missing=true ;;
    -*) echo "ensure-tools: unknown option $a" >&2; exit 2 ;;
    *) groups+=("$a") ;;
  esac
done
[ ${#groups[@]} -gt 0 ] || { echo "usage: ensure-tools.sh [--plan] [--assume-missing] <group>..." >&2; exit 2; }
die() { echo "ensure-tools: $*" >&2; exit 1; }

# Where a tool may live besides PATH: root's sbin folders, and podman's helper folder (podman looks
# for its pause binary there too).
present() {
  local tool=$1 source=$2
  $assume_missing && return 1
  local found=""
  if command -v "$tool" >/dev/null 2>&1; then found=$(command -v "$tool")
  else
    for d in /usr/sbin /sbin /usr/libexec/podman /usr/lib/podman; do
      if [ -x "$d/$tool" ]; then found="$d/$tool"; break; fi
    done
  fi
  [ -n "$found" ] || return 1
  case "$source" in
    pip:*==*) "$found" --version 2>/dev/null | grep -qF "${source##*==}" ;;   # the pinned version
    *) return 0 ;;
  esac
}

wanted=" ${groups[*]} "
known_groups=" "
apt_pkgs=(); apt_tools=(); pip_specs=(); pip_tools=(); checked=()
while IFS=$'\t' read -r tool group source why; do
  case "$tool" in ''|'#'*) continue ;; esac
  known_groups+="$group "
  [[ "$wanted" == *" $group "* ]] || continue
  checked+=("$tool|$source")
  present "$tool" "$source" && continue
  case "$source" in
    apt:*) apt_pkgs+=("${source#apt:}"); apt_tools+=("$tool") ;;
    pip:*) pip_specs+=("${source#pip:}"); pip_tools+=("$tool") ;;
    machine) $plan && { printf '%s\tmachine\n' "$tool"; continue; }
             die "$tool is required ($why) and comes with every machine of this kind, but it is not here: install it first" ;;
    *) die "tools.tsv: $tool has an unknown source '$source'" ;;
  esac
done < "$LIST"
for g in "${groups[@]}"; do
  [[ "$known_groups" == *" $g "* ]] || die "unknown group '$g' (tools.tsv has:$(echo "$known_groups" | tr ' ' '\n' | sort -u | tr '\n' ' '))"
done

if $plan; then
  for i in "${!apt_tools[@]}"; do printf '%s\tapt:%s\n' "${apt_tools[$i]}" "${apt_pkgs[$i]}"; done
  for i in "${!pip_tools[@]}"; do printf '%s\tpip:%s\n' "${pip_tools[$i]}" "${pip_specs[$i]}"; done
  exit 0
fi

LOG_DIR="${WELLSTREAM_LOG_DIR:-$ROOT/.wellstream/logs}"
mkdir -p "$LOG_DIR"
LOG="$LOG_DIR/tools-install.log"
if [ ${#apt_pkgs[@]} -gt 0 ]; then
  sudo=()
  if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null 2>&1 || die "installing ${apt_pkgs[*]} needs root or sudo"
    sudo=(sudo -n)
  fi
  command -v apt-get >/dev/null 2>&1 || die "apt-get not found: install ${apt_pkgs[*]} yourself"
  # Unique package names (two tools can come from one package).
  mapfile -t pkgs < <(printf '%s\n' "${apt_pkgs[@]}" | sort -u)
  started=$SECONDS
  printf '[tools] installing %s (apt-get: %s) … ' "${apt_tools[*]}" "${pkgs[*]}"
  # A lock timeout: another install (a concurrent test run, the servers' set-up) may hold dpkg's lock.
  if ! { "${sudo[@]}" apt-get -o DPkg::Lock::Timeout=600 update -qq \
         && "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq \
              --no-install-recommends "${pkgs[@]}"; } >>"$LOG" 2>&1; then
    echo "FAILED ($((SECONDS - started)) s)"
    tail -n 30 "$LOG" | sed 's/^/  | /' >&2
    die "apt-get install ${pkgs[*]} failed (log: $LOG; retry: bash $0 ${groups[*]})"
  fi
  echo "done ($((SECONDS - started)) s)"
fi
for i in "${!pip_specs[@]}"; do
  spec=${pip_specs[$i]}
  started=$SECONDS
  printf '[tools] installing %s (pip: %s) … ' "${pip_tools[$i]}" "$spec"
  if ! { python3 -m pip install -q "$spec" || python3 -m pip install -q --break-system-packages "$spec"; } >>"$LOG" 2>&1; then
    echo "FAILED ($((SECONDS - started)) s)"
    tail -n 30 "$LOG" | sed 's/^/  | /' >&2
    die "pip install $spec failed (log: $LOG)"
  fi
  echo "done ($((SECONDS - started)) s)"
done
# Everything of the groups must be here now, whether it was installed just now or before.
for entry in "${checked[@]}"; do
  tool=${entry%%|*}; source=${entry#*|}
  present "$tool" "$source" || die "$tool ($source) is still missing after the install"
done
