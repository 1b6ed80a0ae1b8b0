/** `lang`: a well-formed BCP 47 tag of a language the runtime's CLDR data knows; default `en`. */
import { iso6393Of } from './iso639.js';
import { messages } from './messages.js';
import { clean, rejected, type Sanitizer } from '../../http/params/sanitized.js';

export interface Language {
  /** Canonical BCP 47 tag as given (`de-CH`). */
  tag: string;
  /** The primary language subtag (`de`); names are looked up by it. */
  language: string;
  /** English name of the language (`German`). */
  name: string;
  iso6391?: string;
  iso6393?: string;
  /** True when the client gave no `lang`. */
  defaulted: boolean;
}

const languageNames = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });

/** The language of a tag, or undefined when the tag is malformed or its language unknown. */
export function languageOf(raw: string, defaulted: boolean): Language | undefined {
  let tag: string | undefined;
  try {
    tag = Intl.getCanonicalLocales(raw)[0];
  } catch {
    return undefined; // RangeError: not a well-formed BCP 47 tag
  }
  const language = tag?.split('-')[0];
  const name = language === undefined ? undefined : languageNames.of(language);
  if (tag === undefined || language === undefined || name === undefined) return undefined;
  const iso6393 = iso6393Of(language);
  return {
    tag,
    language,
    name,
    ...(language.length === 2 ? { iso6391: language } : {}),
    ...(iso6393 === undefined ? {} : { iso6393 }),
    defaulted,
  };
}

const ENGLISH = languageOf('en', true) as Language;

export const sanitizeLang: Sanitizer<Language> = (query) => {
  const raw = query.get('lang');
  if (raw === null) return clean(ENGLISH);
  const language = languageOf(raw.trim(), false);
  return language === undefined ? rejected(ENGLISH, messages.badLang('lang', raw)) : clean(language);
};
