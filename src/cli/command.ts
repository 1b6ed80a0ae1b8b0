/** What a `waymark` command is, what it is given, and the errors it reports to the user. */
import type { Outcome } from './output.js';

export interface CommandInput {
  /** Absolute data folder: `--data`, else `WAYMARK_DATA`, else `./data`. */
  dataDir: string;
  /** `--json`: print machine-readable output. */
  json: boolean;
  /** A flag's value, or undefined when the flag is not given. */
  flag(name: string): string | undefined;
  /** A flag's value; a usage error naming the flag when it is missing. */
  required(name: string): string;
  /** A flag's value as a whole number within the bounds, or undefined when not given. */
  wholeNumber(name: string, min: number, max?: number): number | undefined;
  /** Every value of a flag the command lists in `repeatable`, in order; empty when not given. */
  all(name: string): string[];
  /** Whether a flag the command lists in `switches` is given. */
  isSet(name: string): boolean;
}

export interface Command {
  /** The words after `waymark`, e.g. `key create`. */
  name: string;
  /** One or two sentences for `--help`. */
  summary: string;
  /** The command's own flags as the usage line shows them, e.g. `--org NAME [--scopes LIST]`. */
  synopsis: string;
  /** Names of the command's own flags, each taking a value (`--data`, `--json`, `--help` are common). */
  flags: readonly string[];
  /** Flags that take a value and may be given more than once (e.g. `--osm A --osm B`). */
  repeatable?: readonly string[];
  /** Flags without a value (e.g. `--world`). */
  switches?: readonly string[];
  /** The module that runs the command, imported when it runs (src/cli/commands.ts). */
  load(): Promise<{ run: CommandRun }>;
}

/** What a command does with its parsed input. */
export type CommandRun = (input: CommandInput) => Promise<Outcome>;

/** A failure reported as one line; exit status 1 unless given. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = 1,
  ) {
    super(message);
  }
}

/** The command line itself is wrong (unknown command, bad or missing flag); exit status 2. */
export class UsageError extends CliError {
  constructor(message: string) {
    super(message, 2);
  }
}
