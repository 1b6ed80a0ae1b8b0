/** The JSON shapes of organizations, members and plans the dashboard API answers with. */
import { powersOf } from '../../control-plane/permissions.js';
import { perMinuteOf, TIER_PER_MINUTE } from '../../control-plane/short-window.js';
import { quotasOf, TIER_LABELS, TIER_PRICES_USD, TIER_QUOTAS } from '../../control-plane/tiers.js';
import type { Organization, Tier, User } from '../../control-plane/types.js';

export const orgView = (org: Organization) => ({
  id: org.id,
  name: org.name,
  tier: org.tier,
  quotas: quotasOf(org),
  perMinute: perMinuteOf(org),
});
export const memberView = (user: User) => ({ id: user.id, email: user.email, role: user.role, createdAt: user.createdAt });
export const userView = (user: User) => ({ id: user.id, email: user.email, role: user.role, powers: powersOf(user.role) });

/** The plan table the billing page shows, straight from `tiers.ts` so the two cannot drift. */
export const plansView = () =>
  (Object.keys(TIER_QUOTAS) as Tier[]).map((tier) => ({
    tier,
    label: TIER_LABELS[tier],
    monthlyPriceUsd: TIER_PRICES_USD[tier],
    quotas: TIER_QUOTAS[tier],
    perMinute: TIER_PER_MINUTE[tier],
  }));
