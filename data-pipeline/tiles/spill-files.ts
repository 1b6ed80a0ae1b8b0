/**
 * The tiler's spill files: byte ranges of them (segments), read back line by line in chunks, and
 * written through a buffer.
 */
import { closeSync, openSync, readSync, rmSync, writeSync } from 'node:fs';

/** A byte range of a spill file. `owned`: the file belongs to one job alone and is deleted after it. */
export interface Segment {
  file: string;
  offset: number;
  length: number;
  owned?: boolean;
}

/** Writes all of `text` (UTF-8) at the file's position; the bytes written. */
export function writeText(fd: number, text: string): number {
  const bytes = Buffer.from(text, 'utf8');
  for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done);
  return bytes.length;
}

const READ_CHUNK_BYTES = 8 * 1024 * 1024;
const WRITE_BUFFER_CHARS = 4 * 1024 * 1024;

/** Calls `onLine` with every line of the segments (without its newline), read in chunks. */
export function forEachLine(segments: readonly Segment[], onLine: (line: string) => void): void {
  for (const segment of segments) {
    const fd = openSync(segment.file, 'r');
    try {
      let carry = Buffer.alloc(0);
      for (let done = 0; done < segment.length; ) {
        const chunk = Buffer.allocUnsafe(Math.min(READ_CHUNK_BYTES, segment.length - done));
        const read = readSync(fd, chunk, 0, chunk.length, segment.offset + done);
        if (read === 0) throw new Error(`${segment.file} ends before its records do`);
        done += read;
        // A newline byte never occurs inside a UTF-8 sequence, so lines split on it safely.
        const bytes = carry.length > 0 ? Buffer.concat([carry, chunk.subarray(0, read)]) : chunk.subarray(0, read);
        let start = 0;
        for (let end = bytes.indexOf(10); end >= 0; end = bytes.indexOf(10, start)) {
          onLine(bytes.toString('utf8', start, end));
          start = end + 1;
        }
        carry = Buffer.from(bytes.subarray(start));
      }
    } finally {
      closeSync(fd);
    }
  }
}

export function releaseSegments(segments: readonly Segment[]): void {
  for (const segment of segments) if (segment.owned) rmSync(segment.file, { force: true });
}

/** Appends lines to a file through a buffer. */
export class LineFile {
  private fd: number;
  private buffered: string[] = [];
  private chars = 0;
  bytes = 0;

  constructor(readonly file: string) {
    this.fd = openSync(file, 'w');
  }

  add(line: string): void {
    this.buffered.push(line);
    this.chars += line.length;
    if (this.chars >= WRITE_BUFFER_CHARS) this.flush();
  }

  close(): void {
    this.flush();
    closeSync(this.fd);
  }

  private flush(): void {
    if (this.buffered.length === 0) return;
    this.bytes += writeText(this.fd, this.buffered.join(''));
    this.buffered = [];
    this.chars = 0;
  }
}

