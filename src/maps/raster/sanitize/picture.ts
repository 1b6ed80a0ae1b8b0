/** `size=WxH` (required), `scale=1|2` and `format=png|webp|jpg` of the picture. */
import { clean, rejected, type Sanitizer } from '../../../http/params/sanitized.js';
import { oneOf } from '../../../http/params/choice.js';
import type { RasterFormat } from '../../../../workers/render/task.js';
import { messages } from './messages.js';

export const MAX_SIZE = 1280;
const SIZE = /^(\d{1,4})x(\d{1,4})$/;

export const sanitizeSize: Sanitizer<{ width: number; height: number }> = (query) => {
  const raw = query.get('size');
  const placeholder = { width: 0, height: 0 };
  if (raw === null) return rejected(placeholder, messages.missing('size'));
  const match = SIZE.exec(raw);
  const width = Number(match?.[1]);
  const height = Number(match?.[2]);
  if (!match || width < 1 || height < 1 || width > MAX_SIZE || height > MAX_SIZE)
    return rejected(placeholder, messages.badSize('size', raw, MAX_SIZE));
  return clean({ width, height });
};

const scaleWord = oneOf('scale', ['1', '2'], '1');
export const sanitizeScale: Sanitizer<1 | 2> = (query) => {
  const word = scaleWord(query);
  return { ...word, value: word.value === '2' ? 2 : 1 };
};

/** The file extensions of raster pictures, and the format each names (`jpg` is JPEG). */
export const EXTENSION_FORMATS: Readonly<Record<string, RasterFormat>> = { png: 'png', webp: 'webp', jpg: 'jpeg' };
/** The file extension of each format. */
export const FORMAT_EXTENSIONS = Object.fromEntries(
  Object.entries(EXTENSION_FORMATS).map(([extension, format]) => [format, extension]),
) as Readonly<Record<RasterFormat, string>>;

const formatWord = oneOf('format', Object.keys(EXTENSION_FORMATS), 'png');
export const sanitizeFormat: Sanitizer<RasterFormat> = (query) => {
  const word = formatWord(query);
  return { ...word, value: EXTENSION_FORMATS[word.value] ?? 'png' };
};
