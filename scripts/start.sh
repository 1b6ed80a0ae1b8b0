#!/usr/bin/env bash
# Sets the machine up (scripts/setup.sh) and runs the Waymark server. Arguments go to
# `waymark serve`, e.g. `scripts/start.sh --port 9000 --data /srv/waymark`; the data folder
# defaults to ./data of the current folder (or WAYMARK_DATA). WAYMARK_SKIP_SETUP=1 skips the setup
# (a machine set up already: the tests' own `npm start`).
# A data folder without a dataset gets one, built in the background while the server already
# serves the dashboard (the server switches to it when it is done): `waymark import --world
# --geonames` (world map, GeoNames places for geocoding), plus `--osm` for each extract (file or
# URL) in WAYMARK_OSM, comma-separated; when WAYMARK_OSM is not set and the shared test data sits
# next to the checkout, its Monaco extract, Who's On First folder and SRTM tile make the demo
# (detailed map, routing, addresses, terrain and elevation).
#
# This script stays the parent of the server and the import until both have ended, so that
# stopping it stops them: SIGINT, SIGTERM and SIGHUP are passed on to both once (npm passes a
# terminal's Ctrl-C on to this script, which the terminal interrupts as well: one press arrives
# twice within milliseconds, and a second signal would stop the server at once, without writing its
# buffered usage; one more than a second later is passed on as that second signal). The two run in
# sessions of their own (setsid), so that only this script signals them. Under npm (`npm start`),
# npm dying of a signal it does not pass on (SIGHUP) stops them too: checked every second. Their
# exits are waited for (no zombies); the script exits with the server's status.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
if [[ ${WAYMARK_SKIP_SETUP:-} != 1 ]]; then bash "$root/scripts/setup.sh"; fi

data=${WAYMARK_DATA:-./data}
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
  case ${args[i]} in
    --data) data=${args[i + 1]:-$data} ;;
    --data=*) data=${args[i]#--data=} ;;
  esac
done

demo=$(dirname "$root")/shared/data
demo_inputs=()
if [[ -z ${WAYMARK_OSM+set} && -f $demo/osm/monaco.osm.pbf ]]; then
  WAYMARK_OSM=$demo/osm/monaco.osm.pbf
  if [[ -d $demo/wof/mc ]]; then demo_inputs+=(--wof "$demo/wof/mc"); fi
  if [[ -f $demo/dem/N43E007.hgt.zip ]]; then demo_inputs+=(--dem "$demo/dem/N43E007.hgt.zip"); fi # Monaco's SRTM tile
fi

server=
import_pid=
sed_pid=
if [[ ! -e $data/current ]]; then
  import=(import --data "$data" --world --geonames "${demo_inputs[@]}")
  IFS=',' read -ra extracts <<<"${WAYMARK_OSM:-}"
  for extract in "${extracts[@]}"; do
    extract=${extract#"${extract%%[![:space:]]*}"} # trim leading and trailing blanks
    extract=${extract%"${extract##*[![:space:]]}"}
    if [[ -n $extract ]]; then import+=(--osm "$extract"); fi
  done
  echo "start: $data has no dataset yet; importing one in the background (10 s to a minute; its progress comes as \"import:\" lines): waymark ${import[*]}"
  echo "start: the dashboard answers meanwhile; maps, geocoding, routing and elevation answer once the import is done"
  # Through a pipe, its progress is plain lines (a phase's share done and time left, every few
  # seconds) rather than a bar the server's lines would break. sed, a process substitution of this
  # shell, ignores the signals and ends with the import's output; stopped, the import deletes its
  # half-built dataset.
  exec {import_output}> >(trap '' INT TERM HUP && exec sed -u 's/^/import: /')
  sed_pid=$!
  setsid node "$root/bin/waymark.js" "${import[@]}" >&"$import_output" 2>&1 &
  import_pid=$!
  exec {import_output}>&-
fi

stopped_at=
# Passes signal $1 on to the server and the import: the first one, and another more than a second later.
pass_on() {
  local now=${EPOCHREALTIME//[!0-9]/}
  if [[ -n $stopped_at ]] && ((now - stopped_at < 1000000)); then return 0; fi
  if [[ -z $stopped_at ]]; then
    local what='the server'
    if [[ -n $import_pid ]] && kill -0 "$import_pid" 2>/dev/null; then what+=' and the import'; fi
    echo "start: SIG$1: stopping $what…"
  fi
  stopped_at=$now
  kill -s "$1" $server $import_pid 2>/dev/null || true
}
trap 'pass_on INT' INT
trap 'pass_on TERM' TERM
trap 'pass_on HUP' HUP

echo "start: starting the server…"
setsid node "$root/bin/waymark.js" serve "$@" &
server=$!
if [[ -n $stopped_at ]]; then kill -s TERM "$server"; fi # a signal came just before

# npm's pid: this script's parent, as npm runs `exec bash scripts/start.sh`.
npm_pid=$PPID
npm_gone() {
  local stat
  read -r stat <"/proc/$$/stat"
  stat=${stat##*) } # after "pid (name) ": state, parent pid, …
  read -r _ stat _ <<<"$stat"
  [[ $stat != "$npm_pid" ]]
}
sleeper=
while kill -0 "$server" 2>/dev/null; do
  if [[ -n ${npm_lifecycle_event:-} && -z $stopped_at ]] && npm_gone; then
    echo "start: npm (pid $npm_pid) is gone"
    pass_on HUP
  fi
  sleep 1 &
  sleeper=$!
  wait "$sleeper" || true # a signal ends the wait at once
done
kill "$sleeper" 2>/dev/null || true
status=0
wait "$server" || status=$?
if [[ -n $import_pid ]]; then
  if [[ -z $stopped_at ]] && kill -0 "$import_pid" 2>/dev/null; then
    echo "start: the server ended (status $status); stopping the import…"
    kill -s TERM "$import_pid" 2>/dev/null || true
  fi
  for pid in "$import_pid" "$sed_pid"; do
    while kill -0 "$pid" 2>/dev/null; do wait "$pid" || true; done # a signal ends a wait early
  done
fi
exit "$status"
