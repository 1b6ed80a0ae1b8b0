/**
 * The keys of a directory by every hash that may authenticate as them: the current value's and,
 * while a roll's grace period runs, the previous value's (the gateway checks that period). A
 * key written again replaces both of its earlier entries, so a value rolled twice is forgotten.
 */
import type { ApiKeyRecord } from './types.js';

export class KeyIndex {
  private readonly byHash = new Map<string, ApiKeyRecord>();
  private readonly byId = new Map<string, ApiKeyRecord>();

  put(key: ApiKeyRecord): void {
    const earlier = this.byId.get(key.id);
    if (earlier) {
      this.byHash.delete(earlier.hash);
      if (earlier.previousHash !== null) this.byHash.delete(earlier.previousHash);
    }
    this.byId.set(key.id, key);
    this.byHash.set(key.hash, key);
    if (key.previousHash !== null) this.byHash.set(key.previousHash, key);
  }

  byValueHash(hash: string): ApiKeyRecord | undefined {
    return this.byHash.get(hash);
  }
}
