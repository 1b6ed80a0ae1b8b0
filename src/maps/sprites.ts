/**
 * GET /sprites/{name}[@2x].{json,png} — the sprite sheets of the served dataset. MapLibre inserts
 * `@2x.json`/`.png` into the path before the `?key=` query, so the style's sprite URL is the bare
 * `/sprites/base?key=…`.
 */
import { join } from 'node:path';
import { currentDataset, type DatasetHolder } from '../dataset/index.js';
import { ApiError } from '../http/errors.js';
import type { Reply } from '../http/reply.js';
import type { Request } from '../http/request.js';
import { assetReply, DatasetFiles } from './dataset-files.js';
import { spriteFile } from '../../core/maps/style-catalog.js';

const SPRITE = /^(.+?)(?:@([12])x)?$/;
const CONTENT_TYPES = { json: 'application/json; charset=utf-8', png: 'image/png' } as const;

export function spriteHandler(datasets: DatasetHolder, extension: 'json' | 'png'): (req: Request) => Reply {
  const files = new DatasetFiles();
  return (req) => {
    const requested = req.params.name!.replace(/%40/gi, '@');
    const match = SPRITE.exec(requested)!;
    const name = match[1]!;
    const pixelRatio = Number(match[2] ?? 1);
    const dataset = currentDataset(datasets);
    const sprites = dataset.manifest.sprites;
    const file = sprites.includes(name) ? files.get(dataset, join('sprites', spriteFile(name, pixelRatio, extension))) : null;
    if (!file) {
      throw new ApiError(
        404,
        `no sprite "${requested.slice(0, 60)}.${extension}"; the sprites are ${sprites.map((s) => `${s}[@2x]`).join(', ')} (.json and .png)`,
      );
    }
    return assetReply(req, file, CONTENT_TYPES[extension]);
  };
}
