/**
 * Inputs of growing size from one real extract: N copies laid side by side on a grid (shifted by
 * the extract's own extent plus a margin), written in the order osmium and every importer want —
 * all nodes, then all ways, then all relations, each ascending — and renumbered dense with
 * `osmium renumber`, as a regional extract of N times the size would be. The copies go through
 * osmium as OPL text: copy k adds k × (largest id + 1) to every id and reference, so ids stay
 * unique and ascending without a sort.
 *
 * A **connected** grid (`joined`) is one road network, as a real region is: each pair of
 * neighbouring copies is joined by one new `highway=primary` way from the outermost road node of
 * one copy (east or north) to the opposite outermost road node of the other, added after the
 * renumbering with fresh ids (after every renumbered way), then merged into the sorted file.
 */
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Writable } from 'node:stream';

/** Space between two copies, in degrees, besides the extract's own width or height. */
const MARGIN_DEGREES = 0.01;
/** Roads every travel mode may take both ways, at whose outermost nodes the joining ways start and end. */
const JOINABLE_ROAD = /[T,]highway=(primary|secondary|tertiary|unclassified|residential)[, ]/;

interface OplObjects {
  nodes: string[];
  ways: string[];
  relations: string[];
  /** Largest id of any type, plus one: the id span of one copy. */
  idSpan: number;
  /** Position of every node among the nodes (0-based), by id: its id after `osmium renumber` is copy × nodes + position + 1. */
  position: Map<number, number>;
  /** The node ids of each two-way road (JOINABLE_ROAD), among which a joining way ends. */
  roads: number[][];
  bounds: { west: number; south: number; east: number; north: number };
}

