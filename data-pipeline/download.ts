/**
 * Fetches an http(s) input (an OSM extract) into DATA/downloads/, streamed to disk with progress
 * from Content-Length. The file appears under its final name only when complete, so a broken
 * download never looks like a finished one, and its partial file is deleted on every failure.
 * The file's name never comes from the URL (a last segment decoding to `..` once named the data
 * folder itself): it is the URL's SHA-256, so one URL always lands on one file, with a suffix from
 * a fixed list that tells osmium the format. `checkUrl` asks first, so that a URL that will not
 * answer fails the import before any work.
 */
import { createHash } from 'node:crypto';
import { createWriteStream, renameSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream } from 'node:stream/web';
import { throwIfAborted } from './abort.js';
import type { ProgressReporter } from './progress.js';
import { ImportInputError } from './import-errors.js';

/** fetch() hides the network error (refused, DNS…) in `cause`. */
const reason = (error: unknown): string => {
  const { cause, message } = error as Error;
  return cause instanceof Error ? cause.message : message;
};

export const isUrl = (input: string): boolean => /^https?:\/\//i.test(input);

/** How long `checkUrl` waits for the answer's headers. */
const CHECK_TIMEOUT_MS = 15_000;

/** The error of an answer that is no file: bad input for a client error (404, 403…), which will not go away by itself; a server error might. */
function httpFailure(url: string, response: Response): Error {
  const failure = `cannot download ${url}: HTTP ${response.status} ${response.statusText}`;
  return response.status < 500 ? new ImportInputError(failure) : new Error(failure);
}

/**
 * Asks for the URL's headers (HEAD): fails as `download` would when it is not a valid URL, cannot
 * be reached or answers with an error. A server that does not do HEAD (405, 501) passes.
 */
export async function checkUrl(url: string, signal?: AbortSignal): Promise<void> {
  if (!URL.canParse(url)) throw new ImportInputError(`cannot download ${url}: not a valid URL`);
  const timeout = AbortSignal.timeout(CHECK_TIMEOUT_MS);
  let response: Response;
  try {
    response = await fetch(url, { method: 'HEAD', signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
  } catch (error) {
    throwIfAborted(signal);
    throw new Error(`cannot download ${url}: ${timeout.aborted ? `no answer within ${CHECK_TIMEOUT_MS / 1000} s` : reason(error)}`);
  }
  if (!response.ok && response.status !== 405 && response.status !== 501) throw httpFailure(url, response);
}

/** The formats inputs come in, longest first; a URL ending in none of them is taken for `.osm.pbf`. */
const SUFFIXES = ['.osm.pbf', '.osm', '.csv'];

/** The last segment of a URL's path, for people to read (progress, the manifest); never part of a path on disk. */
export function downloadLabel(url: string): string {
  let name: string;
  try {
    name = basename(decodeURIComponent(new URL(url).pathname));
  } catch {
    return 'download';
  }
  return /^[\w.-]+$/.test(name) && !/^\.+$/.test(name) ? name : 'download';
}

/** The name a URL is saved under in the downloads folder: its SHA-256 (16 hex digits) and the suffix of its format. */
export function downloadFileName(url: string): string {
  const path = new URL(url).pathname.toLowerCase();
  const suffix = SUFFIXES.find((candidate) => path.endsWith(candidate)) ?? SUFFIXES[0]!;
  return `${createHash('sha256').update(url).digest('hex').slice(0, 16)}${suffix}`;
}

/** Downloads `url` into the folder `dir`; resolves to the saved file. */
export async function download(url: string, dir: string, onProgress: ProgressReporter, signal?: AbortSignal): Promise<string> {
  const file = join(dir, downloadFileName(url));
  const partial = `${file}.part`;
  const phase = `downloading ${downloadLabel(url)}`;
  let response: Response;
  try {
    response = await fetch(url, { signal });
  } catch (error) {
    throwIfAborted(signal);
    throw new Error(`cannot download ${url}: ${reason(error)}`);
  }
  if (!response.ok || !response.body) throw httpFailure(url, response);
  const length = Number(response.headers.get('content-length'));
  const total = Number.isFinite(length) && length > 0 ? length : null;
  let done = 0;
  const count = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      done += chunk.length;
      onProgress({ phase, done, total, unit: 'bytes' });
      callback(null, chunk);
    },
  });
  onProgress({ phase, done: 0, total, unit: 'bytes' });
  const out = createWriteStream(partial);
  try {
    await pipeline(Readable.fromWeb(response.body as ReadableStream<Uint8Array>), count, out, { signal });
    renameSync(partial, file);
  } catch (error) {
    // The file is opened in the background: a download that breaks before it opened would see it
    // created after this removal (on a busy machine), so the removal waits for the stream to close.
    if (!out.closed) await new Promise<void>((closed) => out.once('close', () => closed()));
    rmSync(partial, { force: true });
    throwIfAborted(signal);
    throw new Error(`cannot download ${url}: ${reason(error)}`);
  }
  return file;
}
