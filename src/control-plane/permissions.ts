/**
 * Who may do what in an organization. Each role includes the powers of the roles below it: an
 * owner sets the plan and the members' roles, and removes owners too; an admin manages every key
 * and the invitations, and removes admins and members; a member sees usage and manages the keys it
 * created itself; owners and admins read the audit log. The dashboard shows what these allow and
 * its API refuses the rest.
 */
import { ROLES, type ApiKeyRecord, type Role, type User } from './types.js';

/** Lower is more powerful. */
const RANK: Record<Role, number> = { owner: 0, admin: 1, member: 2 };

export type Power = 'plan' | 'roles' | 'invitations' | 'members' | 'allKeys' | 'audit';

/** The least role that holds each power (`members`: removing members; `audit`: reading the audit log). */
const LEAST_ROLE: Record<Power, Role> = {
  plan: 'owner',
  roles: 'owner',
  invitations: 'admin',
  members: 'admin',
  allKeys: 'admin',
  audit: 'admin',
};

export const holds = (role: Role, power: Power): boolean => RANK[role] <= RANK[LEAST_ROLE[power]];

/** Every power, as the dashboard page shows or hides its controls. */
export const powersOf = (role: Role): Record<Power, boolean> => ({
  plan: holds(role, 'plan'),
  roles: holds(role, 'roles'),
  invitations: holds(role, 'invitations'),
  members: holds(role, 'members'),
  allKeys: holds(role, 'allKeys'),
  audit: holds(role, 'audit'),
});

/** Whether a member may see, edit, roll or revoke a key: every key for admins, its own for members. */
export const mayManageKey = (user: User, key: ApiKeyRecord): boolean => holds(user.role, 'allKeys') || key.createdBy === user.id;

/** Whether a member may give `role` to someone (an invitation): nobody grants more than they have. */
export const mayGrant = (granter: Role, role: Role): boolean => RANK[granter] <= RANK[role];

/**
 * Whether a member of role `inviter` may make, and so whether its invitation may still admit, an
 * invitation for `role`. Checked again when the invitation is used, against the inviter's role
 * then: a demoted or removed inviter's links admit nobody beyond what it may grant now.
 */
export const mayInvite = (inviter: Role, role: Role): boolean => holds(inviter, 'invitations') && mayGrant(inviter, role);

/** The roles whose holders may still use an invitation of `role` they made. */
export const invitersOf = (role: Role): Role[] => ROLES.filter((inviter) => mayInvite(inviter, role));

/** The roles a member of role `remover` may remove from the organization: none, or its own and below. */
export const removableBy = (remover: Role): Role[] => (holds(remover, 'members') ? ROLES.filter((role) => mayGrant(remover, role)) : []);

/** The least role holding a power, for the 403's message. */
export const leastRoleFor = (power: Power): Role => LEAST_ROLE[power];
