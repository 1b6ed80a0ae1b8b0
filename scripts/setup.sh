#!/usr/bin/env bash
# Prepares a Debian 12 machine to build and run Waymark: system packages, npm dependencies and the
# compiled program. Run as root or with sudo. Safe to run again: it installs only what is missing,
# reinstalls npm dependencies only when a lock file changed and builds only when a source changed;
# it says what it does before each step that takes a while.
#
#   scripts/setup.sh            what running Waymark needs (npm start)
#   scripts/setup.sh --test     also chromium, for the browser tests, redis-server and redis-sentinel,
#                               for the cluster and Sentinel tests, and gdal-bin (npm test)
#   scripts/setup.sh --bench    also the benchmarks' baselines: wrk and tilemaker (Debian), and
#                               tileserver-gl-light (npm, into bench/tools; it compiles sqlite3)
set -euo pipefail
cd "$(dirname "$0")/.."

# Node 20 is what the README names; every locked dependency supports it (package.json pins the two
# transitive ones whose latest releases declare Node 22).
NODE_MAJOR=20

# python3, make and g++ build better-sqlite3 (no prebuilt binary can be fetched); osmium-tool reads OSM.
BUILD_PACKAGES=(python3 make g++)
RUN_PACKAGES=(osmium-tool)
# gdal-bin: the terrain tests compare elevations with GDAL's reading of the same DEM files.
TEST_PACKAGES=(chromium gdal-bin)
BENCH_PACKAGES=(wrk tilemaker)

with_bench=false
extra=()
for arg in "$@"; do
  case $arg in
    --test)
      extra+=("${TEST_PACKAGES[@]}")
      # The cluster tests start a redis-server of their own (beside the machine's Redis, untouched);
      # the Sentinel test its own redis-sentinel processes as well.
      command -v redis-server >/dev/null || extra+=(redis-server)
      command -v redis-sentinel >/dev/null || extra+=(redis-sentinel)
      ;;
    --bench) extra+=("${BENCH_PACKAGES[@]}") && with_bench=true ;;
    *) echo "setup: unknown option $arg; use --test and/or --bench" >&2 && exit 2 ;;
  esac
done

if ! command -v node >/dev/null || ! node -e "process.exit(Number(process.versions.node.split('.')[0]) >= $NODE_MAJOR ? 0 : 1)"; then
  echo "setup: Waymark needs Node.js $NODE_MAJOR or newer (with npm) on the PATH; found $(node --version 2>/dev/null || echo none)" >&2
  exit 1
fi

missing_of() {
  for package in "$@"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' || echo "$package"
  done
}

