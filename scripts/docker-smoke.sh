#!/usr/bin/env bash
# Runs the production image and the compose cluster for real, and checks what a user would do
# (docs/OPERATIONS.md, "The image, tested"). Not part of CI: it needs a Docker daemon, builds the
# image (a few minutes) and starts ten containers. From the repository:
#
#   scripts/docker-smoke.sh
#
# 1. `docker build -t $WAYMARK_IMAGE .` (default tag waymark); its size and build time.
# 2. One container on a volume: the Monaco extract and its Who's On First folder imported through
#    the image's CLI, a user and a key made with it, then a vector tile, a search, a route and a
#    raster tile through the published port; /readyz, 503 on the empty volume, and Docker's health
#    status become healthy.
# 3. docs/cluster/compose.yaml (3 nodes, nginx, 2 workers, Redis): an import through the operator
#    API, every node serving it, every container healthy; then Redis paused: /healthz and the
#    dashboard still answer through nginx while API calls get 503 with Retry-After; Redis back,
#    the API answers again.
# Everything it starts is removed at the end, also on failure.
#
# Settings (environment): WAYMARK_SHARED_DATA (default ../shared/data of the checkout, holding
# osm/monaco.osm.pbf and wof/mc), WAYMARK_SMOKE_PORT (default 18080: the single container; +1 for
# the cluster's nginx), SKIP_BUILD=1 (use the tagged image as it is). Build arguments for machines
# behind a TLS-re-signing proxy without Docker Hub: EXTRA_CA_CERTS_FILE (PEM file npm must also
# trust in the build) and NODE_HEADERS_DIR (folder with include/node inside the base image).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
image=${WAYMARK_IMAGE:-waymark}
shared=$(cd "${WAYMARK_SHARED_DATA:-$root/../shared/data}" && pwd)
port=${WAYMARK_SMOKE_PORT:-18080}
lb_port=$((port + 1))
run_id=$$
single=waymark-smoke-$run_id
project=waymark-smoke-$run_id
work=$(mktemp -d)
started=$SECONDS
summary=()

if docker compose version >/dev/null 2>&1; then compose=(docker compose); else compose=(docker-compose); fi
for file in "$shared/osm/monaco.osm.pbf" "$shared/wof/mc"; do
  [[ -e $file ]] || { echo "docker-smoke: $file is missing (WAYMARK_SHARED_DATA)" >&2; exit 1; }
done

# Messages go to fd 3, the script's output, also from commands whose output wait_for discards.
exec 3>&1
log() { printf '[%4ds] %s\n' $((SECONDS - started)) "$*" >&3; }
fail() { log "FAILED: $*"; exit 1; }
note() { summary+=("$*"); log "$*"; }

# Polls `cmd` once a second until it succeeds: waits on the thing itself, never a fixed time.
wait_for() {
  local what=$1 limit=$2; shift 2
  local until=$((SECONDS + limit))
  until "$@" >/dev/null 2>&1; do
    ((SECONDS < until)) || fail "$what (not within ${limit}s)"
    sleep 1
  done
}

# status URL [curl options…]: the HTTP status of a GET; headers go to $work/headers, body to $work/body.
status() { local url=$1; shift; curl -sS -o "$work/body" -D "$work/headers" -w '%{http_code}' --max-time 30 "$@" "$url"; }
expect() {
  local want=$1 what=$2 url=$3 got; shift 3
  got=$(status "$url" "$@") || got=000
  [[ $got == "$want" ]] || fail "$what: $url answered $got, not $want: $(head -c 300 "$work/body" 2>/dev/null)"
}
answers() { [[ $(status "$1") == "$2" ]]; }
health() { [[ $(docker inspect -f '{{.State.Health.Status}}' "$1") == healthy ]]; }

cleanup() {
  local code=$?
  if ((code != 0)); then
    docker logs --tail 30 "$single" 2>&1 | sed 's/^/  single: /' || true
    "${compose[@]}" -p "$project" -f docs/cluster/compose.yaml -f "$work/override.yaml" logs --tail 15 2>/dev/null | sed 's/^/  /' || true
  fi
  docker rm -f "$single" >/dev/null 2>&1 || true
  docker volume rm "$single-data" >/dev/null 2>&1 || true
  if [[ -f $work/override.yaml ]]; then
    "${compose[@]}" -p "$project" -f docs/cluster/compose.yaml -f "$work/override.yaml" down -v --remove-orphans >/dev/null 2>&1 || true
  fi
  rm -rf "$work"
  exit "$code"
}
trap cleanup EXIT

