/** What a route handler returns; the server writes it to the socket. */
import { errorBody } from './errors.js';

/**
 * Header lines encoded once as bytes, e.g. with a cached tile, and written in one call:
 * uWebSockets.js writes `name: value\r\n` per header, so a block is its first header's name and,
 * as the value, its first value followed by the other lines. Built from the server's own values
 * only (never from request input, where a line break would add a header). Shared between
 * replies: never mutated.
 */
export type PresetHeaders = readonly [name: Uint8Array, value: Uint8Array];

export interface Reply {
  status: number;
  /** Per-request headers; the gateway and the app add theirs here. */
  headers: Record<string, string>;
  /** Written before `headers`, in order. */
  preset?: readonly PresetHeaders[];
  body: string | Uint8Array;
}

/** One block of `headers`, in their order. */
export function presetHeaders(headers: Record<string, string>): PresetHeaders {
  const lines = Object.entries(headers);
  if (lines.length === 0) throw new Error('a header block needs at least one header');
  for (const [name, value] of lines) {
    if (/[\r\n]/.test(name + value)) throw new Error(`header ${name} contains a line break`);
  }
  const [[firstName, firstValue], ...rest] = lines as [[string, string], ...[string, string][]];
  return [Buffer.from(firstName), Buffer.from([firstValue, ...rest.map(([name, value]) => `${name}: ${value}`)].join('\r\n'))];
}

const JSON_TYPE = 'application/json; charset=utf-8';

export function json(status: number, value: unknown, headers?: Record<string, string>): Reply {
  const allHeaders = headers ? { 'Content-Type': JSON_TYPE, ...headers } : { 'Content-Type': JSON_TYPE };
  return { status, headers: allHeaders, body: JSON.stringify(value) };
}

export function errorReply(status: number, message: string, headers: Record<string, string> = {}, code?: string): Reply {
  return { status, headers: { 'Content-Type': JSON_TYPE, ...headers }, body: errorBody(status, message, code) };
}

export function empty(status: number, headers: Record<string, string> = {}): Reply {
  return { status, headers, body: '' };
}
