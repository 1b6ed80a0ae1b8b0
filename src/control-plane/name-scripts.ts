/**
 * Whether a name is written in one script, as UTS #39's "moderately restrictive" profile (section
 * 5.2) decides it, so that no organization can take a look-alike of another's name by mixing in
 * letters of another script (`vіctim` with a Cyrillic `і`, U+0456). Allowed: one script (`Café
 * Zürich`, `Київ Карти`); Han with Hiragana and Katakana (Japanese), with Bopomofo (Chinese), or
 * with Hangul (Korean), each also with Latin (`東京マップ`, `Seoul 지도`); Latin with one other
 * script but Cyrillic or Greek, whose letters pass for Latin ones. Characters common to scripts
 * (digits, punctuation, spaces, symbols) go with any. Only the scripts UAX #31 recommends for
 * identifiers (Table 4) are accepted, so no letters of a historic or limited-use script (Cherokee's
 * `Ꭺ` looks like `A`) slip in.
 */

/** UAX #31 Table 4, Recommended Scripts (besides Common and Inherited), by their Unicode property names. */
const RECOMMENDED = [
  'Latin',
  'Arabic',
  'Armenian',
  'Bengali',
  'Bopomofo',
  'Cyrillic',
  'Devanagari',
  'Ethiopic',
  'Georgian',
  'Greek',
  'Gujarati',
  'Gurmukhi',
  'Han',
  'Hangul',
  'Hebrew',
  'Hiragana',
  'Kannada',
  'Katakana',
  'Khmer',
  'Lao',
  'Malayalam',
  'Myanmar',
  'Oriya',
  'Sinhala',
  'Tamil',
  'Telugu',
  'Thaana',
  'Thai',
  'Tibetan',
] as const;

const PATTERNS = RECOMMENDED.map((script) => [script, new RegExp(`^\\p{Script_Extensions=${script}}$`, 'u')] as const);
/** Characters of every script (Script_Extensions Common or Inherited). */
const ANY_SCRIPT = /^[\p{Script_Extensions=Common}\p{Script_Extensions=Inherited}]$/u;

/** UTS #39 5.1's augmented script sets: the writing systems that mix Han with other scripts. */
const AUGMENTED: Partial<Record<string, string[]>> = {
  Han: ['Han with Bopomofo', 'Japanese', 'Korean'],
  Hiragana: ['Japanese'],
  Katakana: ['Japanese'],
  Hangul: ['Korean'],
  Bopomofo: ['Han with Bopomofo'],
};

/** Whose letters pass for Latin ones: never mixed with Latin. */
const LATIN_LOOK_ALIKES = new Set(['Cyrillic', 'Greek']);

/** A character's augmented script set; null when it goes with any script. */
function scriptsOf(char: string): Set<string> | null {
  if (ANY_SCRIPT.test(char)) return null;
  const scripts = new Set<string>();
  for (const [script, pattern] of PATTERNS) {
    if (!pattern.test(char)) continue;
    scripts.add(script);
    for (const writing of AUGMENTED[script] ?? []) scripts.add(writing);
  }
  return scripts;
}

/** The scripts every one of the sets holds. */
function common(sets: Set<string>[]): Set<string> {
  const [first, ...rest] = sets;
  return new Set([...(first ?? [])].filter((script) => rest.every((set) => set.has(script))));
}

const codePoint = (char: string) => `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

/** Why `name` is not written in one script (a sentence to follow "it"), or null when it is. */
export function mixedScripts(name: string): string | null {
  const sets: Set<string>[] = [];
  for (const char of name) {
    const scripts = scriptsOf(char);
    if (scripts === null) continue;
    if (scripts.size === 0) {
      return `has ${JSON.stringify(char)} (${codePoint(char)}), which is of a script not recommended for names`;
    }
    sets.push(scripts);
  }
  if (sets.length === 0 || common(sets).size > 0) return null;
  const beside = common(sets.filter((set) => !set.has('Latin')));
  if ([...beside].some((script) => !LATIN_LOOK_ALIKES.has(script))) return null;
  // The scripts as a reader sees them: each character's first, in the table's order.
  const seen = [...new Set(sets.map((set) => [...set][0]!))];
  return `mixes the ${seen.slice(0, -1).join(', ')} and ${seen.at(-1)} scripts`;
}
