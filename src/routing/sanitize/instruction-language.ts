/**
 * `lang` of directions: the language of the text instructions, one osrm-text-instructions has; default `en`.
 * A BCP 47 tag is matched to the closest supported code (`de-CH` → `de`, `pt` → `pt-BR`, `zh-CN` → `zh-Hans`);
 * a language without instructions is refused rather than answered in English the client did not ask for.
 */
import languages from 'osrm-text-instructions/languages.js';
import { clean, rejected, type Sanitizer } from '../../http/params/sanitized.js';
import { messages } from './messages.js';

export const INSTRUCTION_LANGUAGES: readonly string[] = languages.supportedCodes;

/** The supported code closest to a tag: the same tag, else the same language, else a regional variant of it. */
export function instructionLanguageOf(raw: string): string | undefined {
  let tag: string | undefined;
  try {
    tag = Intl.getCanonicalLocales(raw)[0];
  } catch {
    return undefined; // RangeError: not a well-formed BCP 47 tag
  }
  if (tag === undefined) return undefined;
  const lowerTag = tag.toLowerCase();
  const language = lowerTag.split('-')[0];
  return (
    INSTRUCTION_LANGUAGES.find((code) => code.toLowerCase() === lowerTag) ??
    INSTRUCTION_LANGUAGES.find((code) => code === language) ??
    INSTRUCTION_LANGUAGES.find((code) => code.startsWith(`${language}-`))
  );
}

export const sanitizeInstructionLanguage: Sanitizer<string> = (query) => {
  const raw = query.get('lang');
  if (raw === null) return clean('en');
  const code = instructionLanguageOf(raw.trim());
  return code === undefined ? rejected('en', messages.badInstructionLanguage('lang', raw, INSTRUCTION_LANGUAGES)) : clean(code);
};
