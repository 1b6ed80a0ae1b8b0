/**
 * Which body a request asks for: `format=json|pbf` decides when given; otherwise the Accept
 * header's `application/x-protobuf` (or `application/protobuf`), when it is weighted at least as
 * high as `application/json`. Wildcards (`*\/*`) keep the default, JSON.
 */
import { ApiError } from '../http/errors.js';
import type { Request } from '../http/request.js';

export type BodyFormat = 'json' | 'pbf';

const FORMATS: readonly BodyFormat[] = ['json', 'pbf'];
const PROTOBUF_TYPES = new Set(['application/x-protobuf', 'application/protobuf']);
const JSON_TYPES = new Set(['application/json']);

/** The weight (`q`) the Accept header gives to any of `types`, 0 when it names none of them. */
function weightOf(accept: string, types: ReadonlySet<string>): number {
  let best = 0;
  for (const range of accept.split(',')) {
    const [type = '', ...params] = range.split(';').map((part) => part.trim().toLowerCase());
    if (!types.has(type)) continue;
    const q = params.find((param) => param.startsWith('q='));
    best = Math.max(best, q === undefined ? 1 : Number(q.slice(2)) || 0);
  }
  return best;
}

/** Throws ApiError 400 for a `format` other than json or pbf, or given twice. */
export function requestedFormat(req: Request): BodyFormat {
  const given = req.queryAll('format');
  if (given.length > 1) throw new ApiError(400, 'format must be given at most once');
  const format = given[0];
  if (format !== undefined) {
    if (!(FORMATS as readonly string[]).includes(format))
      throw new ApiError(400, `format must be one of ${FORMATS.join(', ')}; got ${JSON.stringify(format)}`);
    return format as BodyFormat;
  }
  const accept = req.header('accept');
  if (accept === undefined) return 'json';
  const protobufWeight = weightOf(accept, PROTOBUF_TYPES);
  return protobufWeight > 0 && protobufWeight >= weightOf(accept, JSON_TYPES) ? 'pbf' : 'json';
}
