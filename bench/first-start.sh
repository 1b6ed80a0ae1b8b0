#!/usr/bin/env bash
# Times what a new user waits for: a fresh clone of this checkout's HEAD, `npm start` in it, until
# the dashboard answers and until the demo dataset is served (/readyz names it); then, with
# nothing changed, a second `npm start` until the dashboard answers. Aims (issue 26, quiet machine):
# under 120 s, 150 s and 10 s.
#
#   bench/first-start.sh                       npm installs the dependencies from the registry
#   bench/first-start.sh --node-modules DIR    hard-links DIR (cp -al) instead: the clone's first
#                                              start without the download and compile of npm
#
# The clone sits in a temporary folder beside a link to this checkout's ../shared, so the first
# start imports the shared data's Monaco demo as it does next to the checkout; the server listens
# on a free port. Everything is removed at the end; the output of both starts is printed on failure.
# The report (the starts' own lines, then the times) is also written to bench/results/.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
node_modules=
case ${1:-} in
  --node-modules) node_modules=$(cd "$2" && pwd) ;;
  '') ;;
  *) echo "usage: bench/first-start.sh [--node-modules DIR]" >&2 && exit 2 ;;
esac

work=$(mktemp -d)
server=
stop_server() {
  if [[ -n $server ]] && kill -0 "$server" 2>/dev/null; then
    kill -TERM -- "-$server" 2>/dev/null || true
    while kill -0 "$server" 2>/dev/null; do sleep 0.2; done
  fi
  server=
}
trap 'stop_server; rm -rf "$work"' EXIT
if [[ -d $here/../shared ]]; then ln -s "$(cd "$here/../shared" && pwd)" "$work/shared"; fi
port=$(node -e "const s = require('node:net').createServer().listen(0, '127.0.0.1', () => { console.log(s.address().port); s.close(); })")
base=http://127.0.0.1:$port

now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }
# Whether PATH answers 200 and, with a second argument, its body holds that text.
answers() {
  local body
  body=$(curl -s -f "$base$1") && [[ $body == *"${2:-}"* ]]
}

# Starts `npm start` in the clone, in a process group of its own (the import is part of it).
start() {
  (cd "$work/waymark" && exec setsid npm start -- --port "$port" >>"$work/start.log" 2>&1) &
  server=$!
}
# Waits for `answers PATH [TEXT]` (at most 20 minutes); fails with the start's output if it never does.
wait_for() {
  local deadline=$((SECONDS + 1200))
  until answers "$@"; do
    if ! kill -0 "$server" 2>/dev/null || ((SECONDS > deadline)); then
      cat "$work/start.log" >&2
      echo "first-start: $base$1 never answered" >&2
      exit 1
    fi
    sleep 0.25
  done
}

t0=$(now)
git clone -q "$here" "$work/waymark"
if [[ -n $node_modules ]]; then
  # Taken as installed for this lock, as scripts/setup.sh records an install (new files in the
  # copied folders; the linked files are not written).
  cp -al "$node_modules" "$work/waymark/node_modules"
  sha256sum "$work/waymark/package-lock.json" | cut -d ' ' -f 1 >"$work/waymark/node_modules/.waymark-lock.sha256"
fi
start
wait_for /dashboard/
dashboard=$(since "$t0")
wait_for /readyz '"dataset":"' # 503 until the import is done
dataset=$(since "$t0")
stop_server

echo '--- second start ---' >>"$work/start.log"
t1=$(now)
start
wait_for /dashboard/
restart=$(since "$t1")
stop_server

how=${node_modules:+node_modules linked from $node_modules}
report=$here/bench/results/first-start-$(date +%Y-%m-%d).md
mkdir -p "$here/bench/results"
{
  echo '```'
  grep -E '^(setup|start|import):' "$work/start.log" || true
  echo '```'
  echo
  echo "- load average at the end: $(cut -d ' ' -f 1-3 /proc/loadavg)"
  echo "- first start (${how:-npm install from the registry}): dashboard after ${dashboard} s, demo dataset served after ${dataset} s"
  echo "- second start, nothing changed: dashboard after ${restart} s"
} | tee "$report"
echo "(written to $report)"
