/**
 * The production dependencies alone run the program (issue 22: pelias-parser requires lodash
 * without declaring it; lodash came only with the dev tree, so the image, which keeps the
 * production dependencies alone, could not open any dataset). Like the Dockerfile, a copy of the
 * checkout's node_modules is pruned with `npm prune --omit=dev` next to package.json, the lock file
 * and the built program; there every runtime module is loaded, every package the code names
 * (lazily ones too: import(), require(), require.resolve()) is loaded, and the geocoder's parser
 * parses an address, failing on any module that cannot be found. No Docker needed.
 */
import test, { type ExecutionContext } from 'ava';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../core/package-root.js';

/** What the image holds of the checkout (Dockerfile), with node_modules not yet pruned. */
function productionCopy(t: ExecutionContext): string {
  const dir = mkdtempSync(join(tmpdir(), 'waymark-production-deps-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  for (const file of [
    'package.json',
    'package-lock.json',
    'bin',
    'dist/src',
    'dist/core',
    'dist/workers',
    'dist/data-pipeline',
    'src/dashboard/web',
    'src/protobuf/schemas',
  ]) {
    cpSync(join(PACKAGE_ROOT, file), join(dir, file), { recursive: true });
  }
  // Hard links: fast and without the space of a copy. The hidden lock file is the one file npm
  // rewrites in place, so it must not be shared with the checkout's.
  const linked = spawnSync('cp', ['-al', join(PACKAGE_ROOT, 'node_modules'), dir]);
  if (linked.status !== 0) cpSync(join(PACKAGE_ROOT, 'node_modules'), join(dir, 'node_modules'), { recursive: true });
  rmSync(join(dir, 'node_modules', '.package-lock.json'), { force: true });
  const prune = spawnSync('npm', ['prune', '--omit=dev', '--offline', '--no-audit', '--no-fund'], { cwd: dir, encoding: 'utf8' });
  if (prune.status !== 0) throw new Error(`npm prune --omit=dev failed: ${prune.stderr}`);
  return dir;
}

/** Run in the pruned copy; prints one JSON line {modules, packages, missing, notes} and exits 1 when something is missing. */
const CHECKER = String.raw`
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = process.cwd();
const RUNTIME = ['dist/src', 'dist/core', 'dist/workers', 'dist/data-pipeline'];
// Entry scripts whose top level runs a program: what they import is checked, they are not run.
const PROGRAMS = new Set(['dist/data-pipeline/queue/child-import.js']);
const NOT_FOUND = new Set(['ERR_MODULE_NOT_FOUND', 'MODULE_NOT_FOUND', 'ERR_PACKAGE_PATH_NOT_EXPORTED']);
const missing = [];
const notes = [];
const failure = (where, error) => {
  if (NOT_FOUND.has(error?.code) || /Cannot find (module|package)/.test(String(error?.message))) missing.push(where + ': ' + String(error.message).split('\n')[0]);
  else notes.push(where + ': ' + String(error?.message).split('\n')[0]);
};

const files = RUNTIME.flatMap((dir) => readdirSync(join(root, dir), { recursive: true }).filter((f) => f.endsWith('.js')).map((f) => join(dir, f)));
// Every specifier the code names: static imports, import(), require(), require.resolve(),
// createRequire(...)(...); a template literal (world-atlas/${'$'}{file}.json) counts by its package.
const QUOTED = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire(?:\.resolve)?\s*\(\s*|\bcreateRequire\([^)]*\)\s*\(\s*)(['"])([^'"\n]+)\1/g;
const TEMPLATE = /\b(?:require(?:\.resolve)?|import)\s*\(\s*${'`'}([^${'`'}$\n]+)\$\{/g;
const packageOf = (spec) => spec.split('/').slice(0, spec.startsWith('@') ? 2 : 1).join('/');
const isModuleName = (spec) => /^(@[\w.-]+\/)?[\w.-]+(\/[\w.@/-]*)?$/.test(spec);
const named = new Map();
for (const file of files) {
  const text = readFileSync(join(root, file), 'utf8');
  const specifiers = [...[...text.matchAll(QUOTED)].map((m) => m[2]), ...[...text.matchAll(TEMPLATE)].map((m) => packageOf(m[1]) + '/package.json')];
  for (const spec of specifiers) {
    if (spec.startsWith('node:') || builtinModules.includes(packageOf(spec))) continue;
    if (spec.startsWith('.')) {
      if (!existsSync(join(root, dirname(file), spec))) missing.push(file + ': ' + spec + ' does not exist');
    } else if (isModuleName(spec) && !named.has(spec)) named.set(spec, file);
  }
}

// Every package the code names, loaded the way the naming file would (require first: subpaths
// without extensions, JSON; import() for ES modules).
for (const [spec, file] of named) {
  const require = createRequire(join(root, file));
  try {
    require(spec);
  } catch (error) {
    if (error?.code === 'ERR_REQUIRE_ESM' || error?.code === 'ERR_REQUIRE_ASYNC_MODULE') {
      try {
        await import(pathToFileURL(require.resolve(spec)).href);
      } catch (inner) {
        failure(spec + ' (named in ' + file + ')', inner);
      }
    } else failure(spec + ' (named in ' + file + ')', error);
  }
}

// Every runtime module: linking an ES module finds all its static imports before any code runs, so
// a module that then throws (a Piscina task outside its pool) was still checked.
for (const file of files) {
  if (PROGRAMS.has(file)) continue;
  try {
    await import(pathToFileURL(join(root, file)).href);
  } catch (error) {
    failure(file, error);
  }
}

// What loads lazily inside the packages themselves: the geocoder's parser (pelias-parser) parses.
try {
  const { parseAddress } = await import(pathToFileURL(join(root, 'dist/src/geocoding/engine/address-parser.js')).href);
  parseAddress('12 Boulevard Albert 1er, 98000 Monaco');
} catch (error) {
  failure('the address parser', error);
}

console.log(JSON.stringify({ modules: files.length, packages: named.size, missing, notes }));
process.exit(missing.length > 0 ? 1 : 0);
`;

interface Checked {
  status: number | null;
  report: { modules: number; packages: number; missing: string[]; notes: string[] };
}

function check(dir: string): Checked {
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', CHECKER], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  const line = run.stdout.trim().split('\n').at(-1) ?? '';
  if (!line.startsWith('{')) throw new Error(`the check printed no report (exit ${run.status}): ${run.stderr}`);
  return { status: run.status, report: JSON.parse(line) };
}

test('the production dependencies alone load every runtime module, package and lazily loaded parser, as in the image', (t) => {
  const dir = productionCopy(t);
  const { status, report } = check(dir);
  t.deepEqual(report.missing, [], 'modules the image would not find');
  t.is(status, 0);
  t.true(report.modules > 100, `only ${report.modules} modules found under dist/`);
  t.true(report.packages > 20, `only ${report.packages} packages named`);
  t.log(`${report.modules} modules, ${report.packages} package specifiers; loaded with notes: ${report.notes.join('; ') || 'none'}`);

  // The check itself finds the issue's case: the parser's undeclared lodash gone from the image.
  rmSync(join(dir, 'node_modules', 'lodash'), { recursive: true });
  const broken = check(dir);
  t.is(broken.status, 1);
  t.true(
    broken.report.missing.some((line) => /lodash/.test(line)),
    broken.report.missing.join('\n'),
  );
});
