/**
 * Removing a member from an organization, by one of its owners or admins (dashboard) or by the
 * operator (CLI). The member's sessions end at once on every node, its pending invitations are
 * revoked and, when asked, the keys it created too; by default its keys stay, as they serve the
 * organization's applications (roll one whose value the member saw).
 */
import { AccountError } from './account-error.js';
import { removableBy } from './permissions.js';
import type { ControlStore, Removal } from './store.js';
import { ROLES, type User } from './types.js';

/** `revokeKeys` as the dashboard's JSON gives it: absent means false. */
export function parseRevokeKeys(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value !== 'boolean') throw new AccountError('revokeKeys must be true or false');
  return value;
}

/**
 * Removes `memberId` from the remover's organization (`remover` null: the operator, who may remove
 * anyone). Null when there is no such member, or when its role is above the remover's.
 */
export function removeMember(
  store: ControlStore,
  remover: User | null,
  orgId: string,
  memberId: string,
  revokeKeys: boolean,
  now: number,
): Promise<Removal | null> {
  return store.removeUser({
    orgId,
    userId: memberId,
    removableRoles: remover ? removableBy(remover.role) : ROLES,
    revokeKeys,
    nowIso: new Date(now).toISOString(),
  });
}
