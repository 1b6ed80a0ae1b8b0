/**
 * Opening the control-plane store for one command — the data folder's SQLite file, or the cluster's
 * Redis with WAYMARK_REDIS_URL — and finding organizations in it.
 */
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { CreatedPaths } from '../../core/created-paths.js';
import { databaseFile } from '../../core/config.js';
import { redisSettingsFromEnv } from '../../core/redis-settings.js';
import { SqliteStore } from '../control-plane/sqlite/index.js';
import type { AuditContext } from '../control-plane/audit.js';
import type { ControlStore } from '../control-plane/store.js';
import { quotasOf } from '../control-plane/tiers.js';
import { perMinuteOf } from '../control-plane/short-window.js';
import type { Organization } from '../control-plane/types.js';
import { CliError } from './command.js';
import { waymarkCommand } from './invocation.js';

/** SQLite's files of a database: the file itself, its write-ahead log and shared memory, its rollback journal. */
const SQLITE_FILE_SUFFIXES = ['', '-wal', '-shm', '-journal'];

/**
 * Runs `work` with the store and closes it after. Servers see the changes on their next request:
 * SQLite lets this run beside a server on the same folder, and Redis tells every node. Only
 * commands that create accounts (`create: true`) may create the SQLite database; when such a
 * command fails (a bad email, say), the database and folders it created go again.
 */
export async function withStore<T>(
  dataDir: string,
  work: (store: ControlStore) => Promise<T>,
  options: { create: boolean } = { create: false },
): Promise<T> {
  const redis = redisSettingsFromEnv();
  if (redis) {
    // Loaded only here: the embedded store's commands start without ioredis. Commands read and
    // write records only; none needs every key loaded into a directory.
    const { RedisStore } = await import('../control-plane/redis/index.js');
    const store = await RedisStore.open(redis, { directory: false });
    try {
      return await work(store);
    } finally {
      await store.close();
    }
  }
  const file = databaseFile(dataDir);
  const created = new CreatedPaths();
  if (!existsSync(file)) {
    if (!options.create) {
      throw new CliError(
        `no Waymark database in ${dataDir}; pass the --data folder the server uses, or create a user first with "${waymarkCommand()} user create"`,
      );
    }
    created.folder(dirname(file));
    for (const suffix of SQLITE_FILE_SUFFIXES) created.file(`${file}${suffix}`);
  }
  const store = new SqliteStore(file);
  let result: T;
  try {
    result = await work(store);
  } catch (error) {
    await store.close();
    created.remove();
    throw error;
  }
  await store.close();
  return result;
}

export async function findOrg(store: ControlStore, name: string): Promise<Organization> {
  // Names are stored NFKC-normalized (accounts.ts cleanOrgName).
  const org = await store.findOrgByName(name.trim().normalize('NFKC'));
  if (!org) {
    throw new CliError(
      `unknown organization ${JSON.stringify(name)}; organizations are made by signing up or by "${waymarkCommand()} user create --org NAME"`,
    );
  }
  return org;
}

/** An organization as `--json` output shows it: with the quotas in force. */
export function organizationJson(org: Organization) {
  return { id: org.id, name: org.name, tier: org.tier, quotas: quotasOf(org), perMinute: perMinuteOf(org) };
}

/** The operator's changes with the CLI on the server's disk, for the audit log (no client address). */
export const operatorAudit = (store: ControlStore, orgId: string): AuditContext => ({
  store,
  orgId,
  actor: { kind: 'operator' },
  address: null,
  nowMs: Date.now(),
});
