/**
 * The quota ledger over Redis: exact across nodes, nothing buffered. A reservation is one script
 * call that checks the key is active, reads the organization's current limit and, if the units
 * fit, counts them at once in the month counter and the day's usage. So `commit` has nothing left
 * to do and `release` gives the units back. A release that fails (Redis unreachable) is logged
 * and lost, leaving those units over-counted.
 */
import type { Redis } from 'ioredis';
import type { QuotaLedger, Reservation, ReserveRequest } from '../store.js';
import type { Service } from '../types.js';
import { dayUsageField, type ControlKeys } from './keys.js';
import type { Scripts } from './scripts.js';

/** What a release needs to undo a granted reservation. */
interface RedisReservation extends Reservation {
  orgId: string;
  service: Service;
  month: string;
  day: string;
  keyId: string;
  units: number;
}

const GRANTED = 1;
const KEY_NOT_ACTIVE = 2;

export class RedisLedger implements QuotaLedger {
  /** Last-use times by key id, written by the next flush. */
  private pendingKeyUse = new Map<string, number>();

  constructor(
    private readonly client: Redis,
    private readonly scripts: Scripts,
    private readonly names: ControlKeys,
    private readonly storeError: (error: unknown) => Error,
    /** The version of a key's record the directory holds, for the reservation to compare. */
    private readonly knownVersion: (keyId: string) => string,
  ) {}

  async reserve({ org, key, service, month, day, limit, units }: ReserveRequest): Promise<RedisReservation> {
    let reply: [number, number, number, number];
    try {
      reply = (await this.scripts.reserve(
        [this.names.key(key.hash), this.names.org(org.id), this.names.monthUsage(org.id, month), this.names.dayUsage(org.id, day)],
        [service, units, dayUsageField(service, key.id), limit ?? -1, this.knownVersion(key.id)],
      )) as [number, number, number, number];
    } catch (error) {
      throw this.storeError(error);
    }
    const [outcome, used, limitInForce, stale] = reply;
    const reservation: RedisReservation = {
      granted: outcome === GRANTED,
      used,
      limit: limitInForce < 0 ? null : limitInForce,
      orgId: org.id,
      service,
      month,
      day,
      keyId: key.id,
      units,
    };
    if (outcome === KEY_NOT_ACTIVE) reservation.revoked = true;
    if (stale === 1) reservation.stale = true;
    return reservation;
  }

  /** The units were counted when reserved. */
  commit(): void {}

  release(reservation: Reservation): void {
    const { granted, orgId, service, month, day, keyId, units } = reservation as RedisReservation;
    if (!granted) return;
    this.client
      .multi()
      .hincrby(this.names.monthUsage(orgId, month), service, -units)
      .hincrby(this.names.dayUsage(orgId, day), dayUsageField(service, keyId), -units)
      .exec()
      .catch((error: Error) =>
        console.error(`waymark: could not release ${units} ${service} units of ${orgId} (they stay counted): ${error.message}`),
      );
  }

  async used(orgId: string, service: Service, month: string): Promise<number> {
    try {
      return Number((await this.client.hget(this.names.monthUsage(orgId, month), service)) ?? 0);
    } catch (error) {
      throw this.storeError(error);
    }
  }

  touchKey(keyId: string, atMs: number): void {
    this.pendingKeyUse.set(keyId, atMs);
  }

  /** Last-use times not yet written, for listings to show. */
  pendingKeyUses(): ReadonlyMap<string, number> {
    return this.pendingKeyUse;
  }

  /** Writes the buffered last-use times; on failure they are kept for the next flush (newer ones win). */
  async flush(): Promise<void> {
    const keyUse = this.pendingKeyUse;
    if (keyUse.size === 0) return;
    this.pendingKeyUse = new Map();
    try {
      const ids = [...keyUse.keys()];
      const hashes = await this.client.hmget(this.names.keyIds, ...ids);
      await Promise.all(
        ids.map((id, i) => {
          const hash = hashes[i];
          return hash ? this.client.hset(this.names.key(hash), 'lastUsedAt', new Date(keyUse.get(id)!).toISOString()) : undefined;
        }),
      );
    } catch (error) {
      for (const [keyId, at] of keyUse) if (!this.pendingKeyUse.has(keyId)) this.pendingKeyUse.set(keyId, at);
      throw this.storeError(error);
    }
  }
}
