/**
 * Every `waymark` command: what its help and flag parser need, and the module that runs it, loaded
 * only when the command runs — so that `--help` or a key command does not load the HTTP server, the
 * import pipeline or the Redis clients (each adds to the start-up of every other command).
 */
import { DEFAULT_JOB_LOCK_MS } from '../../data-pipeline/queue/settings.js';
import type { Command } from './command.js';
import { RESTRICTION_FLAGS } from './key-restrictions.js';

export const COMMANDS: readonly Command[] = [
  {
    name: 'serve',
    summary:
      'Runs the API and the dashboard on the dataset and database in the data folder, until SIGINT or SIGTERM ' +
      '(which write buffered usage, then exit 0). Also reads WAYMARK_HOST, WAYMARK_PORT, WAYMARK_PUBLIC_URL, ' +
      'WAYMARK_USAGE_FLUSH_MS and WAYMARK_THREADS; flags override them. WAYMARK_NODE_URL is the address `waymark status` ' +
      "shows for the node (default: its listening address, with 0.0.0.0 replaced by the machine's name).",
    synopsis: '[--port 8080] [--host 127.0.0.1] [--threads N]',
    flags: ['port', 'host', 'threads'],
    load: () => import('./serve.js'),
  },
  {
    name: 'user create',
    summary:
      'Creates a user who can sign in to the dashboard. The user joins the organization --org as a member (or --role), ' +
      'or, when the organization is new (Free tier), becomes its owner; without --org, the organization is named after the email.',
    synopsis: '--email E --password P [--org NAME] [--role owner|admin|member]',
    flags: ['email', 'password', 'org', 'role'],
    load: () => import('./user-create.js'),
  },
  {
    name: 'user set-password',
    summary: "Sets a user's password (at least 8 characters) and ends all of the user's dashboard sessions at once, on every node.",
    synopsis: '--email E --password P',
    flags: ['email', 'password'],
    load: () => import('./user-set-password.js'),
  },
  {
    name: 'user reset-password',
    summary:
      'Prints a one-time link (under WAYMARK_PUBLIC_URL) with which the user sets a new password: it works once, within 1 hour, ' +
      "and ends all of the user's sessions; a newer link replaces an older one. Waymark does not e-mail it: send it yourself.",
    synopsis: '--email E',
    flags: ['email'],
    load: () => import('./user-reset-password.js'),
  },
  {
    name: 'org members',
    summary: "Lists an organization's members: id, email, role (owner, admin or member) and when they joined.",
    synopsis: '--org NAME',
    flags: ['org'],
    load: () => import('./org-members.js'),
  },
  {
    name: 'org set-role',
    summary:
      "Sets a member's role: owner (plan, members' roles and everything an admin does), admin (every key, invitations) or member " +
      '(usage, and the keys it created). An organization keeps at least one owner.',
    synopsis: '--org NAME --email E --role owner|admin|member',
    flags: ['org', 'email', 'role'],
    load: () => import('./org-set-role.js'),
  },
  {
    name: 'org remove-member',
    summary:
      'Removes a member from an organization: its account and dashboard sessions end at once (on every node), its pending ' +
      'invitations are revoked, and its email is free again. The keys it created stay active unless --revoke-keys is given. ' +
      'An organization keeps at least one owner.',
    synopsis: '--org NAME --email E [--revoke-keys]',
    flags: ['org', 'email'],
    switches: ['revoke-keys'],
    load: () => import('./org-remove-member.js'),
  },
  {
    name: 'org set-tier',
    summary:
      'Sets the tier of an organization; it applies at once, also in a running server, and usage already counted stays. ' +
      'Only Enterprise takes --quota (monthly limits per service; a service left out, or no --quota, is unlimited) ' +
      'and --per-minute (requests per minute per service, likewise). Setting a tier replaces any custom limits set before.',
    synopsis: '--org NAME --tier free|pro|enterprise [--quota maps=N,geocoding=N,routing=N] [--per-minute maps=N,geocoding=N,routing=N]',
    flags: ['org', 'tier', 'quota', 'per-minute'],
    load: () => import('./org-set-tier.js'),
  },
  {
    name: 'key create',
    summary:
      'Creates an API key for an organization and prints its value, which is not stored and never shown again. Scopes default to all three services. ' +
      'A key for a web page can be restricted to origins (https://app.example.com, https://*.example.com), client addresses (CIDRs) and an expiry; ' +
      'any key to fewer requests per minute than its organization may make (--per-minute maps=N,geocoding=N,routing=N).',
    synopsis:
      '--org NAME --name N [--scopes maps,geocoding,routing] [--allowed-origins LIST] [--allowed-ips LIST] [--expires ISO] [--per-minute LIST]',
    flags: ['org', 'name', 'scopes', ...RESTRICTION_FLAGS],
    load: () => import('./key-create.js'),
  },
  {
    name: 'key list',
    summary:
      "Lists an organization's API keys: id, name, hint, scopes, status, restrictions, created and last used. Key values are never shown; " +
      '--json gives allowedOrigins, allowedIps, expiresAt and perMinute in full.',
    synopsis: '--org NAME',
    flags: ['org'],
    load: () => import('./key-list.js'),
  },
  {
    name: 'key update',
    summary:
      'Changes an active key: its name, scopes, allowed origins, allowed client addresses (CIDRs), expiry or requests per minute; "none" lifts a restriction. ' +
      'Flags left out stay as they are; running servers apply the change from their next request.',
    synopsis:
      '--org NAME --id ID [--name N] [--scopes LIST] [--allowed-origins LIST|none] [--allowed-ips LIST|none] [--expires ISO|none] [--per-minute LIST|none]',
    flags: ['org', 'id', 'name', 'scopes', ...RESTRICTION_FLAGS],
    load: () => import('./key-update.js'),
  },
  {
    name: 'key roll',
    summary:
      'Gives an active key a new value and prints it (it is not stored and never shown again). The old value keeps working for the grace period ' +
      '(default 24h; 0 stops it at once; e.g. 90s, 30m, 7d), so the clients using it can be moved over.',
    synopsis: '--org NAME --id ID [--grace DURATION]',
    flags: ['org', 'id', 'grace'],
    load: () => import('./key-roll.js'),
  },
  {
    name: 'key revoke',
    summary: 'Revokes an API key of an organization; a running server on the same data folder refuses it from its next request.',
    synopsis: '--org NAME --id ID',
    flags: ['org', 'id'],
    load: () => import('./key-revoke.js'),
  },
  {
    name: 'audit',
    summary:
      "Shows an organization's audit log, newest first: every change to its keys, members, roles, invitations and plan, " +
      'with who made it (a member, or the operator with the CLI), from which address, and the values before and after.',
    synopsis: '--org NAME [--limit N]',
    flags: ['org', 'limit'],
    load: () => import('./audit.js'),
  },
  {
    name: 'usage',
    summary:
      "Shows an organization's usage this month (UTC): per service used, limit and remaining, and per key. " +
      'A running server writes its counts every WAYMARK_USAGE_FLUSH_MS (default 1 s), so they show up that late here.',
    synopsis: '--org NAME',
    flags: ['org'],
    load: () => import('./usage.js'),
  },
  {
    name: 'import',
    summary:
      'Builds a new dataset in the data folder — vector tiles z0–14 (Shortbread schema), glyphs, sprites and the geocoder ' +
      'index — from OSM extracts (.osm.pbf or .osm files, or http(s) URLs, downloaded first), the world layer (Natural ' +
      "Earth and GeoNames, zooms 0–7), Who's On First folders, OpenAddresses CSV files, GeoNames places (--geonames) and " +
      'elevation (--dem: SRTM .hgt/.hgt.zip tiles and GeoTIFF rasters in EPSG:4326, or folders of them), ' +
      'then switches to it; a server running on the folder serves it at once. A failed import ' +
      'leaves the served dataset as it was; --resume goes on from the steps it finished. The import stays within --memory ' +
      '(e.g. 4G; default printed at the start) and uses every core. Progress goes to stderr. With --queue (and WAYMARK_REDIS_URL) the import runs ' +
      'as a job of the BullMQ queue in a "waymark worker" process, and the command follows it.',
    synopsis:
      '[--osm FILE_OR_URL]... [--wof DIR]... [--oa FILE_OR_URL]... [--dem FILE_OR_DIR]... [--geonames] [--world] [--memory SIZE] [--resume] [--queue]',
    flags: ['memory'],
    repeatable: ['osm', 'wof', 'oa', 'dem'],
    switches: ['world', 'geonames', 'resume', 'queue'],
    load: () => import('./import.js'),
  },
  {
    name: 'worker',
    summary:
      'Runs import jobs from the BullMQ queue on WAYMARK_REDIS_URL (key prefix WAYMARK_REDIS_PREFIX, default "waymark"), one at a ' +
      'time, into the data folder; jobs for another data folder fail. Stops on SIGINT/SIGTERM once the running import ' +
      'has finished (a second signal aborts it; the job is tried again later), then exits 0. With WAYMARK_WORKER_URL ' +
      '(and WAYMARK_OPERATOR_TOKEN) it serves the datasets it builds to nodes without a shared folder. A job whose worker ' +
      `died is run again by another worker once its lock lapses: WAYMARK_JOB_LOCK_MS (ms, default ${DEFAULT_JOB_LOCK_MS}; ` +
      'the lock is renewed halfway, so keep it well above the longest pause of an import).',
    synopsis: '',
    flags: [],
    load: () => import('./worker.js'),
  },
  {
    name: 'status',
    summary:
      'Shows the cluster on WAYMARK_REDIS_URL: Redis (version, round trip, memory, durability settings), the API nodes ' +
      '(up, or silent for over 15 s), the connected import workers and the import queue.',
    synopsis: '',
    flags: [],
    load: () => import('./status.js'),
  },
  {
    name: 'migrate',
    summary:
      'With --to-redis, copies the control plane of the --data folder (organizations, users, API keys including revoked ones, ' +
      'invitations, unexpired sessions and password-reset links, and all recorded usage) into the Redis of WAYMARK_REDIS_URL under WAYMARK_REDIS_PREFIX. ' +
      'It refuses when that prefix already holds a control plane; choose another prefix or delete its ":cp:" keys first. ' +
      'Stop the server first: usage it counts during the copy is not carried over. The SQLite file is left as it was.',
    synopsis: '--to-redis',
    flags: [],
    switches: ['to-redis'],
    load: () => import('./migrate.js'),
  },
];
