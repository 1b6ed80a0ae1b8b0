/** The `waymark` command line: finds the command, parses its flags, runs it and prints the outcome. */
import { asksForHelp, parseCommandArgs } from './args.js';
import { CliError, type Command } from './command.js';
import { importCommand } from './import.js';
import { keyCreate } from './key-create.js';
import { keyList } from './key-list.js';
import { keyRevoke } from './key-revoke.js';
import { orgSetTier } from './org-set-tier.js';
import { printError, printOutcome } from './output.js';
import { serve } from './serve.js';
import { usage } from './usage.js';
import { userCreate } from './user-create.js';
import { worker } from './worker.js';

const COMMANDS: readonly Command[] = [serve, userCreate, orgSetTier, keyCreate, keyList, keyRevoke, usage, importCommand, worker];
const COMMON_FLAGS = '[--data DIR] [--json]';

function overview(): string {
  return [
    'usage: waymark <command> [flags]',
    '',
    ...COMMANDS.map((c) => `  waymark ${usageLine(c, '')}`),
    '',
    'Every command takes --data DIR (default ./data, env WAYMARK_DATA), --json for machine-readable output,',
    'and --help. See "waymark <command> --help".',
    '',
  ].join('\n');
}

/** `name synopsis extra`, without doubled spaces where a part is empty. */
const usageLine = (command: Command, extra: string): string => [command.name, command.synopsis, extra].filter(Boolean).join(' ');

const commandHelp = (command: Command): string => `usage: waymark ${usageLine(command, COMMON_FLAGS)}\n\n${command.summary}\n`;

/** The command named by the first words of `args`, and the arguments after them. */
function findCommand(args: readonly string[]): { command: Command; rest: string[] } | undefined {
  for (const command of COMMANDS) {
    const words = command.name.split(' ');
    if (words.every((word, i) => args[i] === word)) return { command, rest: args.slice(words.length) };
  }
  return undefined;
}

function notACommand(args: readonly string[]): string {
  const firstFlag = args.findIndex((arg) => arg.startsWith('-'));
  const words = firstFlag === -1 ? args : args.slice(0, firstFlag);
  if (words.length > 0) return `unknown command ${JSON.stringify(words.join(' '))}`;
  return args.length === 0 ? 'no command given' : `a command must come before ${args[0]}`;
}

/** Runs the command line `args` (without `node waymark`); resolves to the exit status. */
export async function main(args: string[]): Promise<number> {
  const found = findCommand(args);
  if (!found) {
    if (args.length === 1 && asksForHelp(args)) {
      process.stdout.write(overview());
      return 0;
    }
    printError(notACommand(args));
    process.stderr.write(`\n${overview()}`);
    return 2;
  }
  const { command, rest } = found;
  if (asksForHelp(rest)) {
    process.stdout.write(commandHelp(command));
    return 0;
  }
  try {
    const input = parseCommandArgs(command, rest);
    printOutcome(await command.run(input), input.json);
    return 0;
  } catch (error) {
    printError(error instanceof Error ? error.message : String(error));
    return error instanceof CliError ? error.exitCode : 1;
  }
}