# Monaco: a z14 tile, the casino and Fontvieille (routing/osrm-api tests use the same points).
TILE=14/8530/5975
ROUTE='mode=driving&origin=43.7394,7.4276&destination=43.7302,7.4154'
# checks BASE KEY: the four services answer through BASE.
check_services() {
  local base=$1 key=$2
  expect 200 'vector tile' "$base/api/v1/tiles/shortbread/$TILE.pbf?key=$key"
  [[ -s $work/body ]] || fail 'the vector tile is empty'
  expect 200 search "$base/api/v1/geocoding/search?text=Monaco&key=$key"
  grep -q '"features":\[{' "$work/body" || fail "the search found nothing: $(head -c 300 "$work/body")"
  expect 200 route "$base/api/v1/directions?$ROUTE&key=$key"
  grep -q '"routes":\[{' "$work/body" || fail "no route: $(head -c 300 "$work/body")"
  expect 200 'raster tile' "$base/api/v1/styles/light/tiles/$TILE.png?key=$key"
  grep -qi '^content-type: image/png' "$work/headers" || fail 'the raster tile is not a PNG'
}
# json_field NAME: a string field of the JSON in $work/body (or stdin).
json_field() { node -e 'let s = "";process.stdin.on("data", (d) => (s += d)).on("end", () => console.log(JSON.parse(s)[process.argv[1]] ?? ""))' "$1"; }

# --- 1. the image --------------------------------------------------------------------------------
if [[ ${SKIP_BUILD:-} != 1 ]]; then
  build_args=()
  if [[ -n ${EXTRA_CA_CERTS_FILE:-} ]]; then build_args+=(--build-arg "EXTRA_CA_CERTS=$(cat "$EXTRA_CA_CERTS_FILE")"); fi
  if [[ -n ${NODE_HEADERS_DIR:-} ]]; then build_args+=(--build-arg "NODE_HEADERS_DIR=$NODE_HEADERS_DIR"); fi
  log "docker build -t $image ."
  t0=$SECONDS
  docker build -q -t "$image" "${build_args[@]}" . >/dev/null 2>"$work/build.log" || { tail -30 "$work/build.log" >&3; fail 'docker build'; }
  note "image built in $((SECONDS - t0)) s"
fi
note "image size: $(docker image inspect -f '{{.Size}}' "$image" | awk '{printf "%.0f MB", $1 / 1e6}')"

# --- 2. one container ----------------------------------------------------------------------------
log "single container $single on 127.0.0.1:$port"
t0=$SECONDS
docker run -d --name "$single" -p "127.0.0.1:$port:8080" -v "$single-data:/data" -v "$shared:/shared:ro" "$image" >/dev/null
base=http://127.0.0.1:$port
wait_for 'the container answers /healthz' 60 answers "$base/healthz" 200
expect 503 'an empty container is not ready' "$base/readyz"
[[ $(docker exec "$single" id -un) == waymark ]] || fail 'the container does not run as waymark'
banner=$(docker logs "$single" 2>&1)
grep -q 'listening on every interface, port 8080' <<<"$banner" || fail "banner: $banner"
grep -q 'docker exec <container> waymark user create' <<<"$banner" || fail "banner hint: $banner"
note "single: serving $((SECONDS - t0)) s after docker run"

t0=$SECONDS
docker exec "$single" waymark import --osm /shared/osm/monaco.osm.pbf --wof /shared/wof/mc >"$work/import.log" 2>&1 || { cat "$work/import.log"; fail 'import through the image'; }
note "single: Monaco imported through the image's CLI in $((SECONDS - t0)) s"
wait_for 'the server switches to the new dataset' 30 bash -c "curl -sf $base/readyz | grep -q '\"dataset\":\"'"
docker exec "$single" waymark user create --email smoke@example.com --password 'smoke test password' --org smoke >/dev/null
key=$(docker exec "$single" waymark key create --org smoke --name smoke --json | json_field value)
[[ $key == wmk_* ]] || fail "key create printed no key: $key"
check_services "$base" "$key"
note 'single: vector tile, search, route and raster tile 200'
t0=$SECONDS
wait_for "Docker's health check reports healthy" 90 health "$single"
note "single: Docker health healthy ($((SECONDS - t0)) s after the checks)"
docker rm -f "$single" >/dev/null
docker volume rm "$single-data" >/dev/null

