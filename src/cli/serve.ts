/** `waymark serve`: runs the API and the dashboard until SIGINT, SIGTERM or SIGHUP. */
import { MAX_THREADS, processEnvironment, readSettings, setting, type Settings } from '../../core/config.js';
import { advertisedUrl, listensEverywhere } from '../cluster/address.js';
import { createLogging, type Logger } from '../observability/logger.js';
import { startWaymark, type Waymark } from '../serve.js';
import type { CommandInput, CommandRun } from './command.js';
import { shellWord, waymarkCommand } from './invocation.js';
import { printError, type Outcome } from './output.js';

/** What `serve` runs with: the environment's settings, overridden by the flags. */
type ServeConfig = Pick<Settings, 'dataDir' | 'host' | 'port' | 'publicUrl' | 'usageFlushMs' | 'threads'>;

function serveConfig(input: CommandInput): ServeConfig {
  const env = readSettings();
  return {
    dataDir: input.dataDir,
    host: input.flag('host') ?? env.host,
    port: input.wholeNumber('port', 0, 65535) ?? env.port,
    publicUrl: env.publicUrl,
    usageFlushMs: env.usageFlushMs,
    threads: input.wholeNumber('threads', 1, MAX_THREADS) ?? env.threads,
  };
}

/**
 * Signals that stop the server: Ctrl-C, a supervisor's or `kill`'s SIGTERM, and SIGHUP (the terminal
 * closed), which would otherwise end the process without writing buffered usage.
 */
const STOP_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/** Logs the signal and closes the server (writing buffered usage) on the first signal; a second one exits at once. */
function stopOnSignals(waymark: Waymark, logger: Logger, asJson: boolean): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(1);
    stopping = true;
    logger.info({ signal }, `${signal}: stopping (writing buffered usage; a second signal stops at once)`);
    waymark.close().then(
      () => process.exit(0),
      (error: unknown) => {
        printError(`stopping on ${signal} failed: ${(error as Error).message}`, 1, asJson);
        process.exit(1);
      },
    );
  };
  for (const signal of STOP_SIGNALS) process.on(signal, stop);
}

/** Where it listens, in addresses that work: 127.0.0.1 on this machine, and the node's address for others when it listens on every interface. */
export function listeningOn(host: string, port: number, localUrl: string, env: NodeJS.ProcessEnv = processEnvironment()): string {
  if (!listensEverywhere(host)) return localUrl;
  return `every interface, port ${port}: ${localUrl} on this machine, ${advertisedUrl(host, port, env)} from others`;
}

function banner(waymark: Waymark, config: ServeConfig): Outcome {
  const dashboardUrl = `${config.publicUrl ?? waymark.url}/dashboard/`;
  const dataFlag = config.dataDir === setting('dataDir') ? '' : ` --data ${shellWord(config.dataDir)}`;
  const cli = waymarkCommand();
  const nodeUrl = advertisedUrl(config.host, waymark.port);
  const lines = [
    `Waymark is listening on ${listeningOn(config.host, waymark.port, waymark.url)} (data: ${config.dataDir})`,
    ...(config.publicUrl ? [`Public URL: ${config.publicUrl}`] : []),
    `Dashboard: ${dashboardUrl}`,
    'To get an API key, sign up in the dashboard, or run:',
    `  ${cli} user create --email you@example.com --password 'a long password' --org ORG${dataFlag}`,
    `  ${cli} key create --org ORG --name my-app${dataFlag}`,
    'Stop with Ctrl-C.',
  ];
  return {
    text: lines.join('\n'),
    json: { url: waymark.url, nodeUrl, publicUrl: config.publicUrl ?? null, dashboardUrl, dataDir: config.dataDir },
  };
}

export const run: CommandRun = async (input) => {
  const config = serveConfig(input);
  const logging = createLogging();
  const waymark = await startWaymark({
    logging,
    dataDir: config.dataDir,
    host: config.host,
    port: config.port,
    publicUrl: config.publicUrl,
    usageFlushMs: config.usageFlushMs,
    threads: config.threads,
  });
  stopOnSignals(waymark, logging.logger, input.json);
  return banner(waymark, config);
};
