/** `style`: a style slug of the catalogue (required), and `lang`, the label language of the styles. */
import { ApiError } from '../../../http/errors.js';
import { clean, rejected, type Sanitizer } from '../../../http/params/sanitized.js';
import { STYLES, type LabelLanguage, type StyleEntry } from '../../../../core/maps/style-catalog.js';
import { labelLanguage } from '../../styles.js';
import { messages } from './messages.js';

const SLUGS = STYLES.map((s) => s.slug);

export const sanitizeStyle: Sanitizer<StyleEntry> = (query) => {
  const raw = query.get('style');
  if (raw === null) return rejected(STYLES[0]!, messages.missing('style'));
  const entry = STYLES.find((s) => s.slug === raw);
  return entry ? clean(entry) : rejected(STYLES[0]!, messages.unknownStyle('style', raw, SLUGS));
};

/** Same rule as the style documents' `lang` (styles.ts), reported among the other errors rather than thrown. */
export const sanitizeLang: Sanitizer<LabelLanguage> = (query) => {
  try {
    return clean(labelLanguage(query.get('lang')));
  } catch (error) {
    if (error instanceof ApiError) return rejected('local', `invalid parameter 'lang': ${error.message}`);
    throw error;
  }
};
