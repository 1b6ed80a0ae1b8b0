/**
 * Fetches an http(s) input (an OSM extract) into DATA/downloads/, streamed to disk with progress
 * from Content-Length. The file appears under its final name only when complete, so a broken
 * download never looks like a finished one. `checkUrl` asks first, so that a URL that will not
 * answer fails the import before any work.
 */
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

/** The file name a URL is saved under: its last path segment, or `download.osm.pbf`. */
export function downloadName(url: string): string {
  const name = basename(decodeURIComponent(new URL(url).pathname));
  return /^[\w.-]+$/.test(name) ? name : 'download.osm.pbf';
}

/** Downloads `url` into the folder `dir`; resolves to the saved file. */
export async function download(url: string, dir: string, onProgress: ProgressReporter, signal?: AbortSignal): Promise<string> {
  const name = downloadName(url);
  const file = join(dir, name);
  const partial = `${file}.part`;
  const phase = `downloading ${name}`;
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
  try {
    await pipeline(Readable.fromWeb(response.body as ReadableStream<Uint8Array>), count, createWriteStream(partial), { signal });
  } catch (error) {
    rmSync(partial, { force: true });
    throwIfAborted(signal);
    throw new Error(`cannot download ${url}: ${reason(error)}`);
  }
  renameSync(partial, file);
  return file;
}
