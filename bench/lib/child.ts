/**
 * Benchmark servers run in child processes, so that the driver never shares their event loop.
 * A child announces itself on stderr with one line, `listening <port>` optionally followed by a
 * JSON object (e.g. the API key it created); its stdout goes to /dev/null unless asked otherwise,
 * so that servers which log to stdout pay for logging without a reader slowing them down.
 * Programs that do not announce themselves (a CLI's `serve`, a third-party server) are started
 * with `startCommand` on a port chosen by `freePort`, and are ready once they answer HTTP there
 * with a status below 500.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { basename } from 'node:path';
import { createInterface } from 'node:readline';

export interface ChildOptions {
  env?: Record<string, string>;
  /** `ignore` (default) sends stdout to /dev/null. */
  stdout?: 'ignore' | 'inherit';
  /** Extra node flags, e.g. `--cpu-prof`. */
  nodeArgs?: string[];
  /** Pin the child to this CPU with taskset. */
  cpu?: number;
  startTimeoutMs?: number;
}

export interface ServerChild {
  /** The script's file name, for messages. */
  name: string;
  pid: number;
  port: number;
  /** The JSON the child printed after its port, or {}. */
  info: Record<string, unknown>;
  /** Null while the process runs; then how it ended (`exit code 1`, `signal SIGSEGV`). */
  ended(): string | null;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves when the process has exited. */
  stop(graceMs?: number): Promise<void>;
}

interface Launched {
  child: ChildProcess;
  ended(): string | null;
  stop(graceMs?: number): Promise<void>;
}

/** Spawns `command` (pinned with taskset when `cpu` is given), stderr piped, stdout per `options`. */
function launch(command: string, argv: string[], options: ChildOptions): Launched {
  const [file, args] = options.cpu === undefined ? [command, argv] : ['taskset', ['-c', String(options.cpu), command, ...argv]];
  const child = spawn(file, args, {
    env: { ...process.env, ...options.env },
    stdio: ['ignore', options.stdout ?? 'ignore', 'pipe'],
  });
  let ended: string | null = null;
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      ended = signal ? `signal ${signal}` : `exit code ${code}`;
      resolve();
    }),
  );
  return { child, ended: () => ended, stop: (graceMs = 10_000) => stop(child, exited, graceMs) };
}

const LISTENING = /^listening (\d+)(?: (.*))?$/;

export function startChild(script: string, options: ChildOptions = {}): Promise<ServerChild> {
  const launched = launch(process.execPath, [...(options.nodeArgs ?? []), script], options);
  const { child } = launched;
  return new Promise((resolve, reject) => {
    const stderr: string[] = [];
    let ready = false;
    const timer = setTimeout(() => fail(new Error(`${script} did not print "listening <port>" in time`)), options.startTimeoutMs ?? 30_000);
    const fail = (error: Error) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`${error.message}\n${stderr.join('\n')}`));
    };
    child.once('error', fail);
    // 'close' comes after the child's stderr has been read to its end, so its last words are kept.
    child.once('close', (code, signal) => {
      if (!ready) fail(new Error(`${script} exited (${signal ?? code}) before listening`));
    });
    createInterface({ input: child.stderr! }).on('line', (line) => {
      if (ready) return void process.stderr.write(`[${basename(script)}] ${line}\n`);
      const m = LISTENING.exec(line);
      if (!m) return void stderr.push(line);
      ready = true;
      clearTimeout(timer);
      resolve({
        name: basename(script),
        pid: child.pid!,
        port: Number(m[1]),
        info: m[2] ? (JSON.parse(m[2]) as Record<string, unknown>) : {},
        ended: launched.ended,
        stop: launched.stop,
      });
    });
  });
}

/** A TCP port that was free a moment ago on 127.0.0.1, for servers that take a port flag. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface CommandServerOptions extends Omit<ChildOptions, 'nodeArgs'> {
  /** The port the command was told to listen on. */
  port: number;
  /** Polled until it answers HTTP with a status below 500 (a 503 while starting is not ready). */
  readyUrl: string;
  /** How often `readyUrl` is polled while the server starts (default 200 ms). */
  pollMs?: number;
}

/** Starts a server program that does not announce itself; resolves once `readyUrl` answers below 500. */
export async function startCommand(name: string, command: string, argv: string[], options: CommandServerOptions): Promise<ServerChild> {
  const launched = launch(command, argv, options);
  const stderr: string[] = [];
  let ready = false;
  // Kept for the error message until the server is ready, then passed on like startChild does.
  createInterface({ input: launched.child.stderr! }).on('line', (line) => {
    if (ready) process.stderr.write(`[${name}] ${line}\n`);
    else stderr.push(line);
  });
  const spawnError = new Promise<never>((_, reject) => launched.child.once('error', reject));
  spawnError.catch(() => undefined);
  const deadline = Date.now() + (options.startTimeoutMs ?? 30_000);
  const failure = async (why: string) => {
    await launched.stop(1000);
    return new Error(`${name} ${why}\n${stderr.join('\n')}`);
  };
  for (;;) {
    const ended = launched.ended();
    if (ended) throw await failure(`ended (${ended}) before answering ${options.readyUrl}`);
    try {
      const res = await Promise.race([fetch(options.readyUrl), spawnError]);
      await res.arrayBuffer();
      if (res.status < 500) {
        ready = true;
        return { name, pid: launched.child.pid!, port: options.port, info: {}, ended: launched.ended, stop: launched.stop };
      }
    } catch (error) {
      if (!(error instanceof TypeError)) throw await failure(`could not be started: ${String(error)}`);
    }
    if (Date.now() >= deadline) throw await failure(`did not answer ${options.readyUrl} in time`);
    await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 200));
  }
}

async function stop(child: ChildProcess, exited: Promise<void>, graceMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

// ---- child side ----

/** Prints the line `startChild` waits for. */
export function announceListening(port: number, info?: Record<string, unknown>): void {
  process.stderr.write(`listening ${port}${info ? ` ${JSON.stringify(info)}` : ''}\n`);
}

/**
 * Runs `close` on SIGTERM/SIGINT, then exits normally (so that `--cpu-prof` profiles are written).
 */
export function onShutdown(close: () => void | Promise<void>): void {
  let closing = false;
  const handler = () => {
    if (closing) return;
    closing = true;
    Promise.resolve()
      .then(close)
      .then(
        () => process.exit(0),
        (error: unknown) => {
          process.stderr.write(`shutdown failed: ${String(error)}\n`);
          process.exit(1);
        },
      );
  };
  process.once('SIGTERM', handler);
  process.once('SIGINT', handler);
}
