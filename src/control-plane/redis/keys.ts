/**
 * Names of the control plane's Redis keys, all under `<prefix>:cp:` so that they never meet the
 * import queue's (BullMQ's) keys under the same prefix.
 */
export type ControlKeys = ReturnType<typeof controlKeys>;

export function controlKeys(prefix: string) {
  const base = `${prefix}:cp:`;
  return {
    /** Pattern matching every control-plane key (for SCAN). */
    all: `${base}*`,
    /** Pub/sub channel of key and organization writes: `key <hash>` or `org <id>`. */
    changes: `${base}changes`,
    /** List the nodes push to once they have applied the change (or recall) of that token (directory.ts). */
    changeAcks: (token: string) => `${base}change-acks:${token}`,
    /** Pub/sub channel of quota recalls: `<org id>|<service>|<month>`, whose untaken leased units every node gives back (ledger.ts). */
    quotaRecalls: `${base}quota-recalls`,

    org: (id: string) => `${base}org:${id}`,
    /** Set of every organization id. */
    orgs: `${base}orgs`,
    /** Hash: lower-cased organization name → organization id. */
    orgNames: `${base}org-names`,
    /** Hash: an organization name's skeleton (name-skeleton.ts) → organization id, to refuse look-alikes. */
    orgSkeletons: `${base}org-skeletons`,

    user: (id: string) => `${base}user:${id}`,
    /** Hash: lower-cased email → user id. */
    emails: `${base}emails`,
    /** List of the organization's user ids, oldest first. */
    orgUsers: (orgId: string) => `${base}org-users:${orgId}`,
    /** Set of the organization's owners' user ids, so a role change can see the last one leave. */
    orgOwners: (orgId: string) => `${base}org-owners:${orgId}`,
    /** Set when the users stored before roles have been given one (upgrade.ts). */
    rolesUpgraded: `${base}roles-upgraded`,

    key: (hash: string) => `${base}key:${hash}`,
    /** Set of every key hash. */
    keys: `${base}keys`,
    /** Hash: key id → key hash. */
    keyIds: `${base}key-ids`,
    /** List of the organization's key hashes, oldest first. */
    orgKeys: (orgId: string) => `${base}org-keys:${orgId}`,

    invitation: (hash: string) => `${base}invitation:${hash}`,
    /** Hash: invitation id → token hash. */
    invitationIds: `${base}invitation-ids`,
    /** List of the organization's invitation hashes, oldest first. */
    orgInvitations: (orgId: string) => `${base}org-invitations:${orgId}`,

    /** Expires with the session (PEXPIREAT). */
    session: (hash: string) => `${base}session:${hash}`,
    /** Set of a user's session hashes, so that they can all be ended; expires with the newest session. */
    userSessions: (userId: string) => `${base}user-sessions:${userId}`,
    /** Set when the sessions stored before `userSessions` existed have been indexed (upgrade.ts). */
    sessionsIndexed: `${base}sessions-indexed`,
    /** A password-reset link (its token's hash); expires with it. The user's hash names it in `resetHash`. */
    passwordReset: (hash: string) => `${base}password-reset:${hash}`,

    /** Hash of a month's units per service (served, `leased:` and `lost:`; scripts.ts): the quota counters. */
    monthUsage: (orgId: string, month: string) => `${base}used:${orgId}:${month}`,
    /** Sorted set of open quota leases' ids, scored by when they expire (ms). */
    leases: `${base}leases`,
    /** Prefix of a quota lease's hash, followed by its id. */
    leasePrefix: `${base}lease:`,
    /** Hash of a day's units per `<service>|<keyId>`: the usage reports. */
    dayUsage: (orgId: string, day: string) => `${base}daily:${orgId}:${day}`,

    /** Hash of an organization's analytics counts of a day: `<key id>|<service>|<endpoint>|<status class>` → count (analytics.ts). */
    analytics: (orgId: string, day: string) => `${base}analytics:${orgId}:${day}`,
    /** List of the organization's audit entries (JSON), newest first (audit.ts). */
    audit: (orgId: string) => `${base}audit:${orgId}`,
    /** Hash of a short-window bucket (`org:<id>:<service>` or `key:<id>:<service>`; short-window.ts); expires once full. */
    windowBucket: (id: string) => `${base}window:${id}`,
    /** Hash of a bucket's blocks out on nodes: block id → `<tokens>:<until ms>`; expires with the bucket. */
    windowBlocks: (id: string) => `${base}window-blocks:${id}`,

    /** Hash of an account's sign-in failures, by normalized email; expires a day after the last (sign-ins.ts). */
    signInAccount: (email: string) => `${base}sign-in:account:${email}`,
    /** Hash of a client address's sign-in failures in its window; expires with the window. */
    signInAddress: (address: string) => `${base}sign-in:address:${address}`,
    /** Hash of a client address's sign-ups in its window; expires with the window (sign-ups.ts). */
    signUpAddress: (address: string) => `${base}sign-up:address:${address}`,
  };
}

/** Field of a day-usage hash; keyId '' stands for usage not tied to a key. */
export const dayUsageField = (service: string, keyId: string) => `${service}|${keyId}`;
