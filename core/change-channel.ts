/**
 * How other processes tell the server serving a data folder that something changed — keys or
 * organizations (`directory`), or the dataset (`dataset`) — so the request path never polls. The
 * server listens on an abstract Unix socket named after the data folder's database file; a writer
 * connects after committing, sends the topic, and waits for the answer, which comes once the server
 * has applied the change. When no server listens, there is nobody to tell.
 */
import { createHash } from 'node:crypto';
import { realpathSync } from 'node:fs';
import net from 'node:net';

export type ChangeTopic = 'directory' | 'dataset';
export type ChangeHandlers = Record<ChangeTopic, () => void | Promise<void>>;

const NOTIFY_TIMEOUT_MS = 10_000;

/** Linux abstract socket name (leading NUL: no file, nothing stale after a crash). */
function channelName(dbFile: string): string {
  return `\0waymark-${createHash('sha256').update(realpathSync(dbFile)).digest('hex').slice(0, 32)}`;
}

/** Answers each writer's announcement after running the topic's handler. */
export function listenForChanges(dbFile: string, handlers: ChangeHandlers): Promise<net.Server> {
  const server = net.createServer((socket) => {
    socket.on('error', () => socket.destroy());
    socket.once('data', (data) => {
      const topic = data.toString().trim() as ChangeTopic;
      const handler = handlers[topic];
      if (!handler) return void socket.end('unknown topic\n');
      Promise.resolve()
        .then(handler)
        .then(
          () => socket.end('applied\n'),
          () => socket.end('failed\n'),
        );
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(channelName(dbFile), () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}

/** Tells the server of this database (if one runs) about a change; resolves once it has applied it. */
export function announceChange(dbFile: string, topic: ChangeTopic): Promise<void> {
  return new Promise((resolve) => {
    const socket = net.connect(channelName(dbFile));
    const done = () => {
      socket.destroy();
      resolve();
    };
    socket.setTimeout(NOTIFY_TIMEOUT_MS, done);
    socket.on('error', done);
    socket.on('data', done);
    socket.on('close', done);
    socket.write(`${topic}\n`);
  });
}
