/**
 * Issue 23: one configuration module reads and checks every WAYMARK_* variable (core/config.ts);
 * README.md's configuration table lists exactly those; a bad value is one clear line, whichever
 * variable it is, and stops any command before it runs.
 */
import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../core/package-root.js';
import { ConfigError, readSettings, setting, VARIABLE_NAMES } from '../core/config.js';
import { waymark } from './helpers/cli.js';

/** The variable names in the first column of README.md's "## Configuration" table. */
function readmeVariables(): string[] {
  const readme = readFileSync(join(PACKAGE_ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('\n## Configuration'));
  const table = section.slice(0, section.indexOf('\n## ', 1));
  return table
    .split('\n')
    .filter((line) => line.startsWith('| `WAYMARK_'))
    .flatMap((line) => [...line.split('|')[1]!.matchAll(/`(WAYMARK_[A-Z_]+)`/g)].map((m) => m[1]!));
}

test("README's configuration table lists every variable the configuration module reads, and no other", (t) => {
  t.deepEqual([...readmeVariables()].sort(), [...VARIABLE_NAMES].sort());
});

test('every variable unset gives the documented defaults', (t) => {
  const settings = readSettings({});
  t.like(settings, {
    host: '127.0.0.1',
    port: 8080,
    usageFlushMs: 1000,
    logLevel: 'info',
    tileCacheMb: 64,
    redisPrefix: 'waymark',
    workerHost: '0.0.0.0',
  });
  t.deepEqual(settings.trustedProxies, []);
  for (const key of [
    'publicUrl',
    'nodeUrl',
    'redisUrl',
    'operatorToken',
    'workerUrl',
    'jobLockMs',
    'importMemory',
    'cliHint',
    'osm',
  ] as const) {
    t.is(settings[key], undefined, key);
  }
  t.true(settings.threads >= 1 && settings.importThreads >= 1);
});

test('values are read and put in one form', (t) => {
  const settings = readSettings({
    WAYMARK_PORT: ' 9000 ',
    WAYMARK_PUBLIC_URL: 'https://maps.example.com/',
    WAYMARK_TRUSTED_PROXIES: '10.0.0.0/8, ::ffff:127.0.0.1',
    WAYMARK_IMPORT_MEMORY: '1536M',
    WAYMARK_IMPORT_THREADS: '3',
    WAYMARK_REDIS_URL: 'redis://127.0.0.1:6379',
  });
  t.like(settings, {
    port: 9000,
    publicUrl: 'https://maps.example.com',
    importMemory: 1536 * 1024 * 1024,
    importThreads: 3,
    redisUrl: 'redis://127.0.0.1:6379',
  });
  t.deepEqual(settings.trustedProxies, ['10.0.0.0/8', '127.0.0.1']);
});

test('a bad value is one line naming its variable; several bad values, one line each', (t) => {
  const bad: Record<string, RegExp> = {
    WAYMARK_PORT: /^WAYMARK_PORT must be a whole number from 0 to 65535, not "http"$/,
    WAYMARK_THREADS: /^WAYMARK_THREADS must be a whole number from 1 to 1024, not "abc"$/,
    WAYMARK_IMPORT_THREADS: /^WAYMARK_IMPORT_THREADS must be a whole number from 1 to 1024, not "abc"$/,
    WAYMARK_IMPORT_MEMORY: /^WAYMARK_IMPORT_MEMORY: "lots" is no amount of memory/,
    WAYMARK_PUBLIC_URL: /^WAYMARK_PUBLIC_URL must be an http\(s\) URL/,
    WAYMARK_TRUSTED_PROXIES: /^WAYMARK_TRUSTED_PROXIES must be a comma-separated list/,
    WAYMARK_REDIS_URL: /^WAYMARK_REDIS_URL must be a redis:\/\/, rediss:\/\/ or redis\+sentinel:\/\/ URL, not "localhost:6379"$/,
    WAYMARK_OPERATOR_TOKEN: /^WAYMARK_OPERATOR_TOKEN must be at least 16 characters/,
    WAYMARK_LOG_LEVEL: /^WAYMARK_LOG_LEVEL must be one of/,
    WAYMARK_LOG_FORMAT: /^WAYMARK_LOG_FORMAT must be text or json, not "pretty"$/,
    WAYMARK_JOB_LOCK_MS: /^WAYMARK_JOB_LOCK_MS must be a whole number from 1000/,
  };
  const values: Record<string, string> = {
    WAYMARK_PORT: 'http',
    WAYMARK_THREADS: 'abc',
    WAYMARK_IMPORT_THREADS: 'abc',
    WAYMARK_IMPORT_MEMORY: 'lots',
    WAYMARK_PUBLIC_URL: 'maps.example.com',
    WAYMARK_TRUSTED_PROXIES: '10.0.0.0/33',
    WAYMARK_REDIS_URL: 'localhost:6379',
    WAYMARK_OPERATOR_TOKEN: 'short',
    WAYMARK_LOG_LEVEL: 'loud',
    WAYMARK_LOG_FORMAT: 'pretty',
    WAYMARK_JOB_LOCK_MS: '5',
  };
  const error = t.throws(() => readSettings(values), { instanceOf: ConfigError });
  const lines = error!.message.split('\n');
  t.is(lines.length, Object.keys(bad).length);
  for (const [name, pattern] of Object.entries(bad)) {
    t.is(lines.filter((line) => pattern.test(line)).length, 1, name);
    t.throws(() => setting(VARIABLE_KEY[name]!, { [name]: values[name] }), { instanceOf: ConfigError, message: pattern });
  }
});

const VARIABLE_KEY: Record<string, Parameters<typeof setting>[0]> = {
  WAYMARK_PORT: 'port',
  WAYMARK_THREADS: 'threads',
  WAYMARK_IMPORT_THREADS: 'importThreads',
  WAYMARK_IMPORT_MEMORY: 'importMemory',
  WAYMARK_PUBLIC_URL: 'publicUrl',
  WAYMARK_TRUSTED_PROXIES: 'trustedProxies',
  WAYMARK_REDIS_URL: 'redisUrl',
  WAYMARK_OPERATOR_TOKEN: 'operatorToken',
  WAYMARK_LOG_LEVEL: 'logLevel',
  WAYMARK_LOG_FORMAT: 'logFormat',
  WAYMARK_JOB_LOCK_MS: 'jobLockMs',
};

test('any command stops before it runs when a variable is bad, naming it (exit 2)', async (t) => {
  const run = await waymark(['key', 'list', '--org', 'x'], { WAYMARK_IMPORT_THREADS: 'abc' });
  t.is(run.code, 2);
  t.regex(run.stderr, /WAYMARK_IMPORT_THREADS must be a whole number from 1 to 1024, not "abc"/);
  t.is(run.stdout, '');
});
