/**
 * Per-test fixtures: a server closed in the test's teardown, an organization with a key, and a
 * second process-like connection to the same SQLite file (as the CLI would open it).
 */
import type { ExecutionContext } from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteStore } from '../../src/control-plane/sqlite/index.js';
import { startTestServer, type Account, type TestServer } from './server.js';

type ServerOptions = Parameters<typeof startTestServer>[0];

/** A test server that is closed when the test ends, whatever its outcome (closing twice is fine). */
export async function serve(t: ExecutionContext, options?: ServerOptions): Promise<TestServer> {
  const server = await startTestServer(options);
  let closing: Promise<void> | undefined;
  const close = () => (closing ??= server.close());
  t.teardown(close);
  return { ...server, close };
}

/** A temporary data folder removed when the test ends (for restarts on the same folder). */
export function tempDataDir(t: ExecutionContext): string {
  const dir = mkdtempSync(join(tmpdir(), 'waymark-test-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export interface Customer {
  account: Account;
  key: { id: string; value: string };
}

/** A new organization with one key (all scopes unless given). */
export async function customer(server: TestServer, scopes?: string[]): Promise<Customer> {
  const account = await server.signUp();
  const key = await server.createKey(account, { name: 'main', scopes });
  return { account, key };
}

/** Runs `fn` with a second connection to the server's SQLite file, as another process would. */
export async function otherProcess<T>(server: TestServer, fn: (store: SqliteStore) => Promise<T>): Promise<T> {
  const store = new SqliteStore(join(server.dataDir, 'waymark.db'));
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}
