// Reads OSM files (.osm.pbf, .osm XML) through the osmium-tool command: `osmium export` streams
// every object (areas assembled by libosmium) as GeoJSON lines, `osmium fileinfo` tells whether a
// file is OSM data at all (its header), and its bounds and order (a full pass).
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, readlink, readdir, readFile, realpath, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Feature, Geometry } from 'geojson';
import { throwIfAborted } from '../abort.js';
import type { ProgressReporter } from '../progress.js';
import type { OsmElement } from './element.js';
import { isClosed } from '../../core/geo/rings.js';
import type { BBox } from '../../core/geo/types.js';
import type { Tags } from './tags.js';

const run = promisify(execFile);
const OSMIUM = 'osmium';
const PROGRESS_INTERVAL_MS = 500;
const STDERR_KEEP_BYTES = 64 * 1024;
const MAX_STDOUT_BYTES = 16 * 1024 * 1024;

/** Turns one `osmium export` feature into the element the mapping rules read (undefined: not used). */
function toElement(feature: Feature<Geometry, Record<string, string | number>>): OsmElement | undefined {
  const props = feature.properties;
  const type = props['@type'] as 'node' | 'way' | 'relation';
  const id = props['@id'] as number;
  delete props['@type'];
  delete props['@id'];
  const tags = props as Tags;
  const g = feature.geometry;
  switch (g.type) {
    case 'Point':
      return { shape: 'point', type: 'node', id, tags, point: g.coordinates };
    case 'LineString':
      return { shape: 'line', type: 'way', id, tags, line: g.coordinates, closed: isClosed(g.coordinates) };
    case 'MultiPolygon': // osmium writes every area as a MultiPolygon
      return { shape: 'area', type: type === 'relation' ? 'relation' : 'way', id, tags, polygons: g.coordinates };
    default:
      return undefined;
  }
}

/** How far osmium has read into `file`, from the file position of its descriptor (Linux /proc). */
export async function bytesRead(pid: number, file: string): Promise<number | undefined> {
  try {
    for (const fd of await readdir(`/proc/${pid}/fd`)) {
      if ((await readlink(`/proc/${pid}/fd/${fd}`).catch(() => '')) !== file) continue;
      const match = /^pos:\s+(\d+)/m.exec(await readFile(`/proc/${pid}/fdinfo/${fd}`, 'utf8'));
      if (match) return Number(match[1]);
    }
  } catch {
    // The process has ended or /proc is not there: no byte count.
  }
  return undefined;
}

/**
 * What `osmium export` writes: the objects carrying any of `keys`, their tags reduced to those. A
 * closed way comes as an area, and also as a line unless `linearTags` (tag filter expressions) is
 * given and it matches none of them: a consumer with no line rules for buildings need not read
 * every building twice.
 */
export interface ExportSelection {
  keys: readonly string[];
  linearTags?: readonly string[];
}

/** How much of osmium's output a block holds (whole lines; a block may be larger by one line). */
const DEFAULT_BLOCK_BYTES = 4 * 1024 * 1024;

/**
 * Streams the output of `osmium export` for the OSM objects of `file` that `selection` asks for as blocks of whole GeoJSON lines, for `parseOsmLines`. The pipe
 * applies back-pressure, so memory does not grow with the file. Progress: input bytes read where
 * /proc shows them.
 */
