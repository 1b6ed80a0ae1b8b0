/**
 * Inputs of growing size from one real extract: N copies laid side by side on a grid (shifted by
 * the extract's own extent plus a margin), written in the order osmium and every importer want —
 * all nodes, then all ways, then all relations, each ascending — and renumbered dense with
 * `osmium renumber`, as a regional extract of N times the size would be. The copies go through
 * osmium as OPL text: copy k adds k × (largest id + 1) to every id and reference, so ids stay
 * unique and ascending without a sort.
 */
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, renameSync, rmSync } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Writable } from 'node:stream';

/** Space between two copies, in degrees, besides the extract's own width or height. */
const MARGIN_DEGREES = 0.01;

interface OplObjects {
  nodes: string[];
  ways: string[];
  relations: string[];
  /** Largest id of any type, plus one: the id span of one copy. */
  idSpan: number;
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
  const objects: OplObjects = { nodes: [], ways: [], relations: [], idSpan: 0, bounds: { west: 180, south: 90, east: -180, north: -90 } };
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
      objects.nodes.push(line);
    } else if (line[0] === 'w') objects.ways.push(line);
    else if (line[0] === 'r') objects.relations.push(line);
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

/** Writes `copies` copies of `base` side by side into `output` (.osm.pbf), ids dense; skips the work when it exists. */
export async function gridExtract(base: string, copies: number, output: string): Promise<void> {
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
  renameSync(renumbered, output);
}
