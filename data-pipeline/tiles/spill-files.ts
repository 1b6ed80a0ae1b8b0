/**
 * The tiler's spill files: records (spill-record.ts) packed end to end, kept in memory until a run
 * is written, written through a buffer, and read back as byte ranges (segments) in chunks.
 */
import { closeSync, openSync, readSync, rmSync, writevSync } from 'node:fs';
import { SpillRecord } from './spill-record.js';

/** A byte range of a spill file. `owned`: the file belongs to one job alone and is deleted after it. */
export interface Segment {
  file: string;
  offset: number;
  length: number;
  owned?: boolean;
}

const SLAB_BYTES = 1024 * 1024;
const READ_CHUNK_BYTES = 8 * 1024 * 1024;
const WRITE_BUFFER_BYTES = 4 * 1024 * 1024;
/** Buffers per writev call (Linux's IOV_MAX). */
const IOV_MAX = 1024;

/**
 * Space for records from large slabs, so that millions of small records are not millions of
 * allocations. Every piece starts on a word (slabs are fresh ArrayBuffers, pieces multiples of 4).
 */
export class ByteArena {
  private slab = new Uint8Array(0);
  private used = 0;

  take(bytes: number): Uint8Array {
    if (this.used + bytes > this.slab.length) {
      this.slab = new Uint8Array(Math.max(SLAB_BYTES, bytes));
      this.used = 0;
    }
    const piece = this.slab.subarray(this.used, this.used + bytes);
    this.used += bytes;
    return piece;
  }
}

/** Writes all of `parts` at the file's position; the bytes written. */
export function writeParts(fd: number, parts: readonly Uint8Array[]): number {
  let bytes = 0;
  for (let first = 0; first < parts.length; first += IOV_MAX) {
    const group = parts.slice(first, first + IOV_MAX);
    const length = group.reduce((sum, part) => sum + part.length, 0);
    // libuv writes on after a partial write and stops short only on an error (a full disk).
    if (writevSync(fd, group) !== length) throw new Error('a spill file could not be written in full: is the disk full?');
    bytes += length;
  }
  return bytes;
}

/** Calls `onRecord` with every record of the segments, read in chunks. */
export function forEachRecord(segments: readonly Segment[], onRecord: (record: SpillRecord) => void): void {
  for (const segment of segments) {
    const fd = openSync(segment.file, 'r');
    try {
      // `pending` holds the bytes of a record that runs past the end of the chunk before.
      let pending = new Uint8Array(0);
      for (let done = 0; done < segment.length; ) {
        const want = Math.min(READ_CHUNK_BYTES, segment.length - done);
        const bytes = new Uint8Array(pending.length + want);
        bytes.set(pending);
        const read = readSync(fd, bytes, pending.length, want, segment.offset + done);
        if (read === 0) throw new Error(`${segment.file} ends before its records do`);
        done += read;
        const words = new Int32Array(bytes.buffer, 0, (pending.length + read) >> 2);
        let at = 0;
        while (at + 4 <= pending.length + read) {
          const length = words[at >> 2]!;
          if (at + length > pending.length + read) break;
          onRecord(new SpillRecord(bytes.subarray(at, at + length)));
          at += length;
        }
        pending = bytes.slice(at, pending.length + read);
      }
      if (pending.length > 0) throw new Error(`${segment.file} ends inside a record`);
    } finally {
      closeSync(fd);
    }
  }
}

export function releaseSegments(segments: readonly Segment[]): void {
  for (const segment of segments) if (segment.owned) rmSync(segment.file, { force: true });
}

/** Appends records to a file through a buffer. */
export class RecordFile {
  private fd: number;
  private buffered: Uint8Array[] = [];
  private bufferedBytes = 0;
  bytes = 0;

  constructor(readonly file: string) {
    this.fd = openSync(file, 'w');
  }

  add(record: Uint8Array): void {
    this.buffered.push(record);
    this.bufferedBytes += record.length;
    if (this.bufferedBytes >= WRITE_BUFFER_BYTES) this.flush();
  }

  close(): void {
    this.flush();
    closeSync(this.fd);
  }

  private flush(): void {
    this.bytes += writeParts(this.fd, this.buffered);
    this.buffered = [];
    this.bufferedBytes = 0;
  }
}
