/**
 * The in-memory directory of keys and organizations over Redis. It loads every record at start;
 * each key or organization write is published on the changes channel (`key <hash>`, `org <id>`)
 * and every node's subscriber re-reads that record. A subscriber that was disconnected may have
 * missed messages, so keys are not served again until a full reload after the reconnect. The two
 * connections reconnect each on its own; a reload that fails (the command connection not back yet)
 * is tried again until it succeeds or the subscriber drops again. A writer waits for every node to
 * acknowledge its change (`announce`), so a revocation or plan change holds on every node's next
 * request.
 */
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { KeyIndex } from '../key-index.js';
import type { Directory } from '../store.js';
import type { ApiKeyRecord, Organization } from '../types.js';
import type { ControlKeys } from './keys.js';
import { isPresent, toKey, toOrg, type Hash } from './records.js';

/** A change: which record to re-read. */
export type Change = `key ${string}` | `org ${string}`;

const RELOAD_RETRY_MS = 250;
/** How long a writer waits for every node to acknowledge its change; a node that does not answer by then is passed over. */
const ACK_WAIT_MS = 1000;
const ACK_POLL_MS = 2;
/** Acknowledgement lists outlive any wait. */
const ACK_TTL_MS = 60_000;

/** Tells the sender of a message carrying `token` that this node has acted on it. */
export function acknowledge(client: Redis, names: ControlKeys, token: string): Promise<unknown> {
  const list = names.changeAcks(token);
  return client.multi().rpush(list, '1').pexpire(list, ACK_TTL_MS).exec();
}

/**
 * Publishes a change and waits until every subscribed node has applied it (or ACK_WAIT_MS has
 * passed), so that once a write has answered, the next request on any node sees it: nodes check
 * keys and serve quota from memory, without asking Redis per request.
 */
export function announce(client: Redis, names: ControlKeys, change: Change): Promise<void> {
  return broadcast(client, names, names.changes, change);
}

/** Publishes `<message> <token>` on `channel` and waits until every subscriber has acknowledged the token (or ACK_WAIT_MS has passed). */
export async function broadcast(client: Redis, names: ControlKeys, channel: string, message: string): Promise<void> {
  const token = randomBytes(9).toString('base64url');
  const receivers = await client.publish(channel, `${message} ${token}`);
  const list = names.changeAcks(token);
  const deadline = Date.now() + ACK_WAIT_MS;
  while (receivers > 0 && (await client.llen(list)) < receivers && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, ACK_POLL_MS));
  }
}

export class RedisDirectory implements Directory {
  private keys = new KeyIndex();
  /** The `version` of each key's record as read (by key id); reservations compare it with the store's. */
  private versions = new Map<string, string>();
  private orgs = new Map<string, Organization>();
  private subscribed = false;
  /** Until a full load completes after (re)connecting, what was loaded may be out of date. */
  private loaded = false;
  private reloading: Promise<void> | null = null;
  /** Changes seen while a full load runs; re-read after it, as the load may have read them before. */
  private changedDuringReload: Change[] = [];
  private retry: NodeJS.Timeout | null = null;

  constructor(
    private readonly client: Redis,
    private readonly names: ControlKeys,
  ) {}

  /** Subscribes to the changes channel, then loads everything; again after each reconnect. */
  async listen(subscriber: Redis): Promise<void> {
    subscriber.on('message', (channel: string, message: string) => {
      if (channel === this.names.changes) void this.apply(message).catch(() => this.sync());
    });
    subscriber.on('close', () => {
      this.subscribed = false;
      this.loaded = false;
    });
    await subscriber.connect();
    await this.resubscribe(subscriber);
    // Registered after the first load: 'ready' fires on each reconnect, before ioredis has resubscribed.
    subscriber.on('ready', () => void this.resubscribe(subscriber).catch(() => this.reloadLater()));
  }

  private async resubscribe(subscriber: Redis): Promise<void> {
    await subscriber.subscribe(this.names.changes);
    this.subscribed = true;
    await this.reload();
  }