export async function* readOsmLineBlocks(
  file: string,
  selection: ExportSelection,
  onProgress: ProgressReporter,
  blockBytes = DEFAULT_BLOCK_BYTES,
): AsyncGenerator<Buffer> {
  const path = await realpath(file);
  const size = (await stat(path)).size;
  const dir = await mkdtemp(join(tmpdir(), 'waymark-osmium-'));
  const config = join(dir, 'export.json');
  const { keys, linearTags = true } = selection;
  await writeFile(
    config,
    JSON.stringify({ attributes: { type: true, id: true }, linear_tags: linearTags, area_tags: true, include_tags: keys }),
  );
  // flex_mem: a sparse node-location index for extracts that switches to a dense one for large inputs.
  const child = spawn(OSMIUM, ['export', '-f', 'geojsonseq', '-c', config, '-i', 'flex_mem', '--no-progress', path], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    if (stderr.length < STDERR_KEEP_BYTES) stderr += chunk;
  });
  const exited = new Promise<number | null>((resolveExit, rejectExit) => {
    child.on('error', rejectExit);
    child.on('close', (code) => resolveExit(code));
  });
  exited.catch(() => {});
  let finished = false;
  const timer = setInterval(() => {
    if (child.pid === undefined) return;
    void bytesRead(child.pid, path).then((done) => {
      if (done !== undefined && !finished) onProgress({ phase: 'read OSM file', done, total: size, unit: 'bytes' });
    });
  }, PROGRESS_INTERVAL_MS);
  try {
    let chunks: Buffer[] = [];
    let buffered = 0;
    for await (const chunk of child.stdout as AsyncIterable<Buffer>) {
      chunks.push(chunk);
      buffered += chunk.length;
      if (buffered < blockBytes) continue;
      const end = chunk.lastIndexOf(10);
      if (end < 0) continue; // the line goes on: a large multipolygon
      const block = Buffer.concat(chunks, buffered - chunk.length + end + 1);
      chunks = end + 1 < chunk.length ? [chunk.subarray(end + 1)] : [];
      buffered = chunks[0]?.length ?? 0;
      yield block;
    }
    if (buffered > 0) yield Buffer.concat(chunks);
    const code = await exited;
    if (code !== 0) throw new OsmiumError('export', file, firstLine(stderr) || `exit code ${code}`);
    onProgress({ phase: 'read OSM file', done: size, total: size, unit: 'bytes' });
  } finally {
    finished = true;
    clearInterval(timer);
    if (child.exitCode === null) child.kill();
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Calls `onElement` with the element of every line of a block from `readOsmLineBlocks` that the
 * mapping rules use; the lines read. With `markers`, a line holding none of them is counted but
 * not parsed: an export that reads a key for a few of its objects (named buildings) skips the
 * many others (every unnamed building) at the cost of a byte search.
 */
export function parseOsmLines(block: Uint8Array, onElement: (element: OsmElement) => void, markers?: readonly Buffer[]): number {
  const text = Buffer.from(block.buffer, block.byteOffset, block.byteLength);
  let lines = 0;
  for (let start = 0; start < text.length; ) {
    let end = text.indexOf(10, start);
    if (end < 0) end = text.length;
    // geojsonseq may put the RFC 8142 record separator before each record.
    const from = text[start] === 0x1e ? start + 1 : start;
    if (end > from) {
      lines++;
      const line = text.subarray(from, end);
      if (markers === undefined || markers.some((marker) => line.includes(marker))) {
        const element = toElement(JSON.parse(line.toString('utf8')));
        if (element !== undefined) onElement(element);
      }
    }
    start = end + 1;
  }
  return lines;
}

/** The OSM objects of `file` that `selection` asks for, streamed. Progress: objects and bytes read. */
export async function* readOsmElements(file: string, selection: ExportSelection, onProgress: ProgressReporter): AsyncGenerator<OsmElement> {
  let count = 0;
  const elements: OsmElement[] = [];
  for await (const block of readOsmLineBlocks(file, selection, onProgress)) {
    count += parseOsmLines(block, (element) => elements.push(element));
    onProgress({ phase: 'read OSM objects', done: count, total: null, unit: 'objects' });
    yield* elements;
    elements.length = 0;
  }
  onProgress({ phase: 'read OSM objects', done: count, total: count, unit: 'objects' });
}

export function firstLine(text: string): string {
  return (
    text
      .split('\n')
      .find((line) => line.trim() !== '')
      ?.trim() ?? ''
  );
}

/** An osmium command that failed on a file; `reason` is osmium's own first line of complaint. */
export class OsmiumError extends Error {
  constructor(
    command: string,
    file: string,
    readonly reason: string,
  ) {
    super(`osmium ${command} failed on ${file}: ${reason}`);
  }
}

export interface OsmiumProgress {
  /** The phase whose progress is the bytes of the input osmium has read. */
  phase: string;
  onProgress: ProgressReporter;
}

/**
 * Runs `osmium <command> --no-progress ...args <file>` (args may name an output file) to its end
 * and resolves to its stdout; rejects with osmium's own first line of complaint. Cancelling kills it.
 */
export async function runOsmium(
  command: string,
  args: readonly string[],
  file: string,
  options: { progress?: OsmiumProgress; signal?: AbortSignal } = {},
): Promise<string> {
  const { progress, signal } = options;
  // /proc names the file osmium reads by its real path.
  const path = progress ? await realpath(file) : file;
  const size = progress ? (await stat(path)).size : 0;
  const report = (done: number) => progress?.onProgress({ phase: progress.phase, done, total: size, unit: 'bytes' });
  report(0);
  const running = run(OSMIUM, [command, '--no-progress', ...args, file], { maxBuffer: MAX_STDOUT_BYTES, signal });
  let finished = false;
  const timer = progress
    ? setInterval(() => {
        const pid = running.child.pid;
        if (pid === undefined) return;
        void bytesRead(pid, path).then((done) => {
          if (done !== undefined && !finished) report(done);
        });
      }, PROGRESS_INTERVAL_MS)
    : undefined;
  try {
    const { stdout } = await running;
    finished = true;
    report(size);
    return stdout;
  } catch (error) {
    throwIfAborted(signal);
    const { stderr, message } = error as { stderr?: string; message: string };
    throw new OsmiumError(command, file, firstLine(stderr ?? '') || message);
  } finally {
    finished = true;
    clearInterval(timer);
  }
}

/** The parts of `osmium fileinfo -j [-e]` output used here. */
interface FileInfo {
  header?: { boxes?: BBox[] };
  data?: { bbox?: BBox; objects_ordered?: boolean };
}

/** Reads the file's header only, which is quick whatever the file's size: fails unless it is OSM data osmium can read. */
export async function checkOsmHeader(file: string): Promise<void> {
  await runOsmium('fileinfo', ['-j'], file);
}

const boxArea = (b: BBox) => (b[2] - b[0]) * (b[3] - b[1]);

/** A header box this many times larger than the data is no real cut line (some tools write a hemisphere). */
const IMPLAUSIBLE_HEADER_BOX_RATIO = 1000;

export interface OsmFileSummary {
  /**
   * [west, south, east, north]: the header's box (the area the extract was cut to; ways may reach
   * beyond it) unless it is implausibly large, else the bounding box of the data itself.
   */
  bounds: BBox;
  /** Whether the objects come by type (nodes, ways, relations) and then by id, as osmium's readers need. */
  ordered: boolean;
}

/** One pass over the whole file (`osmium fileinfo -e`): its bounds and whether it is sorted. */
export async function osmFileSummary(
  file: string,
  options: { progress?: OsmiumProgress; signal?: AbortSignal } = {},
): Promise<OsmFileSummary> {
  const info = JSON.parse(await runOsmium('fileinfo', ['-j', '-e'], file, options)) as FileInfo;
  const data = info.data?.bbox;
  const box = info.header?.boxes?.[0];
  const ordered = info.data?.objects_ordered !== false;
  if (box !== undefined && (data === undefined || boxArea(box) <= IMPLAUSIBLE_HEADER_BOX_RATIO * boxArea(data)))
    return { bounds: box, ordered };
  if (data !== undefined) return { bounds: data, ordered };
  throw new Error(`${file} has no bounding box`);
}

/** [west, south, east, north] of the file (see `OsmFileSummary`). */
export async function osmFileBounds(file: string): Promise<BBox> {
  return (await osmFileSummary(file)).bounds;
}
