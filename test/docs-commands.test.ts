// The import commands in docs/*.md run as written (issue 26: docs/GEOCODING.md named
// `ca-ab-banff.csv` and `wof/mc` without the shared data's folders): every local file or folder a
// fenced `waymark import` command names exists, relative to the checkout, where the commands run.
// Absolute paths (`/srv/…`, a server's own) and placeholders (`FILE`, `[--osm F]`) are examples.
import test from 'ava';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { dataTest, SHARED_DATA } from './helpers/shared-data.js';

const DOCS = join(process.cwd(), 'docs');
const INPUT_OPTIONS = new Set(['--osm', '--wof', '--oa', '--dem']);

/** Each `waymark import` command of the fenced code blocks of a Markdown text, its continuation lines joined. */
function importCommands(markdown: string): string[] {
  const commands: string[] = [];
  for (const block of markdown.split('```').filter((_, i) => i % 2 === 1)) {
    const joined = block.replace(/\\\n\s*/g, ' ');
    for (const line of joined.split('\n')) if (/\bwaymark import\b/.test(line)) commands.push(line.trim());
  }
  return commands;
}

/** The local paths a command gives its input options: not URLs, absolute example paths or placeholders. */
function localInputs(command: string): string[] {
  const words = command.split(/\s+/);
  return words
    .filter((_, i) => i > 0 && INPUT_OPTIONS.has(words[i - 1]!))
    .filter((value) => !/^https?:\/\//.test(value) && !value.startsWith('/') && !/[[\]<>]|^[A-Z_]+$/.test(value));
}

const docs = readdirSync(DOCS)
  .filter((name) => name.endsWith('.md'))
  .map((name) => ({ name, commands: importCommands(readFileSync(join(DOCS, name), 'utf8')) }));

test('the commands are found: docs/GEOCODING.md imports the shared data from its folders', (t) => {
  const geocoding = docs.find((doc) => doc.name === 'GEOCODING.md')!;
  t.true(geocoding.commands.length > 0);
  t.true(
    geocoding.commands.some((command) => localInputs(command).some((path) => path.startsWith('../shared/data/oa/'))),
    geocoding.commands.join('\n'),
  );
  t.deepEqual(localInputs('waymark import --osm a.osm.pbf --osm https://x/y.osm.pbf --wof /srv/wof/mc --oa FILE --world'), ['a.osm.pbf']);
});

dataTest('every local input a docs/*.md import command names exists relative to the checkout', [SHARED_DATA], (t) => {
  const missing = docs.flatMap(({ name, commands }) =>
    commands.flatMap((command) =>
      localInputs(command)
        .filter((path) => !existsSync(resolve(process.cwd(), path)))
        .map((path) => `${name}: ${path}`),
    ),
  );
  t.deepEqual(missing, []);
});
