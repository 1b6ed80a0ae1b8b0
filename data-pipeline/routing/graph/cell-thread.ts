/**
 * A helper thread of cell-threads.ts: contracts each cell that comes over its port, answers with
 * what the cell left and the final edges it made (recorded in order, buffers transferred), then
 * bumps the shared count of answers the contracting thread may be sleeping on.
 */
import { workerData } from 'node:worker_threads';
import { type CellAnswer, type CellHelperData, buffersOf } from './cell-threads.js';
import { type CellTask, contractCell } from './cell-interiors.js';
import { EdgeRecord } from './hierarchy-edges.js';

const { port, answered } = workerData as CellHelperData;

port.on('message', (task: CellTask) => {
  try {
    const up = new EdgeRecord();
    const down = new EdgeRecord();
    const left = contractCell(task, { up, down });
    const answer: CellAnswer = { first: task.first, left, up: up.take(), down: down.take() };
    const columns = [left.stays, left.depth, left.from, left.to, left.weight, left.middle, left.hops];
    port.postMessage(answer, buffersOf([...columns, ...Object.values(answer.up), ...Object.values(answer.down)]));
  } catch (error) {
    port.postMessage({
      first: task.first,
      error: error instanceof Error ? (error.stack ?? error.message) : String(error),
    } satisfies CellAnswer);
  }
  Atomics.add(answered, 0, 1);
  Atomics.notify(answered, 0);
});
