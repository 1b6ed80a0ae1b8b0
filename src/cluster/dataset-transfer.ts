/**
 * How a finished dataset reaches a node without a shared folder: the worker that built it offers
 * it (a JSON record at `<prefix>:datasets:current`, also published on the channel
 * `<prefix>:datasets`) and serves it as a tar stream (src/cluster/dataset-offer.ts); a node downloads the
 * tar, checks its SHA-256 and switches `current` (src/cluster/dataset-follow.ts). The tar is deterministic
 * (sorted names, zero times and owners), so the hash computed once holds for every download.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { paths } from '../../core/dataset-layout.js';

export interface DatasetOffer {
  id: string;
  /** Hex SHA-256 of the tar as served. */
  sha256: string;
  /** Length of the tar. */
  bytes: number;
  /** Where it is served: `<WAYMARK_WORKER_URL>/datasets/<id>.tar`. */
  url: string;
  /** When it was offered (ISO 8601). */
  at: string;
}

export const offerKey = (prefix: string) => `${prefix}:datasets:current`;
export const offerChannel = (prefix: string) => `${prefix}:datasets`;

/** A dataset folder's name: no leading dot (temporary folders) and no path separators. */
export const isDatasetId = (id: string) => /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/.test(id);

/** The offer in a Redis value or message, or null when it is not one (logged by the caller). */
export function parseOffer(json: string | null): DatasetOffer | null {
  if (json === null) return null;
  try {
    const offer = JSON.parse(json) as Partial<DatasetOffer>;
    const valid =
      typeof offer.id === 'string' &&
      isDatasetId(offer.id) &&
      typeof offer.sha256 === 'string' &&
      /^[0-9a-f]{64}$/.test(offer.sha256) &&
      Number.isSafeInteger(offer.bytes) &&
      typeof offer.url === 'string' &&
      typeof offer.at === 'string';
    return valid ? (offer as DatasetOffer) : null;
  } catch {
    return null;
  }
}

export interface TarProcess {
  child: ChildProcess;
  /** Settles when tar exits; rejects with the end of its stderr when it fails. */
  exited: Promise<void>;
}

function runTar(args: string[], cwd: string, stdin: 'pipe' | 'ignore', stdout: 'pipe' | 'ignore'): TarProcess {
  const child = spawn('tar', args, { cwd, stdio: [stdin, stdout, 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => void (stderr = (stderr + chunk.toString()).slice(-2000)));
  const exited = new Promise<void>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`tar ${args[0]} failed (${signal ?? `exit ${code}`}): ${stderr.trim()}`)),
    );
  });
  return { child, exited };
}

/** GNU tar of `datasets/<id>` (members `<id>/…`) on stdout, byte for byte the same on every run. */
export function packDataset(dataDir: string, id: string): TarProcess {
  const deterministic = [
    '--sort=name',
    '--mtime=@0',
    '--owner=0',
    '--group=0',
    '--numeric-owner',
    '--format=posix',
    // The default name of extended headers holds tar's pid.
    '--pax-option=exthdr.name=%d/PaxHeaders/%f,delete=atime,delete=ctime',
  ];
  return runTar(['-c', ...deterministic, '-f', '-', id], paths.datasets(dataDir), 'ignore', 'pipe');
}

/**
 * Extracts a tar from stdin into `dir`, dropping the `<id>/` level. Files get the time of
 * extraction (the tar's are all zero); GNU tar refuses members outside `dir`.
 */
export function unpackDataset(dir: string): TarProcess {
  return runTar(['-x', '--strip-components=1', '--touch', '--no-same-owner', '-f', '-'], dir, 'pipe', 'ignore');
}
