/**
 * The project's real test data lives in ../shared/data (never committed). A test that needs it is
 * skipped with a message on a plain run when the folder is absent, and fails under CI (CI=true).
 */
import test, { type ExecutionContext } from 'ava';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export const SHARED_DATA = join(process.cwd(), '..', 'shared', 'data');

export const sharedFile = (...parts: string[]) => join(SHARED_DATA, ...parts);

/**
 * Registers `body` as a test when every file exists; else a skip (plain run) or a failure (CI).
 * A serial one runs in order with the file's other serial tests.
 */
export function dataTest(title: string, files: string[], body: (t: ExecutionContext) => Promise<void> | void, serial = false): void {
  const missing = files.filter((f) => !existsSync(f));
  requiringTest(title, missing.length === 0 ? null : `test data missing (${missing.join(', ')})`, body, serial);
}

/** Registers `body` as a test unless `missing` says what it lacks: then a skip (plain run) or a failure (CI). */
export function requiringTest(
  title: string,
  missing: string | null,
  body: (t: ExecutionContext) => Promise<void> | void,
  serial = false,
): void {
  if (missing === null) return void (serial ? test.serial : test)(title, body);
  if (process.env.CI === 'true') return void test(title, (t) => t.fail(missing));
  console.warn(`skipping "${title}": ${missing}`);
  test.skip(title, () => {});
}
