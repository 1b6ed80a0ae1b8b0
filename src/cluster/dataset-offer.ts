/**
 * The worker's side of dataset transfer (src/cluster/dataset-transfer.ts): an HTTP server that serves
 * `GET /datasets/<id>.tar` to holders of the operator token, and the offers of the datasets it
 * builds in Redis, so nodes without the worker's data folder can fetch them.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { once } from 'node:events';
import { pipeline } from 'node:stream/promises';
import { currentDatasetId, paths } from '../../core/dataset-layout.js';
import { redisClient } from '../../core/redis.js';
import type { RedisSettings } from '../../core/redis-settings.js';
import { ApiError, errorBody, notFound } from '../http/errors.js';
import type { Logger } from '../observability/logger.js';
import { operatorTokenCheck } from '../operator/auth.js';
import { isDatasetId, offerChannel, offerKey, packDataset, parseOffer, type DatasetOffer } from './dataset-transfer.js';

export interface OfferSettings {
  /** Where other machines reach this worker (WAYMARK_WORKER_URL); the server listens on its port. */
  url: string;
  /** The address to listen on (WAYMARK_WORKER_HOST, default 0.0.0.0). */
  host: string;
  /** The operator token downloads must carry. */
  token: string;
}

export interface DatasetOffers {
  /** Hashes the dataset (once per id) and offers it; failures are logged, never thrown. */
  offerDataset(id: string): Promise<void>;
  close(): Promise<void>;
}

interface TarDigest {
  sha256: string;
  bytes: number;
}

/** Reads the whole tar once: its hash and length. */
async function digestTar(dataDir: string, id: string): Promise<TarDigest> {
  const tar = packDataset(dataDir, id);
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of tar.child.stdout! as AsyncIterable<Buffer>) {
    hash.update(chunk);
    bytes += chunk.length;
  }
  await tar.exited;
  return { sha256: hash.digest('hex'), bytes };
}

/**
 * Starts the download server and, unless another worker offers a different dataset (which would
 * be newer: a restarted worker must not roll the cluster back), offers the folder's current dataset.
 */
export async function startDatasetOffers(
  redis: RedisSettings,
  dataDir: string,
  settings: OfferSettings,
  logger: Logger,
): Promise<DatasetOffers> {
  const baseUrl = new URL(settings.url);
  const digests = new Map<string, TarDigest>();
  const server = serveDatasets(dataDir, settings.token, digests, logger);
  server.listen(Number(baseUrl.port || 80), settings.host);
  await once(server, 'listening');
  const client = redisClient(redis, { maxRetriesPerRequest: 3 });
  client.on('error', (error: Error) => logger.warn({ err: error }, 'dataset offers: Redis connection error; retrying'));
  let queue = Promise.resolve();

  const offer = async (id: string) => {
    for (const known of digests.keys()) if (!existsSync(paths.dataset(dataDir, known))) digests.delete(known);
    let digest = digests.get(id);
    if (!digest) {
      logger.info({ dataset: id }, 'hashing the dataset to offer it');
      digest = await digestTar(dataDir, id);
      digests.set(id, digest);
    }
    const record: DatasetOffer = { id, ...digest, url: new URL(`datasets/${id}.tar`, baseUrl).href, at: new Date().toISOString() };
    const json = JSON.stringify(record);
    await client.multi().set(offerKey(redis.prefix), json).publish(offerChannel(redis.prefix), json).exec();
    logger.info({ dataset: id, sha256: digest.sha256, bytes: digest.bytes, url: record.url }, 'dataset offered');
  };
  // One at a time, so two offers of a dataset hash it once.
  const offerDataset = (id: string) => {
    queue = queue.then(() => offer(id)).catch((error: unknown) => logger.error({ err: error, dataset: id }, 'cannot offer the dataset'));
    return queue;
  };

  const current = currentDatasetId(dataDir);
  if (current !== null) {
    const offered = parseOffer(await client.get(offerKey(redis.prefix)));
    if (offered === null || offered.id === current) void offerDataset(current);
    else logger.info({ dataset: current, offered: offered.id }, 'another dataset is offered; not offering the current one');
  }
  logger.info({ url: baseUrl.href, host: settings.host }, 'serving datasets to other nodes');
  return {
    offerDataset,
    async close() {
      server.close();
      server.closeAllConnections();
      await queue;
      client.disconnect();
    },
  };
}

/** The download server: 401 without the token, 404 for a dataset not offered (or deleted since), else the tar. */
function serveDatasets(dataDir: string, token: string, digests: Map<string, TarDigest>, logger: Logger): Server {
  const authorize = operatorTokenCheck(token);
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    // The container's health check (docs/cluster/compose.yaml): the worker's event loop answers; no token needed.
    if (req.method === 'GET' && req.url === '/healthz') {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
      return;
    }
    authorize(req.headers.authorization);
    // Matched on the request target as sent: `new URL` throws on some (`//`, `http://[`), which was a 500.
    const id = /^\/datasets\/([^/?#]+)\.tar(?:\?|$)/.exec(req.url ?? '')?.[1];
    if (req.method !== 'GET' || id === undefined || !isDatasetId(id)) throw notFound('the worker serves GET /datasets/<id>.tar');
    const digest = digests.get(id);
    if (!digest || !existsSync(paths.dataset(dataDir, id))) throw notFound(`dataset ${id} is not offered here`);
    logger.info({ dataset: id, client: req.socket.remoteAddress }, 'sending dataset');
    res.writeHead(200, { 'content-type': 'application/x-tar', 'content-length': digest.bytes });
    const tar = packDataset(dataDir, id);
    try {
      await Promise.all([pipeline(tar.child.stdout!, res), tar.exited]);
    } finally {
      tar.child.kill(); // The client went away: stop reading.
    }
  };
  const server = createServer((req, res) => {
    // llhttp reads a request line without a version as HTTP/0.9: refused, only HTTP/1.x is served.
    if (req.httpVersionMajor !== 1) {
      res
        .writeHead(400, { 'content-type': 'application/json', connection: 'close' })
        .end(errorBody(400, 'only HTTP/1.0 and HTTP/1.1 are served'));
      return;
    }
    handle(req, res).catch((error: unknown) => {
      if (res.headersSent) {
        if (!res.writableFinished) logger.warn({ err: error }, 'dataset download broke off');
        res.destroy();
        return;
      }
      const status = error instanceof ApiError ? error.statusCode : 500;
      if (status === 500) logger.error({ err: error }, 'cannot send the dataset');
      const headers = error instanceof ApiError ? error.headers : {};
      res.writeHead(status, { ...headers, 'content-type': 'application/json' }).end(errorBody(status, (error as Error).message));
    });
  });
  // A request node cannot parse (request line, header block, framing such as two Content-Lengths)
  // is answered 400, or 431 for an over-large header block, with the uniform body, and the
  // connection closed: its end is unknown, so nothing after it can be read.
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || !socket.writable) return socket.destroy();
    const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
    const body = errorBody(status, status === 431 ? 'the request headers are too large' : `malformed request: ${error.message}`);
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      () => socket.destroy(),
    );
  });
  return server;
}
