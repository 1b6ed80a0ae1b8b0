/** `waymark org set-tier`: an organization's tier and, for Enterprise, its custom quotas. */
import { parseTier } from '../control-plane/accounts.js';
import { parsePerMinute, perMinuteOf, perMinuteText } from '../control-plane/short-window.js';
import { quotasOf, TIER_LABELS } from '../control-plane/tiers.js';
import { SERVICES, type Service } from '../control-plane/types.js';
import { wholeNumber } from './args.js';
import { UsageError, type CommandRun } from './command.js';
import { formatCount } from './output.js';
import { changedFields, record } from '../control-plane/audit.js';
import { findOrg, operatorAudit, organizationJson, withStore } from './store.js';

/** Parses `maps=N,geocoding=N,routing=N`; a service left out stays unlimited. */
function parseQuotas(text: string): Partial<Record<Service, number>> {
  const quotas: Partial<Record<Service, number>> = {};
  for (const entry of text.split(',')) {
    const [service, limit, ...extra] = entry.split('=').map((part) => part.trim());
    if (limit === undefined || extra.length > 0 || !SERVICES.includes(service as Service)) {
      throw new UsageError(`--quota takes service=N pairs of ${SERVICES.join(', ')} separated by commas, not ${JSON.stringify(entry)}`);
    }
    if ((service as Service) in quotas) throw new UsageError(`--quota gives ${service} twice`);
    quotas[service as Service] = wholeNumber(limit, `--quota ${service}`, 0);
  }
  return quotas;
}

export const run: CommandRun = (input) =>
  withStore(input.dataDir, async (store) => {
    const org = await findOrg(store, input.required('org'));
    const tier = parseTier(input.required('tier'));
    const quota = input.flag('quota');
    const perMinute = input.flag('per-minute');
    for (const [flag, given] of [
      ['--quota', quota],
      ['--per-minute', perMinute],
    ]) {
      if (given !== undefined && tier !== 'enterprise') {
        throw new UsageError(`${flag} is only for the enterprise tier; ${tier} has the fixed limits of its tier`);
      }
    }
    const customPerMinute = perMinute === undefined ? {} : parsePerMinute(perMinute);
    const updated = await store.setTier(org.id, tier, quota === undefined ? {} : parseQuotas(quota), customPerMinute);
    const plan = (o: typeof org) => ({ tier: o.tier, customQuotas: o.customQuotas, customPerMinute: o.customPerMinute });
    const change = changedFields(plan(org), plan(updated));
    if (Object.keys(change.after).length > 0)
      await record(operatorAudit(store, org.id), { action: 'plan.changed', target: org.id, ...change });
    const quotas = quotasOf(updated);
    const limits = SERVICES.map((service) => `${service} ${formatCount(quotas[service])}`).join(', ');
    const ofMinute = perMinuteOf(updated);
    return {
      text: `${updated.name} is now on the ${TIER_LABELS[tier]} tier; monthly quotas: ${limits}; per minute: ${perMinuteText(ofMinute)}.`,
      json: { organization: organizationJson(updated) },
    };
  });
