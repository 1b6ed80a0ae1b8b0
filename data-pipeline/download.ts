/**
 * Fetches an http(s) input (an OSM extract) into DATA/downloads/, streamed to disk with progress
 * from Content-Length. The file appears under its final name only when complete, so a broken
 * download never looks like a finished one.
 */
import { createWriteStream, mkdirSync, renameSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream } from 'node:stream/web';
import { throwIfAborted } from './abort.js';
import type { ProgressReporter } from './features.js';
import { ImportInputError } from './import-errors.js';

/** fetch() hides the network error (refused, DNS…) in `cause`. */
const reason = (error: unknown): string => {
  const { cause, message } = error as Error;
  return cause instanceof Error ? cause.message : message;
};

export const isUrl = (input: string): boolean => /^https?:\/\//i.test(input);

/** The file name a URL is saved under: its last path segment, or `download.osm.pbf`. */
export function downloadName(url: string): string {
  const name = basename(decodeURIComponent(new URL(url).pathname));
  return /^[\w.-]+$/.test(name) ? name : 'download.osm.pbf';
}

/** Downloads `url` into `dir`; resolves to the saved file. */
export async function download(url: string, dir: string, onProgress: ProgressReporter, signal?: AbortSignal): Promise<string> {
  mkdirSync(dir, { recursive: true });
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
  if (!response.ok || !response.body) {
    const failure = `cannot download ${url}: HTTP ${response.status} ${response.statusText}`;
    // A client error (404, 403…) will not go away by itself; a server error might.
    throw response.status < 500 ? new ImportInputError(failure) : new Error(failure);
  }
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
