/**
 * A machine loaded on purpose: processes that each keep a core busy (`node -e 'for(;;){}'`), for a
 * benchmark phase that must hold up when the machine has more work than cores.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';

export interface BusyLoad {
  /** Kills every busy process and resolves once they have exited. */
  stop(): Promise<void>;
}

export function startBusyLoops(count: number): BusyLoad {
  const children: ChildProcess[] = Array.from({ length: count }, () => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
  // The driver may fail mid-phase: the loops must not outlive it.
  const killAll = () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  process.once('exit', killAll);
  return {
    async stop() {
      const exited = children.filter((child) => child.exitCode === null && child.signalCode === null).map((child) => once(child, 'exit'));
      killAll();
      await Promise.all(exited);
      process.off('exit', killAll);
    },
  };
}
