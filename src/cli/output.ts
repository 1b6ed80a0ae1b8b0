/** Printing results (human text or `--json`), errors, tables, counts and instants. */

/** What a command prints: `text` for people, `json` for `--json`. */
export interface Outcome {
  text: string;
  json: unknown;
}

export function printOutcome(outcome: Outcome, asJson: boolean): void {
  process.stdout.write(`${asJson ? JSON.stringify(outcome.json) : outcome.text}\n`);
}

/**
 * Prints an error on stderr as one line: `waymark: <message>`, or with `--json` one JSON object,
 * `{"error": {"message": "...", "exitCode": N}}`, N being the exit status that follows.
 */
export function printError(message: string, exitCode: number, asJson: boolean): void {
  const line = message.replace(/\s*\n\s*/g, ' ');
  process.stderr.write(`${asJson ? JSON.stringify({ error: { message: line, exitCode } }) : `waymark: ${line}`}\n`);
}

/** Left-aligned columns separated by two spaces, headed by `header`. */
export function formatTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]?.length ?? 0)));
  return [header, ...rows]
    .map((row) =>
      row
        .map((cell, column) => cell.padEnd(widths[column] ?? 0))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** A count for people (`12,345`); null means unlimited. */
export function formatCount(count: number | null): string {
  return count === null ? 'unlimited' : count.toLocaleString('en-US');
}

/** An ISO instant as `2026-11-15 12:00 UTC`; null as `never`. */
export function formatInstant(iso: string | null): string {
  return iso === null ? 'never' : `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}
