/**
 * The small style-asset files of a dataset (glyph ranges, sprite sheets), read once and then kept in memory
 * with their ETag for as long as that dataset is served.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Dataset } from '../dataset/index.js';
import type { Reply } from '../http/reply.js';
import type { Request } from '../http/request.js';
import { assetCacheControl, notModified } from './http-caching.js';

export interface AssetFile {
  data: Uint8Array;
  /** Quoted MD5 of `data`. */
  etag: string;
}

export function assetFile(data: Uint8Array): AssetFile {
  return { data, etag: `"${createHash('md5').update(data).digest('hex')}"` };
}

/** Asset files per dataset; callers only ask for validated names, so each map stays small. */
export class DatasetFiles {
  private readonly byDataset = new WeakMap<Dataset, Map<string, AssetFile | null>>();

  /** The file at `relativePath` in the dataset folder, or null when it does not exist. */
  get(dataset: Dataset, relativePath: string): AssetFile | null {
    let files = this.byDataset.get(dataset);
    if (!files) this.byDataset.set(dataset, (files = new Map()));
    let file = files.get(relativePath);
    if (file === undefined) {
      try {
        file = assetFile(readFileSync(join(dataset.dir, relativePath)));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        file = null;
      }
      files.set(relativePath, file);
    }
    return file;
  }
}

/** A cacheable answer with an asset file, or 304 when the client holds it already. */
export function assetReply(req: Request, file: AssetFile, contentType: string): Reply {
  const cacheControl = assetCacheControl(req);
  if (notModified(req, file.etag)) return { status: 304, headers: { ETag: file.etag, 'Cache-Control': cacheControl }, body: '' };
  return { status: 200, headers: { 'Content-Type': contentType, ETag: file.etag, 'Cache-Control': cacheControl }, body: file.data };
}
