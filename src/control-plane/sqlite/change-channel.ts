/**
 * How writers tell the server serving a data folder that keys or organizations changed, so the
 * request path never polls the database. The server listens on an abstract Unix socket named after
 * the database file; a writer (a CLI command, another store) connects after committing and waits
 * for the server's answer, which comes after the server has synced its directory. When no server
 * listens, there is nobody to tell.
 */
import { createHash } from 'node:crypto';
import { realpathSync } from 'node:fs';
import net from 'node:net';

const NOTIFY_TIMEOUT_MS = 2000;

/** Linux abstract socket name (leading NUL: no file, nothing stale after a crash). */
export function channelName(dbFile: string): string {
  return `\0waymark-${createHash('sha256').update(realpathSync(dbFile)).digest('hex').slice(0, 32)}`;
}

/** Answers each writer's announcement after running `onChange`. */
export function listenForChanges(dbFile: string, onChange: () => void): Promise<net.Server> {
  const server = net.createServer((socket) => {
    socket.on('error', () => socket.destroy());
    socket.once('data', () => {
      try {
        onChange();
      } finally {
        socket.end('synced\n');
      }
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

/** Tells the server of this database (if one runs) that something changed; resolves once it has synced. */
export function announceChange(dbFile: string): Promise<void> {
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
    socket.write('changed\n');
  });
}
