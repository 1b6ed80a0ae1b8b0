/** IP ranges (src/http/cidr.ts) and the client address behind trusted proxies (src/http/client-address.ts). */
import test from 'ava';
import { CidrError, CidrSet, normalizeAddress, normalizeCidr } from '../core/cidr.js';
import { clientAddressResolver } from '../src/http/client-address.js';
import { Request } from '../src/http/request.js';

test('normalizeCidr gives one canonical text per range: bare single addresses, IPv4-mapped as IPv4, RFC 5952 IPv6', (t) => {
  const cases: [string, string][] = [
    ['192.0.2.7', '192.0.2.7'],
    ['192.0.2.7/32', '192.0.2.7'],
    [' 10.0.0.0/8 ', '10.0.0.0/8'],
    ['0.0.0.0/0', '0.0.0.0/0'],
    ['::1', '::1'],
    ['::1/128', '::1'],
    ['2001:DB8::/32', '2001:db8::/32'],
    ['2001:0db8:0000:0000:0001:0000:0000:0001', '2001:db8::1:0:0:1'],
    ['2001:db8:0:0:1:0:0:0', '2001:db8:0:0:1::'],
    ['::2:3:4:5:6:7:8', '0:2:3:4:5:6:7:8'],
    ['1:2:3:4:5:6:7:8', '1:2:3:4:5:6:7:8'],
    ['::', '::'],
    ['::/0', '::/0'],
    ['::ffff:198.51.100.1', '198.51.100.1'],
    ['::ffff:c633:6401', '198.51.100.1'],
    ['0000:0000:0000:0000:0000:ffff:7f00:0001', '127.0.0.1'],
    ['::ffff:10.0.0.0/104', '10.0.0.0/8'],
  ];
  for (const [entry, canonical] of cases) t.is(normalizeCidr(entry), canonical, entry);
});

test('normalizeCidr refuses malformed entries with a CidrError saying what is wrong', (t) => {
  const cases: [string, RegExp][] = [
    ['', /empty/],
    ['1.2.3', /not an IPv4 or IPv6 address/],
    ['1.2.3.4.5', /not an IPv4/],
    ['256.0.0.1', /not an IPv4/],
    ['01.2.3.4', /not an IPv4/],
    ['1.2.3.4:80', /not an IPv4/],
    ['[::1]', /not an IPv4/],
    ['fe80::1%eth0', /not an IPv4/],
    ['1::2::3', /not an IPv4/],
    ['1:2:3:4:5:6:7', /not an IPv4/],
    ['1:2:3:4:5:6:7:8:9', /not an IPv4/],
    ['12345::', /not an IPv4/],
    ['1:', /not an IPv4/],
    ['example.com', /not an IPv4/],
    ['x/8', /before its "\/"/],
    ['10.0.0.0/33', /from 0 to 32/],
    ['10.0.0.0/', /from 0 to 32/],
    ['10.0.0.0/08', /from 0 to 32/],
    ['2001:db8::/129', /from 0 to 128/],
    ['10.1.2.3/8', /bits set after its \/8 prefix; the range it starts is 10\.0\.0\.0\/8/],
    ['2001:db8::1/32', /the range it starts is 2001:db8::\/32/],
  ];
  for (const [entry, message] of cases) {
    const error = t.throws(() => normalizeCidr(entry), { instanceOf: CidrError }, entry);
    t.regex(error!.message, message, entry);
  }
  t.throws(() => CidrSet.parse(['10.0.0.0/8', 'nonsense']), { instanceOf: CidrError, message: /"nonsense"/ });
});

test('CidrSet.contains matches IPv4, IPv6 and every text form of an IPv4 address, and nothing malformed', (t) => {
  const set = CidrSet.parse(['10.0.0.0/8', '172.16.0.0/12', '::1', '2001:db8::/32', '10.0.0.0/8']);
  t.deepEqual(set.entries, ['10.0.0.0/8', '172.16.0.0/12', '::1', '2001:db8::/32']);
  t.false(set.empty);
  const inside = [
    '10.0.0.1',
    '10.255.255.255',
    '172.31.0.1',
    '::ffff:10.1.2.3',
    '0000:0000:0000:0000:0000:ffff:0a00:0001',
    '::1',
    '0:0:0:0:0:0:0:1',
    '2001:db8:ffff::7',
    '2001:DB8::',
  ];
  const outside = [
    '11.0.0.1',
    '9.255.255.255',
    '172.32.0.1',
    '::2',
    '2001:db9::',
    '127.0.0.1',
    '',
    'garbage',
    '10.0.0.1/8',
    '10.0.0.1:80',
    '::ffff:10.0.0.1%lo',
  ];
  for (const address of inside) t.true(set.contains(address), address);
  for (const address of outside) t.false(set.contains(address), address);
  t.true(CidrSet.parse(['0.0.0.0/0']).contains('203.0.113.9'));
  t.false(CidrSet.parse(['0.0.0.0/0']).contains('2001:db8::1'));
  t.true(CidrSet.parse(['::/0']).contains('2001:db8::1'));
  const none = CidrSet.parse([]);
  t.true(none.empty);
  t.false(none.contains('127.0.0.1'));
  t.is(normalizeAddress('0000:0000:0000:0000:0000:0000:0000:0001'), '::1');
  t.is(normalizeAddress('10.0.0.0/8'), null);
});

