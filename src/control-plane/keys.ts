/**
 * API key format: `wmk_` + 32 random base62 characters + a 6-character base62 CRC32 of the random
 * part. The checksum lets the gateway reject a mistyped key without a look-up; only the SHA-256 of
 * the whole value is stored.
 */
import { createHash, randomInt } from 'node:crypto';
import { crc32 } from 'node:zlib';

export const KEY_PREFIX = 'wmk_';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const RANDOM_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
export const KEY_LENGTH = KEY_PREFIX.length + RANDOM_LENGTH + CHECKSUM_LENGTH;
const KEY_PATTERN = /^wmk_[0-9A-Za-z]{38}$/;

/** CRC32 as exactly six base62 digits (62^6 > 2^32). */
function checksum(randomPart: string): string {
  let n = crc32(randomPart);
  let out = '';
  for (let i = 0; i < CHECKSUM_LENGTH; i++) {
    out = BASE62[n % 62] + out;
    n = Math.floor(n / 62);
  }
  return out;
}

export function generateKey(): string {
  let random = '';
  for (let i = 0; i < RANDOM_LENGTH; i++) random += BASE62[randomInt(62)];
  return KEY_PREFIX + random + checksum(random);
}

export type KeyShape = 'ok' | 'bad-format' | 'bad-checksum';

/** Checks prefix, length, alphabet and checksum without any I/O. */
export function checkKeyShape(value: string): KeyShape {
  if (!KEY_PATTERN.test(value)) return 'bad-format';
  const random = value.slice(KEY_PREFIX.length, KEY_PREFIX.length + RANDOM_LENGTH);
  return value.endsWith(checksum(random)) ? 'ok' : 'bad-checksum';
}

export function hashKey(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** Non-secret display form of a secret (a key, an invitation token): prefix, first 4 and last 4 characters. */
export function secretHint(value: string, prefix: string): string {
  return `${value.slice(0, prefix.length + 4)}…${value.slice(-4)}`;
}

export const keyHint = (value: string): string => secretHint(value, KEY_PREFIX);
