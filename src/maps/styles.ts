/**
 * GET /styles and GET /styles/{slug}/style.json?lang=xx. Each slug and label language (and whether
 * the served dataset has elevation, for the styles drawing hillshade and contours) is generated once and kept as its JSON text cut at the base-URL and key tokens, so a request only joins the
 * pieces with its own base and key. Its `center` and `zoom` are the dataset's first view (first-view.ts).
 */
import type { DatasetHolder } from '../dataset/index.js';
import { ApiError } from '../http/errors.js';
import { json, type Reply } from '../http/reply.js';
import type { Request } from '../http/request.js';
import { callerKey } from './absolute-urls.js';
import { firstView, type FirstView } from './first-view.js';
import { KEYED_DOCUMENT_CACHE } from './http-caching.js';
import {
  BASE_TOKEN,
  KEY_TOKEN,
  LABEL_LANGUAGES,
  type LabelLanguage,
  STYLES,
  styleDocument,
  type StyleEntry,
} from '../../core/maps/style-catalog.js';

const TOKENS = new RegExp(`(${BASE_TOKEN.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}|${KEY_TOKEN})`);
/** A BCP 47 language tag, loosely: `de`, `en-GB`, `zh-Hant-TW`. */
const LANGUAGE_TAG = /^[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{1,8})*$/;
const SLUGS = STYLES.map((s) => s.slug).join(', ');

/**
 * The label language for `lang`: absent or `local` gives local names; a tag whose language the data
 * carries (`en`, `de`, `en-US`…) gives that; another well-formed tag falls back to local names, as
 * hosted map APIs do; a malformed value is a 400.
 */
export function labelLanguage(lang: string | null): LabelLanguage {
  if (lang === null || lang === '' || lang === 'local') return 'local';
  if (!LANGUAGE_TAG.test(lang)) {
    throw new ApiError(400, `lang must be a language code such as "en" or "de" (or "local"); got "${lang.slice(0, 40)}"`);
  }
  const primary = lang.split(/[-_]/)[0]!.toLowerCase();
  return (LABEL_LANGUAGES as readonly string[]).includes(primary) ? (primary as LabelLanguage) : 'local';
}

/** The style of a path's `:slug`, or the 404 listing the styles. */
export function styleOfSlug(slug: string): StyleEntry {
  const entry = STYLES.find((s) => s.slug === slug);
  if (!entry) throw new ApiError(404, `unknown style "${slug.slice(0, 40)}"; the styles are: ${SLUGS}`);
  return entry;
}

/** Joins a style's pieces (literal, token, literal, token, …, literal) with a base and a key. */
function render(pieces: string[], base: string, key: string): string {
  let out = pieces[0]!;
  for (let i = 1; i < pieces.length; i += 2) {
    out += pieces[i] === KEY_TOKEN ? key : base;
    out += pieces[i + 1]!;
  }
  return out;
}

export function styleRoutes(
  apiBase: (req: Request) => string,
  datasets: DatasetHolder,
): {
  list: (req: Request) => Reply;
  style: (req: Request) => Reply;
} {
  const templates = new Map<string, string[]>();
  const template = (entry: StyleEntry, language: LabelLanguage, elevation: boolean, view: FirstView | null): string[] => {
    const cacheKey = `${entry.slug}/${language}/${elevation}/${JSON.stringify(view)}`;
    let pieces = templates.get(cacheKey);
    if (!pieces) {
      const document = { ...styleDocument(entry, language, elevation), ...view };
      templates.set(cacheKey, (pieces = JSON.stringify(document).split(TOKENS)));
    }
    return pieces;
  };

  const list = (req: Request): Reply => {
    const base = apiBase(req);
    const key = callerKey(req);
    const styles = STYLES.map(({ slug, name }) => ({ slug, name, url: `${base}/styles/${slug}/style.json?key=${key}` }));
    return json(200, { styles, languages: LABEL_LANGUAGES }, { 'Cache-Control': KEYED_DOCUMENT_CACHE });
  };

  const style = (req: Request): Reply => {
    const entry = styleOfSlug(req.params.slug!);
    const language = labelLanguage(req.rawQuery === '' ? null : req.query.get('lang'));
    const manifest = datasets.current()?.manifest;
    // Hillshade and contours only from a dataset with elevation: their sources would fail without it.
    const elevation = manifest?.elevation !== undefined;
    // The style opens on the dataset's own data (first-view.ts).
    const view = manifest ? firstView(manifest.bounds) : null;
    const body = render(template(entry, language, elevation, view), apiBase(req), callerKey(req));
    return {
      status: 200,
      headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': KEYED_DOCUMENT_CACHE },
      body,
    };
  };

  return { list, style };
}
