/** Whether a barrier node stops a mode (OSRM `process_node`): its access tags decide, else the barrier kind. */
import { firstTagValue, type AccessRules } from './access.js';
import type { Tags } from './profile.js';

export function barrierBlocks(tags: Tags, rules: AccessRules, blockingBarrier: (barrier: string, tags: Tags) => boolean): boolean {
  const access = firstTagValue(tags, rules.hierarchy);
  if (access !== undefined) return rules.forbidden.has(access);
  const barrier = tags.get('barrier');
  return barrier !== undefined && blockingBarrier(barrier, tags);
}
