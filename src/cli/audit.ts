/** `waymark audit`: an organization's audit log, newest first. */
import { MAX_AUDIT_ENTRIES } from '../control-plane/audit.js';
import type { AuditEntry } from '../control-plane/types.js';
import type { CommandRun } from './command.js';
import { formatInstant, formatTable } from './output.js';
import { findOrg, withStore } from './store.js';

const actorText = (entry: AuditEntry) => (entry.actor.kind === 'user' ? entry.actor.email : 'operator (CLI)');

/** `role: member → admin; name: "a" → "b"`: the changed fields, or what was made or removed. */
function changeText({ before, after }: AuditEntry): string {
  const fields = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])];
  const value = (values: Record<string, unknown> | null, field: string) =>
    values && field in values ? JSON.stringify(values[field]) : '–';
  return fields.map((field) => `${field}: ${value(before, field)} → ${value(after, field)}`).join('; ');
}

export const run: CommandRun = (input) =>
  withStore(input.dataDir, async (store) => {
    const org = await findOrg(store, input.required('org'));
    const entries = await store.listAudit(org.id, input.wholeNumber('limit', 1, MAX_AUDIT_ENTRIES) ?? 100);
    return {
      text:
        entries.length === 0
          ? `${org.name} has no audit entries yet.`
          : formatTable(
              ['TIME', 'ACTOR', 'ADDRESS', 'ACTION', 'TARGET', 'CHANGE'],
              entries.map((e) => [formatInstant(e.at), actorText(e), e.address ?? '–', e.action, e.target, changeText(e)]),
            ),
      json: entries,
    };
  });
