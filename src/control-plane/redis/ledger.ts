/**
 * The quota ledger over Redis, on quota leases (leases.ts): a node reserves blocks of units per
 * organization, service and month from Redis (one script call per block, not per request) and
 * serves from them in memory, so a reservation is a map look-up as on the embedded store. Across
 * nodes the quota stays exact: Redis grants a block only within the limit, counting every unit
 * out on a lease. Served units are reported every REPORT_MS (lease-reports.ts; usage reports lag
 * by that much), and a lease that is idle, or whose limit changed, is returned with its unserved
 * units. Each report renews the lease's TTL; a node that dies holds its open leases until it
 * lapses, when Redis counts their unreported units as lost (a dead node may have served them): the
 * most a node's death costs an organization is its open blocks, at most two per service of at
 * most MAX_BLOCK units each.
 * A grant whose reply did not come in time (the request got a 503) may still run in Redis: its
 * block is given back by the next report, rather than lapsing into lost.
 * At the end of a quota the units left may sit in leases no request takes from — another node's,
 * or this node's own blocks each too small for a request of several units: a request Redis refuses
 * while such units could cover it recalls them (every node retires its leases of the pool and gives
 * back what was not taken) and asks Redis once more, so it is served while the units exist anywhere.
 */
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { QuotaLedger, Reservation, ReserveRequest } from '../store.js';
import type { Service } from '../types.js';
import { CommandTimeout } from './command-timeout.js';
import { acknowledge, broadcast } from './directory.js';
import type { ControlKeys } from './keys.js';
import { LeasePool, newLease, type HeldLease } from './leases.js';
import { LeaseReports } from './lease-reports.js';
import type { Scripts } from './scripts.js';

/** What settling a reservation needs: the lease it was taken from. */
interface LeaseReservation extends Reservation {
  pool: LeasePool;
  lease: HeldLease;
  units: number;
  keyId: string;
  day: string;
}

/** What a grant script answered, and for which request. */
interface Grant {
  outcome: number;
  used: number;
  limit: number | null;
  stale: boolean;
  keyId: string;
  /** The fewest units it would take. */
  atLeast: number;
  /** For a refusal: the units left once every lease gives back what no request took (the most a recall can make available). */
  recallable: number;
}

/** A pool's id, and what a recall names: one organization, service and month. */
const poolId = (orgId: string, service: Service, month: string) => `${orgId}|${service}|${month}`;

const GRANTED = 1;
const KEY_NOT_ACTIVE = 2;

export class RedisLedger implements QuotaLedger {
  /** Last-use times by key id, written by the next flush. */
  private pendingKeyUse = new Map<string, number>();
  private readonly pools = new Map<string, LeasePool>();
  /** Lease ids are this node's random prefix and a counter. */
  private readonly node = randomBytes(6).toString('hex');
  private leaseCount = 0;
  private readonly reports: LeaseReports;

  constructor(
    private readonly client: Redis,
    private readonly scripts: Scripts,
    private readonly names: ControlKeys,
    private readonly storeError: (error: unknown) => Error,
    /** The version of a key's record the directory holds, for the grant to compare. */
    private readonly knownVersion: (keyId: string) => string,
    private readonly leaseTtlMs: number,
  ) {
    this.reports = new LeaseReports(scripts, names, storeError, leaseTtlMs, this.pools);
    client.on('close', () => this.reports.disconnected());
  }

  reserve(request: ReserveRequest): LeaseReservation | Promise<LeaseReservation> {
    const { org, service, month, limit, units } = request;
    const id = poolId(org.id, service, month);
    let pool = this.pools.get(id);
    if (!pool) this.pools.set(id, (pool = new LeasePool(org.id, service, month, limit)));
    const reserving = pool;
    if (reserving.limit !== limit) {
      // The plan changed: blocks granted under the old limit go back first, and the next comes under the new one.
      reserving.retireAll();
      reserving.limit = limit;
      return this.waitingOn(reserving, () =>
        this.reports.report(false).then(
          () => this.grantThenTake(reserving, request),
          (error: unknown) => {
            throw this.storeError(error);
          },
        ),
      );
    }
    const lease = reserving.usable(units);
    return lease ? this.takeFrom(reserving, lease, request) : this.waitingOn(reserving, () => this.grantThenTake(reserving, request));
  }

