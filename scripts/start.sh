#!/usr/bin/env bash
# Sets the machine up (scripts/setup.sh) and runs the Waymark server. Arguments go to
# `waymark serve`, e.g. `scripts/start.sh --port 9000 --data /srv/waymark`; the data folder
# defaults to ./data of the current folder (or WAYMARK_DATA).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/scripts/setup.sh"
exec node "$root/bin/waymark.js" serve "$@"
