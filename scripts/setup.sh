#!/usr/bin/env bash
# Prepares a Debian 12 machine to build, run and test Waymark: system packages, npm dependencies
# and the compiled program. Run as root or with sudo. Safe to run again: it installs only what is
# missing and reinstalls npm dependencies only when package-lock.json changed.
set -euo pipefail
cd "$(dirname "$0")/.."

# osmium-tool reads OSM data; chromium runs the browser tests; wrk and tilemaker are for the
# benchmarks; python3, make and g++ build better-sqlite3 when no prebuilt binary can be fetched.
SYSTEM_PACKAGES=(osmium-tool chromium wrk tilemaker python3 make g++)

if ! command -v node >/dev/null || ! node -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 20 ? 0 : 1)'; then
  echo "setup: Waymark needs Node.js 20 or newer (with npm) on the PATH" >&2
  exit 1
fi

missing=()
for package in "${SYSTEM_PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$package")
  fi
done
if ((${#missing[@]} > 0)); then
  if [[ $(id -u) -eq 0 ]]; then
    as_root=()
  elif command -v sudo >/dev/null; then
    as_root=(sudo)
  else
    echo "setup: installing ${missing[*]} needs root; run this as root or install sudo" >&2
    exit 1
  fi
  echo "setup: installing ${missing[*]}"
  "${as_root[@]}" apt-get update
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y "${missing[@]}"
fi

# npm writes node_modules/.package-lock.json on every install: missing, or older than the lock file,
# means (re)install. `npm install` installs the locked versions; unlike `npm ci` it tolerates a lock
# without the optional native binaries of other platforms, which a registry mirror may not carry.
installed=node_modules/.package-lock.json
if [[ ! -f $installed || package-lock.json -nt $installed ]]; then
  npm install --no-audit --no-fund
fi

npm run build
