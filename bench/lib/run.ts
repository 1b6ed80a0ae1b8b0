/** Runs a benchmark driver: a failure is reported on stderr (exit status 1), and its servers are always stopped. */
import type { ServerChild } from './child.js';

export async function runBenchmark(
  main: () => Promise<void>,
  children: readonly ServerChild[],
  cleanUp: () => void | Promise<void>,
): Promise<void> {
  try {
    await main();
  } catch (error) {
    // fetch() failures keep the reason (refused, reset) in `cause`.
    const cause = error instanceof Error && error.cause instanceof Error ? ` (${error.cause.message})` : '';
    console.error(error instanceof Error ? `${error.message}${cause}` : error);
    for (const c of children) if (c.ended()) console.error(`the server ${c.name} (pid ${c.pid}) had ended: ${c.ended()}`);
    process.exitCode = 1;
  } finally {
    await Promise.all(children.map((c) => c.stop()));
    await cleanUp();
  }
}
