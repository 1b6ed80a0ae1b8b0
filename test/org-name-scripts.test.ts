/**
 * Issue 34, finding 6 (part): an organization's name is written in one script, as UTS #39's
 * moderately restrictive profile has it, so `vіctim` (a Cyrillic і, U+0456) cannot pass for
 * `victim` in an invitation's preview — refused by sign-up and by `waymark user create`.
 */
import test from 'ava';
import { mixedScripts } from '../src/control-plane/name-scripts.js';
import { waymark } from './helpers/cli.js';
import { serve } from './helpers/fixtures.js';
import { assertError, call } from './helpers/http.js';
import type { TestServer } from './helpers/server.js';

const LOOK_ALIKE = 'v\u0456ctim';

test('one script, Han with kana or Hangul, and Latin with one script but Cyrillic or Greek pass; other mixes are refused', (t) => {
  for (const name of [
    'Café Zürich',
    '東京マップ',
    'Київ Карти',
    'Ελληνικοί Χάρτες',
    'Seoul 지도',
    'Acme 東京',
    'خرائط Maps',
    'Acme-2 (EU) 🗺',
    '2026',
  ]) {
    t.is(mixedScripts(name), null, name);
  }
  t.is(mixedScripts(LOOK_ALIKE), 'mixes the Latin and Cyrillic scripts');
  t.is(mixedScripts('Acme Москва'), 'mixes the Latin and Cyrillic scripts');
  t.is(mixedScripts('\u0391thens'), 'mixes the Greek and Latin scripts');
  t.is(mixedScripts('한국 ひらがな'), 'mixes the Hangul and Hiragana scripts');
  t.is(mixedScripts('\u13AAcme'), 'has "Ꭺ" (U+13AA), which is of a script not recommended for names');
});

const signUp = (server: TestServer, body: Record<string, unknown>) =>
  call(`${server.url}/dashboard/api/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ password: 'correct horse battery', ...body }),
  });

test('sign-up refuses a mixed-script organization name with a 400 that says why, and takes single-script ones', async (t) => {
  const server = await serve(t);
  t.is((await signUp(server, { email: 'owner@victim.example', organization: 'victim' })).status, 201);
  const refused = await signUp(server, { email: 'spoof@example.com', organization: LOOK_ALIKE });
  t.regex(assertError(t, refused, 400), /^the organization name "vіctim" mixes the Latin and Cyrillic scripts: write it in one script/);
  let n = 0;
  for (const organization of ['Café Zürich', '東京マップ', 'Київ Карти']) {
    const answer = await signUp(server, { email: `owner${++n}@example.com`, organization });
    t.is(answer.status, 201, organization);
    t.is(answer.body.organization.name, organization);
  }
  // Without a name the email is the name: each side of its @ is checked on its own.
  t.is((await signUp(server, { email: 'іван@example.com' })).status, 201);
  t.regex(assertError(t, await signUp(server, { email: `${LOOK_ALIKE}@example.com` }), 400), /"vіctim" mixes the Latin and Cyrillic/);
});

test('waymark user create refuses a new organization with a mixed-script name', async (t) => {
  const server = await serve(t);
  const run = await waymark([
    'user',
    'create',
    '--email',
    'x@example.com',
    '--password',
    'correct horse battery',
    '--org',
    LOOK_ALIKE,
    '--data',
    server.dataDir,
  ]);
  t.is(run.code, 1);
  t.regex(run.stderr, /"vіctim" mixes the Latin and Cyrillic scripts/);
  t.is(await server.store.findOrgByName(LOOK_ALIKE), null);
});
