/** What a route handler returns; the server writes it to the socket. */
import { errorBody } from './errors.js';

/**
 * Response headers encoded once as bytes (name, value), e.g. with a cached tile, so that writing
 * them costs no string conversion per request. Shared between replies: never mutated.
 */
export type PresetHeaders = readonly (readonly [name: Uint8Array, value: Uint8Array])[];

export interface Reply {
  status: number;
  /** Per-request headers; the gateway and the app add theirs here. */
  headers: Record<string, string>;
  /** Written before `headers`. */
  preset?: PresetHeaders;
  body: string | Uint8Array;
}

export function presetHeader(name: string, value: string): PresetHeaders[number] {
  return [Buffer.from(name), Buffer.from(value)];
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
