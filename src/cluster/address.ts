/**
 * The address a node gives to people and other machines. A node listening on every interface
 * (0.0.0.0, as in the image) is not reachable at 127.0.0.1 from anywhere else, so it names this
 * machine instead; behind NAT or Docker's port mapping only the operator knows the right address,
 * which WAYMARK_NODE_URL sets.
 */
import { hostname } from 'node:os';
import { processEnvironment, setting } from '../../core/config.js';

const EVERY_INTERFACE = new Set(['0.0.0.0', '::', '']);

export const listensEverywhere = (host: string) => EVERY_INTERFACE.has(host);

/** `http://host:port` with an IPv6 address in brackets. */
export const httpUrl = (host: string, port: number) => `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

/** WAYMARK_NODE_URL when set, else the listening address with "every interface" replaced by this machine's name. */
export function advertisedUrl(
  listenHost: string,
  port: number,
  env: NodeJS.ProcessEnv = processEnvironment(),
  machine = hostname(),
): string {
  const configured = setting('nodeUrl', env);
  if (configured) return configured;
  return httpUrl(listensEverywhere(listenHost) ? machine : listenHost, port);
}
