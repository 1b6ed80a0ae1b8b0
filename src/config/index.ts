/** Settings from `WAYMARK_*` environment variables; command-line flags override them. */
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { CidrError, CidrSet } from '../http/cidr.js';

export interface Config {
  dataDir: string;
  host: string;
  port: number;
  publicUrl: string | undefined;
  /** How often buffered usage counts are written; a crash loses at most this much counting. */
  usageFlushMs: number;
  /** Worker threads for CPU-heavy work (routing, rendering), for the compute pool. */
  threads: number;
  /** Reverse proxies whose X-Forwarded-For is believed (`WAYMARK_TRUSTED_PROXIES`); empty by default. */
  trustedProxies: CidrSet;
}

export const MAX_THREADS = 1024;

function intFromEnv(name: string, fallback: number, min: number, max: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${name} must be a whole number from ${min} to ${max}, not ${JSON.stringify(raw)}`);
  }
  return value;
}

/** The data folder: `WAYMARK_DATA`, else `./data`, as an absolute path. */
export function dataDirFromEnv(): string {
  return resolve(process.env.WAYMARK_DATA || './data');
}

export function configFromEnv(): Config {
  const publicUrl = process.env.WAYMARK_PUBLIC_URL?.replace(/\/+$/, '') || undefined;
  if (publicUrl && !/^https?:\/\/[^/]+/.test(publicUrl)) {
    throw new Error(`WAYMARK_PUBLIC_URL must be an http(s) URL, not ${JSON.stringify(publicUrl)}`);
  }
  return {
    dataDir: dataDirFromEnv(),
    host: process.env.WAYMARK_HOST || '127.0.0.1',
    port: intFromEnv('WAYMARK_PORT', 8080, 0, 65535),
    publicUrl,
    usageFlushMs: intFromEnv('WAYMARK_USAGE_FLUSH_MS', 1000, 10, 60_000),
    threads: intFromEnv('WAYMARK_THREADS', availableParallelism(), 1, MAX_THREADS),
    trustedProxies: trustedProxiesFromEnv(),
  };
}

/** `WAYMARK_TRUSTED_PROXIES`: comma-separated IP addresses and CIDR ranges (`10.0.0.0/8, ::1`). */
export function trustedProxiesFromEnv(): CidrSet {
  const entries = (process.env.WAYMARK_TRUSTED_PROXIES ?? '').split(',').map((entry) => entry.trim()).filter((entry) => entry !== '');
  try {
    return CidrSet.parse(entries);
  } catch (error) {
    if (!(error instanceof CidrError)) throw error;
    throw new Error(`WAYMARK_TRUSTED_PROXIES must be a comma-separated list of IP addresses and CIDR ranges: ${error.message}`);
  }
}

/** The default bound of the in-memory tile cache: a few thousand typical vector tiles. */
export const DEFAULT_TILE_CACHE_MB = 64;

/** Bytes the tile cache may hold: `WAYMARK_TILE_CACHE_MB` (0 turns it off), else the default. */
export function tileCacheBytesFromEnv(): number {
  return intFromEnv('WAYMARK_TILE_CACHE_MB', DEFAULT_TILE_CACHE_MB, 0, 1024 * 1024) * 1024 * 1024;
}

export const databaseFile = (dataDir: string) => resolve(dataDir, 'waymark.db');
