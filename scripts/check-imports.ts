/**
 * The import graph between folders (`npm run check:imports`, run by scripts/test.sh): every import
 * that crosses a top-level folder, or goes from one product in src/ to another, counted in a table;
 * exit status 1, with each offending import named, when one runs a forbidden way:
 *   - the products (src/maps, src/geocoding, src/routing, src/elevation) import each other;
 *   - core/ imports anything outside core/;
 *   - workers/ (what runs on the serving pools' threads) imports anything but workers/ and core/, or
 *     one pool's code (workers/routing/, workers/render/) imports the other's;
 *   - src/ imports from workers/ anything but a pool's contract (workers/routing/task.ts,
 *     workers/render/task.ts);
 *   - data-pipeline/ imports src/ or workers/;
 *   - src/ imports data-pipeline/ anywhere but the CLI (src/cli/) and the operator API (src/operator/).
 * It reads the TypeScript sources (not dist/), so it needs a build only for itself.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { PACKAGE_ROOT } from '../core/package-root.js';

const FOLDERS = ['core', 'workers', 'src', 'data-pipeline', 'scripts', 'bench', 'test'];
const PRODUCTS = new Set(['src/maps', 'src/geocoding', 'src/routing', 'src/elevation']);
const STARTS_IMPORTS = new Set(['src/cli', 'src/operator']);
const POOLS = new Set(['workers/routing', 'workers/render']);
/** The one file of each pool that src/ may import: what a task and its answer are. */
const POOL_CONTRACTS = new Set(['workers/routing/task.ts', 'workers/render/task.ts']);

/**
 * A file's place in the table: its top-level folder; in src/, a product, the CLI or the operator API
 * by itself; in workers/, a pool's code, its contract (task.ts) apart.
 */
function unitOf(file: string): string {
  if (POOL_CONTRACTS.has(file)) return file.replace(/\.ts$/, '');
  const [top, second] = file.split('/');
  const sub = `${top}/${second}`;
  return PRODUCTS.has(sub) || STARTS_IMPORTS.has(sub) || POOLS.has(sub) ? sub : top!;
}
const poolOf = (unit: string) => (topOf(unit) === 'workers' ? unit.split('/').slice(0, 2).join('/') : null);
const topOf = (unit: string) => unit.split('/')[0]!;

/** Why an import from one unit to another is forbidden, or null. */
function forbidden(from: string, to: string): string | null {
  if (PRODUCTS.has(from) && PRODUCTS.has(to) && from !== to) return 'products never import each other';
  if (from === 'core' && to !== 'core') return 'core/ imports nothing outside core/';
  if (topOf(from) === 'workers' && topOf(to) !== 'workers' && to !== 'core')
    return 'workers/ imports only workers/ and core/: thread code never loads event-loop code';
  if (topOf(from) === 'workers' && topOf(to) === 'workers' && poolOf(from) !== poolOf(to))
    return "one pool's thread code never imports the other's";
  if (topOf(from) === 'src' && topOf(to) === 'workers' && !to.endsWith('/task'))
    return "src/ imports from workers/ only a pool's contract (task.ts)";
  if (from === 'data-pipeline' && (topOf(to) === 'src' || topOf(to) === 'workers')) return 'data-pipeline/ never imports src/ or workers/';
  if (topOf(from) === 'src' && to === 'data-pipeline' && !STARTS_IMPORTS.has(from))
    return 'src/ imports data-pipeline/ only from src/cli/ and src/operator/';
  return null;
}

const sources = FOLDERS.flatMap((folder) =>
  (readdirSync(join(PACKAGE_ROOT, folder), { recursive: true, encoding: 'utf8' }) as string[])
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts') && !file.split(/[\\/]/).includes('node_modules'))
    .map((file) => join(folder, file).replaceAll('\\', '/')),
);

const counts = new Map<string, number>();
const offences: string[] = [];
for (const file of sources) {
  const text = readFileSync(join(PACKAGE_ROOT, file), 'utf8');
  for (const { fileName: specifier, pos } of ts.preProcessFile(text, true, true).importedFiles) {
    if (!specifier.startsWith('.')) continue;
    const target = relative(PACKAGE_ROOT, resolve(PACKAGE_ROOT, dirname(file), specifier))
      .replaceAll('\\', '/')
      .replace(/\.js$/, '.ts');
    if (target.startsWith('..')) continue;
    const [from, to] = [unitOf(file), unitOf(target)];
    if (from === to || (topOf(from) === topOf(to) && topOf(from) !== 'workers' && !(PRODUCTS.has(from) && PRODUCTS.has(to)))) continue;
    const row = `${from}\t${to}`;
    counts.set(row, (counts.get(row) ?? 0) + 1);
    const why = forbidden(from, to);
    if (why !== null) offences.push(`  ${file}:${text.slice(0, pos).split('\n').length} imports ${target}: ${why}`);
  }
}

const rows = [...counts]
  .sort(([a], [b]) => a.localeCompare(b))
  .map(([row, n]) => [...row.split('\t'), String(n), forbidden(...(row.split('\t') as [string, string])) ? 'FORBIDDEN' : '']);
const table = [['from', 'to', 'imports', ''], ...rows];
const widths = [0, 1, 2].map((column) => Math.max(...table.map((row) => row[column]!.length)));
for (const row of table) {
  console.log(`${row[0]!.padEnd(widths[0]!)}  ${row[1]!.padEnd(widths[1]!)}  ${row[2]!.padStart(widths[2]!)}  ${row[3]}`.trimEnd());
}
if (offences.length > 0) {
  console.log(
    `\n${offences.length} import(s) run a forbidden way (scripts/check-imports.ts says which ways are allowed):\n${offences.sort().join('\n')}`,
  );
  process.exitCode = 1;
} else {
  console.log(
    `\nno forbidden import: products import no other product, core/ nothing outside it, workers/ only workers/ and core/ (each pool its own), src/ of workers/ only the pools' task.ts, data-pipeline/ neither src/ nor workers/, src/ data-pipeline/ only from src/cli/ and src/operator/`,
  );
}