const request = (peer: string, forwardedFor?: string) => {
  const req = new Request('POST', '/dashboard/api/signin', '', () => peer);
  if (forwardedFor !== undefined) req.headers.set('x-forwarded-for', forwardedFor);
  return req;
};

test('without trusted proxies the client is the peer, whatever X-Forwarded-For says, in canonical text', (t) => {
  const clientOf = clientAddressResolver(CidrSet.parse([]));
  t.is(clientOf(request('127.0.0.1', '198.51.100.1')), '127.0.0.1');
  t.is(clientOf(request('0000:0000:0000:0000:0000:ffff:7f00:0001')), '127.0.0.1');
  t.is(clientOf(request('0000:0000:0000:0000:0000:0000:0000:0001', '198.51.100.1')), '::1');
});

test('behind trusted proxies the client is the first untrusted address from the right of X-Forwarded-For', (t) => {
  const clientOf = clientAddressResolver(CidrSet.parse(['10.0.0.0/8', '::1']));
  // One proxy: it appended the client's address.
  t.is(clientOf(request('10.0.0.2', '198.51.100.1')), '198.51.100.1');
  t.is(clientOf(request('0000:0000:0000:0000:0000:ffff:0a00:0002', '198.51.100.1')), '198.51.100.1');
  t.is(clientOf(request('::1', '2001:DB8::0001')), '2001:db8::1');
  t.is(clientOf(request('::1', '::ffff:198.51.100.1')), '198.51.100.1');
  // Two proxies of ours, the outer one appending what the client sent it.
  t.is(clientOf(request('10.0.0.2', '198.51.100.1, 10.0.0.3')), '198.51.100.1');
  // A client that sends its own X-Forwarded-For cannot pose as another one: only the rightmost untrusted entry counts.
  t.is(clientOf(request('10.0.0.2', '203.0.113.66, 198.51.100.1')), '198.51.100.1');
  t.is(clientOf(request('10.0.0.2', '10.0.0.9, 198.51.100.1')), '198.51.100.1');
  // Two header lines are one list.
  const twoLines = request('10.0.0.2', '203.0.113.66');
  twoLines.headers.set('x-forwarded-for', '203.0.113.66, 198.51.100.1');
  t.is(clientOf(twoLines), '198.51.100.1');
  // Every hop trusted: the leftmost one.
  t.is(clientOf(request('10.0.0.2', '10.0.0.4, 10.0.0.3')), '10.0.0.4');
  // No header, or an empty one: the proxy itself.
  t.is(clientOf(request('10.0.0.2')), '10.0.0.2');
  t.is(clientOf(request('10.0.0.2', '')), '10.0.0.2');
  // An untrusted peer's header is ignored.
  t.is(clientOf(request('198.51.100.1', '10.0.0.3')), '198.51.100.1');
  t.is(clientOf(request('198.51.100.1', '203.0.113.66')), '198.51.100.1');
});

test('a malformed X-Forwarded-For entry stops the walk at the last trusted hop, and nothing throws', (t) => {
  const clientOf = clientAddressResolver(CidrSet.parse(['10.0.0.0/8']));
  t.is(clientOf(request('10.0.0.2', 'nonsense')), '10.0.0.2');
  t.is(clientOf(request('10.0.0.2', '198.51.100.1, nonsense')), '10.0.0.2');
  t.is(clientOf(request('10.0.0.2', '198.51.100.1, 10.0.0.3, 1.2.3.4:80')), '10.0.0.2');
  t.is(clientOf(request('10.0.0.2', 'nonsense, 10.0.0.3')), '10.0.0.3');
  t.is(clientOf(request('10.0.0.2', 'unknown, 198.51.100.1')), '198.51.100.1');
  t.is(clientOf(request('10.0.0.2', ',,,')), '10.0.0.2');
  t.is(clientOf(request('10.0.0.2', '[2001:db8::1]:443')), '10.0.0.2');
  t.is(clientOf(request('10.0.0.2', `${'9'.repeat(10_000)}, 198.51.100.1`)), '198.51.100.1');
  t.is(clientOf(request('10.0.0.2', '198.51.100.1\u0000')), '10.0.0.2');
});
