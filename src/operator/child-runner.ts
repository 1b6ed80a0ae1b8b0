/**
 * Imports in a child process of the server (embedded mode, no Redis): one at a time (409 while one
 * runs), tracked in memory — progress, outcome, the last imports — and gone when the server stops.
 * Stopping the server aborts a running import, which leaves the served dataset as it was.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { ChildMessage } from '../../data-pipeline/queue/child-import.js';
import type { ImportStatus } from '../../data-pipeline/queue/job.js';
import { KEEP_FINISHED_JOBS } from '../../data-pipeline/queue/settings.js';
import { ApiError } from '../http/errors.js';
import type { Logger } from '../observability/logger.js';
import type { ImportRequest } from './import-request.js';
import { RECENT_IMPORTS, type ImportRunner } from './runner.js';

const CHILD_SCRIPT = fileURLToPath(new URL('../../data-pipeline/queue/child-import.js', import.meta.url));

export class ChildProcessImports implements ImportRunner {
  /** Every import this server started, oldest first, at most KEEP_FINISHED_JOBS + 1. */
  private readonly imports = new Map<string, ImportStatus>();
  private running: { status: ImportStatus; child: ChildProcess; exited: Promise<void> } | undefined;

  constructor(
    private readonly dataDir: string,
    private readonly logger: Logger,
  ) {}

  async start(request: ImportRequest): Promise<ImportStatus> {
    if (this.running) {
      const { id } = this.running.status;
      throw new ApiError(
        409,
        `import ${id} is still running on this data folder; follow it at GET /operator/imports/${id} and start the next one when it has finished`,
      );
    }
    const status: ImportStatus = {
      id: randomUUID(),
      status: 'active',
      ...request,
      progress: null,
      failedReason: null,
      result: null,
      attempts: 0,
      createdAt: new Date().toISOString(),
      finishedAt: null,
    };
    const child = fork(CHILD_SCRIPT, [JSON.stringify({ dataDir: this.dataDir, ...request })], {
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const running = { status, child, exited };
    this.running = running;
    this.remember(status);
    this.logger.info({ importId: status.id, ...request, pid: child.pid }, 'import started');

    const finish = (outcome: Pick<ImportStatus, 'status' | 'failedReason' | 'result'>) => {
      if (status.finishedAt) return;
      Object.assign(status, outcome, { attempts: 1, finishedAt: new Date().toISOString() });
      if (this.running === running) this.running = undefined;
      const { id, failedReason, result } = status;
      if (failedReason) this.logger.error({ importId: id, reason: failedReason }, 'import failed');
      else this.logger.info({ importId: id, dataset: result?.datasetId }, 'import completed');
    };
    child.on('message', (message: ChildMessage) => {
      if (message.type === 'progress') status.progress = message.progress;
      else if (message.type === 'completed') finish({ status: 'completed', failedReason: null, result: message.result });
      else finish({ status: 'failed', failedReason: message.reason, result: null });
    });
    child.on('error', (error) =>
      finish({ status: 'failed', failedReason: `cannot run the import process: ${error.message}`, result: null }),
    );
    child.on('exit', (code, signal) =>
      finish({
        status: 'failed',
        failedReason: `the import process ended (${signal ?? `exit status ${code}`}) before reporting an outcome`,
        result: null,
      }),
    );
    return { ...status };
  }

  async status(id: string): Promise<ImportStatus | null> {
    const status = this.imports.get(id);
    return status ? { ...status } : null;
  }

  async recent(): Promise<ImportStatus[]> {
    return [...this.imports.values()]
      .reverse()
      .slice(0, RECENT_IMPORTS)
      .map((status) => ({ ...status }));
  }

  /** Aborts a running import and waits for its process to end. */
  async close(): Promise<void> {
    const running = this.running;
    if (!running) return;
    running.child.kill('SIGTERM');
    await running.exited;
  }

  private remember(status: ImportStatus): void {
    this.imports.set(status.id, status);
    for (const id of this.imports.keys()) {
      if (this.imports.size <= KEEP_FINISHED_JOBS + 1) break;
      this.imports.delete(id);
    }
  }
}
