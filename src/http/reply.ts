/** What a route handler returns; the server writes it to the socket. */
import { errorBody } from './errors.js';

export interface Reply {
  status: number;
  headers: Record<string, string>;
  body: string | Uint8Array;
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
