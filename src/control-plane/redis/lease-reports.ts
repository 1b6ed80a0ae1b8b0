/**
 * The reports of a node's quota leases to Redis (ledger.ts holds the leases, leases.ts what each
 * holds): every REPORT_MS, each lease's served units, which also renew it; the units of retired
 * leases given back; the reports of closed leases sent again after a reconnect (ClosedLeases); and
 * the blocks of grants the node stopped waiting for given back whole.
 */
import type { Service } from '../types.js';
import { dayUsageField, type ControlKeys } from './keys.js';
import { ClosedLeases, type HeldLease, type LeasePool, type LeaseReport } from './leases.js';
import type { Scripts } from './scripts.js';

/** How often served units are reported and leases renewed. */
export const REPORT_MS = 1000;
/** A lease not taken from for this long is returned. */
const IDLE_MS = 2000;

/** A grant this node stopped waiting for: Redis may have granted the lease, or may still. */
export interface AbandonedGrant {
  id: string;
  usageKey: string;
  service: Service;
}

export class LeaseReports {
  private readonly abandonedGrants = new Set<AbandonedGrant>();
  private readonly timer: NodeJS.Timeout;
  private reporting: Promise<void> | null = null;
  private readonly closedLeases = new ClosedLeases();

  constructor(
    private readonly scripts: Scripts,
    private readonly names: ControlKeys,
    private readonly storeError: (error: unknown) => Error,
    private readonly leaseTtlMs: number,
    /** The ledger's lease pools, by pool id; a report drops those with nothing left to report. */
    private readonly pools: Map<string, LeasePool>,
  ) {
    this.timer = setInterval(() => {
      if (this.reporting === null) this.report(false).catch(() => {});
    }, REPORT_MS);
    this.timer.unref();
  }

  /** The connection to Redis closed: the reports of closed leases are sent again on the next one. */
  disconnected(): void {
    this.closedLeases.disconnected();
  }

  /** Notes a grant whose reply did not come in time, for the next report to give its block back. */
  abandoned(grant: AbandonedGrant): void {
    this.abandonedGrants.add(grant);
  }

  /** Stops the timer (at shutdown). */
  stop(): void {
    clearInterval(this.timer);
  }

  /**
   * Reports every lease's served units and renews it. A lease idle for IDLE_MS, used up, or every
   * lease when `returnAll`, is retired first: its units not taken go back to Redis, and once
   * nothing is in flight it is closed. A call made while one runs runs after it.
   */
  report(returnAll: boolean): Promise<void> {
    const run = (this.reporting ?? Promise.resolve()).then(() => this.reportAll(returnAll));
    const shared: Promise<void> = run
      .catch(() => {})
      .finally(() => {
        if (this.reporting === shared) this.reporting = null;
      });
    this.reporting = shared;
    return run;
  }

  private async reportAll(returnAll: boolean): Promise<void> {
    const now = Date.now();
    const reports: Promise<void>[] = [];
    for (const [id, pool] of this.pools) {
      if (pool.leases.length === 0 && pool.acquiring === null && pool.waiting === 0) {
        this.pools.delete(id);
        continue;
      }
      for (const lease of [...pool.leases]) {
        if (returnAll || now - lease.lastTakenMs > IDLE_MS || lease.taken === lease.granted) lease.retired = true;
        reports.push(this.reportLease(pool, lease));
      }
    }
    for (const { report, delivered } of this.closedLeases.toResend(now)) {
      reports.push(this.scripts.reportLease(report.keys, report.args).then(delivered));
    }
    for (const grant of this.abandonedGrants) reports.push(this.giveBack(grant));
    const failures = (await Promise.allSettled(reports)).filter((r) => r.status === 'rejected');
    if (failures.length > 0) throw this.storeError((failures[0] as PromiseRejectedResult).reason);
  }

  /**
   * One lease's report: the units served from it so far (in all, and by day and key), and the units
   * the node still holds of it — for a retired lease, those taken; it is closed in Redis and here
   * once nothing is in flight. Totals, not differences: Redis counts what it has not counted yet,
   * so a report sent again (its reply lost, Redis timing out or failing over) adds nothing, gives
   * nothing back twice, and one lost after Redis acknowledged it (a failover before the replica had
   * it) is made good by the next — for a closed lease, by the same report sent again on the next
   * connection (ClosedLeases). A failed report changes nothing here; the next one carries all.
   */
  private async reportLease(pool: LeasePool, lease: HeldLease): Promise<void> {
    const held = lease.retired ? lease.taken : lease.granted;
    const closing = lease.retired && lease.inFlight === 0;
    const days: (string | number)[] = [];
    for (const [id, units] of lease.served) {
      const [day, keyId] = id.split(' ') as [string, string];
      days.push(this.names.dayUsage(pool.orgId, day), dayUsageField(pool.service, keyId), units);
    }
    const report: LeaseReport = {
      keys: [this.names.leasePrefix + lease.id, this.names.leases, this.names.monthUsage(pool.orgId, pool.month)],
      args: [lease.id, this.leaseTtlMs, pool.service, lease.servedTotal, held, ...days],
    };
    const open = await this.scripts.reportLease(report.keys, report.args);
    if (closing) {
      pool.remove(lease);
      this.closedLeases.closed(report, Date.now());
    } else if (open === 0) {
      // Redis settled the lease (it lapsed while this node could not report): take no more from it.
      lease.retired = true;
    }
  }

  /**
   * Gives back the whole block of a grant this node stopped waiting for: a report of nothing
   * served, holding nothing (for a grant Redis never ran, it finds no lease and counts nothing). Sent after the grant on its connection (or on the next one, the old
   * one gone with what Redis had not run of it), it runs after the grant if the grant runs at all;
   * for a grant never run there is no lease, and it changes nothing.
   */
  private async giveBack(grant: AbandonedGrant): Promise<void> {
    await this.scripts.reportLease(
      [this.names.leasePrefix + grant.id, this.names.leases, grant.usageKey],
      [grant.id, this.leaseTtlMs, grant.service, 0, 0],
    );
    this.abandonedGrants.delete(grant);
  }
}
