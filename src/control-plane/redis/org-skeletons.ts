/**
 * Indexes the name skeleton (../name-skeleton.ts) of each organization stored before skeletons
 * were, so sign-up refuses look-alikes of them too. Cheap when every organization is indexed (two
 * counts); HSETNX, so an index entry written meanwhile by a node already upgraded wins, and of two
 * old look-alike organizations one keeps the skeleton.
 */
import type { Redis } from 'ioredis';
import { nameSkeleton } from '../name-skeleton.js';
import type { ControlKeys } from './keys.js';

export async function indexOrgSkeletons(client: Redis, names: ControlKeys): Promise<void> {
  const [orgs, indexed] = await Promise.all([client.scard(names.orgs), client.hlen(names.orgSkeletons)]);
  if (indexed >= orgs) return;
  const ids = await client.smembers(names.orgs);
  const orgNames = await Promise.all(ids.map((id) => client.hget(names.org(id), 'name')));
  const tx = client.multi();
  ids.forEach((id, i) => {
    const name = orgNames[i];
    if (name) tx.hsetnx(names.orgSkeletons, nameSkeleton(name), id);
  });
  await tx.exec();
}
