/**
 * What the parts of the Redis store (accounts.ts, sessions.ts, api-keys.ts, invitations.ts,
 * usage.ts) share: the command connection, the key names, the scripts, the directory and the
 * clock, with the error handling and change announcement every write goes through.
 */
import type { Redis } from 'ioredis';
import type { RedisSettings } from '../../../core/redis-settings.js';
import { StoreConflict } from '../store.js';
import { storeError } from './connection.js';
import { announce, type RedisDirectory, type Change } from './directory.js';
import type { ControlKeys } from './keys.js';
import type { Scripts } from './scripts.js';

export interface RedisContext {
  settings: RedisSettings;
  client: Redis;
  names: ControlKeys;
  scripts: Scripts;
  directory: RedisDirectory;
  now: () => number;
}

export abstract class RedisStorePart {
  protected readonly settings: RedisSettings;
  protected readonly client: Redis;
  protected readonly names: ControlKeys;
  protected readonly scripts: Scripts;
  protected readonly directory: RedisDirectory;
  protected readonly now: () => number;

  constructor(context: RedisContext) {
    this.settings = context.settings;
    this.client = context.client;
    this.names = context.names;
    this.scripts = context.scripts;
    this.directory = context.directory;
    this.now = context.now;
  }

  /** Runs Redis work, reporting connection failures as StoreUnavailable. */
  protected async guarded<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw error instanceof StoreConflict ? error : storeError(error, this.settings);
    }
  }

  /** Tells every node's directory to re-read a record this node wrote, and waits until they have. */
  protected announce(change: Change): Promise<void> {
    return announce(this.client, this.names, change);
  }
}
