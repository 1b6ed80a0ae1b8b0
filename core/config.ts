/**
 * Every `WAYMARK_*` variable the program reads, in one table: its name, what it is when unset, and
 * how a value is read and checked. Nothing else reads them. Every command checks the whole table
 * when it starts (`readSettings`), so a bad value stops it at once with one line per bad variable;
 * a module then takes the one it needs with `setting(key)`. Command-line flags override them.
 * README.md's configuration table lists the same variables (test/config.test.ts holds them equal).
 */
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { CidrError, normalizeCidr } from './cidr.js';
import { parseMemorySize } from './memory-size.js';
import { isSentinelUrl, parseSentinelUrl, redactedUrl, SENTINEL_SCHEME } from './redis-url.js';
import { parseWholeNumber } from './whole-number.js';

type Env = Readonly<Record<string, string | undefined>>;

/**
 * The process's environment: the one place the program reads `process.env`. Whatever reads
 * variables takes an environment, defaulting to this one, so that a test can hand it another.
 */
export function processEnvironment(): NodeJS.ProcessEnv {
  return process.env;
}

interface Variable<T> {
  name: string;
  /** The value when the variable is unset or blank. */
  unset: () => T;
  /** Reads a value (trimmed, not blank); throws an Error whose message says what is wrong with it. */
  read: (raw: string) => T;
}

const variable = <T>(name: string, unset: () => T, read: (raw: string) => T): Variable<T> => ({ name, unset, read });
const text = (name: string, unset: string) =>
  variable(
    name,
    () => unset,
    (raw) => raw,
  );
const optionalText = (name: string) =>
  variable<string | undefined>(
    name,
    () => undefined,
    (raw) => raw,
  );
const whole = (name: string, unset: () => number, min: number, max: number) =>
  variable(name, unset, (raw) => parseWholeNumber(raw, name, min, max));

function httpUrl(name: string, what: string) {
  return variable<string | undefined>(
    name,
    () => undefined,
    (raw) => {
      if (!/^https?:\/\/[^/]+/.test(raw) || !URL.canParse(raw))
        throw new Error(`${name} must be an http(s) URL ${what}, not ${JSON.stringify(raw)}`);
      return raw.replace(/\/+$/, '');
    },
  );
}

