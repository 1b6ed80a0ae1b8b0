/**
 * Issue 34, finding 6 (part): a new organization whose name looks like an existing one's — the same
 * UTS #39 skeleton: `АСМЕ` in Cyrillic for `ACME`, `victirn` for `victim` — is refused at sign-up
 * (409), also beside organizations stored before skeletons were (a schema-4 SQLite file, a Redis
 * prefix without the index). On SQLite and on Redis.
 */
import test from 'ava';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { RedisStore } from '../src/control-plane/redis/index.js';
import { SqliteStore } from '../src/control-plane/sqlite/index.js';
import { SCHEMA_STEPS } from '../src/control-plane/sqlite/schema.js';
import { OrgNameLookAlike } from '../src/control-plane/store.js';
import { STORE_KINDS, redisFor } from './helpers/backends.js';
import { serve, tempDataDir } from './helpers/fixtures.js';
import { assertError, call } from './helpers/http.js';
import { deleteKeys } from './helpers/queue.js';
import type { TestServer } from './helpers/server.js';

const CYRILLIC_ACME = '\u0410\u0421\u041C\u0415';

let n = 0;
const signUp = (server: TestServer, organization: string) =>
  call(`${server.url}/dashboard/api/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: `look-alike${process.pid}-${++n}@example.com`, password: 'correct horse battery', organization }),
  });

for (const kind of STORE_KINDS) {
  test(`${kind}: sign-up refuses a look-alike of an existing organization's name with a 409`, async (t) => {
    const server = await serve(t, { redis: redisFor(t, kind) });
    for (const name of ['ACME', 'victim']) t.is((await signUp(server, name)).status, 201);
    for (const [name, shown] of [
      [CYRILLIC_ACME, 'АСМЕ'],
      ['victirn', 'victirn'],
    ]) {
      t.regex(
        assertError(t, await signUp(server, name!), 409),
        new RegExp(`^an organization whose name looks like "${shown}" already exists; choose another name`),
      );
    }
    for (const name of ['Acme Maps', 'victims']) t.is((await signUp(server, name)).status, 201, name);
  });
}

const createOrg = (store: SqliteStore | RedisStore, orgName: string) =>
  store.createUserWithOrg({ email: `owner${++n}@example.com`, passwordHash: 'x', orgName });

test('sqlite: the upgrade of a schema-4 file gives its organizations their skeletons', async (t) => {
  const file = join(tempDataDir(t), 'waymark.db');
  const old = new Database(file);
  for (const step of SCHEMA_STEPS.slice(0, 4)) old.exec(step);
  old.pragma('user_version = 4');
  old.exec("INSERT INTO organizations VALUES ('org_a', 'ACME', 'free', '{}', '2026-01-01T00:00:00.000Z', 1)");
  old.close();
  const store = new SqliteStore(file);
  t.teardown(() => store.close());
  await t.throwsAsync(createOrg(store, CYRILLIC_ACME), { instanceOf: OrgNameLookAlike });
  t.truthy(await createOrg(store, 'Acme Maps'));
});

test('redis: opening a store indexes the skeletons of organizations stored without them', async (t) => {
  const redis = redisFor(t, 'redis')!;
  const first = await RedisStore.open(redis, { directory: false });
  t.teardown(() => first.close());
  await createOrg(first, 'ACME');
  await deleteKeys(`${redis.prefix}:cp:org-skeletons`);
  const second = await RedisStore.open(redis, { directory: false });
  t.teardown(() => second.close());
  await t.throwsAsync(createOrg(second, CYRILLIC_ACME), { instanceOf: OrgNameLookAlike });
});
