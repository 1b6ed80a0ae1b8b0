/**
 * A streaming RFC 4180 CSV reader: comma-separated fields, double-quoted fields with `""` for a
 * quote and line breaks inside quotes, CRLF or LF line ends. Yields one array of fields per row.
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';

export async function* readCsvRows(file: string): AsyncGenerator<string[]> {
  const input = createReadStream(file, 'utf8');
  const lines = createInterface({ input, crlfDelay: Infinity });
  let pending: string | null = null;
  try {
    for await (const line of lines) {
      const text: string = pending === null ? line : `${pending}\n${line}`;
      const row = parseCsvRow(text);
      if (row === null) {
        pending = text;
        continue;
      }
      pending = null;
      if (text !== '') yield row;
    }
  } finally {
    // Closing the lines does not close the file when the reader stops early (a header check).
    input.destroy();
  }
  if (pending !== null) throw new Error(`${file}: unterminated quoted field at end of file`);
}

/** The fields of one row, or null when a quoted field is still open at the end of the text. */
export function parseCsvRow(text: string): string[] | null {
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quoted) {
      if (char !== '"') field += char;
      else if (text[i + 1] === '"') {
        field += '"';
        i++;
      } else quoted = false;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      fields.push(field);
      field = '';
    } else field += char;
  }
  if (quoted) return null;
  fields.push(field);
  return fields;
}
