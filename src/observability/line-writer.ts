/**
 * Buffered, asynchronous writes of whole lines to a file descriptor (stdout for logs). Lines are
 * joined and written in one call every 50 ms or per 64 KiB (each write is a hand-off to libuv's
 * thread pool, too costly to pay per request); memory is bounded: past 16 MiB waiting, lines are
 * dropped and the count of dropped lines is written once output drains. Waiting lines are written
 * synchronously at exit.
 */
import { write as fsWrite, writeSync } from 'node:fs';

const FLUSH_AT = 64 * 1024;
const MAX_PENDING = 16 * 1024 * 1024;
const RETRY_MS = 10;
const FLUSH_EVERY_MS = 50;

export class LineWriter {
  private pending: string[] = [];
  private pendingLength = 0;
  private writing = false;
  private scheduled = false;
  private dropped = 0;

  constructor(private readonly fd: number) {
    process.once('exit', () => this.flushSync());
  }

  write(line: string): boolean {
    if (this.pendingLength + line.length > MAX_PENDING) {
      this.dropped++;
      return false;
    }
    this.pending.push(line);
    this.pendingLength += line.length;
    this.flushSoon();
    return true;
  }

  /** Flushes now when enough is waiting, else once the timer fires. */
  private flushSoon(): void {
    if (this.pendingLength >= FLUSH_AT) this.flush();
    else if (!this.scheduled && this.pending.length > 0) {
      this.scheduled = true;
      setTimeout(() => {
        this.scheduled = false;
        this.flush();
      }, FLUSH_EVERY_MS).unref();
    }
  }

  private take(): string {
    if (this.dropped > 0) {
      this.pending.push(`{"level":40,"time":${Date.now()},"msg":"log output was too slow: ${this.dropped} lines dropped"}\n`);
      this.dropped = 0;
    }
    const data = this.pending.join('');
    this.pending = [];
    this.pendingLength = 0;
    return data;
  }

  private flush(): void {
    if (this.writing || this.pending.length === 0) return;
    this.writing = true;
    this.send(Buffer.from(this.take()));
  }

  private send(data: Buffer): void {
    fsWrite(this.fd, data, (error, written) => {
      if (error && error.code !== 'EAGAIN') {
        this.writing = false; // stdout is gone (closed pipe): nothing more can be logged there.
        return;
      }
      const rest = data.subarray(error ? 0 : written);
      if (rest.length > 0) return void setTimeout(() => this.send(rest), error ? RETRY_MS : 0);
      this.writing = false;
      // Not flush(): under load that would write a few lines per event-loop turn, each write a
      // thread-pool hand-off.
      this.flushSoon();
    });
  }

  /** At exit: writes what is waiting, synchronously. */
  flushSync(): void {
    if (this.writing || this.pending.length === 0) return;
    try {
      writeSync(this.fd, this.take());
    } catch {
      // Nowhere left to report a failed log write.
    }
  }
}
