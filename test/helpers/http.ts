/**
 * Small HTTP helpers for the black-box tests: a fetch wrapper that reads the body once, checks of
 * the uniform error body and rate-limit headers, raw-socket requests for bytes fetch refuses to
 * send, a read-only look at the SQLite file, and a seeded PRNG for deterministic fuzzing.
 */
import type { ExecutionContext } from 'ava';
import Database from 'better-sqlite3';
import { STATUS_CODES } from 'node:http';
import net from 'node:net';
import { join } from 'node:path';
import { ApiError } from '../../src/http/errors.js';

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  body: any;
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** GET (or another method) with the body read and parsed. */
export async function call(url: string, init: RequestInit = {}): Promise<Answer> {
  const res = await fetch(url, init);
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: parse(text) };
}

/** The message of the 400 that `run` must throw (an ApiError): for checking parameter sanitizers directly. */
export function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError && error.statusCode === 400) return error.message;
    throw error;
  }
  throw new Error('expected a 400');
}

/** Asserts the uniform error body `{statusCode, error, message}` of a given status. */
export function assertError(t: ExecutionContext, answer: Pick<Answer, 'status' | 'body'>, status: number): string {
  t.is(answer.status, status);
  t.deepEqual(Object.keys(answer.body ?? {}).sort(), ['error', 'message', 'statusCode']);
  t.is(answer.body.statusCode, status);
  t.is(answer.body.error, STATUS_CODES[status]);
  t.is(typeof answer.body.message, 'string');
  t.true(answer.body.message.length > 10);
  return answer.body.message as string;
}

/** The three `X-RateLimit-*` headers, or nulls when absent. */
export function rateLimit(headers: Headers | Record<string, string>): { limit: string | null; remaining: string | null; reset: string | null } {
  const get = (name: string) => (headers instanceof Headers ? headers.get(name) : (headers[name.toLowerCase()] ?? null));
  return { limit: get('x-ratelimit-limit'), remaining: get('x-ratelimit-remaining'), reset: get('x-ratelimit-reset') };
}

export interface RawAnswer {
  /** null when the server closed the connection without answering. */
  status: number | null;
  statusLine: string;
  headers: Record<string, string>;
  body: string;
}

/**
 * Writes raw bytes and reads everything the server sends until it closes the connection. Bytes
 * given as several pieces are written one at a time, 50 ms apart.
 */
function exchange(port: number, bytes: Buffer | string | Buffer[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.setTimeout(10_000, () => {
      socket.destroy();
      reject(new Error('the server neither answered nor closed the connection'));
    });
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', () => socket.destroy());
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
    const [first, ...rest] = Array.isArray(bytes) ? bytes : [bytes];
    socket.write(first!);
    let delay = 0;
    for (const piece of rest) setTimeout(() => socket.writable && socket.write(piece), (delay += 50));
  });
}

/** One request with `Connection: close` expected in its bytes; its parsed answer. */
export async function rawRequest(port: number, bytes: Buffer | string | Buffer[]): Promise<RawAnswer> {
  return parseRaw(await exchange(port, bytes));
}

/** Several requests on one keep-alive connection, the last with `Connection: close`. */
export const rawExchange = (port: number, bytes: Buffer | string): Promise<string> => exchange(port, bytes);

export function parseRaw(text: string): RawAnswer {
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) return { status: null, statusLine: '', headers: {}, body: text };
  const [statusLine = '', ...lines] = text.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const match = /^HTTP\/1\.1 (\d{3})\b/.exec(statusLine);
  return { status: match ? Number(match[1]) : null, statusLine, headers, body: text.slice(end + 4) };
}

/** A raw GET with the given extra header lines (each without CRLF) and `Connection: close`. */
export function rawGet(target: string | Buffer, headerLines: (string | Buffer)[] = []): Buffer {
  const parts: Buffer[] = [Buffer.from('GET '), Buffer.from(target), Buffer.from(' HTTP/1.1\r\nHost: 127.0.0.1\r\n')];
  for (const line of headerLines) parts.push(Buffer.from(line), Buffer.from('\r\n'));
  parts.push(Buffer.from('Connection: close\r\n\r\n'));
  return Buffer.concat(parts);
}

export interface DatabaseSnapshot {
  organizations: unknown[];
  users: unknown[];
  apiKeys: unknown[];
}

/** Organizations, users and keys as stored (last use aside), read through a separate connection. */
export function snapshotDatabase(dataDir: string): DatabaseSnapshot {
  const db = new Database(join(dataDir, 'waymark.db'), { readonly: true, fileMustExist: true });
  try {
    return {
      organizations: db.prepare('SELECT id, name, tier, custom_quotas FROM organizations ORDER BY id').all(),
      users: db.prepare('SELECT id, email, org_id FROM users ORDER BY id').all(),
      apiKeys: db.prepare('SELECT id, org_id, name, hash, scopes, status FROM api_keys ORDER BY id').all(),
    };
  } finally {
    db.close();
  }
}

/** mulberry32: a small seeded PRNG, so that fuzzing is the same on every run. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = a;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

/** A random string of URL-ish junk: percent signs, quotes, separators, non-ASCII, key-like words. */
export function junk(random: () => number, maxLength: number): string {
  const pieces = ['%', '%2', '%zz', '%00', '&', '=', '+', "'", '"', ';', '--', '\\', '{', '}', '[', ']', 'é', '€', '😀', 'key', 'wmk_', '..', '/'];
  let out = '';
  const length = Math.floor(random() * maxLength);
  while (out.length < length) {
    out += random() < 0.3 ? pieces[Math.floor(random() * pieces.length)] : String.fromCharCode(0x21 + Math.floor(random() * 94));
  }
  return out;
}
