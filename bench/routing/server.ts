/** `waymark serve` with a given number of routing pool threads, as the routing benchmark drives it. */
import { freePort, startCommand, type ServerChild } from '../lib/child.js';
import { WAYMARK_BIN } from '../maps/waymark.js';

/** The server's stdout (its access log) goes to /dev/null; it is not pinned (the pool may use every core). */
export async function startRoutingServe(dataDir: string, threads: number): Promise<ServerChild> {
  const port = await freePort();
  const argv = [WAYMARK_BIN, 'serve', '--port', String(port), '--host', '127.0.0.1', '--threads', String(threads), '--data', dataDir];
  return startCommand(`waymark serve --threads ${threads}`, process.execPath, argv, {
    port,
    readyUrl: `http://127.0.0.1:${port}/api/v1/usage/current`,
    // Every graph is read into memory before the server listens.
    startTimeoutMs: 120_000,
  });
}
