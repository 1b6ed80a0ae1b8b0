/** The `waymark` command line: finds the command, parses its flags, runs it and prints the outcome. */
import { ConfigError, readSettings } from '../../core/config.js';
import { asksForHelp, parseCommandArgs } from './args.js';
import { CliError, UsageError, type Command } from './command.js';
import { COMMANDS } from './commands.js';
import { printError, printOutcome } from './output.js';

const COMMON_FLAGS = '[--data DIR] [--json]';

/** `name synopsis extra`, without doubled spaces where a part is empty. */
const usageLine = (command: Command, extra: string): string => [command.name, command.synopsis, extra].filter(Boolean).join(' ');

const listing = (commands: readonly Command[]) => commands.map((c) => `  waymark ${usageLine(c, '')}`);

function overview(): string {
  return [
    'usage: waymark <command> [flags]',
    '',
    ...listing(COMMANDS),
    '',
    'Every command takes --data DIR (default ./data, env WAYMARK_DATA), --json for machine-readable output,',
    'and --help. See "waymark <command> --help".',
    '',
  ].join('\n');
}

/** The commands whose name starts with the word `group` and goes on (`key` → key create, key list, key revoke). */
const commandsOf = (group: string | undefined): Command[] => COMMANDS.filter((c) => c.name.startsWith(`${group} `));

function groupHelp(group: string, commands: readonly Command[]): string {
  return [
    `usage: waymark ${group} <subcommand> [flags]`,
    '',
    ...listing(commands),
    '',
    `See "waymark ${group} <subcommand> --help".`,
    '',
  ].join('\n');
}

const subcommands = (commands: readonly Command[]) => commands.map((c) => c.name.split(' ').slice(1).join(' ')).join(', ');

const commandHelp = (command: Command): string => `usage: waymark ${usageLine(command, COMMON_FLAGS)}\n\n${command.summary}\n`;

/** The command named by the first words of `args`, and the arguments after them. */
function findCommand(args: readonly string[]): { command: Command; rest: string[] } | undefined {
  for (const command of COMMANDS) {
    const words = command.name.split(' ');
    if (words.every((word, i) => args[i] === word)) return { command, rest: args.slice(words.length) };
  }
  return undefined;
}

/** The words before the first flag. */
const leadingWords = (args: readonly string[]) => {
  const firstFlag = args.findIndex((arg) => arg.startsWith('-'));
  return firstFlag === -1 ? args : args.slice(0, firstFlag);
};

function notACommand(args: readonly string[]): string {
  const words = leadingWords(args);
  if (words.length > 0) return `unknown command ${JSON.stringify(words.join(' '))}`;
  return args.length === 0 ? 'no command given' : `a command must come before ${args[0]}`;
}

/**
 * What to do with a command line that names no command: help asked for (exit 0), or a usage
 * error followed by the help that applies — a group's (`waymark key`) or the overview.
 */
function withoutCommand(args: readonly string[]): { help: string; error?: string } {
  const group = args[0];
  const members = commandsOf(group);
  if (members.length === 0)
    return args.length === 1 && asksForHelp(args) ? { help: overview() } : { help: overview(), error: notACommand(args) };
  const help = groupHelp(group!, members);
  if (leadingWords(args).length > 1) return { help, error: notACommand(args) };
  return asksForHelp(args) ? { help } : { help, error: `${group} needs a subcommand (${subcommands(members)})` };
}

/** Every WAYMARK_* variable checked before any command runs: a bad one is a usage error naming it. */
function checkSettings(): void {
  try {
    readSettings();
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(error.message);
    throw error;
  }
}

/** Runs the command line `args` (without `node waymark`); resolves to the exit status. */
export async function main(args: string[]): Promise<number> {
  // Known before parsing, so that a command line too wrong to parse still gets its error as JSON.
  const asJson = args.includes('--json');
  const fail = (error: unknown): number => {
    const exitCode = error instanceof CliError ? error.exitCode : 1;
    printError(error instanceof Error ? error.message : String(error), exitCode, asJson);
    return exitCode;
  };
  const found = findCommand(args);
  if (!found) {
    const { help, error } = withoutCommand(args);
    if (error === undefined) {
      process.stdout.write(help);
      return 0;
    }
    const exitCode = fail(new UsageError(error));
    if (!asJson) process.stderr.write(`\n${help}`);
    return exitCode;
  }
  const { command, rest } = found;
  if (asksForHelp(rest)) {
    process.stdout.write(commandHelp(command));
    return 0;
  }
  try {
    checkSettings();
    const input = parseCommandArgs(command, rest);
    const { run } = await command.load();
    printOutcome(await run(input), input.json);
    return 0;
  } catch (error) {
    return fail(error);
  }
}
