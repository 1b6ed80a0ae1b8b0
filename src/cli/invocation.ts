/**
 * How to write a `waymark` command for the user to type (the hints of `serve` and of errors), the
 * way this process was started:
 * - `npx waymark` under npx, and under npm (`npm start`, `npm run serve`) when working inside the
 *   checkout: npx runs a checkout's own command, from any folder in it;
 * - `waymark` from a link on the PATH (a global install);
 * - else `node <the script>`, relative to the working folder when inside it (`node bin/waymark.js`),
 *   absolute otherwise;
 * - whatever `WAYMARK_CLI_HINT` says, where the operator types something else (the image sets
 *   `docker exec <container> waymark`).
 */
import { basename, delimiter, dirname, isAbsolute, relative, sep } from 'node:path';
import { processEnvironment, setting } from '../../core/config.js';

export interface Invocation {
  /** The script node runs (process.argv[1]): bin/waymark.js, or a `waymark` link to it. */
  script: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
}

const thisProcess = (): Invocation => ({ script: process.argv[1] ?? 'waymark', cwd: process.cwd(), env: processEnvironment() });

/** A quote inside a single-quoted word: end the quotes, an escaped quote, open them again. */
const QUOTE_IN_QUOTES = "'\\''";

/** A word as a POSIX shell reads it back: quoted when it holds anything but plain characters. */
export const shellWord = (word: string) => (/^[\w./@:-]+$/.test(word) ? word : `'${word.replaceAll("'", QUOTE_IN_QUOTES)}'`);

/** `path` relative to `from` when it lies inside it, else null. */
function inside(from: string, path: string): string | null {
  const rest = relative(from, path);
  return rest !== '..' && !rest.startsWith(`..${sep}`) && !isAbsolute(rest) ? rest : null;
}

/** The words that run `waymark`, e.g. `npx waymark` or `node bin/waymark.js`. */
export function waymarkCommand({ script, cwd, env }: Invocation = thisProcess()): string {
  const hint = setting('cliHint', env);
  if (hint) return hint;
  // npm tells what it runs in npm_command: `exec` for npx, `start`, `run-script`…
  const underNpm = env.npm_command !== undefined;
  if (basename(script) === 'waymark') {
    if (env.npm_command === 'exec') return 'npx waymark';
    if ((env.PATH ?? '').split(delimiter).includes(dirname(script))) return 'waymark';
  }
  const checkout = dirname(dirname(script));
  if (underNpm && basename(script) === 'waymark.js' && inside(checkout, cwd) !== null) return 'npx waymark';
  const path = inside(cwd, script);
  return `node ${shellWord(path || script)}`;
}