  /** Runs `wait` with the pool marked as waited on, so that a report does not drop it meanwhile (a block granted to a dropped pool would never be reported). */
  private async waitingOn<T>(pool: LeasePool, wait: () => Promise<T>): Promise<T> {
    pool.waiting++;
    try {
      return await wait();
    } finally {
      pool.waiting--;
    }
  }

  private takeFrom(pool: LeasePool, lease: HeldLease, request: ReserveRequest): LeaseReservation {
    const { key, limit, units, day } = request;
    const used = lease.usedBefore + lease.taken;
    pool.take(lease, units, Date.now());
    // The next block is asked for ahead, so that requests rarely wait for one.
    if (pool.wantsRefill()) this.startGrant(pool, request, pool.blockSize(1), 1).catch(() => {});
    return { granted: true, used, limit, pool, lease, units, keyId: key.id, day };
  }

  /** Asks for a block; waiting reservations share it through `pool.acquiring` (its failure as an Error) until it is answered. */
  private startGrant(pool: LeasePool, request: ReserveRequest, want: number, atLeast: number): Promise<Grant> {
    const asked = this.grant(pool, request, want, atLeast);
    const shared = asked
      .catch((error: Error) => error)
      .finally(() => {
        if (pool.acquiring === shared) pool.acquiring = null;
      });
    pool.acquiring = shared;
    return asked;
  }

  /**
   * Waits for a block (the one asked for already, or a new one) and takes from it; refuses when
   * Redis refuses. A grant that failed ends the wait, whoever asked for it: Redis is unavailable
   * (timed out or disconnected), and asking again would make the request wait another time limit
   * — with a crowd waiting, each round answered one of them, the last after as many limits as there
   * were requests.
   */
  private async grantThenTake(pool: LeasePool, request: ReserveRequest): Promise<LeaseReservation> {
    const { key, units } = request;
    let recalled = false;
    for (;;) {
      const asked = (pool.acquiring as Promise<Grant | Error> | null) ?? this.startGrant(pool, request, pool.blockSize(units), units);
      let grant: Grant | Error;
      pool.awaitedUnits += units;
      try {
        grant = await asked;
      } finally {
        pool.awaitedUnits -= units;
      }
      const lease = pool.usable(units);
      if (lease) {
        const reservation = this.takeFrom(pool, lease, request);
        if (!(grant instanceof Error) && grant.stale && grant.keyId === key.id) reservation.stale = true;
        return reservation;
      }
      if (grant instanceof Error) throw grant;
      if (grant.outcome === KEY_NOT_ACTIVE) {
        if (grant.keyId === key.id) return this.refusal(pool, request, grant, true);
      } else if (grant.outcome !== GRANTED && grant.atLeast <= units) {
        // Units no request took may be out on leases (another node's, or this one's own smaller ones): once all are back, Redis is asked again.
        if (recalled || grant.recallable < units) return this.refusal(pool, request, grant, false);
        recalled = true;
        await this.recall(pool);
      }
    }
  }

  /**
   * Asks every node (this one too) to give back the units its leases of the pool hold and no
   * request took, and waits until they have (each acknowledges once Redis has its report) or
   * ACK_WAIT_MS has passed. The pool's reservations that Redis refused meanwhile share the recall.
   */
  private recall(pool: LeasePool): Promise<void> {
    pool.recalling ??= broadcast(this.client, this.names, this.names.quotaRecalls, poolId(pool.orgId, pool.service, pool.month))
      .catch((error: unknown) => {
        throw this.storeError(error);
      })
      .finally(() => {
        pool.recalling = null;
      });
    return pool.recalling;
  }

  /** Subscribes to recalls, on the connection that listens for changes (ioredis subscribes it again after a reconnect). */
  async listen(subscriber: Redis): Promise<void> {
    subscriber.on('message', (channel: string, message: string) => {
      if (channel === this.names.quotaRecalls) void this.answerRecall(message).catch(() => {});
    });
    await subscriber.subscribe(this.names.quotaRecalls);
  }

