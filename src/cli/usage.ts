/** `waymark usage`: an organization's usage this month, per service and per key. */
import { systemClock } from '../clock.js';
import { TIER_LABELS } from '../control-plane/tiers.js';
import { SERVICES, type Tier } from '../control-plane/types.js';
import { PeriodTracker } from '../gateway/rate-limit.js';
import { lastDay, usageReport, type UsageReport } from '../usage/report.js';
import type { CommandRun } from './command.js';
import { formatCount, formatInstant, formatTable } from './output.js';
import { findOrg, withStore } from './store.js';

function usageText(report: UsageReport, lastDayOfMonth: string): string {
  const { organization, period, services, keys } = report;
  const heading =
    `${organization.name} (${TIER_LABELS[organization.tier as Tier]} tier), ` +
    `${period.start.slice(0, 10)} to ${lastDayOfMonth}; quotas reset ${formatInstant(period.end)}`;
  const serviceTable = formatTable(
    ['SERVICE', 'USED', 'LIMIT', 'REMAINING'],
    SERVICES.map((s) => [s, formatCount(services[s].used), formatCount(services[s].limit), formatCount(services[s].remaining)]),
  );
  const keyTable =
    keys.length === 0
      ? 'No API keys.'
      : formatTable(
          ['KEY', 'NAME', 'HINT', 'STATUS', ...SERVICES.map((s) => s.toUpperCase())],
          keys.map((k) => [k.id, k.name, k.hint, k.status, ...SERVICES.map((s) => formatCount(k.used[s]))]),
        );
  return [heading, '', serviceTable, '', keyTable].join('\n');
}

export const run: CommandRun = (input) =>
  withStore(input.dataDir, async (store) => {
    const org = await findOrg(store, input.required('org'));
    const period = new PeriodTracker(systemClock).now();
    const report = await usageReport(store, org, period, 'operator');
    return { text: usageText(report, lastDay(period)), json: report };
  });