# --- 3. the cluster ------------------------------------------------------------------------------
# The shared data mounted into the nodes and workers, so a job can name the extract by path.
cat >"$work/override.yaml" <<EOF
services:
$(for s in api-1 api-2 api-3 worker-1 worker-2; do printf '  %s: { volumes: ["%s:/shared:ro"] }\n' "$s" "$shared"; done)
EOF
export WAYMARK_OPERATOR_TOKEN WAYMARK_LB_PORT=$lb_port WAYMARK_IMAGE=$image
WAYMARK_OPERATOR_TOKEN=$(od -An -N24 -tx1 /dev/urandom | tr -d ' \n')
dc() { "${compose[@]}" -p "$project" -f docs/cluster/compose.yaml -f "$work/override.yaml" "$@"; }
lb=http://127.0.0.1:$lb_port
log "cluster $project (${compose[*]}), nginx on 127.0.0.1:$lb_port"
t0=$SECONDS
dc up -d >"$work/up.log" 2>&1 || { cat "$work/up.log"; fail 'compose up'; }
wait_for '/healthz through nginx' 90 answers "$lb/healthz" 200
cluster_up() { dc exec -T api-1 waymark status --json >"$work/status.json" && node -e '
  const s = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  process.exit(s.nodes.filter((n) => n.up).length === 3 && s.workers.length === 2 ? 0 : 1)' "$work/status.json"; }
wait_for '3 nodes and 2 workers in waymark status' 90 cluster_up
urls=$(node -p 'JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).nodes.map((n) => n.url).sort().join(" ")' "$work/status.json")
[[ $urls == 'http://api-1:8080 http://api-2:8080 http://api-3:8080' ]] || fail "waymark status lists the nodes as $urls"
note "cluster: 3 nodes and 2 workers up $((SECONDS - t0)) s after compose up; status lists $urls"

t0=$SECONDS
auth=(-H "Authorization: Bearer $WAYMARK_OPERATOR_TOKEN")
expect 202 'POST /operator/imports' "$lb/operator/imports" "${auth[@]}" -X POST -H 'Content-Type: application/json' \
  -d '{"osm": ["/shared/osm/monaco.osm.pbf"], "wof": ["/shared/wof/mc"]}'
job=$(json_field id <"$work/body")
import_done() {
  status "$lb/operator/imports/$job" "${auth[@]}" >/dev/null
  local state; state=$(json_field status <"$work/body")
  [[ $state == failed ]] && fail "the import failed: $(cat "$work/body")"
  [[ $state == completed ]]
}
wait_for "import job $job completes" 600 import_done
dataset=$(node -p 'JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).result.datasetId' "$work/body")
note "cluster: import $job through the operator API completed in $((SECONDS - t0)) s (dataset $dataset)"

dc exec -T api-1 waymark user create --email smoke@example.com --password 'smoke test password' --org smoke >/dev/null
key=$(dc exec -T api-1 waymark key create --org smoke --name smoke --json | json_field value)
[[ $key == wmk_* ]] || fail "key create printed no key: $key"
t0=$SECONDS
for node in api-1 api-2 api-3; do
  serves() { dc exec -T "$node" node -e "fetch('http://127.0.0.1:8080/readyz').then((r) => r.json()).then((b) => process.exit(b.dataset === '$dataset' ? 0 : 1), () => process.exit(1))"; }
  wait_for "$node serves dataset $dataset" 120 serves
  dc exec -T "$node" node -e "fetch('http://127.0.0.1:8080/api/v1/tiles/shortbread/$TILE.pbf?key=$key').then((r) => process.exit(r.status === 200 ? 0 : 1), () => process.exit(1))" \
    || fail "$node does not serve the tile"
done
note "cluster: every node serves $dataset (fetched from the worker; $((SECONDS - t0)) s after the job)"
check_services "$lb" "$key"
note 'cluster: vector tile, search, route and raster tile 200 through nginx'
t0=$SECONDS
for service in api-1 api-2 api-3 worker-1 worker-2; do
  wait_for "$service healthy" 120 health "$(dc ps -q "$service")"
done
note "cluster: the 5 Waymark containers healthy (workers on their own /healthz; $((SECONDS - t0)) s more)"

# Redis away: as many API calls as it takes nginx to mark nodes down if it counted 503s as failures.
dc pause redis >/dev/null 2>&1
t0=$SECONDS
for i in 1 2 3 4 5 6 7 8 9; do
  expect 503 'an API call while Redis is paused' "$lb/api/v1/tiles/shortbread/$TILE.pbf?key=$key"
  grep -qi '^retry-after: ' "$work/headers" || fail 'the 503 has no Retry-After'
  expect 200 '/healthz while Redis is paused' "$lb/healthz"
  expect 200 'the dashboard while Redis is paused' "$lb/dashboard/"
done
note "cluster: Redis paused: 9 API calls 503 with Retry-After, /healthz and /dashboard/ 200 throughout ($((SECONDS - t0)) s)"
dc unpause redis >/dev/null 2>&1
t0=$SECONDS
wait_for 'the API answers again once Redis is back' 60 answers "$lb/api/v1/tiles/shortbread/$TILE.pbf?key=$key" 200
note "cluster: Redis back: API 200 again after $((SECONDS - t0)) s"

dc down -v --remove-orphans >/dev/null 2>&1
rm -f "$work/override.yaml"
echo
echo "docker-smoke: passed in $((SECONDS - started)) s"
printf '  %s\n' "${summary[@]}"
