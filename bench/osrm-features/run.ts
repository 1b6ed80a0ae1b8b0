/**
 * `npm run bench:osrm-features`: OSRM v6.0.0's features/car, features/bicycle and features/foot
 * through the harness (harness.ts): rows met per column and feature file, per folder and in all,
 * the scenarios skipped by reason, and every missed row. Printed, and written to
 * bench/results/osrm-features-<date>.md. Exits 0 with a message when OSRM's features are absent.
 *
 * `node dist/bench/osrm-features/run.js --engine osrm --osrm-bin DIR [--osrm-profiles DIR]` asks
 * OSRM itself (osrm-engine.ts) instead of Waymark, the same scenarios read and compared the same
 * way; written to bench/results/osrm-features-osrm-<date>.md.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import {
  COLUMNS,
  emptyTally,
  FEATURE_DIRS,
  FEATURES_DIR,
  type FeatureRun,
  featureFiles,
  readFeature,
  runFeature,
  type Tally,
  type RouteEngine,
  tallyRows,
  waymarkEngine,
} from './harness.js';
import { osrmEngine } from './osrm-engine.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

const { values: args } = parseArgs({
  options: {
    engine: { type: 'string', default: 'waymark' },
    'osrm-bin': { type: 'string' },
    'osrm-profiles': { type: 'string', default: resolve(FEATURES_DIR, '..', 'profiles') },
  },
});
let engine: RouteEngine;
if (args.engine === 'waymark') engine = waymarkEngine;
else if (args.engine === 'osrm') {
  if (!args['osrm-bin']) {
    console.error('--engine osrm needs --osrm-bin DIR (the folder of osrm-extract, osrm-contract and osrm-routed)');
    process.exit(2);
  }
  engine = osrmEngine({ binDir: resolve(args['osrm-bin']), profilesDir: resolve(args['osrm-profiles']!) });
} else {
  console.error(`--engine: waymark or osrm, not ${args.engine}`);
  process.exit(2);
}

const files = featureFiles();
if (files.length === 0) {
  console.log(`OSRM's features are not at ${FEATURES_DIR}: nothing to run (the suite is read from there, never copied).`);
  process.exit(0);
}

const started = Date.now();
const runs: FeatureRun[] = [];
for (const file of files) {
  const run = await runFeature(readFeature(file), { engine });
  runs.push(run);
  const rows = run.scenarios.flatMap((s) => s.rows);
  const tally = tallyRows(emptyTally(), rows);
  process.stderr.write(`${file}: ${run.scenarios.length} scenarios, route ${tally.route.met}/${tally.route.total}\n`);
}
const seconds = (Date.now() - started) / 1000;

const cell = ({ met, total }: { met: number; total: number }) => (total === 0 ? '–' : `${met}/${total}`);
const percent = ({ met, total }: { met: number; total: number }) => (total === 0 ? '' : ` (${((100 * met) / total).toFixed(1)} %)`);
const header = `| | scenarios | ${COLUMNS.join(' | ')} |\n|---|---:|${COLUMNS.map(() => '---:').join('|')}|`;
const line = (name: string, scenarios: number, tally: Tally) =>
  `| ${name} | ${scenarios} | ${COLUMNS.map((c) => cell(tally[c])).join(' | ')} |`;

const out: string[] = [];
const date = new Date().toISOString().slice(0, 10);
out.push(`# OSRM v6.0.0 acceptance suite on ${engine.name} (${date})`, '');
out.push(
  `\`npm run bench:osrm-features\`: every scenario of features/{${FEATURE_DIRS.join(',')}} made only of the profile, grid size, origin, node map, nodes/ways/relations tables, query options and "When I route I should get" tables, laid out and compared as OSRM's harness does (bench/osrm-features/), asked of ${engine.description}. Rows met / rows with the column. ${seconds.toFixed(0)} s.`,
  '',
);
out.push('## Totals', '', header);
const total = emptyTally();
let totalScenarios = 0;
for (const dir of FEATURE_DIRS) {
  const dirRuns = runs.filter((r) => r.file.startsWith(`${dir}/`));
  const tally = tallyRows(
    emptyTally(),
    dirRuns.flatMap((r) => r.scenarios.flatMap((s) => s.rows)),
  );
  const scenarios = dirRuns.reduce((n, r) => n + r.scenarios.length, 0);
  tallyRows(
    total,
    dirRuns.flatMap((r) => r.scenarios.flatMap((s) => s.rows)),
  );
  totalScenarios += scenarios;
  out.push(line(dir, scenarios, tally));
}
out.push(line('**all**', totalScenarios, total), '');
out.push(COLUMNS.map((c) => `${c} ${cell(total[c])}${percent(total[c])}`).join(', '), '');
const withoutOptions = runs.flatMap((r) => r.scenarios.filter((s) => !s.queryOptions));
const issueTally = tallyRows(
  emptyTally(),
  withoutOptions.flatMap((s) => s.rows),
);
out.push(
  `Without the ${totalScenarios - withoutOptions.length} scenarios that set \`the query options\` (as issue 24 counted): ${withoutOptions.length} scenarios, ${COLUMNS.map((c) => `${c} ${cell(issueTally[c])}`).join(', ')}.`,
  '',
);

out.push('## Per feature file', '', header);
for (const run of runs) {
  if (run.scenarios.length === 0) continue;
  out.push(
    line(
      run.file,
      run.scenarios.length,
      tallyRows(
        emptyTally(),
        run.scenarios.flatMap((s) => s.rows),
      ),
    ),
  );
}
out.push('');

const skipped = runs.flatMap((run) => run.skipped.map((s) => ({ ...s, file: run.file })));
const byReason = new Map<string, string[]>();
for (const s of skipped) byReason.set(s.reason, [...(byReason.get(s.reason) ?? []), `${s.file}:${s.line}`]);
out.push(`## Skipped scenarios (${skipped.length})`, '', '| scenarios | reason | where |', '|---:|---|---|');
for (const [reason, where] of [...byReason].sort((a, b) => b[1].length - a[1].length)) {
  out.push(`| ${where.length} | ${reason.replace(/\|/g, '\\|')} | ${where.join(' ')} |`);
}
out.push('');

out.push('## Rows missed', '', `| where | waypoints | column | expected | ${engine.name} |`, '|---|---|---|---|---|');
const quoteCell = (text: string | undefined) => (text ?? '').replace(/\|/g, '\\|') || '""';
for (const run of runs) {
  for (const scenario of run.scenarios) {
    for (const row of scenario.rows) {
      for (const column of COLUMNS) {
        if (!(column in row.expected) || row.met[column]) continue;
        const got = row.refused !== undefined ? `refused: ${row.refused}` : row.got[column];
        out.push(
          `| ${run.file}:${scenario.line} | ${row.waypoints} | ${column} | ${quoteCell(row.expected[column])} | ${quoteCell(got)} |`,
        );
      }
    }
  }
}
out.push('');

const report = out.join('\n');
const file = join(ROOT, 'bench', 'results', `osrm-features-${engine === waymarkEngine ? '' : 'osrm-'}${date}.md`);
mkdirSync(dirname(file), { recursive: true });
writeFileSync(file, report);
const summaryEnd = out.indexOf(`## Skipped scenarios (${skipped.length})`);
console.log(out.slice(0, summaryEnd).join('\n'));
console.log(`Skipped ${skipped.length} scenarios:`);
for (const [reason, where] of [...byReason].sort((a, b) => b[1].length - a[1].length)) console.log(`  ${where.length}  ${reason}`);
console.log(`\nWritten to ${file}`);
