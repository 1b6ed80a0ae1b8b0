/**
 * Small HTTP helpers for the black-box tests: a fetch wrapper that reads the body once, checks of
 * the uniform error body and rate-limit headers, raw-socket requests for bytes fetch refuses to
 * send, a read-only look at the SQLite file, bounded parallel requests, and a seeded PRNG with
 * generators of hostile values (URL components, JSON bodies) for deterministic fuzzing.
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

/**
 * What is wrong with an error answer's body, or null when it is the uniform one: `{statusCode,
 * error, message}` with the answer's status, its reason phrase and a message that says something,
 * plus, where a client needs one, a machine-readable `code` (routing's `NoSegment`, `NoRoute`).
 */
export function errorBodyFault(answer: Pick<Answer, 'status' | 'body'>): string | null {
  const { body, status } = answer;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'the body is not a JSON object';
  const fields = Object.keys(body).sort().join(', ');
  if (fields !== 'error, message, statusCode' && fields !== 'code, error, message, statusCode') return `the body has the fields ${fields}`;
  if (body.statusCode !== status) return `statusCode ${JSON.stringify(body.statusCode)} in a ${status} answer`;
  if (body.error !== STATUS_CODES[status]) return `error ${JSON.stringify(body.error)} is not the reason phrase of ${status}`;
  if (typeof body.message !== 'string' || body.message.length <= 10) return `message ${JSON.stringify(body.message)} says nothing`;
  if ('code' in body && typeof body.code !== 'string') return `code ${JSON.stringify(body.code)} is not a string`;
  return null;
}

/** Asserts the uniform error body of a given status (see errorBodyFault); returns its message. */
export function assertError(t: ExecutionContext, answer: Pick<Answer, 'status' | 'body'>, status: number): string {
  t.is(answer.status, status);
  t.is(errorBodyFault(answer), null);
  return answer.body?.message as string;
}

/** The three `X-RateLimit-*` headers, or nulls when absent. */
export function rateLimit(headers: Headers | Record<string, string>): {
  limit: string | null;
  remaining: string | null;
  reset: string | null;
} {
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
  const pieces = [
    '%',
    '%2',
    '%zz',
    '%00',
    '&',
    '=',
    '+',
    "'",
    '"',
    ';',
    '--',
    '\\',
    '{',
    '}',
    '[',
    ']',
    'é',
    '€',
    '😀',
    'key',
    'wmk_',
    '..',
    '/',
  ];
  let out = '';
  const length = Math.floor(random() * maxLength);
  while (out.length < length) {
    out += random() < 0.3 ? pieces[Math.floor(random() * pieces.length)] : String.fromCharCode(0x21 + Math.floor(random() * 94));
  }
  return out;
}

/** One of `items`, drawn with `random`. */
export const pick = <T>(random: () => number, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

/** Runs `task(0)` … `task(count - 1)` with at most `concurrency` of them in flight. */
export async function inParallel(count: number, concurrency: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) await task(next++);
    }),
  );
}

/** Text that means something to some parser: FTS5 and SQL operators, quotes, brackets, separators, path and template tricks, JavaScript member names. */
export const HOSTILE_TEXTS = [
  'AND',
  'OR',
  'NOT',
  'NEAR',
  'NEAR(',
  'NEAR(a b, 2)',
  'a OR b',
  'col:x',
  '^',
  '*',
  ':',
  '-',
  '"',
  "'",
  '(',
  ')',
  '[',
  ']',
  '{',
  '}',
  '[]',
  '{}',
  '()',
  ';',
  '--',
  '/*',
  "' OR 1=1 --",
  '"; DROP TABLE api_keys; --',
  '\\',
  '%',
  '..',
  '../..',
  '/',
  '|',
  ',',
  '&',
  '=',
  '+',
  '#',
  '?',
  '<script>',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a value that looks like a template, sent as it is
  '${x}',
  '__proto__',
  'constructor',
  'prototype',
  'hasOwnProperty',
  'toString',
  'null',
  'undefined',
  'true',
  'false',
  ' ',
  '\t',
  '\u00a0',
  '\u200b',
  '\ufeff',
  '😀',
  'é',
  '\u0301',
  '\u19b0',
  'Ω',
  '中文',
];

/** Numbers at and beyond the bounds parameters have (coordinates, zooms, sizes, minutes), and number-like strings. */
export const EDGE_NUMBERS = [
  '0',
  '-0',
  '1',
  '-1',
  '2',
  '14',
  '15',
  '23',
  '24',
  '40',
  '41',
  '60',
  '61',
  '255',
  '256',
  '90',
  '-90',
  '90.0000001',
  '-90.0000001',
  '180',
  '-180',
  '180.0001',
  '-180.0001',
  '360',
  '43.7384',
  '7.4246',
  'NaN',
  'Infinity',
  '-Infinity',
  '1e309',
  '-1e309',
  '1e-400',
  String(2 ** 53 + 1),
  `-${2 ** 53 + 1}`,
  '4294967296',
  '99999999999999999999',
  `1${'0'.repeat(400)}`,
  '0x10',
  '1e3',
  '1_000',
  '1,5',
  '.5',
  '5.',
  '+5',
  ' 5',
  '5 ',
  '00',
  '007',
  '0.0000000001',
  '1/2',
  '٣',
];

/** Percent escapes that are invalid UTF-8 or no escape at all, written raw into URLs (they are valid HTTP target characters). */
export const BAD_PERCENT_ESCAPES = ['%FF', '%C3%28', '%E2%82', '%', '%G1', '%%', '%0', '%ED%A0%80', '%C0%AF', '%F4%90%80%80', '%FE%FF'];

const controlCharacters = (random: () => number) =>
  Array.from({ length: 1 + Math.floor(random() * 4) }, () => String.fromCharCode(pick(random, [0, 1, 7, 8, 9, 10, 13, 27, 127]))).join('');

