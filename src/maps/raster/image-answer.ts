/** A rendered picture as it is answered: its bytes, an ETag (MD5 of the bytes) and its headers encoded once; 304 on a matching If-None-Match. */
import { presetHeaders, type PresetHeaders, type Reply } from '../../http/reply.js';
import type { Request } from '../../http/request.js';
import { assetFile, type AssetFile } from '../dataset-files.js';
import { assetCacheControl, notModified } from '../http-caching.js';
import type { RasterFormat } from '../../../workers/render/task.js';

export interface ImageAnswer extends AssetFile {
  headers: readonly PresetHeaders[];
  notModified: readonly PresetHeaders[];
}

export function imageAnswer(data: Uint8Array, format: RasterFormat): ImageAnswer {
  const { etag } = assetFile(data);
  return {
    data,
    etag,
    headers: [presetHeaders({ 'Content-Type': `image/${format}`, ETag: etag })],
    notModified: [presetHeaders({ ETag: etag })],
  };
}

/** Cache-Control as the vector tiles: public for a key in the URL, else private. */
export function imageReply(req: Request, answer: ImageAnswer): Reply {
  const headers = { 'Cache-Control': assetCacheControl(req) };
  if (notModified(req, answer.etag)) return { status: 304, headers, preset: answer.notModified, body: '' };
  return { status: 200, headers, preset: answer.headers, body: answer.data };
}
