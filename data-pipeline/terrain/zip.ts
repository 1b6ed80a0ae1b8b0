/**
 * Just enough of the zip format for SRTM's `.hgt.zip` files: the central directory (read from the
 * end of the file, so a check costs two small reads whatever the archive's size), and one entry's
 * bytes, inflated by fflate and checked against their size and CRC-32. Zip64 and encrypted
 * archives are refused; an SRTM tile is a few MB.
 */
import { open } from 'node:fs/promises';
import { crc32 } from 'node:zlib';
import { inflateSync } from 'fflate';

export interface ZipEntry {
  name: string;
  /** 0 stored, 8 deflated. */
  method: number;
  crc: number;
  compressedSize: number;
  size: number;
  /** Where the entry's data starts (after its local header). */
  dataOffset: number;
}

/** A zip that cannot be read, with the reason in words. */
export class ZipError extends Error {}

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
/** The end-of-directory record is 22 bytes plus a comment of up to 65,535. */
const END_SEARCH_BYTES = 22 + 0xffff;

async function readAt(file: Awaited<ReturnType<typeof open>>, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await file.read(buffer, 0, length, position);
  if (bytesRead < length) throw new ZipError('the file ends early (a truncated download?)');
  return buffer;
}

/** The entries of the zip archive `path`, each with where its data starts. */
export async function zipEntries(path: string): Promise<ZipEntry[]> {
  const file = await open(path, 'r');
  try {
    const { size } = await file.stat();
    const tailLength = Math.min(size, END_SEARCH_BYTES);
    const tail = await readAt(file, size - tailLength, tailLength);
    let end = -1;
    for (let at = tail.length - 22; at >= 0; at--) {
      if (tail.readUInt32LE(at) === END_OF_DIRECTORY) {
        end = at;
        break;
      }
    }
    if (end < 0) throw new ZipError('not a zip archive (no end of central directory; truncated or another format)');
    const count = tail.readUInt16LE(end + 10);
    const directorySize = tail.readUInt32LE(end + 12);
    const directoryOffset = tail.readUInt32LE(end + 16);
    if (count === 0xffff || directoryOffset === 0xffffffff) throw new ZipError('a zip64 archive, which is not supported');
    if (directoryOffset + directorySize > size) throw new ZipError('its central directory lies outside the file (truncated?)');
    const directory = await readAt(file, directoryOffset, directorySize);
    const entries: ZipEntry[] = [];
    for (let at = 0, n = 0; n < count; n++) {
      if (at + 46 > directory.length || directory.readUInt32LE(at) !== DIRECTORY_ENTRY)
        throw new ZipError('its central directory is corrupt');
      const flags = directory.readUInt16LE(at + 8);
      if (flags & 1) throw new ZipError('an encrypted archive, which is not supported');
      const nameLength = directory.readUInt16LE(at + 28);
      const extraLength = directory.readUInt16LE(at + 30);
      const commentLength = directory.readUInt16LE(at + 32);
      const headerOffset = directory.readUInt32LE(at + 42);
      const local = await readAt(file, headerOffset, 30);
      if (local.readUInt32LE(0) !== LOCAL_HEADER) throw new ZipError('an entry of its directory points at no entry (corrupt)');
      entries.push({
        name: directory.toString('utf8', at + 46, at + 46 + nameLength),
        method: directory.readUInt16LE(at + 10),
        crc: directory.readUInt32LE(at + 16),
        compressedSize: directory.readUInt32LE(at + 20),
        size: directory.readUInt32LE(at + 24),
        dataOffset: headerOffset + 30 + local.readUInt16LE(26) + local.readUInt16LE(28),
      });
      at += 46 + nameLength + extraLength + commentLength;
    }
    return entries;
  } finally {
    await file.close();
  }
}

/** The uncompressed bytes of `entry`, checked against its size and CRC-32. */
export async function readZipEntry(path: string, entry: ZipEntry): Promise<Uint8Array> {
  if (entry.method !== 0 && entry.method !== 8)
    throw new ZipError(`${entry.name} is compressed with method ${entry.method}; only deflate is supported`);
  const file = await open(path, 'r');
  let data: Buffer;
  try {
    data = await readAt(file, entry.dataOffset, entry.compressedSize);
  } finally {
    await file.close();
  }
  let bytes: Uint8Array;
  try {
    bytes = entry.method === 0 ? data : inflateSync(data, { out: new Uint8Array(entry.size) });
  } catch (error) {
    throw new ZipError(`${entry.name} is corrupt (${(error as Error).message})`);
  }
  if (bytes.length !== entry.size || crc32(bytes) !== entry.crc)
    throw new ZipError(`${entry.name} is corrupt (its size or checksum does not match)`);
  return bytes;
}