/**
 * A hostile value for a URL component, ready to put in the URL: `valid` mangled, an operator or
 * quote, an edge number, control characters, junk, an empty, long or huge (100 kB) string, or
 * invalid percent escapes left raw.
 */
export function hostileUrlValue(random: () => number, valid: string): string {
  const encoded = (text: string) => encodeURIComponent(text);
  switch (Math.floor(random() * 12)) {
    case 0:
      return encoded(pick(random, HOSTILE_TEXTS));
    case 1:
      return encoded(`${valid}${pick(random, HOSTILE_TEXTS)}`);
    case 2:
      return encoded(`${pick(random, HOSTILE_TEXTS)}${valid}${pick(random, HOSTILE_TEXTS)}`);
    case 3:
    case 4:
      return encoded(pick(random, EDGE_NUMBERS));
    case 5:
      return encoded(`${valid}${controlCharacters(random)}`);
    case 6:
      return encoded(junk(random, 40));
    case 7:
      return '';
    case 8:
      return `${encoded(valid)}${pick(random, BAD_PERCENT_ESCAPES)}`;
    case 9:
      return `${pick(random, BAD_PERCENT_ESCAPES)}${encoded(valid.slice(0, Math.floor(random() * (valid.length + 1))))}`;
    case 10:
      return encoded(valid.repeat(Math.ceil((200 + random() * 2000) / Math.max(valid.length, 1))));
    default:
      return random() < 0.2 ? 'x'.repeat(100 * 1024) : encoded(`${valid},${valid}|${valid}`);
  }
}

/** Any JSON value: hostile strings, edge numbers, huge strings, lone surrogates, arrays and objects nested up to `depth`. */
export function hostileJsonValue(random: () => number, depth = 2): unknown {
  switch (Math.floor(random() * (depth > 0 ? 9 : 7))) {
    case 0:
      return pick(random, HOSTILE_TEXTS);
    case 1:
      return Number(pick(random, EDGE_NUMBERS));
    case 2:
      return pick(random, [null, true, false, 0, -1, 1.5, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2]);
    case 3:
      return junk(random, 60);
    case 4:
      return 'x'.repeat(pick(random, [0, 201, 1025, 20_000]));
    // Lone surrogates: valid in JSON text, not in UTF-8 (a URL cannot carry them).
    case 5:
      return random() < 0.5 ? controlCharacters(random) : pick(random, ['\ud800', 'a\udfffb', '\udc00\ud800']);
    case 6:
      return '';
    case 7:
      return Array.from({ length: Math.floor(random() * 4) }, () => hostileJsonValue(random, depth - 1));
    default:
      return { [pick(random, ['a', '__proto__', 'constructor', 'email', ''])]: hostileJsonValue(random, depth - 1) };
  }
}

const BROKEN_JSON = [
  '',
  '{',
  '}',
  '{"email":',
  '{"a":1,}',
  "{'a':1}",
  'nul',
  'undefined',
  'NaN',
  '{"a":1}{"b":2}',
  '\ufeff{}',
  '{"a":"\\ud800"}',
  '{"__proto__":{"admin":true}}',
];
const JSON_TYPES = ['application/json', 'application/json; charset=utf-8', 'APPLICATION/JSON'];
/** undefined: no Content-Type header. */
const OTHER_TYPES = [
  undefined,
  'text/plain',
  'application/x-www-form-urlencoded',
  'application/jsonx',
  'application/octet-stream',
  'multipart/form-data; boundary=x',
];

export interface FuzzBody {
  body: string | Uint8Array;
  /** undefined: no Content-Type header. */
  contentType: string | undefined;
}

/**
 * A request body for an endpoint that takes a JSON object of `fields` (each with a valid value):
 * mostly such an object with some fields missing, of a wrong type or hostile, or unknown fields
 * added; else another JSON type, broken or deeply nested JSON, invalid UTF-8, an empty or oversized
 * body, or a wrong Content-Type.
 */
export function hostileJsonBody(random: () => number, fields: Record<string, () => unknown>): FuzzBody {
  if (random() < 0.6) {
    const entries: [string, unknown][] = [];
    for (const [name, valid] of Object.entries(fields)) {
      const choice = random();
      if (choice < 0.45) entries.push([name, valid()]);
      else if (choice < 0.85) entries.push([name, hostileJsonValue(random)]);
    }
    if (random() < 0.15)
      entries.push([pick(random, ['extra', '__proto__', 'constructor', 'role', 'orgId', 'tier']), hostileJsonValue(random)]);
    // From entries, so that `__proto__` is a field of the JSON rather than the object's prototype.
    const object = Object.fromEntries(entries);
    const contentType = random() < 0.9 ? pick(random, JSON_TYPES) : pick(random, OTHER_TYPES);
    return { body: JSON.stringify(object), contentType };
  }
  const broken = [
    () => JSON.stringify(hostileJsonValue(random)),
    () => JSON.stringify(Object.values(fields).map((valid) => valid())),
    () => pick(random, BROKEN_JSON),
    () => `${'['.repeat(10_000)}${']'.repeat(10_000)}`,
    () => `{"a":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}`,
    () => Uint8Array.from([0x7b, 0x22, 0x65, 0x22, 0x3a, 0x22, 0xff, 0xc3, 0x28, 0xe2, 0x82, 0x22, 0x7d]),
    () => JSON.stringify({ [Object.keys(fields)[0] ?? 'a']: 'x'.repeat(70 * 1024) }),
    () => junk(random, 300),
  ];
  return { body: pick(random, broken)(), contentType: random() < 0.8 ? JSON_TYPES[0] : pick(random, OTHER_TYPES) };
}
