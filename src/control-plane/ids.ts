/** Short random identifiers with a type prefix, e.g. `key_7Hq2…`. */
import { randomInt } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export function newId(prefix: 'org' | 'usr' | 'key' | 'inv' | 'aud'): string {
  let id = `${prefix}_`;
  for (let i = 0; i < 16; i++) id += ALPHABET[randomInt(ALPHABET.length)];
  return id;
}
