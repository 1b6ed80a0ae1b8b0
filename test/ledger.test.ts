import test from 'ava';
import { LocalLedger } from '../src/control-plane/local-ledger.js';
import type { ReserveRequest } from '../src/control-plane/store.js';
import type { ApiKeyRecord, Organization, Service } from '../src/control-plane/types.js';

const M = '2026-11';
const D = '2026-11-15';
const org = { id: 'o' } as Organization;
const key = { id: 'k1' } as ApiKeyRecord;
const ask = (service: Service, month: string, limit: number | null, units = 1): ReserveRequest => ({
  org,
  key,
  service,
  month,
  day: D,
  limit,
  units,
});

test('reservations count against the limit until released', (t) => {
  const ledger = new LocalLedger(() => 0);
  const first = ledger.reserve(ask('maps', M, 2));
  t.like(first, { granted: true, used: 0 });
  t.like(ledger.reserve(ask('maps', M, 2)), { granted: true, used: 1 });
  t.like(ledger.reserve(ask('maps', M, 2)), { granted: false, used: 2 });
  ledger.release(first);
  t.true(ledger.reserve(ask('maps', M, 2)).granted);
  t.is(ledger.used('o', 'maps', M), 0);
});

test('commits become usage and are buffered for the flush per key and day', (t) => {
  const ledger = new LocalLedger(() => 0);
  for (let i = 0; i < 3; i++) {
    ledger.commit(ledger.reserve(ask('geocoding', M, null)));
  }
  ledger.touchKey('k1', 1000);
  t.is(ledger.used('o', 'geocoding', M), 3);
  const drained = ledger.drain();
  t.deepEqual(drained.usage, [{ orgId: 'o', keyId: 'k1', service: 'geocoding', day: D, count: 3 }]);
  t.deepEqual([...drained.keyUse], [['k1', 1000]]);
  t.deepEqual(ledger.drain().usage, []);
  ledger.restore(drained.usage, drained.keyUse);
  t.is(ledger.drain().usage[0]?.count, 3);
});

test('a month is loaded once from the store, and each month counts on its own', (t) => {
  const loads: string[] = [];
  const ledger = new LocalLedger((org, service, month) => {
    loads.push(`${org}|${service}|${month}`);
    return month === M ? 7 : 0;
  });
  t.is(ledger.used('o', 'routing', M), 7);
  t.false(ledger.reserve(ask('routing', M, 7)).granted);
  t.true(ledger.reserve(ask('routing', '2026-12', 7)).granted);
  t.deepEqual(loads, ['o|routing|2026-11', 'o|routing|2026-12']);
});

test('unlimited quotas always grant', (t) => {
  const ledger = new LocalLedger(() => 1e9);
  t.true(ledger.reserve(ask('maps', M, null)).granted);
});

test('a reservation of several units fits whole or not at all, and settles all of them', (t) => {
  const ledger = new LocalLedger(() => 0);
  const three = ledger.reserve(ask('routing', M, 5, 3));
  t.like(three, { granted: true, used: 0 });
  t.like(ledger.reserve(ask('routing', M, 5, 3)), { granted: false, used: 3 });
  ledger.commit(three);
  t.is(ledger.used('o', 'routing', M), 3);
  t.like(ledger.reserve(ask('routing', M, 5, 2)), { granted: true, used: 3 });
});
