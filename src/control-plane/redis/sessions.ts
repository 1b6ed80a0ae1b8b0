/**
 * Sessions, password changes and password-reset links in the Redis store. A session and a reset
 * link expire with themselves (PEXPIREAT, PEXPIRE); a user's sessions are indexed so that a
 * password change or a removal ends them all.
 */
import type { PasswordResetRecord, SessionRecord, User } from '../types.js';
import { withoutPassword } from '../store-views.js';
import { fromPairs, isPresent, toUser } from './records.js';
import { RedisStorePart } from './store-part.js';

export class RedisSessions extends RedisStorePart {
  createSession(session: SessionRecord): Promise<void> {
    return this.guarded(async () => {
      const key = this.names.session(session.hash);
      const userSessions = this.names.userSessions(session.userId);
      const expiresAt = Date.parse(session.expiresAt);
      // A new session outlives the user's earlier ones: the index expires with it.
      await this.client
        .multi()
        .hset(key, { ...session })
        .pexpireat(key, expiresAt)
        .sadd(userSessions, session.hash)
        .pexpireat(userSessions, expiresAt)
        .exec();
    });
  }

  findSession(hash: string, nowIso: string): Promise<SessionRecord | null> {
    return this.guarded(async () => {
      const h = await this.client.hgetall(this.names.session(hash));
      return isPresent(h) && h.expiresAt! > nowIso ? { hash: h.hash!, userId: h.userId!, expiresAt: h.expiresAt! } : null;
    });
  }

  deleteSession(hash: string): Promise<void> {
    return this.guarded(async () => {
      const userId = await this.client.hget(this.names.session(hash), 'userId');
      const tx = this.client.multi().del(this.names.session(hash));
      if (userId) tx.srem(this.names.userSessions(userId), hash);
      await tx.exec();
    });
  }

  setPassword(userId: string, passwordHash: string, keepSession: string | null): Promise<boolean> {
    return this.guarded(async () => {
      const n = this.names;
      const done = await this.scripts.setPassword(
        [n.user(userId), n.userSessions(userId)],
        [passwordHash, keepSession ?? '', n.session(''), n.passwordReset('')],
      );
      return done === 1;
    });
  }

  insertPasswordReset(reset: PasswordResetRecord): Promise<boolean> {
    return this.guarded(async () => {
      const n = this.names;
      const done = await this.scripts.insertPasswordReset(
        [n.user(reset.userId), n.passwordReset(reset.hash)],
        [
          n.passwordReset(''),
          reset.hash,
          reset.userId,
          reset.createdAt,
          reset.expiresAt,
          // Relative to this store's clock, as the link's expiry is.
          Math.max(1, Date.parse(reset.expiresAt) - this.now()),
        ],
      );
      return done === 1;
    });
  }

  usePasswordReset(input: { hash: string; nowIso: string; passwordHash: string }): Promise<User | null> {
    return this.guarded(async () => {
      const n = this.names;
      const userId = await this.client.hget(n.passwordReset(input.hash), 'userId');
      if (!userId) return null;
      const pairs = (await this.scripts.usePasswordReset(
        [n.passwordReset(input.hash), n.user(userId), n.userSessions(userId)],
        [input.nowIso, input.passwordHash, input.hash, n.session('')],
      )) as string[] | null;
      return pairs ? withoutPassword(toUser(fromPairs(pairs))) : null;
    });
  }
}
