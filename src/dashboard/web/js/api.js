// The client of the dashboard's same-origin JSON API; state changes carry the session's CSRF token.
import { state } from './state.js';

const API = '/dashboard/api';

class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

/** Calls the dashboard API; rejects with the server's `message` on an error status. */
export async function api(method, path, body) {
  const headers = {};
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (method !== 'GET' && state.session) headers['X-CSRF-Token'] = state.session.csrfToken;
  let res;
  try {
    res = await fetch(API + path, {
      method,
      headers,
      credentials: 'same-origin',
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, 'Cannot reach the Waymark server. Check your connection and try again.');
  }
  if (res.status === 204) return null;
  const data = await res.json().catch(() => null);
  if (!res.ok) throw new ApiError(res.status, data?.message ?? `The server answered ${res.status}.`);
  return data;
}
