/**
 * The cells of a big component's first round (cell-interiors.ts) on helper threads as well as on the thread contracting: a
 * big component's cells do not depend on each other, so up to `helpers` worker threads
 * (cell-thread.ts) contract some while this thread contracts the others. A cell goes out as typed
 * arrays (its turns numbered in the cell, its nodes' ids and flags: about 50 bytes per node, never
 * the whole graph) and comes back as what it left and the final edges it made, in the order made;
 * they are pushed into the hierarchy's lists here. Each list keeps a node's edges as one block and
 * what the cells leave is ordered by node, so the graph is the same byte for byte whichever thread
 * contracts a cell and whenever it finishes.
 *
 * It stays synchronous, like the contraction around it (writeRoutingGraph is one synchronous call in
 * a routing worker, in the tests and the benchmarks): cells go out over a MessagePort per helper,
 * answers are taken with receiveMessageOnPort, and when only answers are left to wait for this
 * thread sleeps on a shared count the helpers bump (Atomics.wait), not in the event loop. Memory
 * stays bounded: at most CELLS_PER_HELPER cells per helper are out, and a cell goes to a helper only
 * while the import's ThreadLeases has a thread free (held while the helper has cells).
 */
import { MessageChannel, Worker, receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import type { ThreadLeases } from '../../threads.js';
import { contractCell, type CellLeft, type CellRunner, type CellTask } from './cell-interiors.js';
import type { EdgeSinks } from './contractor.js';
import { type RecordedEdges, replayInto } from './hierarchy-edges.js';

const WORKER = new URL('./cell-thread.js', import.meta.url);
/**
 * A helper starts by importing cell-thread.js from a script of its own: a module that fails to load
 * is answered as an error too. This thread sleeps outside its event loop and would never see a
 * helper's 'error' event.
 */
const BOOTSTRAP = `const { workerData } = require('node:worker_threads');
import(workerData.module).catch((error) => {
  workerData.port.postMessage({ first: -1, error: String((error && error.stack) || error) });
  Atomics.add(workerData.answered, 0, 1);
  Atomics.notify(workerData.answered, 0);
});`;
/** Cells out at one helper at a time: one in work and the next waiting, so it does not idle between answers. */
const CELLS_PER_HELPER = 2;
/** A helper makes few JS objects (typed arrays per cell): a small young generation keeps its garbage small. */
const HELPER_YOUNG_GENERATION_MIB = 16;

/** A helper's answer for the cell starting at `first` (-1: none, the helper failed to start): what it left and the edges it made, or what went wrong. */
export type CellAnswer = { first: number } & ({ left: CellLeft; up: RecordedEdges; down: RecordedEdges } | { error: string });

/** What a helper gets when it starts: the port cells come over, and the count of answers it bumps. */
export interface CellHelperData {
  /** cell-thread.js's URL. */
  module: string;
  port: MessagePort;
  answered: Int32Array;
}

interface Helper {
  worker: Worker;
  port: MessagePort;
  /** Cells sent, not answered yet. */
  out: number;
}

/** The distinct buffers of typed arrays, to transfer them. */
export function buffersOf(arrays: readonly (ArrayBufferView | undefined)[]): ArrayBuffer[] {
  return [...new Set(arrays.flatMap((array) => (array ? [array.buffer as ArrayBuffer] : [])))];
}

export class CellThreads {
  private readonly helpers: Helper[] = [];
  private readonly answered = new Int32Array(new SharedArrayBuffer(4));
  private out = 0;
  /** Cells contracted by helpers so far (the others by the thread contracting). */
  sent = 0;

  /** At most `helpers` helper threads, started when first needed; with `leases`, busy only while it lends them a thread. */
  constructor(
    private readonly maxHelpers: number,
    private readonly leases?: ThreadLeases,
  ) {}

  readonly run: CellRunner = (tasks, edges, merge) => {
    for (const task of tasks) {
      this.collect(edges, merge, false);
      const helper = this.helperWithRoom();
      if (helper) this.send(helper, task);
      else merge(task.first, contractCell(task, edges));
    }
    while (this.out > 0) this.collect(edges, merge, true);
  };

  /** Ends the helpers (their cells all answered, or the contraction failed: then the threads they held go back too). */
  close(): void {
    for (const { worker, port, out } of this.helpers.splice(0)) {
      if (out > 0) this.leases?.give();
      port.close();
      void worker.terminate();
    }
  }

  /** A helper with cells out and room for another, else an idle one (started if needed) if a thread is free. */
  private helperWithRoom(): Helper | undefined {
    const busy = this.helpers.find((helper) => helper.out > 0 && helper.out < CELLS_PER_HELPER);
    if (busy) return busy;
    const idle = this.helpers.find((helper) => helper.out === 0);
    if (!idle && this.helpers.length === this.maxHelpers) return undefined;
    if (this.leases && !this.leases.tryTake()) return undefined;
    return idle ?? this.start();
  }

  private start(): Helper {
    const { port1, port2 } = new MessageChannel();
    const workerData: CellHelperData = { module: WORKER.href, port: port2, answered: this.answered };
    const worker = new Worker(BOOTSTRAP, {
      eval: true,
      workerData,
      transferList: [port2],
      resourceLimits: { maxYoungGenerationSizeMb: HELPER_YOUNG_GENERATION_MIB },
    });
    worker.unref();
    const helper = { worker, port: port1, out: 0 };
    this.helpers.push(helper);
    return helper;
  }

  private send(helper: Helper, { first, turns, ids, late, stays }: CellTask): void {
    // The cell's turns are its own arrays; the rest are views into the component's, copied.
    const task: CellTask = { first, turns, ids: ids.slice(), late: late?.slice(), stays: stays.slice() };
    helper.port.postMessage(task, buffersOf([turns.turnFirst, turns.turnTarget, turns.turnWeight, task.ids, task.late, task.stays]));
    helper.out++;
    this.out++;
    this.sent++;
  }

  /** Merges the answers there are; when `wait`, sleeps until there is one. */
  private collect(edges: EdgeSinks, merge: Parameters<CellRunner>[2], wait: boolean): void {
    const seen = Atomics.load(this.answered, 0);
    let merged = false;
    for (const helper of this.helpers) {
      for (let received = receiveMessageOnPort(helper.port); received !== undefined; received = receiveMessageOnPort(helper.port)) {
        const answer = received.message as CellAnswer;
        // The helper's cells are lost with it: close() gives back its thread.
        if ('error' in answer && answer.first === -1) throw new Error(`a helper thread failed to start: ${answer.error}`);
        helper.out--;
        this.out--;
        if (helper.out === 0) this.leases?.give();
        if ('error' in answer)
          throw new Error(`contracting the cell of nodes from ${answer.first} on a helper thread failed: ${answer.error}`);
        replayInto(edges.up, answer.up);
        replayInto(edges.down, answer.down);
        merge(answer.first, answer.left);
        merged = true;
      }
    }
    // An answer posted after the ports were read has bumped the count past `seen`: no wait then.
    if (wait && !merged) Atomics.wait(this.answered, 0, seen);
  }
}
