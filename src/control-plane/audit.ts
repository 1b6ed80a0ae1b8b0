/**
 * The audit log's entries as the dashboard and the CLI make them after a change succeeds: a refused
 * attempt changes nothing and records nothing. Values are what a reader may see (keyView, never a
 * key value, hash or token), and an edit records only the fields it changed.
 */
import { newId } from './ids.js';
import type { ControlStore } from './store.js';
import type { ApiKeyRecord, AuditAction, AuditActor, AuditEntry } from './types.js';

/** The most entries one read returns (newest first). */
export const MAX_AUDIT_ENTRIES = 1_000;

export interface Change {
  action: AuditAction;
  target: string;
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
}

/** Who changed something and from where, as a request or a command knows it. */
export interface AuditContext {
  store: ControlStore;
  orgId: string;
  actor: AuditActor;
  address: string | null;
  nowMs: number;
}

export async function record(context: AuditContext, change: Change): Promise<void> {
  const entry: AuditEntry = {
    id: newId('aud'),
    orgId: context.orgId,
    at: new Date(context.nowMs).toISOString(),
    actor: context.actor,
    address: context.address,
    action: change.action,
    target: change.target,
    before: change.before ?? null,
    after: change.after ?? null,
  };
  await context.store.appendAudit(entry);
}

/** What the log shows of a key: its name, scopes and limits, its hint; never its value or hashes. */
export const auditedKey = (key: ApiKeyRecord): Record<string, unknown> => ({
  name: key.name,
  hint: key.hint,
  scopes: key.scopes,
  allowedOrigins: key.allowedOrigins,
  allowedIps: key.allowedIps,
  expiresAt: key.expiresAt,
  perMinute: key.perMinute,
});

/** A roll's change: the new value's hint, and until when the old value works. */
export const rollChange = (key: ApiKeyRecord) => ({ after: { hint: key.hint, previousValueWorksUntil: key.previousHashExpiresAt } });

export const REVOKE_CHANGE = { before: { status: 'active' }, after: { status: 'revoked' } };

/** The fields of `after` whose values differ from `before`'s, as {before, after}. */
export function changedFields(before: object, after: object): { before: Record<string, unknown>; after: Record<string, unknown> } {
  const was: Record<string, unknown> = {};
  const is: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(after)) {
    const old = (before as Record<string, unknown>)[field];
    if (JSON.stringify(old) !== JSON.stringify(value)) {
      was[field] = old ?? null;
      is[field] = value;
    }
  }
  return { before: was, after: is };
}
