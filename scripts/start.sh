#!/usr/bin/env bash
# Sets the machine up (scripts/setup.sh) and runs the Waymark server. Arguments go to
# `waymark serve`, e.g. `scripts/start.sh --port 9000 --data /srv/waymark`; the data folder
# defaults to ./data of the current folder (or WAYMARK_DATA).
# A data folder without a dataset gets one, built in the background while the server already
# serves the dashboard (the server switches to it when it is done): `waymark import --world
# --geonames` (world map, GeoNames places for geocoding), plus `--osm` for each extract (file or
# URL) in WAYMARK_OSM, comma-separated; when WAYMARK_OSM is not set and the shared test data sits
# next to the checkout, its Monaco extract and Who's On First folder make the demo (detailed map,
# routing, addresses).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/scripts/setup.sh"

data=${WAYMARK_DATA:-./data}
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
  case ${args[i]} in
    --data) data=${args[i + 1]:-$data} ;;
    --data=*) data=${args[i]#--data=} ;;
  esac
done

demo=$(dirname "$root")/shared/data
demo_wof=()
if [[ -z ${WAYMARK_OSM+set} && -f $demo/osm/monaco.osm.pbf ]]; then
  WAYMARK_OSM=$demo/osm/monaco.osm.pbf
  if [[ -d $demo/wof/mc ]]; then demo_wof=(--wof "$demo/wof/mc"); fi
fi

if [[ ! -e $data/current ]]; then
  import=(import --data "$data" --world --geonames "${demo_wof[@]}")
  IFS=',' read -ra extracts <<<"${WAYMARK_OSM:-}"
  for extract in "${extracts[@]}"; do
    extract=${extract#"${extract%%[![:space:]]*}"} # trim leading and trailing blanks
    extract=${extract%"${extract##*[![:space:]]}"}
    if [[ -n $extract ]]; then import+=(--osm "$extract"); fi
  done
  echo "start: $data has no dataset yet; importing one in the background (10 s to a minute; its progress comes as \"import:\" lines): waymark ${import[*]}"
  echo "start: the dashboard answers meanwhile; maps, geocoding and routing answer once the import is done"
  # A child of this shell, and so of the server that replaces it below: Ctrl-C stops both, and the
  # import deletes its half-built dataset. Through a pipe, its progress is plain lines (a phase's
  # share done and time left, every few seconds) rather than a bar the server's lines would break.
  node "$root/bin/waymark.js" "${import[@]}" 2>&1 | sed -u 's/^/import: /' &
fi

echo "start: starting the server…"
exec node "$root/bin/waymark.js" serve "$@"
