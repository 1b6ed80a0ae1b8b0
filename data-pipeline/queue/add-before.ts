/**
 * Adding a job that its caller answers for by a deadline (the operator API's 503 after 5 s, `waymark
 * import --queue`'s exit after 10 s): Redis refuses the add once it runs later than REPLY_MARGIN_MS
 * before that deadline, so a job is never enqueued after its caller has told its client that it was
 * not. Without this, an add sent to a Redis that hung ran when Redis came back, long after the
 * client got its 503 — and the import replaced the served dataset.
 *
 * How it is exact: the add goes in a MULTI after a guard script, and Redis runs a MULTI's commands
 * together, nothing in between. The guard reads Redis' clock (TIME) and, past the cutoff, writes a
 * placeholder under the job's id; BullMQ does not add a job whose id exists (it answers the id and
 * changes nothing). The cutoff is in Redis' clock, taken from a TIME answered just before: a time
 * Redis read at or before the answer came, so "before the cutoff in Redis' clock" means before it
 * in ours, with no assumption about the network. What remains: Redis ran the add in time but its
 * answer took longer than REPLY_MARGIN_MS to come back (Redis stopped between running it and
 * replying); then the job exists although the caller gave up (`GET /operator/imports` lists it).
 */
import { Job, type Queue } from 'bullmq';
import type { Redis } from 'ioredis';

/** Redis must run the add at least this long before the caller's deadline, for its answer to arrive in time. */
export const REPLY_MARGIN_MS = 1000;

/** How long a placeholder of a refused add is kept: it only has to outlive the MULTI it was written in. */
const PLACEHOLDER_MS = 60_000;

/** KEYS the job's hash; ARGV the cutoff (ms, Redis' clock). 1: in time; 0: late, and the job's id is taken by a placeholder. */
const GUARD = `
local t = redis.call('TIME')
if tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) <= tonumber(ARGV[1]) then return 1 end
if redis.call('EXISTS', KEYS[1]) == 0 then
  redis.call('HSET', KEYS[1], 'refused', 'added after its caller had given up')
  redis.call('PEXPIRE', KEYS[1], ${PLACEHOLDER_MS})
end
return 0`;

/** The add reached Redis too late: the job was not added. */
export class AddTooLate extends Error {}

/**
 * Adds the job named by `opts.jobId` unless Redis runs the add later than REPLY_MARGIN_MS before
 * `answerBy` (a `performance.now()` time); rejects with AddTooLate when it does not add it.
 */
export async function addBefore<Data, Result>(
  queue: Queue<Data, Result>,
  name: string,
  data: Data,
  opts: { jobId: string } & Record<string, unknown>,
  answerBy: number,
): Promise<Job<Data, Result>> {
  const cutoff = answerBy - REPLY_MARGIN_MS;
  // BullMQ's connection, where its scripts are defined (its MULTI takes BullMQ's commands).
  const client = (await queue.getBackend().client) as unknown as Redis;
  const [seconds, micros] = await client.time();
  const answered = performance.now();
  const late = () => new AddTooLate(`Redis did not take import job ${opts.jobId} in time; it was not queued`);
  if (answered >= cutoff) throw late();
  const redisCutoff = Math.floor(Number(seconds) * 1000 + Number(micros) / 1000 + (cutoff - answered));
  const job = new Job<Data, Result>(queue, name, data, { ...queue.defaultJobOptions, ...opts }, opts.jobId);
  const multi = client.multi();
  multi.eval(GUARD, 1, queue.toKey(opts.jobId), redisCutoff);
  await job.addJob(multi as never);
  const replies = (await multi.exec()) ?? [];
  for (const [error] of replies) if (error) throw error;
  if (replies[0]?.[1] !== 1) throw late();
  return job;
}
