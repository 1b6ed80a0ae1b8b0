/**
 * Fuzzing the maps routes' path and query parsing: random tile coordinates, tilesets, font stacks,
 * glyph ranges, sprite names, style slugs and languages. Every answer is a success or a uniform 4xx
 * error — never a 5xx — and the server keeps serving.
 */
import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeTestDataset } from './helpers/dataset.js';
import { errorBodyFault, junk, parseRaw, rawExchange, rawGet, seededRandom } from './helpers/http.js';
import { startTestServer } from './helpers/server.js';

const NUMBERS = ['0', '1', '14', '15', '-1', '01', '1e3', '0x1', '4294967296', '99999999999999999999', '', ' ', '1.5', 'NaN'];

/** A path segment: a number-like string or junk, percent-encoded so the request stays valid HTTP. */
function segment(random: () => number): string {
  if (random() < 0.5) return encodeURIComponent(NUMBERS[Math.floor(random() * NUMBERS.length)]!);
  return encodeURIComponent(junk(random, 12)).replace(/%2F/g, random() < 0.5 ? '/' : '%2F');
}

/** A maps path with some parts real and some junk. */
function mapsPath(random: () => number): string {
  const part = (real: string) => (random() < 0.6 ? real : segment(random));
  switch (Math.floor(random() * 5)) {
    case 0:
      return `/api/v1/tiles/${part('shortbread')}/${part(String(Math.floor(random() * 16)))}/${segment(random)}/${segment(random)}.${part('pbf')}`;
    case 1:
      return `/api/v1/tiles/${part('shortbread')}.${part('json')}`;
    case 2:
      return `/api/v1/fonts/${part('noto_sans_regular')}${random() < 0.3 ? `,${segment(random)}` : ''}/${part(`${256 * Math.floor(random() * 4)}-${256 * Math.floor(random() * 4) + 255}`)}.pbf`;
    case 3:
      return `/v1/sprites/${part('base')}${random() < 0.5 ? '@2x' : ''}.${part(random() < 0.5 ? 'json' : 'png')}`;
    default:
      return `/api/v1/styles/${part('light')}/${part('style.json')}?lang=${part(random() < 0.5 ? 'de' : 'en-GB')}`;
  }
}

test('fuzz: random maps paths are answered 2xx, 304 or a uniform 4xx, never 5xx', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'waymark-maps-fuzz-'));
  const server = await startTestServer({ dataDir });
  t.teardown(async () => {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  await writeTestDataset(dataDir);
  server.datasets.reload();
  const account = await server.signUp();
  await server.store.setTier(account.orgId, 'enterprise');
  const { value: key } = await server.createKey(account, { scopes: ['maps'] });

  const random = seededRandom(7_2026);
  const statuses = new Map<number, number>();
  for (let i = 0; i < 400; i++) {
    const path = mapsPath(random);
    const target = `${path}${path.includes('?') ? '&' : '?'}key=${key}`;
    const answer = parseRaw(await rawExchange(server.port, rawGet(target)));
    t.truthy(answer.status, `no answer to ${target}`);
    const status = answer.status!;
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
    t.true(status < 500, `${status} for ${target}: ${answer.body.slice(0, 200)}`);
    if (status >= 400) t.is(errorBodyFault({ status, body: JSON.parse(answer.body) }), null, target);
  }
  t.true((statuses.get(200) ?? 0) > 0, 'some fuzzed paths were valid');
  t.true((statuses.get(400) ?? 0) + (statuses.get(404) ?? 0) > 0, 'some were refused');
  t.is((await fetch(`${server.url}/healthz`)).status, 200);
});
