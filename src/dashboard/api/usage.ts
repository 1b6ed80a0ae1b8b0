/** The organization's usage this month: per service against its quotas, per day, and per key the member may see. */
import type { Service } from '../../control-plane/types.js';
import { json } from '../../http/reply.js';
import type { Router } from '../../http/router.js';
import { lastDay, usageReport } from '../../usage/report.js';
import { orgOf, sessionRoutes, type DashboardDeps } from './routes.js';

export function registerUsage(router: Router, { store, sessions, periods }: DashboardDeps): void {
  sessionRoutes(router, sessions, {
    'GET /usage': async (_req, { user }) => {
      const org = await orgOf(store, user.orgId);
      const period = periods.now();
      const [report, days] = await Promise.all([
        usageReport(store, org, period, { user }),
        store.usageByDay(org.id, `${period.month}-01`, lastDay(period)),
      ]);
      const daily = new Map<string, Record<Service, number>>();
      for (const d of days) {
        let row = daily.get(d.day);
        if (!row) daily.set(d.day, (row = { maps: 0, geocoding: 0, routing: 0 }));
        row[d.service] += d.count;
      }
      return json(200, { ...report, daily: [...daily].map(([day, counts]) => ({ day, ...counts })) });
    },
  });
}
