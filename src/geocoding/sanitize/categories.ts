/**
 * `categories` (Pelias' `_categories`): a comma list of categories of the taxonomy
 * (core/geocoding/categories.ts); results have at least one of them, and carry their `category`
 * property. Entries are trimmed and lower-cased, empty ones skipped; an unknown one is refused (Pelias
 * accepts it and finds nothing). Left blank: a warning, no filter, and still the `category`
 * property. Place look-up only shows the property: a non-blank list is ignored with a warning.
 */
import { CATEGORIES } from '../../../core/geocoding/categories.js';
import { messages } from './messages.js';
import { clean, rejected, type Sanitizer } from '../../http/params/sanitized.js';

/** The categories asked for ([] when left blank: no filter), or undefined when the parameter is absent. */
export type Categories = string[] | undefined;

const KNOWN = new Set(CATEGORIES);
const TOP_LEVEL = CATEGORIES.filter((category) => !category.includes(':'));

export const sanitizeCategories: Sanitizer<Categories> = (query) => {
  const raw = query.get('categories');
  if (raw === null) return clean(undefined);
  const entries = [...new Set(raw.split(',').map((entry) => entry.trim().toLowerCase()))].filter((entry) => entry !== '');
  const unknown = entries.filter((entry) => !KNOWN.has(entry));
  if (unknown.length > 0) return rejected(undefined, ...unknown.map((entry) => messages.badCategory(entry, TOP_LEVEL)));
  return clean(entries, entries.length === 0 ? [messages.noCategories()] : []);
};

/** Place look-up: `categories` only asks for the `category` property. */
export const sanitizePlaceCategories: Sanitizer<Categories> = (query) => {
  const raw = query.get('categories');
  if (raw === null) return clean(undefined);
  return clean([], raw.trim() === '' ? [] : [messages.categoriesIgnored()]);
};
