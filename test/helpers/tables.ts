/**
 * Rule tables written as tables (OSRM's cucumber features are the model: `Given the way tags … /
 * Then routability should be` followed by a pipe table). A table is a template literal of pipe
 * rows; the first row names the columns, an empty cell is an absent value, and a row may end in a
 * `# comment` (kept for the row's title, e.g. why Waymark differs from OSRM there); `\|` is a pipe
 * inside a cell.
 *
 *   const rows = table`
 *     | highway   | kind     | minzoom |
 *     | motorway  | motorway | 5       |
 *     | trunk     | trunk    | 6       |   # a comment
 *   `;
 */

export interface Row {
  /** Cells by column name; an empty cell is absent. */
  cells: Readonly<Record<string, string>>;
  /** The row as written (without its comment), to name it in a test title or a failure. */
  text: string;
  /** The row's trailing `# comment`, '' when none. */
  comment: string;
  /** The row's filled cells as `column=value`, to say in a failure which row it is. */
  named: string;
}

/** The rows of a pipe table (the header row excluded). */
export function table(strings: TemplateStringsArray, ...values: unknown[]): Row[] {
  // Raw text, so that a cell may write `\n` (a line break inside a value) without breaking the row.
  const source = strings.raw.reduce((text, part, i) => text + part + (i < values.length ? String(values[i]) : ''), '');
  const lines = source
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.startsWith('|'));
  if (lines.length === 0) throw new Error('a table needs a header row');
  const split = (line: string) => {
    const hash = line.lastIndexOf('|');
    const comment = line
      .slice(hash + 1)
      .trim()
      .replace(/^#\s*/, '');
    // `\|` is a pipe inside a cell (`hov:lanes=designated\|designated`), as in Gherkin.
    const cells = line
      .slice(1, hash)
      .split(/(?<!\\)\|/)
      .map((cell) => cell.trim().replaceAll('\\|', '|'));
    return { cells, comment, text: `| ${cells.join(' | ')} |` };
  };
  const header = split(lines[0]!).cells;
  return lines.slice(1).map((line, i) => {
    const { cells, comment, text } = split(line);
    if (cells.length !== header.length)
      throw new Error(`table row ${i + 1} has ${cells.length} cells, the header ${header.length}: ${line}`);
    const byName: Record<string, string> = {};
    header.forEach((name, c) => {
      if (cells[c] !== '') byName[name] = cells[c]!;
    });
    const named = Object.entries(byName)
      .map(([name, value]) => `${name}=${value}`)
      .join(' ');
    return { cells: byName, text, comment, named };
  });
}

/** `\n` in a cell is a line break in the value. */
const unescapeCell = (value: string) => value.replaceAll('\\n', '\n');

/**
 * `key=value` pairs separated by blanks; a value with blanks is double-quoted:
 * `highway=primary name="Rue Grimaldi" ref="B 3;B 36"`.
 */
export function parsePairs(text: string | undefined): Record<string, string> {
  const pairs: Record<string, string> = {};
  if (text === undefined) return pairs;
  const pattern = /([^\s=]+)=(?:"([^"]*)"|(\S*))/g;
  let consumed = '';
  for (const match of text.matchAll(pattern)) {
    pairs[match[1]!] = unescapeCell(match[2] ?? match[3]!);
    consumed += match[0];
  }
  if (consumed.replace(/\s/g, '') !== text.replace(/\s/g, '')) throw new Error(`not key=value pairs: ${text}`);
  return pairs;
}

export type Value = string | number | boolean | undefined;

/**
 * A cell read as the value a feature property holds: `true`/`false` booleans, numbers, `''` the
 * empty string, `undefined` an attribute that must be absent, anything else (or anything
 * double-quoted) a string.
 */
export function parseValue(text: string): Value {
  if (text === 'undefined') return undefined;
  if (text === 'true') return true;
  if (text === 'false') return false;
  if (text === "''") return '';
  if (/^-?\d+(\.\d+)?$/.test(text)) return Number(text);
  return text.replace(/^"(.*)"$/, '$1');
}

/** `parsePairs` with each value read by `parseValue` (quoted values stay strings). */
export function parseProperties(text: string | undefined): Record<string, Value> {
  const props: Record<string, Value> = {};
  if (text === undefined) return props;
  for (const match of text.matchAll(/([^\s=]+)=(?:"([^"]*)"|(\S*))/g))
    props[match[1]!] = match[2] === undefined ? parseValue(match[3]!) : unescapeCell(match[2]);
  return props;
}

/** The columns of a row that are OSM tags: every cell but the named expectation columns, plus the pairs of a `tags` cell. */
export function rowTags(row: Row, expectationColumns: readonly string[]): Record<string, string> {
  const tags: Record<string, string> = {};
  for (const [column, value] of Object.entries(row.cells)) {
    if (column === 'tags') Object.assign(tags, parsePairs(value));
    else if (!expectationColumns.includes(column)) tags[column] = value;
  }
  return tags;
}