  /**
   * A recall of a pool (`<pool id> <token>`): its leases are retired — no request takes from them
   * again — and reported, which gives their untaken units back; then the recall is acknowledged.
   * Taking stops before the report is sent, so a unit given back is never also served here.
   */
  private async answerRecall(message: string): Promise<void> {
    const [id, token] = message.split(' ') as [string, string];
    const pool = this.pools.get(id);
    if (pool && pool.available() > 0) {
      pool.retireAll();
      await this.reports.report(false);
    }
    await acknowledge(this.client, this.names, token);
  }

  private refusal(pool: LeasePool, { key, units, day }: ReserveRequest, grant: Grant, revoked: boolean): LeaseReservation {
    const refused: LeaseReservation = {
      granted: false,
      used: grant.used,
      limit: grant.limit,
      pool,
      lease: newLease('', 0, 0, 0),
      units,
      keyId: key.id,
      day,
    };
    if (revoked) refused.revoked = true;
    return refused;
  }

  /** Asks Redis for a block of `want` units (at least `atLeast`) for the pool; a granted lease joins it. */
  private async grant(pool: LeasePool, { org, key, service, month, limit }: ReserveRequest, want: number, atLeast: number): Promise<Grant> {
    const id = `${this.node}-${++this.leaseCount}`;
    const mark = pool.grantAsked();
    let reply: [number, number, number, number, number, number?];
    try {
      reply = (await this.scripts.acquireLease(
        [
          this.names.key(key.hash),
          this.names.org(org.id),
          this.names.monthUsage(org.id, month),
          this.names.leases,
          this.names.leasePrefix + id,
        ],
        [service, want, atLeast, limit ?? -1, this.knownVersion(key.id), id, this.leaseTtlMs, this.names.leasePrefix],
      )) as [number, number, number, number, number, number?];
    } catch (error) {
      if (error instanceof CommandTimeout) this.reports.abandoned({ id, usageKey: this.names.monthUsage(org.id, month), service });
      throw this.storeError(error);
    }
    pool.grantAnswered(mark);
    const [outcome, used, limitInForce, stale, granted, leased = 0] = reply;
    if (outcome === GRANTED) {
      pool.leases.push(newLease(id, granted, used, Date.now()));
      pool.shrinking = granted < want;
    }
    const limitOrNull = limitInForce < 0 ? null : limitInForce;
    return {
      outcome,
      used,
      limit: limitOrNull,
      stale: stale === 1,
      keyId: key.id,
      atLeast,
      recallable: limitOrNull === null ? 0 : limitOrNull - used + leased,
    };
  }

  commit(reservation: Reservation): void {
    const { lease, units, keyId, day } = reservation as LeaseReservation;
    lease.inFlight--;
    const id = `${day} ${keyId}`;
    lease.served.set(id, (lease.served.get(id) ?? 0) + units);
    lease.servedTotal += units;
  }

  /** The units go back to their block. */
  release(reservation: Reservation): void {
    const { granted, lease, units } = reservation as LeaseReservation;
    if (!granted) return;
    lease.inFlight--;
    lease.taken -= units;
  }

  /** Units served this month; this node's are reported first, other nodes' may lag by up to REPORT_MS. */
  async used(orgId: string, service: Service, month: string): Promise<number> {
    await this.reports.report(false);
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

  /** Resolves once every grant asked for so far has been answered (or failed): a readiness signal for tests. */
  async grantsAnswered(): Promise<void> {
    await Promise.all([...this.pools.values()].map((pool) => pool.acquiring));
  }

  /** Reports served units and writes the buffered last-use times; on failure they are kept for the next flush (newer times win). */
  async flush(): Promise<void> {
    await this.reports.report(false);
    await this.writeKeyUse();
  }

  /** At shutdown: every lease is reported and returned, and the timer stops. */
  async close(): Promise<void> {
    this.reports.stop();
    await this.reports.report(true);
    await this.writeKeyUse();
  }

  private async writeKeyUse(): Promise<void> {
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
