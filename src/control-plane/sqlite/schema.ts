/** Schema of the control-plane SQLite file, versioned so that an old file is migrated or refused. */
import type Database from 'better-sqlite3';

const V1 = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE organizations (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  tier TEXT NOT NULL,
  custom_quotas TEXT NOT NULL DEFAULT '{}',
  created_at TEXT NOT NULL,
  rev INTEGER NOT NULL
);
CREATE TABLE users (
  id TEXT PRIMARY KEY,
  email TEXT NOT NULL UNIQUE COLLATE NOCASE,
  password_hash TEXT NOT NULL,
  org_id TEXT NOT NULL REFERENCES organizations(id),
  created_at TEXT NOT NULL
);
CREATE TABLE sessions (
  hash TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id),
  expires_at TEXT NOT NULL
);
CREATE TABLE api_keys (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organizations(id),
  name TEXT NOT NULL,
  hint TEXT NOT NULL,
  hash TEXT NOT NULL UNIQUE,
  scopes TEXT NOT NULL,
  status TEXT NOT NULL,
  created_at TEXT NOT NULL,
  last_used_at TEXT,
  revoked_at TEXT,
  rev INTEGER NOT NULL
);
CREATE INDEX api_keys_by_org ON api_keys(org_id);
CREATE INDEX organizations_by_rev ON organizations(rev);
CREATE INDEX api_keys_by_rev ON api_keys(rev);
-- key_id '' stands for usage not tied to a key.
CREATE TABLE usage_daily (
  org_id TEXT NOT NULL,
  service TEXT NOT NULL,
  day TEXT NOT NULL,
  key_id TEXT NOT NULL,
  count INTEGER NOT NULL,
  PRIMARY KEY (org_id, service, day, key_id)
) WITHOUT ROWID;
INSERT INTO meta (key, value) VALUES ('revision', '0');
`;

const V2 = `
CREATE TABLE invitations (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organizations(id),
  hash TEXT NOT NULL UNIQUE,
  hint TEXT NOT NULL,
  created_by TEXT NOT NULL REFERENCES users(id),
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  accepted_by TEXT REFERENCES users(id),
  accepted_at TEXT,
  revoked_at TEXT
);
CREATE INDEX invitations_by_org ON invitations(org_id);
`;

/**
 * Roles and restricted keys. Before roles every member could do everything: each organization's
 * oldest user becomes its owner and the others admins, so nobody loses a key power they had.
 */
const V3 = `
ALTER TABLE users ADD COLUMN role TEXT NOT NULL DEFAULT 'member';
UPDATE users SET role = 'admin';
UPDATE users SET role = 'owner' WHERE NOT EXISTS (
  SELECT 1 FROM users AS older WHERE older.org_id = users.org_id
    AND (older.created_at < users.created_at OR (older.created_at = users.created_at AND older.rowid < users.rowid))
);
ALTER TABLE invitations ADD COLUMN role TEXT NOT NULL DEFAULT 'member';
ALTER TABLE api_keys ADD COLUMN created_by TEXT;
ALTER TABLE api_keys ADD COLUMN allowed_origins TEXT NOT NULL DEFAULT '';
ALTER TABLE api_keys ADD COLUMN allowed_ips TEXT NOT NULL DEFAULT '';
ALTER TABLE api_keys ADD COLUMN expires_at TEXT;
ALTER TABLE api_keys ADD COLUMN previous_hash TEXT;
ALTER TABLE api_keys ADD COLUMN previous_hash_expires_at TEXT;
`;

/** The sign-in throttle's counters (sqlite/sign-ins.ts); times in milliseconds since the epoch. */
const V4 = `
CREATE TABLE sign_in_accounts (
  account TEXT PRIMARY KEY,
  failures INTEGER NOT NULL,
  locked_until INTEGER NOT NULL,
  last_failure INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX sign_in_accounts_by_last_failure ON sign_in_accounts(last_failure);
CREATE TABLE sign_in_addresses (
  address TEXT PRIMARY KEY,
  window_start INTEGER NOT NULL,
  failures INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX sign_in_addresses_by_window ON sign_in_addresses(window_start);
`;

/**
 * Removing members (issue 34): invitations keep their maker's and user's ids after the user is
 * deleted (the table is rebuilt without those two foreign keys), and password-reset links, at most
 * one per user.
 */
const MEMBER_REMOVAL = `
CREATE TABLE invitations_without_user_references (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organizations(id),
  hash TEXT NOT NULL UNIQUE,
  hint TEXT NOT NULL,
  created_by TEXT NOT NULL,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  accepted_by TEXT,
  accepted_at TEXT,
  revoked_at TEXT,
  role TEXT NOT NULL DEFAULT 'member'
);
INSERT INTO invitations_without_user_references
  (id, org_id, hash, hint, created_by, created_at, expires_at, accepted_by, accepted_at, revoked_at, role)
  SELECT id, org_id, hash, hint, created_by, created_at, expires_at, accepted_by, accepted_at, revoked_at, role FROM invitations;
DROP TABLE invitations;
ALTER TABLE invitations_without_user_references RENAME TO invitations;
CREATE INDEX invitations_by_org ON invitations(org_id);
CREATE INDEX invitations_by_creator ON invitations(created_by);
CREATE INDEX sessions_by_user ON sessions(user_id);
CREATE TABLE password_resets (
  user_id TEXT PRIMARY KEY REFERENCES users(id),
  hash TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL
);
`;

/**
 * The sign-up throttle's counters (sqlite/sign-ups.ts; times in milliseconds since the epoch), and
 * each organization's name skeleton (name-skeleton.ts; `name_skeleton` is the store's function).
 */
const SIGN_UPS_AND_NAME_SKELETONS = `
ALTER TABLE organizations ADD COLUMN skeleton TEXT;
UPDATE organizations SET skeleton = name_skeleton(name);
CREATE INDEX organizations_by_skeleton ON organizations(skeleton);
CREATE TABLE sign_up_addresses (
  address TEXT PRIMARY KEY,
  window_start INTEGER NOT NULL,
  sign_ups INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX sign_up_addresses_by_window ON sign_up_addresses(window_start);
`;

/** Schema 5 (issue 34): both steps above, in one version. */
const V5 = MEMBER_REMOVAL + SIGN_UPS_AND_NAME_SKELETONS;

/** Short-window rate limits (issue 36): a key's own requests per minute, an Enterprise organization's custom ones (JSON objects). */
const V6 = `
ALTER TABLE api_keys ADD COLUMN per_minute TEXT NOT NULL DEFAULT '{}';
ALTER TABLE organizations ADD COLUMN custom_per_minute TEXT NOT NULL DEFAULT '{}';
`;

/** The audit log (issue 36), append-only: entries are inserted, never updated or deleted; and the usage analytics' daily counts (analytics.ts). */
const V7 = `
CREATE TABLE audit_log (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL,
  at TEXT NOT NULL,
  entry TEXT NOT NULL
);
CREATE INDEX audit_log_by_org ON audit_log(org_id, at);
CREATE TABLE analytics_daily (
  org_id TEXT NOT NULL,
  day TEXT NOT NULL,
  key_id TEXT NOT NULL,
  service TEXT NOT NULL,
  endpoint TEXT NOT NULL,
  status TEXT NOT NULL,
  count INTEGER NOT NULL,
  PRIMARY KEY (org_id, day, key_id, service, endpoint, status)
) WITHOUT ROWID;
`;

/** Each schema version's script, applied in order to bring a file from its version to the newest. */
export const SCHEMA_STEPS: readonly string[] = [V1, V2, V3, V4, V5, V6, V7];
export const SCHEMA_VERSION = SCHEMA_STEPS.length;

/** Creates or upgrades the schema; refuses a file written by a newer Waymark. */
export function migrate(db: Database.Database): void {
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version > SCHEMA_VERSION) {
    throw new Error(`the database was written by a newer Waymark (schema ${version}, this build knows ${SCHEMA_VERSION}); upgrade Waymark`);
  }
  if (version === SCHEMA_VERSION) return;
  db.transaction(() => {
    for (const step of SCHEMA_STEPS.slice(version)) db.exec(step);
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
  })();
}
