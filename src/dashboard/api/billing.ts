/** The plan table (public: the same for everyone) and the organization's choice of plan. */
import { parseTier } from '../../control-plane/accounts.js';
import { ApiError } from '../../http/errors.js';
import { json } from '../../http/reply.js';
import type { Router } from '../../http/router.js';
import { record } from '../../control-plane/audit.js';
import { accountCall, auditOf, jsonBody, orgOf, publicRoutes, requirePower, sessionRoutes, type DashboardDeps } from './routes.js';
import { orgView, plansView } from './views.js';

export function registerBilling(router: Router, deps: DashboardDeps): void {
  const { store, sessions } = deps;
  publicRoutes(router, {
    'GET /plans': async () => json(200, { plans: plansView() }),
  });

  sessionRoutes(router, sessions, {
    // Owners choose between the self-service plans; Enterprise is the operator's to set and to end.
    'PUT /billing': async (req, { user }) => {
      requirePower(user, 'plan', 'change its plan');
      const tier = await accountCall(async () => parseTier(jsonBody(req).tier));
      const org = await orgOf(store, user.orgId);
      if (org.tier === 'enterprise') {
        throw new ApiError(
          403,
          'this organization is on an Enterprise plan, which your Waymark operator sets and ends ("waymark org set-tier"); ask them to change it',
        );
      }
      if (tier === 'enterprise') {
        throw new ApiError(
          403,
          'Enterprise plans are arranged by contact: ask your Waymark operator, who sets them with "waymark org set-tier"',
        );
      }
      const updated = await store.setTier(user.orgId, tier);
      if (updated.tier !== org.tier) {
        await record(auditOf(deps, req, user), { action: 'plan.changed', target: org.id, before: { tier: org.tier }, after: { tier } });
      }
      return json(200, { organization: orgView(updated) });
    },
  });
}
