/**
 * Gives the users stored before roles existed a role, once per prefix: each organization's oldest
 * user becomes its owner and the others admins, as the SQLite schema upgrade does (before roles
 * every member could do everything, so nobody loses a key power they had).
 */
import type { Redis } from 'ioredis';
import type { ControlKeys } from './keys.js';

export async function upgradeRoles(client: Redis, names: ControlKeys): Promise<void> {
  if ((await client.exists(names.rolesUpgraded)) === 1) return;
  for (const orgId of await client.smembers(names.orgs)) {
    const userIds = await client.lrange(names.orgUsers(orgId), 0, -1);
    const roles = await Promise.all(userIds.map((id) => client.hget(names.user(id), 'role')));
    const tx = client.multi();
    userIds.forEach((id, i) => {
      if (roles[i] !== null) return;
      const role = i === 0 ? 'owner' : 'admin';
      // HSETNX: a role set meanwhile by a node already upgraded wins.
      tx.hsetnx(names.user(id), 'role', role);
      if (role === 'owner') tx.sadd(names.orgOwners(orgId), id);
    });
    await tx.exec();
  }
  await client.set(names.rolesUpgraded, '1');
}

/**
 * Adds the sessions stored before each user's session index existed to it, once per prefix, so
 * that removing a member or changing a password ends those too.
 */
export async function indexSessions(client: Redis, names: ControlKeys): Promise<void> {
  if ((await client.exists(names.sessionsIndexed)) === 1) return;
  const latest = new Map<string, number>();
  let cursor = '0';
  do {
    const [next, found] = await client.scan(cursor, 'MATCH', names.session('*'), 'COUNT', 1000);
    for (const key of found) {
      const [hash, userId, expiresAt] = await client.hmget(key, 'hash', 'userId', 'expiresAt');
      if (!hash || !userId || !expiresAt) continue;
      await client.sadd(names.userSessions(userId), hash);
      latest.set(userId, Math.max(latest.get(userId) ?? 0, Date.parse(expiresAt)));
    }
    cursor = next;
  } while (cursor !== '0');
  for (const [userId, expiresAt] of latest) await client.pexpireat(names.userSessions(userId), expiresAt);
  await client.set(names.sessionsIndexed, '1');
}
