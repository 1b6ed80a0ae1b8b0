/** Monthly quotas of each subscription tier (spec section 8), how custom quotas override them, and each tier's limit on keys. */
import type { Organization, Quotas, Service, Tier } from './types.js';

export const TIER_QUOTAS: Record<Tier, Quotas> = {
  free: { maps: 10_000, geocoding: 5_000, routing: 5_000 },
  pro: { maps: 500_000, geocoding: 100_000, routing: 100_000 },
  enterprise: { maps: null, geocoding: null, routing: null },
};

/**
 * Active API keys an organization may hold at once (revoked and expired keys do not count): room
 * for a key per app, environment and customer site, while one organization cannot fill every
 * node's memory with keys (each node holds every key in its directory).
 */
export const TIER_ACTIVE_KEYS: Record<Tier, number> = { free: 100, pro: 1_000, enterprise: 1_000 };

export const TIER_LABELS: Record<Tier, string> = { free: 'Free', pro: 'Pro', enterprise: 'Enterprise' };

/** Monthly price in US dollars, as the billing page shows it; null: arranged with the operator. */
export const TIER_PRICES_USD: Record<Tier, number | null> = { free: 0, pro: 49, enterprise: null };

/** The limit in force for one service (null: unlimited); `quotasOf(org)[service]` without building the record. */
export function quotaOf(org: Pick<Organization, 'tier' | 'customQuotas'>, service: Service): number | null {
  return org.tier === 'enterprise' ? (org.customQuotas[service] ?? null) : TIER_QUOTAS[org.tier][service];
}

/** The limits in force: the tier's defaults, overridden on Enterprise by operator-set quotas. */
export function quotasOf(org: Pick<Organization, 'tier' | 'customQuotas'>): Quotas {
  return org.tier === 'enterprise' ? { ...TIER_QUOTAS.enterprise, ...org.customQuotas } : TIER_QUOTAS[org.tier];
}
