/**
 * Tile requests under load, for the multi-node tests: what a client got for a tile, whether that
 * is an answer the test allows (a 200 carrying exactly the stored tile, or an error status with
 * PRODUCT.md's error body), and tallies of a load.
 */
import { errorBodyFault } from './http.js';

/** What a client gets for the tile: an HTTP answer, or null when the connection failed (a node that is gone). */
export interface TileAnswer {
  status: number;
  body: Buffer;
  headers: Headers;
}

/** GET `path` (a tile's) with the key on the node at `nodeUrl`. */
export async function fetchTile(nodeUrl: string, path: string, key: string): Promise<TileAnswer | null> {
  try {
    const res = await fetch(`${nodeUrl}${path}?key=${key}`);
    return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
  } catch {
    return null;
  }
}

/**
 * What is wrong with a tile answer, or null when it is one of `allowed`: a 200 carrying exactly
 * `tile`, or an error status with the uniform error body.
 */
export function wrongAnswer(answer: TileAnswer, allowed: number[], tile: Buffer): string | null {
  if (!allowed.includes(answer.status)) return `status ${answer.status}: ${answer.body.toString().slice(0, 200)}`;
  if (answer.status === 200) return answer.body.equals(tile) ? null : `a 200 with ${answer.body.length} bytes that are not the tile's`;
  let body: unknown;
  try {
    body = JSON.parse(answer.body.toString());
  } catch {
    return `a ${answer.status} whose body is not JSON`;
  }
  const fault = errorBodyFault({ status: answer.status, body });
  return fault && `a ${answer.status}: ${fault}`;
}

/** Tallies of a load of one tile: answers per status, and every wrong answer. */
export class Tally {
  readonly statuses = new Map<number, number>();
  readonly wrong: string[] = [];
  answers = 0;

  constructor(private readonly tile: Buffer) {}

  /** Counts an answer; a failed connection (null) is a wrong answer. */
  add(answer: TileAnswer | null, allowed: number[]): void {
    if (answer === null) {
      this.wrong.push('a connection failed');
      return;
    }
    this.answers++;
    this.statuses.set(answer.status, this.count(answer.status) + 1);
    const wrong = wrongAnswer(answer, allowed, this.tile);
    if (wrong) this.wrong.push(wrong);
  }

  count(status: number): number {
    return this.statuses.get(status) ?? 0;
  }
}

/**
 * Clients requesting one tile from the nodes in turn (each pausing 10 ms between requests) until
 * stopped: every answer tallied, and its status kept by the phase the test was in when the request
 * was sent and by node.
 */
export class TileLoad<Phase extends string> {
  readonly tally: Tally;
  private readonly seen = new Map<Phase, Map<number, number>[]>();
  private running = true;
  private next = 0;
  private readonly clients: Promise<void>[];

  constructor(
    private readonly nodes: { url: string }[],
    private readonly path: string,
    private readonly key: string,
    tile: Buffer,
    allowed: number[],
    /** The phase the load starts in; the test moves it on. */
    public phase: Phase,
    clients = 4,
  ) {
    this.tally = new Tally(tile);
    this.clients = Array.from({ length: clients }, () => this.client(allowed));
  }

  private async client(allowed: number[]): Promise<void> {
    while (this.running) {
      const node = this.next++ % this.nodes.length;
      const phase = this.phase;
      const answer = await fetchTile(this.nodes[node]!.url, this.path, this.key);
      this.tally.add(answer, allowed);
      if (answer !== null) {
        const counts = this.statuses(phase)[node]!;
        counts.set(answer.status, (counts.get(answer.status) ?? 0) + 1);
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  private statuses(phase: Phase): Map<number, number>[] {
    let byNode = this.seen.get(phase);
    if (!byNode) this.seen.set(phase, (byNode = this.nodes.map(() => new Map())));
    return byNode;
  }

  /** True once every node has answered `status` to a request sent in the current phase. */
  everyNodeAnswered(status: number): boolean {
    return this.statuses(this.phase).every((counts) => counts.has(status));
  }

  /** Answers of `status` to requests sent in `phase`, over all nodes. */
  count(phase: Phase, status: number): number {
    return this.statuses(phase).reduce((sum, counts) => sum + (counts.get(status) ?? 0), 0);
  }

  /** Stops the clients; resolves once each has had its last answer. */
  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.clients);
  }
}
