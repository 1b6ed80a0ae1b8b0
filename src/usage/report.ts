/**
 * The current month's usage of an organization, as `GET /api/v1/usage/current` returns it: the
 * services' totals against the quotas, and the keys the viewer may see (see `keysVisibleTo`).
 */
import { mayManageKey } from '../control-plane/permissions.js';
import type { ControlStore } from '../control-plane/store.js';
import { quotasOf } from '../control-plane/tiers.js';
import { SERVICES, type ApiKeyRecord, type Organization, type Service, type User } from '../control-plane/types.js';
import type { Period } from '../gateway/rate-limit.js';

export interface ServiceUsage {
  used: number;
  /** null when the quota is unlimited. */
  limit: number | null;
  remaining: number | null;
}

export interface UsageReport {
  organization: { id: string; name: string; tier: string };
  period: { start: string; end: string };
  services: Record<Service, ServiceUsage>;
  keys: { id: string; name: string; hint: string; status: string; used: Record<Service, number> }[];
}

/**
 * Who asks for a report: a signed-in member, an API key, or the operator (the CLI). The quotas are
 * the organization's, so every viewer sees the services' totals; of the keys, a member sees the
 * ones it may manage (admins and owners every key, members those they created), a key itself only,
 * the operator every key.
 */
export type UsageViewer = { user: User } | { key: ApiKeyRecord } | 'operator';

export function keysVisibleTo(viewer: UsageViewer): (key: ApiKeyRecord) => boolean {
  if (viewer === 'operator') return () => true;
  if ('key' in viewer) return (key) => key.id === viewer.key.id;
  return (key) => mayManageKey(viewer.user, key);
}

export async function usageReport(store: ControlStore, org: Organization, period: Period, viewer: UsageViewer): Promise<UsageReport> {
  const quotas = quotasOf(org);
  const services = {} as Record<Service, ServiceUsage>;
  for (const service of SERVICES) {
    const used = await store.ledger.used(org.id, service, period.month);
    const limit = quotas[service];
    services[service] = { used, limit, remaining: limit === null ? null : Math.max(0, limit - used) };
  }
  const fromDay = `${period.month}-01`;
  const toDay = lastDay(period);
  const [keys, usage] = await Promise.all([store.listKeys(org.id), store.usageByKey(org.id, fromDay, toDay)]);
  const byKey = new Map(usage.map((u) => [u.keyId, u.used]));
  return {
    organization: { id: org.id, name: org.name, tier: org.tier },
    period: { start: period.monthStartIso, end: period.resetIso },
    services,
    keys: keys.filter(keysVisibleTo(viewer)).map((k) => ({
      id: k.id,
      name: k.name,
      hint: k.hint,
      status: k.status,
      used: byKey.get(k.id) ?? { maps: 0, geocoding: 0, routing: 0 },
    })),
  };
}

/** Last UTC day of the period's month. */
export function lastDay(period: Period): string {
  return new Date(Date.parse(period.resetIso) - 86_400_000).toISOString().slice(0, 10);
}