  /** While subscribed but not loaded, tries the full reload again shortly. */
  private reloadLater(): void {
    if (this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = null;
      if (this.subscribed && !this.loaded) this.reload().catch(() => this.reloadLater());
    }, RELOAD_RETRY_MS);
    this.retry.unref();
  }

  unavailable(): string | null {
    if (!this.subscribed) return 'the connection to the control-plane Redis is down';
    if (!this.loaded) return 'reloading keys and organizations after reconnecting to Redis';
    return null;
  }

  /** Starts a full reload in the background; failures leave `unavailable()` set until the next one. */
  sync(): void {
    void this.reload().catch(() => {});
  }

  keyByHash(hash: string): ApiKeyRecord | undefined {
    return this.keys.byValueHash(hash);
  }

  org(id: string): Organization | undefined {
    return this.orgs.get(id);
  }

  async findMissingKey(hash: string): Promise<ApiKeyRecord | undefined> {
    const keyHash = await this.client.hgetall(this.names.key(hash));
    if (!isPresent(keyHash)) return undefined;
    const orgHash = await this.client.hgetall(this.names.org(keyHash.orgId!));
    if (!isPresent(orgHash)) return undefined;
    const org = toOrg(orgHash);
    this.orgs.set(org.id, org);
    return this.putHash(keyHash);
  }

  async refreshKey(keyId: string): Promise<ApiKeyRecord | undefined> {
    const hash = await this.client.hget(this.names.keyIds, keyId);
    const keyHash = hash === null ? {} : await this.client.hgetall(this.names.key(hash));
    return isPresent(keyHash) ? this.putHash(keyHash) : undefined;
  }

  versionOf(keyId: string): string {
    return this.versions.get(keyId) ?? '0';
  }

  /** A key's record as read from Redis; its `version` is kept beside it (0 for a record from before versions). */
  private putHash(fields: Hash): ApiKeyRecord {
    const key = toKey(fields);
    this.keys.put(key);
    this.versions.set(key.id, fields.version ?? '0');
    return key;
  }

  /** This node's own write, applied before the write's promise resolves. */
  putKey(key: ApiKeyRecord, version: string): void {
    this.keys.put(key);
    this.versions.set(key.id, version);
    this.noteChange(`key ${key.hash}`);
  }

  putOrg(org: Organization): void {
    this.orgs.set(org.id, org);
    this.noteChange(`org ${org.id}`);
  }

  private noteChange(change: Change): void {
    if (this.reloading) this.changedDuringReload.push(change);
  }

  /**
   * Re-reads the record a change message names; then, when the message carries the writer's token
   * (`key <hash> <token>`), acknowledges it, for the writer waits for every node before it answers.
   */
  private async apply(message: string): Promise<void> {
    const [kind, id, token] = message.split(' ') as ['key' | 'org', string, string?];
    this.noteChange(`${kind} ${id}`);
    if (kind === 'key') {
      const hash = await this.client.hgetall(this.names.key(id));
      if (isPresent(hash)) this.putHash(hash);
    } else {
      const hash = await this.client.hgetall(this.names.org(id));
      if (isPresent(hash)) this.orgs.set(id, toOrg(hash));
    }
    if (token) await acknowledge(this.client, this.names, token);
  }

  /** Loads every key and organization; concurrent calls share one load. */
  private reload(): Promise<void> {
    this.reloading ??= this.loadAll().finally(() => {
      this.reloading = null;
    });
    return this.reloading;
  }

  private async loadAll(): Promise<void> {
    this.changedDuringReload = [];
    const [orgIds, keyHashes] = await Promise.all([this.client.smembers(this.names.orgs), this.client.smembers(this.names.keys)]);
    const [orgs, keys] = await Promise.all([
      Promise.all(orgIds.map((id) => this.client.hgetall(this.names.org(id)))),
      Promise.all(keyHashes.map((hash) => this.client.hgetall(this.names.key(hash)))),
    ]);
    this.orgs = new Map(orgs.filter(isPresent).map((h) => [h.id!, toOrg(h)]));
    this.keys = new KeyIndex();
    this.versions = new Map();
    for (const h of keys) if (isPresent(h)) this.putHash(h);
    const changed = this.changedDuringReload;
    this.changedDuringReload = [];
    await Promise.all(changed.map((change) => this.apply(change)));
    this.loaded = this.subscribed;
  }
}