apt_updated=false
apt_install() {
  (($# > 0)) || return 0
  local as_root=()
  if [[ $(id -u) -ne 0 ]]; then
    command -v sudo >/dev/null || { echo "setup: installing $* needs root; run this as root or install sudo" >&2 && return 1; }
    as_root=(sudo)
  fi
  echo "setup: installing $*"
  if [[ $apt_updated == false ]]; then
    "${as_root[@]}" apt-get update -qq
    apt_updated=true
  fi
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

# The compilers must be there before npm builds better-sqlite3; the other packages install while
# npm works (apt and npm use different resources: network and disk, the compiler's CPU).
mapfile -t missing_build < <(missing_of "${BUILD_PACKAGES[@]}")
mapfile -t missing_other < <(missing_of "${RUN_PACKAGES[@]}" "${extra[@]}")
apt_install "${missing_build[@]}"
apt_install "${missing_other[@]}" &
apt_job=$!

# Runs a command, saying every 15 s how long it has been running, so that a long step never looks hung.
with_heartbeat() {
  local what=$1 started=$SECONDS
  shift
  (while sleep 15; do echo "setup: still $what, $((SECONDS - started)) s so far"; done) &
  local beat=$! status=0
  "$@" || status=$?
  kill "$beat" 2>/dev/null || true
  return "$status"
}

# node_modules holds what package-lock.json locks once node_modules/.waymark-lock.sha256 holds the
# lock's hash, written after an install that succeeded: a changed lock (a pull, a branch) installs
# again, an unchanged one costs nothing. `npm install` installs the locked versions; unlike `npm ci`
# it tolerates a lock without the optional native binaries of other platforms, which a registry
# mirror may not carry. Compiling better-sqlite3 (the packages' install scripts) takes a minute or
# more on one core: with `overlap`, npm installs the packages without their scripts and `npm
# rebuild` runs them in the background, while TypeScript builds, and finish_install waits for it.
# Its SQLite is compiled at -O2, as SQLite's own build and Debian's compile it, not at the -O3 of
# better-sqlite3's gyp file (the later flag wins): a quarter less compile time (118 → 90 s on one
# core), and tile reads, full-text searches and inserts as fast (docs/BENCHMARKS.md).
addons_job=''
npm_install_in() {
  local dir=$1 what=$2 overlap=${3:-} lock_hash started=$SECONDS
  lock_hash=$(sha256sum "$dir/package-lock.json" | cut -d ' ' -f 1)
  if [[ -f $dir/node_modules/.waymark-lock.sha256 && $(<"$dir/node_modules/.waymark-lock.sha256") == "$lock_hash" ]]; then return 0; fi
  echo "setup: installing the npm dependencies of $dir (on a first start, or after package-lock.json changed; $what)…"
  if [[ -z $overlap ]]; then
    (cd "$dir" && with_heartbeat 'installing npm dependencies' npm install --no-audit --no-fund)
    echo "$lock_hash" >"$dir/node_modules/.waymark-lock.sha256"
    echo "setup: npm dependencies installed in $((SECONDS - started)) s"
    return 0
  fi
  (cd "$dir" && with_heartbeat 'installing npm dependencies' npm install --no-audit --no-fund --ignore-scripts)
  echo "setup: npm packages in place in $((SECONDS - started)) s; better-sqlite3 compiles while the build runs"
  addons_log=$(mktemp)
  (cd "$dir" && CFLAGS="${CFLAGS:-} -O2" npm rebuild --no-audit --no-fund >"$addons_log" 2>&1 && echo "$lock_hash" >node_modules/.waymark-lock.sha256) &
  addons_job=$!
  addons_started=$SECONDS
}
finish_install() {
  [[ -n $addons_job ]] || return 0
  if ! with_heartbeat 'compiling better-sqlite3' wait "$addons_job"; then
    cat "$addons_log" >&2
    echo "setup: npm rebuild (the dependencies' install scripts) failed" >&2
    return 1
  fi
  echo "setup: native addons compiled in $((SECONDS - addons_started)) s"
  rm -f "$addons_log"
}
npm_install_in . 'about 500 packages to download and better-sqlite3 to compile: 1 to 4 minutes' overlap
if [[ $with_bench == true ]]; then npm_install_in bench/tools 'sqlite3 to compile: a minute or two'; fi

# The build (tsc → dist/) runs only when a source may have changed since the last one that
# succeeded: dist/.build-stamp lists the files that build compiled, and its time is when it
# started; a file added, removed, or modified after that (a checkout, an edit), or a changed
# tsconfig.json or package-lock.json (the types of the dependencies), builds again. Checking takes
# milliseconds; `tsc --incremental` takes seconds to find that nothing changed.
build_if_changed() {
  local stamp=dist/.build-stamp sources started=$SECONDS
  sources=$(find core src workers test bench data-pipeline scripts -name node_modules -prune -o -name '*.ts' -print | LC_ALL=C sort)
  if [[ -f $stamp && $(<"$stamp") == "$sources" && ! tsconfig.json -nt $stamp && ! package-lock.json -nt $stamp ]] &&
    [[ -z $(find core src workers test bench data-pipeline scripts -name node_modules -prune -o -name '*.ts' -newer "$stamp" -print -quit) ]]; then
    echo "setup: the build is up to date (no source changed since it was made)"
    return 0
  fi
  echo "setup: building (TypeScript → dist/: 10 to 15 s on an idle machine, a minute or more on a busy one)…"
  mkdir -p dist
  local next
  next=$(mktemp dist/.build-stamp.XXXXXX)
  echo "$sources" >"$next" # written now: its time is the build's start
  with_heartbeat building npm run --silent build || { rm -f "$next" && return 1; }
  mv "$next" "$stamp"
  echo "setup: built in $((SECONDS - started)) s"
}
build_if_changed
finish_install
wait "$apt_job"
