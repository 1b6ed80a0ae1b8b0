import test from 'ava';
import { checkKeyShape, generateKey, hashKey, keyHint, KEY_LENGTH } from '../src/control-plane/keys.js';

test('generated keys have the wmk_ prefix, the documented length and a valid checksum', (t) => {
  const seen = new Set<string>();
  for (let i = 0; i < 500; i++) {
    const key = generateKey();
    t.true(key.startsWith('wmk_'));
    t.is(key.length, KEY_LENGTH);
    t.is(checkKeyShape(key), 'ok');
    seen.add(key);
  }
  t.is(seen.size, 500);
});

test('a key with one character changed fails its checksum', (t) => {
  const key = generateKey();
  const i = 10;
  const typo = key.slice(0, i) + (key[i] === 'a' ? 'b' : 'a') + key.slice(i + 1);
  t.is(checkKeyShape(typo), 'bad-checksum');
});

test('wrong prefix, length or alphabet is a bad format', (t) => {
  const key = generateKey();
  t.is(checkKeyShape(`xyz_${key.slice(4)}`), 'bad-format');
  t.is(checkKeyShape(key.slice(0, -1)), 'bad-format');
  t.is(checkKeyShape(`${key}0`), 'bad-format');
  t.is(checkKeyShape(`${key.slice(0, -2)}é1`), 'bad-format');
  t.is(checkKeyShape(''), 'bad-format');
});

test('hash is hex SHA-256 and the hint shows only the ends', (t) => {
  const key = generateKey();
  t.regex(hashKey(key), /^[0-9a-f]{64}$/);
  t.is(keyHint(key), `${key.slice(0, 8)}…${key.slice(-4)}`);
});