/** Runs osmium to its end; throws with its stderr when it fails. */
async function osmium(args: string[], feed?: (stdin: Writable) => Promise<void>): Promise<void> {
  const child = spawn('osmium', args, { stdio: [feed ? 'pipe' : 'ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = once(child, 'exit') as Promise<[number | null]>;
  if (feed) {
    await feed(child.stdin!);
    child.stdin!.end();
  }
  const [code] = await exited;
  if (code !== 0) throw new Error(`osmium ${args.join(' ')} failed (${code}): ${stderr.trim()}`);
}

/** Every object of an extract as OPL lines (without metadata), by type, with the extent of its nodes. */
async function readOpl(file: string): Promise<OplObjects> {
  const child = spawn('osmium', ['cat', '--no-progress', '-f', 'opl,add_metadata=false', file], { stdio: ['ignore', 'pipe', 'inherit'] });
  const objects: OplObjects = {
    nodes: [],
    ways: [],
    relations: [],
    idSpan: 0,
    position: new Map(),
    roads: [],
    bounds: { west: 180, south: 90, east: -180, north: -90 },
  };
  const { bounds } = objects;
  for await (const line of createInterface({ input: child.stdout! })) {
    const id = Number(line.slice(1, line.indexOf(' ')));
    objects.idSpan = Math.max(objects.idSpan, id + 1);
    if (line[0] === 'n') {
      const lon = Number(/ x(-?[\d.]+)/.exec(line)?.[1]);
      const lat = Number(/ y(-?[\d.]+)/.exec(line)?.[1]);
      if (Number.isFinite(lon) && Number.isFinite(lat)) {
        bounds.west = Math.min(bounds.west, lon);
        bounds.east = Math.max(bounds.east, lon);
        bounds.south = Math.min(bounds.south, lat);
        bounds.north = Math.max(bounds.north, lat);
      }
      objects.position.set(id, objects.nodes.length);
      objects.nodes.push(line);
    } else if (line[0] === 'w') {
      objects.ways.push(line);
      if (
        JOINABLE_ROAD.test(line) &&
        !/[T,]oneway=(yes|1|-1)[, ]/.test(line) &&
        !/[T,](access|motor_vehicle)=(no|private)[, ]/.test(line)
      ) {
        objects.roads.push((/ N(\S+)/.exec(line)?.[1]?.split(',') ?? []).map((ref) => Number(ref.slice(1))));
      }
    } else if (line[0] === 'r') objects.relations.push(line);
  }
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`osmium cat ${file} failed (${code})`);
  return objects;
}

/** One OPL line of copy k: ids and references moved by `idOffset`, node positions by (dLon, dLat). */
function shifted(line: string, idOffset: number, dLon: number, dLat: number): string {
  return line
    .split(' ')
    .map((field, i) => {
      if (i === 0) return `${field[0]}${Number(field.slice(1)) + idOffset}`;
      switch (field[0]) {
        case 'x':
          return field.length > 1 ? `x${(Number(field.slice(1)) + dLon).toFixed(7)}` : field;
        case 'y':
          return field.length > 1 ? `y${(Number(field.slice(1)) + dLat).toFixed(7)}` : field;
        case 'N': // way nodes: n1,n2,…
        case 'M': // relation members: n1@role,w2@,…
          return field.length > 1
            ? field[0] +
                field
                  .slice(1)
                  .split(',')
                  .map((ref) => ref.replace(/^([nwr])(\d+)/, (_, type: string, id: string) => `${type}${Number(id) + idOffset}`))
                  .join(',')
            : field;
        default:
          return field;
      }
    })
    .join(' ');
}

/** How far copy k (0 … copies − 1) is moved, [dLon, dLat] in degrees: row by row on a square-ish grid. */
function gridOffsets(bounds: OplObjects['bounds'], copies: number): [number, number][] {
  const columns = Math.ceil(Math.sqrt(copies));
  const stepLon = bounds.east - bounds.west + MARGIN_DEGREES;
  const stepLat = bounds.north - bounds.south + MARGIN_DEGREES;
  return Array.from({ length: copies }, (_, k) => [(k % columns) * stepLon, Math.floor(k / columns) * stepLat]);
}

/**
 * Where the copies of `base` lie in the output of gridExtract: copy k's offset from the base, from
 * the extent of the base's nodes as osmium reports it (the same extent gridExtract reads).
 */
export function copyOffsets(base: string, copies: number): [number, number][] {
  const info = spawnSync('osmium', ['fileinfo', '-e', '-g', 'data.bbox', base], { encoding: 'utf8' });
  const m = /^\((-?[\d.]+),(-?[\d.]+),(-?[\d.]+),(-?[\d.]+)\)$/.exec(info.stdout.trim());
  if (!m) throw new Error(`osmium fileinfo ${base} gave no extent: ${info.stderr || info.stdout}`);
  const [west, south, east, north] = m.slice(1).map(Number) as [number, number, number, number];
  return gridOffsets({ west, south, east, north }, copies);
}

/** The nodes of the biggest network the two-way roads form (roads sharing a node joined), by id. */
function biggestRoadNetwork(roads: number[][]): number[] {
  const parent = new Map<number, number>();
  const find = (id: number): number => {
    let root = id;
    while (parent.get(root) !== root) root = parent.get(root)!;
    parent.set(id, root);
    return root;
  };
  for (const road of roads) {
    for (const id of road) if (!parent.has(id)) parent.set(id, id);
    for (const id of road.slice(1)) parent.set(find(id), find(road[0]!));
  }
  const members = new Map<number, number[]>();
  for (const id of parent.keys()) {
    const root = find(id);
    if (!members.has(root)) members.set(root, []);
    members.get(root)!.push(id);
  }
  return [...members.values()].reduce((a, b) => (b.length > a.length ? b : a), []);
}

/**
 * The outermost nodes of the base's biggest two-way road network (so a joining way does not end
 * on a road cut off at the extract's edge), as positions among its nodes.
 */
function outermostRoadNodes(objects: OplObjects): { west: number; east: number; south: number; north: number } {
  const best = { west: [Infinity, -1], east: [-Infinity, -1], south: [Infinity, -1], north: [-Infinity, -1] };
  for (const id of biggestRoadNetwork(objects.roads)) {
    const position = objects.position.get(id);
    if (position === undefined) continue;
    const line = objects.nodes[position]!;
    const lon = Number(/ x(-?[\d.]+)/.exec(line)?.[1]);
    const lat = Number(/ y(-?[\d.]+)/.exec(line)?.[1]);
    if (lon < best.west[0]!) best.west = [lon, position];
    if (lon > best.east[0]!) best.east = [lon, position];
    if (lat < best.south[0]!) best.south = [lat, position];
    if (lat > best.north[0]!) best.north = [lat, position];
  }
  if (best.west[1] === -1) throw new Error('the base extract has no two-way road to join copies by');
  return { west: best.west[1]!, east: best.east[1]!, south: best.south[1]!, north: best.north[1]! };
}

/**
 * The joining ways as OPL, in the renumbered file's ids: copy k's eastmost road node to the
 * westmost of the copy east of it, its northmost to the southmost of the copy north of it.
 */
function joiningWays(objects: OplObjects, copies: number): string[] {
  const ends = outermostRoadNodes(objects);
  const columns = Math.ceil(Math.sqrt(copies));
  const nodeId = (copy: number, position: number) => copy * objects.nodes.length + position + 1;
  const ways: string[] = [];
  const join = (a: number, b: number) => ways.push(`w${copies * objects.ways.length + ways.length + 1} v1 Thighway=primary Nn${a},n${b}`);
  for (let k = 0; k < copies; k++) {
    if (k % columns < columns - 1 && k + 1 < copies) join(nodeId(k, ends.east), nodeId(k + 1, ends.west));
    if (k + columns < copies) join(nodeId(k, ends.north), nodeId(k + columns, ends.south));
  }
  return ways;
}

/**
 * Writes `copies` copies of `base` side by side into `output` (.osm.pbf), ids dense, joined by
 * roads into one network when `joined`; skips the work when it exists.
 */
export async function gridExtract(base: string, copies: number, output: string, joined = false): Promise<void> {
  if (existsSync(output)) return;
  const objects = await readOpl(base);
  const offsets = gridOffsets(objects.bounds, copies);
  const spread = `${output}.spread.osm.pbf`;
  await osmium(['cat', '--no-progress', '-F', 'opl', '-', '-o', spread, '--overwrite'], async (stdin) => {
    for (const lines of [objects.nodes, objects.ways, objects.relations]) {
      for (let k = 0; k < copies; k++) {
        const [dLon, dLat] = offsets[k]!;
        const text = `${lines.map((line) => shifted(line, k * objects.idSpan, dLon, dLat)).join('\n')}\n`;
        if (!stdin.write(text)) await once(stdin, 'drain');
      }
    }
  });
  const renumbered = `${output}.partial.osm.pbf`;
  await osmium(['renumber', '--no-progress', spread, '-o', renumbered, '--overwrite']);
  rmSync(spread);
  const ways = joined ? joiningWays(objects, copies) : [];
  if (ways.length > 0) {
    const joins = `${output}.joins.opl`;
    writeFileSync(joins, `${ways.join('\n')}\n`);
    const merged = `${output}.merged.osm.pbf`;
    await osmium(['merge', '--no-progress', renumbered, joins, '-o', merged, '--overwrite']);
    rmSync(joins);
    rmSync(renumbered);
    renameSync(merged, output);
  } else renameSync(renumbered, output);
}
