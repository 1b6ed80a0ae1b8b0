/**
 * The import graph between folders (`npm run check:imports`, run by scripts/test.sh): every import
 * that crosses a top-level folder, or goes from one product in src/ to another, counted in a table;
 * exit status 1, with each offending import named, when one runs a forbidden way:
 *   - the products (src/maps, src/geocoding, src/routing, src/elevation) import each other;
 *   - core/ imports anything outside core/;
 *   - data-pipeline/ imports src/;
 *   - src/ imports data-pipeline/ anywhere but the CLI (src/cli/) and the operator API (src/operator/).
 * It reads the TypeScript sources (not dist/), so it needs a build only for itself.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { PACKAGE_ROOT } from '../core/package-root.js';

const FOLDERS = ['core', 'src', 'data-pipeline', 'scripts', 'bench', 'test'];
const PRODUCTS = new Set(['src/maps', 'src/geocoding', 'src/routing', 'src/elevation']);
const STARTS_IMPORTS = new Set(['src/cli', 'src/operator']);

/** A file's place in the table: its top-level folder; in src/, a product, the CLI or the operator API by itself. */
function unitOf(file: string): string {
  const [top, second] = file.split('/');
  const sub = `${top}/${second}`;
  return PRODUCTS.has(sub) || STARTS_IMPORTS.has(sub) ? sub : top!;
}
const topOf = (unit: string) => unit.split('/')[0]!;

/** Why an import from one unit to another is forbidden, or null. */
function forbidden(from: string, to: string): string | null {
  if (PRODUCTS.has(from) && PRODUCTS.has(to) && from !== to) return 'products never import each other';
  if (from === 'core' && to !== 'core') return 'core/ imports nothing outside core/';
  if (from === 'data-pipeline' && topOf(to) === 'src') return 'data-pipeline/ never imports src/';
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
    if (topOf(from) === topOf(to) && !(PRODUCTS.has(from) && PRODUCTS.has(to) && from !== to)) continue;
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
    `\nno forbidden import: products import no other product, core/ nothing outside it, data-pipeline/ no src/, src/ data-pipeline/ only from src/cli/ and src/operator/`,
  );
}
