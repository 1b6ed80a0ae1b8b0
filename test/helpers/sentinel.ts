/**
 * Redis as operators run it for high availability, for a test of its own: a primary, one replica
 * and three Sentinels (quorum 2), real `redis-server` and `redis-sentinel` processes (Debian's
 * redis-sentinel package) on free loopback ports, each in a folder of its own — the machine's Redis
 * on 6379 is not touched. The data nodes require a password. Every process is SIGKILLed when its
 * owner (a test, or the file's scope the scenarios share) ends. Where redis-sentinel is missing
 * the tests are skipped with a message on a plain run, and fail under CI (CI=true).
 */
import test, { type ExecutionContext } from 'ava';
import { Redis } from 'ioredis';
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, track, type Child, type Owner } from './cluster.js';
import { tempDir } from './queue.js';
import { within } from './waits.js';

export const REDIS_SENTINEL = '/usr/bin/redis-sentinel';
/** The name the Sentinels know the primary by (`sentinel monitor`). */
export const MASTER_NAME = 'waymark';
const PASSWORD = 'data-nodes-password-for-tests';
/** Redis' own failure detection, set short for a test: a primary silent this long is down. */
const DOWN_AFTER_MS = 1000;
const FAILOVER_TIMEOUT_MS = 5000;
const SENTINELS = 3;
const QUORUM = 2;

/**
 * Registers `body` as a serial test when redis-sentinel is installed (the scenarios of a file take
 * turns on one group); else a skip (plain run) or a failure (CI).
 */
export function sentinelTest(title: string, body: (t: ExecutionContext) => Promise<void>): void {
  if (existsSync(REDIS_SENTINEL)) return void test.serial(title, body);
  const why = `${REDIS_SENTINEL} is missing; scripts/setup.sh --test installs it (apt-get install redis-sentinel)`;
  if (process.env.CI === 'true') return void test(title, (t) => t.fail(why));
  console.warn(`skipping "${title}": ${why}`);
  test.skip(title, () => {});
}

/** A data node of the group: a redis-server with the group's password. */
export interface DataNode {
  port: number;
  process: Child;
  /** A client of this node alone (not through Sentinel), disconnected when the test ends. */
  client(): Redis;
}

/** Which data node is which, as every Sentinel sees it. */
export interface Roles {
  primary: DataNode;
  replica: DataNode;
}

export interface SentinelGroup {
  /** WAYMARK_REDIS_URL for the group: the Sentinels, the master name and the data nodes' password. */
  url: string;
  /**
   * The roles once the group is whole: every Sentinel names the same primary and knows the other
   * node as its replica, linked and in sync — as at the start, and again some seconds after a
   * switchover, once Sentinel has turned the old primary into a replica.
   */
  settled(): Promise<Roles>;
  /** The data node every Sentinel names as the primary; undefined while they disagree. */
  agreedPrimary(): Promise<DataNode | undefined>;
  /** `SENTINEL ARGS` on every Sentinel. */
  everySentinel(...args: string[]): Promise<unknown[]>;
  /** `SENTINEL FAILOVER`: a switchover, the primary staying up, as an operator starts one for maintenance. */
  switchover(): Promise<void>;
}

