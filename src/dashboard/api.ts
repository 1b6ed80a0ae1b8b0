/**
 * The dashboard's JSON API under `/dashboard/api`, in route groups (`api/`): each group's guards
 * (same-origin for state changes; a session, with its CSRF token, for a member's routes) are
 * applied once, in `api/routes.ts`.
 */
import type { Router } from '../http/router.js';
import { registerAccounts } from './api/accounts.js';
import { registerAudit } from './api/audit.js';
import { registerBilling } from './api/billing.js';
import { registerInvitations } from './api/invitations.js';
import { registerKeys } from './api/keys.js';
import { registerMembers } from './api/members.js';
import type { DashboardDeps } from './api/routes.js';
import { registerStyles } from './api/styles.js';
import { registerUsage } from './api/usage.js';

export function registerDashboardApi(router: Router, deps: DashboardDeps): void {
  for (const register of [
    registerAccounts,
    registerInvitations,
    registerMembers,
    registerKeys,
    registerBilling,
    registerUsage,
    registerAudit,
    registerStyles,
  ])
    register(router, deps);
}
