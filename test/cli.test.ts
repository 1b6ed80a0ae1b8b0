/**
 * The `waymark` command line, run as operators run it: the built `bin/waymark.js` in a child
 * process, against a temporary data folder, beside a running server where it matters.
 */
import test, { type ExecutionContext } from 'ava';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { waymarkCommand } from '../src/cli/invocation.js';
import { PACKAGE_ROOT } from '../core/package-root.js';
import { BASE_ENV, BIN, spawnWaymark, WORK_DIR, waymark, type Run } from './helpers/cli.js';
import { startTestServer } from './helpers/server.js';

const PASSWORD = 'correct horse battery';

/** A fresh data folder, removed after the test. */
function dataFolder(t: ExecutionContext): string {
  const dir = mkdtempSync(join(tmpdir(), 'waymark-cli-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Runs a command against the data folder and returns its output, failing the test on a non-zero exit. */
async function ok(t: ExecutionContext, data: string, args: string[]): Promise<string> {
  const run = await waymark([...args, '--data', data]);
  t.is(run.code, 0, `waymark ${args.join(' ')} failed: ${run.stderr}`);
  return run.stdout;
}

async function okJson<T>(t: ExecutionContext, data: string, args: string[]): Promise<T> {
  return JSON.parse(await ok(t, data, [...args, '--json'])) as T;
}

/** Asserts a failure: the exit status, nothing on stdout, and one line on stderr naming the reason. */
function assertOneLineError(t: ExecutionContext, run: Run, code: number, reason: RegExp): void {
  t.is(run.code, code, run.stderr);
  t.is(run.stdout, '');
  t.regex(run.stderr, /^waymark: [^\n]+\n$/);
  t.regex(run.stderr, reason);
  t.notRegex(run.stderr, /\n\s+at /);
}

/** A user and organization made by the CLI, with one key; returns the key. */
async function orgWithKey(t: ExecutionContext, data: string, org: string, scopes?: string): Promise<KeyCreated> {
  await ok(t, data, ['user', 'create', '--email', `${org.toLowerCase()}@example.com`, '--password', PASSWORD, '--org', org]);
  return okJson<KeyCreated>(t, data, ['key', 'create', '--org', org, '--name', 'app', ...(scopes ? ['--scopes', scopes] : [])]);
}

interface KeyCreated {
  id: string;
  value: string;
  name: string;
  scopes: string[];
}

interface KeyListed {
  id: string;
  name: string;
  hint: string;
  scopes: string[];
  status: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

const get = (url: string, key: string) => fetch(`${url}?key=${key}`);

test('--help lists every command; no command or an unknown one prints the usage and exits 2', async (t) => {
  const help = await waymark(['--help']);
  t.is(help.code, 0);
  for (const command of [
    'serve',
    'import',
    'worker',
    'user create',
    'user set-password',
    'user reset-password',
    'org members',
    'org set-role',
    'org remove-member',
    'org set-tier',
    'key create',
    'key list',
    'key update',
    'key roll',
    'key revoke',
    'usage',
  ]) {
    t.regex(help.stdout, new RegExp(`waymark ${command}( |$)`, 'm'), command);
  }
  for (const args of [[], ['frobnicate', '--osm', 'x.pbf'], ['--data', 'x']]) {
    const run = await waymark(args);
    t.is(run.code, 2, args.join(' '));
    t.is(run.stdout, '');
    t.regex(run.stderr, /^waymark: [^\n]+\n\nusage: waymark <command>/);
  }
  const commandHelp = await waymark(['key', 'create', '--help']);
  t.is(commandHelp.code, 0);
  t.regex(
    commandHelp.stdout,
    /^usage: waymark key create --org NAME --name N \[--scopes maps,geocoding,routing\] \[--allowed-origins LIST\] \[--allowed-ips LIST\] \[--expires ISO\] \[--per-minute LIST\] \[--data DIR\] \[--json\]\n/,
  );
});

test('a group of commands (key, user, org) lists its subcommands: with --help on stdout, exit 0; alone, or with an unknown subcommand, on stderr after the error, exit 2', async (t) => {
  const groups: [string, string[]][] = [
    [
      'key',
      [
        'key create --org NAME --name N [--scopes maps,geocoding,routing]',
        'key list --org NAME',
        'key update --org NAME --id ID',
        'key roll --org NAME --id ID [--grace DURATION]',
        'key revoke --org NAME --id ID',
      ],
    ],
    [
      'user',
      [
        'user create --email E --password P [--org NAME] [--role owner|admin|member]',
        'user set-password --email E --password P',
        'user reset-password --email E',
      ],
    ],
    [
      'org',
      [
        'org members --org NAME',
        'org set-role --org NAME --email E --role owner|admin|member',
        'org remove-member --org NAME --email E [--revoke-keys]',
        'org set-tier --org NAME --tier',
      ],
    ],
  ];
  for (const [group, synopses] of groups) {
    const help = await waymark([group, '--help']);
    t.is(help.code, 0, help.stderr);
    t.regex(help.stdout, new RegExp(`^usage: waymark ${group} <subcommand> \\[flags\\]\n`));
    for (const synopsis of synopses) t.true(help.stdout.includes(`\n  waymark ${synopsis}`), `${group} --help shows ${synopsis}`);

    const alone = await waymark([group]);
    t.is(alone.code, 2);
    t.is(alone.stdout, '');
    t.regex(
      alone.stderr,
      new RegExp(`^waymark: ${group} needs a subcommand \\([a-z, -]+\\)\n\n${help.stdout.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`),
    );
  }
  const unknown = await waymark(['key', 'rotate', '--org', 'Acme']);
  t.is(unknown.code, 2);
  t.regex(unknown.stderr, /^waymark: unknown command "key rotate"\n\nusage: waymark key <subcommand>/);
});

test('with --json, every error is one JSON object on stderr, {"error": {"message", "exitCode"}}, with the exit status of the plain error', async (t) => {
  const data = dataFolder(t);
  await ok(t, data, ['user', 'create', '--email', 'ann@example.com', '--password', PASSWORD, '--org', 'Acme']);
  // One error of every command (and of no command), with the exit status and message it has without --json.
  const cases: [string[], number, RegExp][] = [
    [['frobnicate'], 2, /^unknown command "frobnicate"$/],
    [['key'], 2, /^key needs a subcommand/],
    [['key', 'list'], 2, /^--org is required/],
    [['key', 'create', '--org', 'Acme', '--name', 'x', '--scopes', 'tiles'], 1, /unknown scope "tiles"/],
    [['key', 'revoke', '--org', 'Acme', '--id', 'key_nope'], 1, /^Acme has no key "key_nope"/],
    [['user', 'create', '--email', 'ann@example.com', '--password', PASSWORD], 1, /already exists/],
    [['org', 'set-tier', '--org', 'Acme', '--tier', 'gold'], 1, /^unknown tier "gold"/],
    [['usage', '--org', 'Nope'], 1, /^unknown organization "Nope"/],
    [['serve', '--port', '80x'], 2, /^--port must be a whole number/],
    [['import', '--oa', '/nowhere/a.csv'], 1, /^cannot read \/nowhere\/a\.csv: no such file$/],
    [['worker'], 2, /needs WAYMARK_REDIS_URL/],
  ];
  for (const [args, exitCode, message] of cases) {
    const run = await waymark([...args, '--data', data, '--json']);
    const what = args.join(' ');
    t.is(run.code, exitCode, what);
    t.is(run.stdout, '', what);
    t.regex(run.stderr, /^\{[^\n]*\}\n$/, what);
    const error = (JSON.parse(run.stderr) as { error: { message: string; exitCode: number } }).error;
    t.deepEqual(Object.keys(error), ['message', 'exitCode'], what);
    t.is(error.exitCode, exitCode, what);
    t.regex(error.message, message, what);
  }
});

test('user create that fails on a fresh data folder leaves no folder and no database behind', async (t) => {
  const data = join(dataFolder(t), 'fresh');
  assertOneLineError(
    t,
    await waymark(['user', 'create', '--email', 'not-an-email', '--password', PASSWORD, '--data', data]),
    1,
    /valid email/,
  );
  t.false(existsSync(data));
  assertOneLineError(t, await waymark(['key', 'list', '--org', 'x', '--data', data]), 1, /no Waymark database in/);
});

test('hints name the command as it was run: npx (also for npm inside the checkout), a link on the PATH, or node and the script', (t) => {
  const script = join(PACKAGE_ROOT, 'bin', 'waymark.js');
  const npxLink = '/home/ann/.npm/_npx/5eec080bf95e7d97/node_modules/.bin/waymark';
  t.is(waymarkCommand({ script: npxLink, cwd: PACKAGE_ROOT, env: { npm_command: 'exec' } }), 'npx waymark');
  t.is(waymarkCommand({ script, cwd: PACKAGE_ROOT, env: { npm_command: 'start' } }), 'npx waymark', 'npm start');
  t.is(waymarkCommand({ script, cwd: join(PACKAGE_ROOT, 'docs'), env: { npm_command: 'run-script' } }), 'npx waymark');
  t.is(waymarkCommand({ script, cwd: '/nowhere', env: { npm_command: 'test' } }), `node ${script}`, 'npm, but outside the checkout');
  t.is(waymarkCommand({ script: '/usr/local/bin/waymark', cwd: '/srv', env: { PATH: '/usr/bin:/usr/local/bin' } }), 'waymark');
  t.is(
    waymarkCommand({ script: '/opt/waymark/node_modules/.bin/waymark', cwd: '/srv', env: { PATH: '/usr/bin' } }),
    'node /opt/waymark/node_modules/.bin/waymark',
  );
  t.is(waymarkCommand({ script, cwd: PACKAGE_ROOT, env: {} }), 'node bin/waymark.js');
  t.is(waymarkCommand({ script, cwd: join(PACKAGE_ROOT, 'bin'), env: {} }), 'node waymark.js');
  t.is(waymarkCommand({ script, cwd: '/nowhere', env: {} }), `node ${script}`, 'absolute rather than ../..');
  t.is(waymarkCommand({ script: "/srv/Ann's maps/bin/waymark.js", cwd: '/nowhere', env: {} }), `node '/srv/Ann'\\''s maps/bin/waymark.js'`);
});

test('user create makes a user and its organization, or joins an existing one', async (t) => {
  const data = dataFolder(t);
  const first = await ok(t, data, ['user', 'create', '--email', 'Ann@Example.com', '--password', PASSWORD, '--org', 'Acme']);
  t.regex(first, /^Created user ann@example\.com \(usr_\w+\), owner of organization Acme \(org_\w+, Free tier\)\.\n$/);

  const second = await okJson<{
    user: { id: string; email: string; orgId: string };
    organization: { id: string; name: string; tier: string; quotas: unknown };
  }>(t, data, ['user', 'create', '--email', 'bob@example.com', '--password', PASSWORD, '--org', 'Acme']);
  t.is(second.user.email, 'bob@example.com');
  t.is(second.user.orgId, second.organization.id);
  t.false('passwordHash' in second.user);
  t.deepEqual(second.organization, {
    id: second.user.orgId,
    name: 'Acme',
    tier: 'free',
    perMinute: { maps: 1_200, geocoding: 120, routing: 60 },
    quotas: { maps: 10_000, geocoding: 5_000, routing: 5_000 },
  });

  const own = await okJson<{ organization: { name: string } }>(t, data, [
    'user',
    'create',
    '--email',
    'solo@example.com',
    '--password',
    PASSWORD,
  ]);
  t.is(own.organization.name, 'solo@example.com');

  assertOneLineError(
    t,
    await waymark(['user', 'create', '--email', 'bob@example.com', '--password', PASSWORD, '--data', data]),
    1,
    /already exists/,
  );
  assertOneLineError(
    t,
    await waymark(['user', 'create', '--email', 'not-an-email', '--password', PASSWORD, '--data', data]),
    1,
    /valid email/,
  );
  assertOneLineError(
    t,
    await waymark(['user', 'create', '--email', 'c@example.com', '--password', 'short', '--data', data]),
    1,
    /at least 8 characters/,
  );
});

test('user create gives roles (the first user of a new organization owns it); org members lists them and org set-role changes them', async (t) => {
  const data = dataFolder(t);
  await ok(t, data, ['user', 'create', '--email', 'ann@example.com', '--password', PASSWORD, '--org', 'Acme']);
  t.regex(
    await ok(t, data, ['user', 'create', '--email', 'bob@example.com', '--password', PASSWORD, '--org', 'ａｃｍｅ']),
    /, member of organization Acme /,
  );
  t.regex(
    await ok(t, data, ['user', 'create', '--email', 'cy@example.com', '--password', PASSWORD, '--org', 'Acme', '--role', 'admin']),
    /, admin of organization Acme /,
  );
  assertOneLineError(
    t,
    await waymark([
      'user',
      'create',
      '--email',
      'dee@example.com',
      '--password',
      PASSWORD,
      '--org',
      'New',
      '--role',
      'member',
      '--data',
      data,
    ]),
    1,
    /first user is its owner/,
  );
  assertOneLineError(
    t,
    await waymark([
      'user',
      'create',
      '--email',
      'dee@example.com',
      '--password',
      PASSWORD,
      '--org',
      'Acme',
      '--role',
      'boss',
      '--data',
      data,
    ]),
    1,
    /unknown role/,
  );

  const table = await ok(t, data, ['org', 'members', '--org', 'Acme']);
  t.regex(table, /^ID +EMAIL +ROLE +JOINED\n/);
  t.regex(table, /ann@example\.com +owner /);
  const members = await okJson<{ email: string; role: string }[]>(t, data, ['org', 'members', '--org', 'Acme']);
  t.deepEqual(
    members.map((m) => [m.email, m.role]),
    [
      ['ann@example.com', 'owner'],
      ['bob@example.com', 'member'],
      ['cy@example.com', 'admin'],
    ],
  );
  t.false(JSON.stringify(members).includes('passwordHash'));

  t.is(
    await ok(t, data, ['org', 'set-role', '--org', 'Acme', '--email', 'BOB@example.com', '--role', 'owner']),
    'bob@example.com is now an owner of Acme.\n',
  );
  t.is(
    await ok(t, data, ['org', 'set-role', '--org', 'Acme', '--email', 'ann@example.com', '--role', 'member']),
    'ann@example.com is now a member of Acme.\n',
  );
  assertOneLineError(
    t,
    await waymark(['org', 'set-role', '--org', 'Acme', '--email', 'bob@example.com', '--role', 'admin', '--data', data]),
    1,
    /at least one owner/,
  );
  assertOneLineError(
    t,
    await waymark(['org', 'set-role', '--org', 'Acme', '--email', 'nobody@example.com', '--role', 'admin', '--data', data]),
    1,
    /not a member of Acme/,
  );
});

test('key create prints the value once; key list never shows values; key revoke stops a key', async (t) => {
  const data = dataFolder(t);
  await ok(t, data, ['user', 'create', '--email', 'ann@example.com', '--password', PASSWORD, '--org', 'Acme']);

  const human = await ok(t, data, ['key', 'create', '--org', 'Acme', '--name', 'web app']);
  const [summary, value, warning, rest] = human.split('\n');
  t.regex(summary!, /^Created key "web app" \(key_\w+\) for Acme, scopes maps, geocoding, routing; any origin, any address, no expiry:$/);
  t.regex(value!, /^wmk_[0-9A-Za-z]{38}$/);
  t.regex(warning!, /cannot be shown again/);
  t.is(rest, '');

  const created = await okJson<KeyCreated>(t, data, ['key', 'create', '--org', 'Acme', '--name', 'tiles', '--scopes', 'routing,maps']);
  t.deepEqual(Object.keys(created), ['id', 'value', 'name', 'scopes', 'allowedOrigins', 'allowedIps', 'expiresAt', 'perMinute']);
  t.is(created.name, 'tiles');
  t.deepEqual(created.scopes, ['maps', 'routing']);

  const listed = await okJson<KeyListed[]>(t, data, ['key', 'list', '--org', 'Acme']);
  t.deepEqual(
    listed.map((k) => [k.name, k.status, k.scopes, k.lastUsedAt]),
    [
      ['web app', 'active', ['maps', 'geocoding', 'routing'], null],
      ['tiles', 'active', ['maps', 'routing'], null],
    ],
  );
  t.is(listed[1]!.id, created.id);
  t.is(listed[1]!.hint, `${created.value.slice(0, 8)}…${created.value.slice(-4)}`);
  const table = await ok(t, data, ['key', 'list', '--org', 'Acme']);
  t.regex(table, /^ID +NAME +HINT +SCOPES +STATUS +RESTRICTIONS +CREATED +LAST USED\n/);
  t.regex(
    table,
    new RegExp(
      `${created.id} +tiles +wmk_\\w{4}… *\\w{4} +maps,routing +active +any origin, any address, no expiry +\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC +never\\n`,
    ),
  );
  for (const output of [table, JSON.stringify(listed)]) {
    t.false(output.includes(value!));
    t.false(output.includes(created.value));
    t.false(output.includes('hash'));
  }

  t.regex(
    await ok(t, data, ['key', 'revoke', '--org', 'Acme', '--id', created.id]),
    new RegExp(`^Revoked key "tiles" \\(${created.id}\\) of Acme\\.\\n$`),
  );
  const after = await okJson<KeyListed[]>(t, data, ['key', 'list', '--org', 'Acme']);
  t.is(after[1]!.status, 'revoked');
  t.truthy(after[1]!.revokedAt);
  assertOneLineError(t, await waymark(['key', 'revoke', '--org', 'Acme', '--id', created.id, '--data', data]), 1, /already revoked/);

  const revokedJson = await okJson<KeyListed>(t, data, ['key', 'revoke', '--org', 'Acme', '--id', listed[0]!.id]);
  t.is(revokedJson.status, 'revoked');
  t.false('hash' in revokedJson);

  await ok(t, data, ['user', 'create', '--email', 'zed@example.com', '--password', PASSWORD, '--org', 'Empty']);
  t.regex(await ok(t, data, ['key', 'list', '--org', 'Empty']), /^Empty has no API keys/);
  t.deepEqual(await okJson<unknown[]>(t, data, ['key', 'list', '--org', 'Empty']), []);
});

test('org set-tier sets tiers and Enterprise quotas, and rejects --quota on other tiers', async (t) => {
  const data = dataFolder(t);
  await ok(t, data, ['user', 'create', '--email', 'ann@example.com', '--password', PASSWORD, '--org', 'Acme']);

  t.is(
    await ok(t, data, ['org', 'set-tier', '--org', 'Acme', '--tier', 'pro']),
    'Acme is now on the Pro tier; monthly quotas: maps 500,000, geocoding 100,000, routing 100,000; ' +
      'per minute: maps 30,000/min, geocoding 1,200/min, routing 600/min.\n',
  );
  const enterprise = await okJson<{ organization: { tier: string; quotas: unknown } }>(t, data, [
    'org',
    'set-tier',
    '--org',
    'Acme',
    '--tier',
    'Enterprise',
    '--quota',
    'maps=1000000,routing=0',
  ]);
  t.deepEqual(enterprise.organization.quotas, { maps: 1_000_000, geocoding: null, routing: 0 });
  t.is(enterprise.organization.tier, 'enterprise');
  t.is(
    await ok(t, data, ['org', 'set-tier', '--org', 'Acme', '--tier', 'enterprise']),
    'Acme is now on the Enterprise tier; monthly quotas: maps unlimited, geocoding unlimited, routing unlimited; per minute: none.\n',
  );
  const limited = await okJson<{ organization: { perMinute: unknown } }>(t, data, [
    'org',
    'set-tier',
    '--org',
    'Acme',
    '--tier',
    'enterprise',
    '--per-minute',
    'maps=6000,routing=100',
  ]);
  t.deepEqual(limited.organization.perMinute, { maps: 6000, routing: 100 });
  assertOneLineError(
    t,
    await waymark(['org', 'set-tier', '--org', 'Acme', '--tier', 'enterprise', '--per-minute', 'maps=0', '--data', data]),
    1,
    /the maps limit per minute must be a whole number from 1 to 100000000/,
  );

  for (const tier of ['free', 'pro']) {
    for (const flag of ['--quota', '--per-minute']) {
      const run = await waymark(['org', 'set-tier', '--org', 'Acme', '--tier', tier, flag, 'maps=5', '--data', data]);
      assertOneLineError(t, run, 2, new RegExp(`${flag} is only for the enterprise tier`));
    }
  }
  for (const [quota, reason] of [
    ['maps=five', /--quota maps must be a whole number/],
    ['maps=-1', /--quota maps must be a whole number/],
    ['tiles=5', /service=N pairs/],
    ['maps', /service=N pairs/],
    ['maps=1,maps=2', /gives maps twice/],
  ] as const) {
    assertOneLineError(
      t,
      await waymark(['org', 'set-tier', '--org', 'Acme', '--tier', 'enterprise', '--quota', quota, '--data', data]),
      2,
      reason,
    );
  }
  assertOneLineError(t, await waymark(['org', 'set-tier', '--org', 'Acme', '--tier', 'gold', '--data', data]), 1, /unknown tier "gold"/);
  const usage = await okJson<{ organization: { tier: string } }>(t, data, ['usage', '--org', 'Acme']);
  t.is(usage.organization.tier, 'enterprise');
});

test('errors exit non-zero with a one-line reason and no stack trace', async (t) => {
  const data = dataFolder(t);
  const missing = join(data, 'nothing-here');
  await ok(t, data, ['user', 'create', '--email', 'ann@example.com', '--password', PASSWORD, '--org', 'Acme']);
  const cases: [string[], number, RegExp][] = [
    [['key', 'list', '--org', 'Acme', '--bogus'], 2, /Unknown option '--bogus'/],
    [['key', 'list', '--org', '--name'], 2, /Option '--org' argument is ambiguous; see "waymark key list --help"/],
    [['key', 'list'], 2, /--org is required/],
    [['key', 'list', '--org', ''], 2, /--org needs a value/],
    [['key', 'list', '--org', 'Acme', 'extra'], 2, /Unexpected argument 'extra'/],
    [['key', 'list', '--org', 'Nope'], 1, /unknown organization "Nope"/],
    [['key', 'create', '--org', 'Acme', '--name', 'x', '--scopes', 'maps,tiles'], 1, /unknown scope "tiles"/],
    [['key', 'create', '--org', 'Acme', '--scopes', 'maps'], 2, /--name is required/],
    [['key', 'revoke', '--org', 'Acme', '--id', 'key_nope'], 1, /Acme has no key "key_nope"/],
    [['usage', '--org', 'Nope'], 1, /unknown organization/],
    [['serve', '--threads', '0'], 2, /--threads must be a whole number from 1/],
    [['serve', '--port', '80x'], 2, /--port must be a whole number from 0 to 65535/],
  ];
  for (const [args, code, reason] of cases) assertOneLineError(t, await waymark([...args, '--data', data]), code, reason);
  assertOneLineError(t, await waymark(['key', 'list', '--data', data, '--org']), 2, /Option '--org <value>' argument missing/);
  assertOneLineError(t, await waymark(['key', 'list', '--org', 'Acme', '--data', missing]), 1, /no Waymark database in/);
  t.false(existsSync(missing), 'a read command does not create a data folder');
});

test('--data defaults to WAYMARK_DATA, and the flag overrides it', async (t) => {
  const data = dataFolder(t);
  const other = dataFolder(t);
  const created = await waymark(['user', 'create', '--email', 'ann@example.com', '--password', PASSWORD, '--org', 'Acme'], {
    WAYMARK_DATA: data,
  });
  t.is(created.code, 0, created.stderr);
  t.true(existsSync(join(data, 'waymark.db')));
  t.is((await waymark(['key', 'list', '--org', 'Acme'], { WAYMARK_DATA: data })).code, 0);
  assertOneLineError(t, await waymark(['key', 'list', '--org', 'Acme', '--data', other], { WAYMARK_DATA: data }), 1, /no Waymark database/);
});

test('a key created by the CLI works on a running server, and revoking it stops it on the next request', async (t) => {
  const data = dataFolder(t);
  const server = await startTestServer({ dataDir: data });
  t.teardown(() => server.close());
  const key = await orgWithKey(t, data, 'Live', 'maps');
  const maps = `${server.url}/api/v1/test/maps`;

  t.is((await get(maps, key.value)).status, 200);
  t.is((await get(`${server.url}/api/v1/test/routing`, key.value)).status, 403);

  await ok(t, data, ['key', 'revoke', '--org', 'Live', '--id', key.id]);
  const revoked = await get(maps, key.value);
  t.is(revoked.status, 401);
  t.regex(((await revoked.json()) as { message: string }).message, /revoked/);
});

test('a tier set by the CLI applies to a running server at once', async (t) => {
  const data = dataFolder(t);
  const server = await startTestServer({ dataDir: data });
  t.teardown(() => server.close());
  const key = await orgWithKey(t, data, 'Tiered');
  const maps = `${server.url}/api/v1/test/maps`;

  t.is((await get(maps, key.value)).headers.get('x-ratelimit-limit'), '10000');

  await ok(t, data, ['org', 'set-tier', '--org', 'Tiered', '--tier', 'enterprise', '--quota', 'maps=2']);
  const second = await get(maps, key.value);
  t.is(second.status, 200);
  t.is(second.headers.get('x-ratelimit-limit'), '2');
  t.is(second.headers.get('x-ratelimit-remaining'), '0');
  t.is((await get(maps, key.value)).status, 429);

  await ok(t, data, ['org', 'set-tier', '--org', 'Tiered', '--tier', 'pro']);
  const upgraded = await get(maps, key.value);
  t.is(upgraded.status, 200);
  t.is(upgraded.headers.get('x-ratelimit-limit'), '500000');
});

test('usage shows this month per service and per key, as the server counted it', async (t) => {
  const data = dataFolder(t);
  // The CLI reports the real current month, so the server's clock is set to now.
  const server = await startTestServer({ dataDir: data, now: new Date().toISOString() });
  t.teardown(() => server.close());
  const key = await orgWithKey(t, data, 'Counted');
  const other = await okJson<KeyCreated>(t, data, ['key', 'create', '--org', 'Counted', '--name', 'idle']);
  for (let i = 0; i < 3; i++) t.is((await get(`${server.url}/api/v1/test/maps`, key.value)).status, 200);
  t.is((await get(`${server.url}/api/v1/test/geocoding`, key.value)).status, 200);
  await server.store.flush();

  interface Report {
    organization: { name: string; tier: string };
    period: { start: string; end: string };
    services: Record<string, { used: number; limit: number | null; remaining: number | null }>;
    keys: { id: string; name: string; hint: string; status: string; used: Record<string, number> }[];
  }
  const report = await okJson<Report>(t, data, ['usage', '--org', 'Counted']);
  const monthStart = `${new Date().toISOString().slice(0, 7)}-01T00:00:00.000Z`;
  t.is(report.period.start, monthStart);
  t.deepEqual(report.services, {
    maps: { used: 3, limit: 10_000, remaining: 9_997 },
    geocoding: { used: 1, limit: 5_000, remaining: 4_999 },
    routing: { used: 0, limit: 5_000, remaining: 5_000 },
  });
  t.deepEqual(
    report.keys.map((k) => [k.id, k.name, k.status, k.used]),
    [
      [key.id, 'app', 'active', { maps: 3, geocoding: 1, routing: 0 }],
      [other.id, 'idle', 'active', { maps: 0, geocoding: 0, routing: 0 }],
    ],
  );

  const text = await ok(t, data, ['usage', '--org', 'Counted']);
  t.regex(text, /^Counted \(Free tier\), \d{4}-\d\d-01 to \d{4}-\d\d-\d\d; quotas reset \d{4}-\d\d-01 00:00 UTC\n/);
  t.regex(text, /\nmaps +3 +10,000 +9,997\n/);
  t.regex(text, /\ngeocoding +1 +5,000 +4,999\n/);
  t.regex(text, new RegExp(`\\n${key.id} +app +wmk_\\S+ +active +3 +1 +0\\n`));

  const listed = await okJson<KeyListed[]>(t, data, ['key', 'list', '--org', 'Counted']);
  t.truthy(listed[0]!.lastUsedAt);
  t.is(listed[1]!.lastUsedAt, null);
});

/** Starts `waymark serve` as a child process and resolves with its first line of output. */
async function startServe(t: ExecutionContext, args: string[], env: Record<string, string> = {}) {
  const child = spawnWaymark(['serve', '--port', '0', ...args], { WAYMARK_LOG_LEVEL: 'silent', ...env });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  t.teardown(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  const lines = createInterface({ input: child.stdout });
  const output: string[] = [];
  for await (const line of lines) {
    output.push(line);
    if (line.startsWith('{') || line === 'Stop with Ctrl-C.') break;
  }
  return { child, exited, output };
}

test('serve prints its URLs and how to get a key, serves CLI-made keys, and exits 0 on SIGTERM', async (t) => {
  const data = dataFolder(t);
  const key = await orgWithKey(t, data, 'Served');
  const { child, exited, output } = await startServe(t, ['--data', data, '--threads', '2']);

  const url = /^Waymark is listening on (http:\/\/127\.0\.0\.1:\d+) \(data: (.+)\)$/.exec(output[0] ?? '');
  t.truthy(url, output.join('\n'));
  const base = url![1]!;
  t.is(url![2], data);
  t.is(output[1], `Dashboard: ${base}/dashboard/`);
  // The hints, run as printed from where the server was started, work.
  const hints = output.slice(output.indexOf('To get an API key, sign up in the dashboard, or run:') + 1, -1).map((line) => line.trim());
  t.is(hints.length, 2, output.join('\n'));
  // `node <the script>`, relative or absolute depending on where the checkout lies (in a clone
  // under the temporary folder it may be either), but naming this checkout's script from there.
  for (const [hint, rest] of [
    [hints[0]!, / user create --email \S+ --password .+ --org ORG --data \S+$/],
    [hints[1]!, / key create --org ORG --name \S+ --data \S+$/],
  ] as const) {
    const script = /^node (\S+)/.exec(hint)?.[1];
    t.is(script && resolve(WORK_DIR, script), BIN, hint);
    t.regex(hint.slice(`node ${script}`.length), rest);
  }
  for (const hint of hints) {
    const run = spawnSync('sh', ['-c', hint], { cwd: WORK_DIR, env: BASE_ENV, encoding: 'utf8' });
    t.is(run.status, 0, `${hint}: ${run.stderr}`);
  }

  t.is((await fetch(`${base}/healthz`)).status, 200);
  const usage = `${base}/api/v1/usage/current`;
  const before = await get(usage, key.value);
  t.is(before.status, 200);
  t.is(((await before.json()) as { organization: { tier: string } }).organization.tier, 'free');

  await ok(t, data, ['org', 'set-tier', '--org', 'Served', '--tier', 'pro']);
  t.is(((await (await get(usage, key.value)).json()) as { organization: { tier: string } }).organization.tier, 'pro');
  await ok(t, data, ['key', 'revoke', '--org', 'Served', '--id', key.id]);
  t.is((await get(usage, key.value)).status, 401);

  const second = await waymark(['serve', '--port', '0', '--data', data]);
  assertOneLineError(t, second, 1, /another waymark server \(pid \d+\) is serving/);

  child.kill('SIGTERM');
  t.is(await exited, 0);
  t.false(existsSync(join(data, 'serve.lock')));
});

test('serve --json prints its URLs as JSON, honours WAYMARK_* settings, and exits 0 on SIGINT', async (t) => {
  const data = dataFolder(t);
  const { child, exited, output } = await startServe(t, ['--json'], {
    WAYMARK_DATA: data,
    WAYMARK_HOST: '127.0.0.1',
    WAYMARK_PUBLIC_URL: 'https://maps.example.com/',
  });
  const banner = JSON.parse(output[0]!) as { url: string; publicUrl: string; dashboardUrl: string; dataDir: string };
  t.regex(banner.url, /^http:\/\/127\.0\.0\.1:\d+$/);
  t.is(banner.publicUrl, 'https://maps.example.com');
  t.is(banner.dashboardUrl, 'https://maps.example.com/dashboard/');
  t.is(banner.dataDir, data);
  t.is((await fetch(`${banner.url}/healthz`)).status, 200);
  child.kill('SIGINT');
  t.is(await exited, 0);

  assertOneLineError(t, await waymark(['serve', '--data', data], { WAYMARK_PORT: 'eighty' }), 2, /WAYMARK_PORT must be a whole number/);
});