export async function sentinelGroup(t: Owner): Promise<SentinelGroup> {
  const clients: Redis[] = [];
  t.teardown(() => clients.forEach((client) => client.disconnect()));
  const connect = (port: number, password?: string) => {
    const client = new Redis({ port, host: '127.0.0.1', password, lazyConnect: true, maxRetriesPerRequest: 1 });
    client.on('error', () => {}); // A node the test killed.
    clients.push(client);
    return client;
  };

  const dataNode = async (replicaOf?: DataNode): Promise<DataNode> => {
    const port = await freePort();
    const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', tempDir(t, 'redis-ha')];
    // AOF as docs/OPERATIONS.md asks; the password, and the one to give a primary when this node is (or becomes) a replica.
    args.push('--appendonly', 'yes', '--appendfsync', 'everysec', '--save', '', '--requirepass', PASSWORD, '--masterauth', PASSWORD);
    // A primary waits 5 s by default before a full sync, for more replicas to share it.
    args.push('--repl-diskless-sync-delay', '0');
    if (replicaOf) args.push('--replicaof', '127.0.0.1', String(replicaOf.port));
    const child = track(t, spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] }));
    await child.line(/Ready to accept connections/);
    return { port, process: child, client: () => connect(port, PASSWORD) };
  };

  const primary = await dataNode();
  const replica = await dataNode(primary);
  /** A client of each data node, for its INFO. */
  const watchers = new Map([primary, replica].map((node) => [node, node.client()]));
  const inSync = async (node: DataNode, of: DataNode) => {
    const info = await watchers.get(node)!.info('replication');
    return /^master_link_status:up\r?$/m.test(info) && new RegExp(`^master_port:${of.port}\\r?$`, 'm').test(info);
  };
  await within('the replica is in sync with the primary', async () => (await inSync(replica, primary)) || undefined);

  const sentinelPorts: number[] = [];
  for (let i = 0; i < SENTINELS; i++) {
    const port = await freePort();
    const dir = tempDir(t, 'sentinel');
    const config = join(dir, 'sentinel.conf'); // Sentinel rewrites its file with what it learns.
    writeFileSync(
      config,
      [
        `port ${port}`,
        'bind 127.0.0.1',
        `dir ${dir}`,
        `sentinel monitor ${MASTER_NAME} 127.0.0.1 ${primary.port} ${QUORUM}`,
        `sentinel auth-pass ${MASTER_NAME} ${PASSWORD}`,
        `sentinel down-after-milliseconds ${MASTER_NAME} ${DOWN_AFTER_MS}`,
        `sentinel failover-timeout ${MASTER_NAME} ${FAILOVER_TIMEOUT_MS}`,
        '',
      ].join('\n'),
    );
    const child = track(t, spawn(REDIS_SENTINEL, [config], { stdio: ['ignore', 'pipe', 'pipe'] }));
    await child.line(/\+monitor master/);
    sentinelPorts.push(port);
  }
  const sentinels = sentinelPorts.map((port) => connect(port));
  // Sentinels find the replica in the primary's INFO and each other through its hello channel.
  await within('every Sentinel knows the replica and the other Sentinels', async () => {
    for (const sentinel of sentinels) {
      const fields = pairs((await sentinel.call('SENTINEL', 'MASTER', MASTER_NAME)) as string[]);
      if (fields['num-slaves'] !== '1' || fields['num-other-sentinels'] !== String(SENTINELS - 1)) return undefined;
    }
    return true;
  });

  const byPort = new Map([primary, replica].map((node) => [node.port, node]));
  const agreedPrimary = async () => {
    const named = new Set(
      await Promise.all(
        sentinels.map(async (sentinel) => ((await sentinel.call('SENTINEL', 'GET-MASTER-ADDR-BY-NAME', MASTER_NAME)) as string[])[1]),
      ),
    );
    return named.size === 1 ? byPort.get(Number([...named][0])) : undefined;
  };
  const knownAsReplica = async (node: DataNode) => {
    for (const sentinel of sentinels) {
      const replicas = ((await sentinel.call('SENTINEL', 'REPLICAS', MASTER_NAME)) as string[][]).map(pairs);
      const [only] = replicas;
      if (replicas.length !== 1 || Number(only!.port) !== node.port || only!.flags !== 'slave' || only!['master-link-status'] !== 'ok')
        return false;
    }
    return true;
  };
  return {
    url: `redis+sentinel://:${PASSWORD}@${sentinelPorts.map((port) => `127.0.0.1:${port}`).join(',')}/${MASTER_NAME}`,
    settled: () =>
      within('every Sentinel names one primary and knows the other node as its replica, linked and in sync', async () => {
        const named = await agreedPrimary();
        if (!named) return undefined;
        const other = named === primary ? replica : primary;
        return (await inSync(other, named)) && (await knownAsReplica(other)) ? { primary: named, replica: other } : undefined;
      }),
    agreedPrimary,
    everySentinel: (...args) => Promise.all(sentinels.map((sentinel) => sentinel.call('SENTINEL', ...args))),
    switchover: async () => void (await sentinels[0]!.call('SENTINEL', 'FAILOVER', MASTER_NAME)),
  };
}

/** A flat [field, value, …] reply as an object. */
function pairs(reply: string[]): Record<string, string> {
  const fields: Record<string, string> = {};
  for (let i = 0; i + 1 < reply.length; i += 2) fields[reply[i]!] = reply[i + 1]!;
  return fields;
}
