import test from 'ava';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ProgressReporter } from '../data-pipeline/progress.js';
import { osmBounds, osmFeatures, osmFileSummary, sortOsmFile } from '../data-pipeline/osm/index.js';
import { readOsmElements } from '../data-pipeline/osm/osmium.js';
import type { OsmElement } from '../data-pipeline/osm/element.js';

const fixture = (name: string) => join(process.cwd(), 'test', 'fixtures', 'osm', name);

test('osmium streams nodes as points, ways as lines, closed ways also as areas and relations as areas', async (t) => {
  const elements: OsmElement[] = [];
  const phases = new Set<string>();
  const progress: ProgressReporter = (p) => phases.add(p.phase);
  for await (const el of readOsmElements(fixture('town.osm'), { keys: ['highway', 'man_made', 'amenity', 'name'] }, progress))
    elements.push(el);
  const cafe = elements.find((el) => el.type === 'node' && el.id === 20)!;
  t.like(cafe, { shape: 'point', point: [8.002, 48.0062], tags: { amenity: 'cafe', name: 'Café Brückenblick' } });
  t.is((cafe.tags as Record<string, string>).cuisine, undefined, 'tags the rules do not read are dropped');
  t.like(
    elements.find((el) => el.id === 102),
    { shape: 'line', closed: false, tags: { highway: 'primary' } },
  );
  const bridge = elements.filter((el) => el.id === 101);
  t.deepEqual(bridge.map((el) => el.shape).sort(), ['area', 'line']);
  t.false(
    elements.some((el) => el.id === 21 || el.id === 104),
    'objects without any kept key are not exported',
  );
  t.true(phases.has('read OSM objects'));
});

test('a multipolygon relation arrives as one area with its hole', async (t) => {
  const elements: OsmElement[] = [];
  for await (const el of readOsmElements(fixture('lake-with-island.osm'), { keys: ['natural', 'name'] }, () => {})) elements.push(el);
  t.is(elements.length, 1);
  t.like(elements[0], { shape: 'area', type: 'relation', id: 100, tags: { natural: 'water', name: 'Testsee' } });
  if (elements[0]!.shape === 'area') t.is(elements[0]!.polygons[0]!.length, 2);
});

test('bounds come from the file header', async (t) => {
  t.deepEqual(await osmBounds(fixture('town.osm')), [8.0, 48.0, 8.01, 48.01]);
});

test("a broken input fails with osmium's own message", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'waymark-osm-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const bad = join(dir, 'broken.osm.pbf');
  writeFileSync(bad, 'this is not a PBF file, not at all\n'.repeat(10));
  const error = await t.throwsAsync(async () => {
    for await (const feature of osmFeatures(bad, () => {})) void feature;
  });
  t.regex(error!.message, /osmium (fileinfo|export) failed on .*broken\.osm\.pbf: \S/);
  const xml = join(dir, 'broken.osm');
  writeFileSync(xml, '<osm version="0.6"><node id="1" lat="1" lon="1"></osm>');
  const xmlError = await t.throwsAsync(async () => {
    for await (const element of readOsmElements(xml, { keys: ['name'] }, () => {})) void element;
  });
  t.regex(xmlError!.message, /^osmium export failed on .*broken\.osm: \S/);
});

test('an extract with no nodes and no header box has no bounds', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'waymark-osm-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const empty = join(dir, 'empty.osm');
  writeFileSync(empty, '<?xml version="1.0"?>\n<osm version="0.6" generator="test"></osm>\n');
  await t.throwsAsync(osmBounds(empty), { message: /^osmium fileinfo failed on .*empty\.osm: \S/ });
});

test('an extract not sorted by type and id is told apart, cannot be read as it is, and can be once sorted', async (t) => {
  const unsorted = fixture('unsorted.osm');
  t.deepEqual(await osmFileSummary(fixture('town.osm')), { bounds: [8.0, 48.0, 8.01, 48.01], ordered: true });
  t.deepEqual(await osmFileSummary(unsorted), { bounds: [7.418, 43.73, 7.426, 43.736], ordered: false });
  await t.throwsAsync(
    async () => {
      for await (const element of readOsmElements(unsorted, { keys: ['name'] }, () => {})) void element;
    },
    { message: /^osmium export failed on .*unsorted\.osm: Found a way after a relation/ },
  );

  const dir = mkdtempSync(join(tmpdir(), 'waymark-osm-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const sorted = join(dir, 'unsorted.osm');
  const progress: Parameters<ProgressReporter>[0][] = [];
  await sortOsmFile(unsorted, sorted, (p) => progress.push(p));
  t.true((await osmFileSummary(sorted)).ordered);
  const size = statSync(unsorted).size;
  t.deepEqual(progress.at(-1), { phase: 'sorting unsorted.osm', done: size, total: size, unit: 'bytes' });
  const names: string[] = [];
  for await (const element of readOsmElements(sorted, { keys: ['name'] }, () => {})) names.push(String(element.tags.name));
  t.deepEqual(names.sort(), ['Boulevard Albert 1er', 'Café du Port', 'Rue Grimaldi']);
});
