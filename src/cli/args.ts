/** Parses a command's flags (node:util parseArgs) into its input, with the common --data and --json (index.ts handles --help). */
import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { setting } from '../../core/config.js';
import { parseWholeNumber } from '../../core/whole-number.js';
import { UsageError, type Command, type CommandInput } from './command.js';

/** Whether the arguments ask for help, whatever else they hold. */
export const asksForHelp = (args: readonly string[]): boolean => args.includes('--help') || args.includes('-h');

/** Parses `raw` as a whole number within the bounds; a usage error naming `what` otherwise. */
export function wholeNumber(raw: string, what: string, min: number, max?: number): number {
  try {
    return parseWholeNumber(raw, what, min, max);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

export function parseCommandArgs(command: Command, args: string[]): CommandInput {
  const seeHelp = `see "waymark ${command.name} --help"`;
  let values: Record<string, string | boolean | (string | boolean)[] | undefined>;
  try {
    ({ values } = parseArgs({
      args,
      options: {
        ...Object.fromEntries(command.flags.map((name) => [name, { type: 'string' as const }])),
        ...Object.fromEntries((command.repeatable ?? []).map((name) => [name, { type: 'string' as const, multiple: true as const }])),
        ...Object.fromEntries((command.switches ?? []).map((name) => [name, { type: 'boolean' as const }])),
        data: { type: 'string' },
        json: { type: 'boolean' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    // parseArgs explains in its first sentence; the rest is advice about positionals.
    const reason = (error as Error).message.split(/\.\s/)[0]!;
    throw new UsageError(`${reason}; ${seeHelp}`);
  }

  const flag = (name: string): string | undefined => {
    const value = values[name];
    if (value === '') throw new UsageError(`--${name} needs a value; ${seeHelp}`);
    return typeof value === 'string' ? value : undefined;
  };
  const data = flag('data');
  return {
    dataDir: data === undefined ? setting('dataDir') : resolve(data),
    json: values.json === true,
    flag,
    required(name) {
      const value = flag(name);
      if (value === undefined) throw new UsageError(`--${name} is required; ${seeHelp}`);
      return value;
    },
    all(name) {
      const given = values[name];
      const list = Array.isArray(given) ? given : [];
      if (list.some((value) => value === '')) throw new UsageError(`--${name} needs a value; ${seeHelp}`);
      return list.filter((value): value is string => typeof value === 'string');
    },
    isSet: (name) => values[name] === true,
    wholeNumber(name, min, max) {
      const value = flag(name);
      return value === undefined ? undefined : wholeNumber(value, `--${name}`, min, max);
    },
  };
}
