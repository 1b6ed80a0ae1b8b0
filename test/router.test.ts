import test from 'ava';
import { empty } from '../src/http/reply.js';
import { Router } from '../src/http/router.js';

const handler = () => empty(204);

function router(): Router {
  const r = new Router();
  r.add('GET', '/api/v1/usage/current', handler, { public: true });
  r.add('GET', '/api/v1/tiles/:tileset/:z/:x/:y.pbf', handler, { public: true });
  r.add('POST', '/dashboard/api/keys/:id/revoke', handler, { public: false });
  return r;
}

test('static paths match exactly', (t) => {
  const m = router().match('GET', '/api/v1/usage/current');
  t.is(m.kind, 'route');
  t.is(router().match('GET', '/api/v1/usage/current/').kind, 'none');
});

test('patterns capture segments and strip literal suffixes', (t) => {
  const m = router().match('GET', '/api/v1/tiles/osm/3/4/5.pbf');
  if (m.kind !== 'route') return t.fail();
  t.deepEqual(m.params, { tileset: 'osm', z: '3', x: '4', y: '5' });
  t.is(router().match('GET', '/api/v1/tiles/osm/3/4/5.png').kind, 'none');
  t.is(router().match('GET', '/api/v1/tiles/osm/3/4/.pbf').kind, 'none');
  t.is(router().match('GET', '/api/v1/tiles/osm//4/5.pbf').kind, 'none');
});

test('a known path with another method is wrong-method with the allowed list', (t) => {
  const m = router().match('DELETE', '/dashboard/api/keys/key_1/revoke');
  t.deepEqual(m, { kind: 'wrong-method', allowed: ['POST'], public: false });
  const s = router().match('OPTIONS', '/api/v1/usage/current');
  t.deepEqual(s, { kind: 'wrong-method', allowed: ['GET'], public: true });
});
