/**
 * Streams the objects routing needs from one OSM file as OPL lines, through two osmium processes
 * joined by a pipe: `add-locations-to-ways` writes every way with its node locations and drops
 * untagged nodes, then `tags-filter --omit-referenced` keeps the objects the profiles read (their
 * `osmFilter`: highways, ferries, barrier nodes, restriction relations…). (The other order makes tags-filter track referenced ids, which costs it
 * ~750 MB and seconds on a small extract.) Memory beyond osmium's node-location index stays flat:
 * lines are handed on as they arrive.
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { realpath, stat } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { throwIfAborted } from '../../abort.js';
import { bytesRead, firstLine } from '../../osm/osmium.js';

const OSMIUM = 'osmium';
const PROGRESS_INTERVAL_MS = 500;
const STDERR_KEEP_BYTES = 64 * 1024;

type Osmium = ChildProcessByStdio<Writable | null, Readable, Readable>;

/** Exit code and the first lines of stderr, once the process has ended. */
function outcome(child: Osmium): Promise<{ code: number | null; stderr: string }> {
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    if (stderr.length < STDERR_KEEP_BYTES) stderr += chunk;
  });
  const ended = new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
  ended.catch(() => {});
  return ended;
}

/**
 * Calls `onLine` for every OPL line of the file's objects that `objects` (osmium tags-filter
 * expressions) selects; `onBytes` now and then with how far osmium has read. An abort of `signal`
 * stops osmium and throws the abort's reason.
 */
export async function readRoutingOpl(
  file: string,
  objects: readonly string[],
  onLine: (line: string) => void,
  onBytes: (done: number, total: number) => void,
  signal?: AbortSignal,
): Promise<void> {
  throwIfAborted(signal);
  const path = await realpath(file);
  const size = (await stat(path)).size;
  // Uncompressed PBF between the two, the cheapest format for both ends, with the locations kept on the ways.
  // flex_mem: a sparse node-location index for extracts that switches to a dense one for large inputs.
  const locate: Osmium = spawn(
    OSMIUM,
    [
      'add-locations-to-ways',
      '--ignore-missing-nodes',
      '-i',
      'flex_mem',
      '--no-progress',
      '-f',
      'pbf,pbf_compression=none,locations_on_ways=true',
      '-o',
      '-',
      path,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const filter: Osmium = spawn(
    OSMIUM,
    [
      'tags-filter',
      '--omit-referenced',
      '--no-progress',
      '-F',
      'pbf',
      '-f',
      'opl,add_metadata=false,locations_on_ways=true',
      '-o',
      '-',
      '-',
      ...objects,
    ],
    { stdio: ['pipe', 'pipe', 'pipe'] },
  );
  locate.stdout.pipe(filter.stdin!);
  // A failing filter closes the pipe early; its own error is the one reported.
  filter.stdin!.on('error', () => {});
  const located = outcome(locate);
  const filtered = outcome(filter);
  const stop = () => {
    locate.kill();
    filter.kill();
  };
  signal?.addEventListener('abort', stop);
  if (signal?.aborted) stop();
  const timer = setInterval(() => {
    if (locate.pid === undefined) return;
    void bytesRead(locate.pid, path).then((done) => {
      if (done !== undefined && locate.exitCode === null) onBytes(done, size);
    });
  }, PROGRESS_INTERVAL_MS);
  try {
    for await (const line of createInterface({ input: filter.stdout, crlfDelay: Infinity })) {
      if (line.length > 0) onLine(line);
    }
    throwIfAborted(signal);
    for (const [command, ended] of [
      ['add-locations-to-ways', located],
      ['tags-filter', filtered],
    ] as const) {
      const { code, stderr } = await ended;
      if (code !== 0) throw new Error(`osmium ${command} failed on ${file}: ${firstLine(stderr) || `exit code ${code}`}`);
    }
    onBytes(size, size);
  } finally {
    signal?.removeEventListener('abort', stop);
    clearInterval(timer);
    if (locate.exitCode === null) locate.kill();
    if (filter.exitCode === null) filter.kill();
  }
}
