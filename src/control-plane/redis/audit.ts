/** The audit log in Redis: a list per organization, newest first (LPUSH), never trimmed nor rewritten. */
import type { AuditEntry } from '../types.js';
import { RedisStorePart } from './store-part.js';

export class RedisAuditLog extends RedisStorePart {
  append(entry: AuditEntry): Promise<void> {
    return this.guarded(async () => {
      await this.client.lpush(this.names.audit(entry.orgId), JSON.stringify(entry));
    });
  }

  list(orgId: string, limit: number): Promise<AuditEntry[]> {
    return this.guarded(async () => {
      const entries = await this.client.lrange(this.names.audit(orgId), 0, limit - 1);
      return entries.map((entry) => JSON.parse(entry) as AuditEntry);
    });
  }
}
