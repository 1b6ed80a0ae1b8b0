#!/usr/bin/env bash
# Sets the machine up and builds (scripts/setup.sh), then runs the ava tests with the TAP
# reporter. The output ends with one plain summary line, `ava: N passed, N failed[, N skipped]`,
# and the exit status is ava's. Extra arguments go to ava, e.g. `scripts/test.sh test/cli.test.ts`.
# Before the tests, the folders' import rule (scripts/check-imports.ts) and the linter and formatter
# (Biome, biome.json: `npm run format` rewrites what the check finds): either failing fails the run.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --test
npm run --silent check:imports
npm run --silent lint

report=$(mktemp)
trap 'rm -f "$report"' EXIT
status=0
npx ava --tap --timeout=2m "$@" | tee "$report" || status=$?

# The last `# pass N` (`# fail N`, `# skip N`) line of the TAP report, or empty.
tap_count() { sed -n "s/^# $1 \([0-9][0-9]*\)\$/\1/p" "$report" | tail -n 1; }
passed=$(tap_count pass)
failed=$(tap_count fail)
skipped=$(tap_count skip)
if [[ -z $passed ]]; then
  echo "ava exited with status $status before reporting any result"
  passed=0
  failed=1
  ((status != 0)) || status=1
fi
# The failures again at the end, where a truncated log still shows them.
grep -A 12 '^not ok' "$report" || true
echo "ava: ${passed} passed, ${failed:-0} failed${skipped:+, ${skipped} skipped}"
exit "$status"
