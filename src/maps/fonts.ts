/**
 * GET /fonts/{fontstack}/{range}.pbf — SDF glyphs of one 256-code-point range. A comma-separated
 * stack is served by its first font the dataset has; a range the dataset has no file for (beyond
 * U+04FF) is answered with a valid glyph PBF holding no glyphs, so MapLibre falls back quietly.
 */
import { join } from 'node:path';
import { currentDataset, type DatasetHolder } from '../dataset/index.js';
import { ApiError } from '../http/errors.js';
import type { Reply } from '../http/reply.js';
import type { Request } from '../http/request.js';
import { encodeGlyphRange, RANGE_COUNT, RANGE_SIZE, rangeName } from '../../core/maps/glyph-pbf.js';
import { assetFile, assetReply, DatasetFiles, type AssetFile } from './dataset-files.js';

const RANGE = /^(\d{1,5})-(\d{1,5})$/;
const GLYPH_TYPE = 'application/x-protobuf';

/** The range index of "512-767"; a 400 for anything but an aligned 256-code-point range. */
function parseRange(value: string): number {
  const match = RANGE.exec(value);
  const start = match ? Number(match[1]) : NaN;
  const range = start / RANGE_SIZE;
  if (!match || !Number.isInteger(range) || range >= RANGE_COUNT || Number(match[2]) !== start + RANGE_SIZE - 1) {
    throw new ApiError(
      400,
      `range must be a 256-code-point glyph range such as "0-255" or "256-511" (up to "65280-65535"); got "${value.slice(0, 40)}"`,
    );
  }
  return range;
}

function decodeSegment(value: string, name: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    throw new ApiError(400, `${name} is not valid percent-encoded text`);
  }
}

export function fontHandler(datasets: DatasetHolder): (req: Request) => Reply {
  const files = new DatasetFiles();
  const emptyRanges = new Map<string, AssetFile>();
  const emptyRange = (font: string, range: number): AssetFile => {
    const cacheKey = `${font}/${range}`;
    let file = emptyRanges.get(cacheKey);
    if (!file) emptyRanges.set(cacheKey, (file = assetFile(encodeGlyphRange(font, range, []))));
    return file;
  };
  return (req) => {
    const range = parseRange(req.params.range!);
    const stack = decodeSegment(req.params.fontstack!, 'fontstack');
    const dataset = currentDataset(datasets);
    const available = dataset.manifest.fontstacks;
    const font = stack
      .split(',')
      .map((name) => name.trim())
      .find((name) => available.includes(name));
    if (font === undefined) {
      throw new ApiError(404, `no font of the stack "${stack.slice(0, 100)}" is served; the fonts are: ${available.join(', ')}`);
    }
    const file = files.get(dataset, join('glyphs', font, `${rangeName(range)}.pbf`)) ?? emptyRange(font, range);
    return assetReply(req, file, GLYPH_TYPE);
  };
}