/** Below this an operator token is too easy to guess. */
export const MIN_OPERATOR_TOKEN_LENGTH = 16;
export const MAX_THREADS = 1024;
/** The default bound of the in-memory tile cache: a few thousand typical vector tiles. */
export const DEFAULT_TILE_CACHE_MB = 64;
export const DEFAULT_REDIS_PREFIX = 'waymark';
/** How long a control-plane Redis command waits for its reply before the store reads as unavailable. */
export const DEFAULT_REDIS_COMMAND_TIMEOUT_MS = 2000;
export const DEFAULT_OPERATOR_TIMEOUT_MS = 5000;
export const DEFAULT_QUOTA_LEASE_TTL_MS = 10_000;
/** How long a raster tile or static map may take, waiting for a thread included, before it is stopped (503). */
export const DEFAULT_RENDER_TIMEOUT_MS = 20_000;
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export const VARIABLES = {
  dataDir: variable(
    'WAYMARK_DATA',
    () => resolve('./data'),
    (raw) => resolve(raw),
  ),
  host: text('WAYMARK_HOST', '127.0.0.1'),
  port: whole('WAYMARK_PORT', () => 8080, 0, 65535),
  publicUrl: httpUrl('WAYMARK_PUBLIC_URL', 'of the platform as its users reach it'),
  nodeUrl: httpUrl('WAYMARK_NODE_URL', 'where other machines reach this node'),
  trustedProxies: variable<readonly string[]>(
    'WAYMARK_TRUSTED_PROXIES',
    () => [],
    (raw) => {
      try {
        return raw
          .split(',')
          .map((entry) => entry.trim())
          .filter((entry) => entry !== '')
          .map(normalizeCidr);
      } catch (error) {
        if (!(error instanceof CidrError)) throw error;
        throw new Error(`WAYMARK_TRUSTED_PROXIES must be a comma-separated list of IP addresses and CIDR ranges: ${error.message}`);
      }
    },
  ),
  usageFlushMs: whole('WAYMARK_USAGE_FLUSH_MS', () => 1000, 10, 60_000),
  logLevel: variable(
    'WAYMARK_LOG_LEVEL',
    () => 'info',
    (raw) => {
      if (!LOG_LEVELS.includes(raw))
        throw new Error(`WAYMARK_LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, not ${JSON.stringify(raw)}`);
      return raw;
    },
  ),
  logFormat: variable<'text' | 'json' | undefined>(
    'WAYMARK_LOG_FORMAT',
    () => undefined,
    (raw) => {
      if (raw !== 'text' && raw !== 'json') throw new Error(`WAYMARK_LOG_FORMAT must be text or json, not ${JSON.stringify(raw)}`);
      return raw;
    },
  ),
  threads: whole('WAYMARK_THREADS', () => availableParallelism(), 1, MAX_THREADS),
  tileCacheMb: whole('WAYMARK_TILE_CACHE_MB', () => DEFAULT_TILE_CACHE_MB, 0, 1024 * 1024),
  renderTimeoutMs: whole('WAYMARK_RENDER_TIMEOUT_MS', () => DEFAULT_RENDER_TIMEOUT_MS, 1000, 3_600_000),
  redisUrl: variable<string | undefined>(
    'WAYMARK_REDIS_URL',
    () => undefined,
    (raw) => {
      if (isSentinelUrl(raw)) {
        try {
          parseSentinelUrl(raw);
        } catch (error) {
          throw new Error(`WAYMARK_REDIS_URL: ${(error as Error).message}`);
        }
      } else if (!/^rediss?:\/\/[^/]/.test(raw)) {
        throw new Error(
          `WAYMARK_REDIS_URL must be a redis://, rediss:// or ${SENTINEL_SCHEME} URL, not ${JSON.stringify(redactedUrl(raw))}`,
        );
      }
      return raw;
    },
  ),
  redisPrefix: text('WAYMARK_REDIS_PREFIX', DEFAULT_REDIS_PREFIX),
  redisCommandTimeoutMs: whole('WAYMARK_REDIS_COMMAND_TIMEOUT_MS', () => DEFAULT_REDIS_COMMAND_TIMEOUT_MS, 100, 600_000),
  operatorTimeoutMs: whole('WAYMARK_OPERATOR_TIMEOUT_MS', () => DEFAULT_OPERATOR_TIMEOUT_MS, 100, 600_000),
  /** How long a node's quota lease outlives its last report (redis/leases.ts): a dead node's block is settled after it. */
  quotaLeaseTtlMs: whole('WAYMARK_QUOTA_LEASE_TTL_MS', () => DEFAULT_QUOTA_LEASE_TTL_MS, 2000, 600_000),
  operatorToken: variable<string | undefined>(
    'WAYMARK_OPERATOR_TOKEN',
    () => undefined,
    (raw) => {
      if (raw.length < MIN_OPERATOR_TOKEN_LENGTH) {
        throw new Error(
          `WAYMARK_OPERATOR_TOKEN must be at least ${MIN_OPERATOR_TOKEN_LENGTH} characters long; use e.g. "openssl rand -hex 32"`,
        );
      }
      return raw;
    },
  ),
  workerUrl: variable<string | undefined>(
    'WAYMARK_WORKER_URL',
    () => undefined,
    (raw) => {
      if (!URL.canParse(raw) || new URL(raw).protocol !== 'http:') {
        throw new Error(`WAYMARK_WORKER_URL must be an http:// URL where other machines reach this worker, not ${JSON.stringify(raw)}`);
      }
      return raw;
    },
  ),
  workerHost: text('WAYMARK_WORKER_HOST', '0.0.0.0'),
  /** Unset: the queue's default (data-pipeline/queue/worker.ts). */
  jobLockMs: variable<number | undefined>(
    'WAYMARK_JOB_LOCK_MS',
    () => undefined,
    (raw) => parseWholeNumber(raw, 'WAYMARK_JOB_LOCK_MS', 1_000, 3_600_000),
  ),
  /** Unset: the import's default share of the machine's memory (data-pipeline/memory-budget.ts). */
  importMemory: variable<number | undefined>(
    'WAYMARK_IMPORT_MEMORY',
    () => undefined,
    (raw) => {
      const bytes = parseMemorySize(raw);
      if (bytes === null) throw new Error(`WAYMARK_IMPORT_MEMORY: "${raw}" is no amount of memory; write e.g. 2G, 1536M or 800MB`);
      return bytes;
    },
  ),
  importThreads: whole('WAYMARK_IMPORT_THREADS', () => availableParallelism(), 1, MAX_THREADS),
  cliHint: optionalText('WAYMARK_CLI_HINT'),
  /** Read by `npm start` (scripts/start.sh): the extracts its first import takes. */
  osm: optionalText('WAYMARK_OSM'),
} satisfies Record<string, Variable<unknown>>;

export type Settings = { [K in keyof typeof VARIABLES]: ReturnType<(typeof VARIABLES)[K]['unset']> };

/** The variables a configuration is wrong in, one line each. */
export class ConfigError extends Error {}

function readOne<K extends keyof Settings>(key: K, env: Env): Settings[K] {
  const spec = VARIABLES[key] as unknown as Variable<Settings[K]>;
  const raw = env[spec.name]?.trim();
  return raw ? spec.read(raw) : spec.unset();
}

/** One variable, read and checked as the table says; a bad value throws a ConfigError naming it. */
export function setting<K extends keyof Settings>(key: K, env: Env = processEnvironment()): Settings[K] {
  try {
    return readOne(key, env);
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
}

/** Every variable at once: a ConfigError lists each bad one on a line of its own. */
export function readSettings(env: Env = processEnvironment()): Settings {
  const settings: Partial<Settings> = {};
  const problems: string[] = [];
  for (const key of Object.keys(VARIABLES) as (keyof Settings)[]) {
    try {
      (settings as Record<string, unknown>)[key] = readOne(key, env);
    } catch (error) {
      problems.push((error as Error).message);
    }
  }
  if (problems.length > 0) throw new ConfigError(problems.join('\n'));
  return settings as Settings;
}

/** The names of every variable, as README.md's configuration table must list them. */
export const VARIABLE_NAMES: readonly string[] = Object.values(VARIABLES).map((v) => v.name);

export const databaseFile = (dataDir: string) => resolve(dataDir, 'waymark.db');
