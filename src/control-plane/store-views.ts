/**
 * What the SQLite and Redis stores answer alike, each from its own records: users without their
 * password hashes, keys with the last-use times the ledger still buffers, and usage summed into
 * the reports.
 */
import { SERVICES, type ApiKeyRecord, type DailyUsage, type KeyUsage, type Service, type User, type UserWithPassword } from './types.js';

export const withoutPassword = ({ passwordHash: _, ...user }: UserWithPassword): User => user;

/** The keys, each with its buffered last-use time (`pendingUse`, ms by key id) where the ledger holds a newer one. */
export function withPendingUse(keys: ApiKeyRecord[], pendingUse: ReadonlyMap<string, number>): ApiKeyRecord[] {
  return keys.map((key) => {
    const pending = pendingUse.get(key.id);
    return pending === undefined ? key : { ...key, lastUsedAt: new Date(pending).toISOString() };
  });
}

/** A count of usage in a store's rows; a key id null or '' is usage not tied to a key. */
export interface UsageCount {
  day: string;
  service: Service;
  keyId: string | null;
  count: number;
}

/** Usage per key, keys in the order the rows first name them; usage not tied to a key is left out. */
export function usageByKey(rows: Iterable<UsageCount>): KeyUsage[] {
  const byKey = new Map<string, Record<Service, number>>();
  for (const { keyId, service, count } of rows) {
    if (!keyId) continue;
    let used = byKey.get(keyId);
    if (!used) byKey.set(keyId, (used = { maps: 0, geocoding: 0, routing: 0 }));
    used[service] += count;
  }
  return [...byKey].map(([keyId, used]) => ({ keyId, used }));
}

/** Usage per day and service, oldest day first, services in SERVICES order. */
export function usageByDay(rows: Iterable<UsageCount>): DailyUsage[] {
  const byDay = new Map<string, DailyUsage>();
  for (const { day, service, count } of rows) {
    const id = `${day}|${service}`;
    const entry = byDay.get(id);
    if (entry) entry.count += count;
    else byDay.set(id, { day, service, count });
  }
  return [...byDay.values()].sort((a, b) => a.day.localeCompare(b.day) || SERVICES.indexOf(a.service) - SERVICES.indexOf(b.service));
}
