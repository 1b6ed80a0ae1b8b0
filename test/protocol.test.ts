/**
 * Protocol edges (issue 21) on both listeners: the API (uWebSockets.js, src/http/server.ts) and
 * the worker's dataset server (node:http, src/cluster/dataset-offer.ts). Raw bytes over `node:net`; each
 * exchange waits for the server to close the connection, with a guard that fails the test: an
 * answer must never be a 5xx, and a request must never be met with silence until the guard.
 *
 * Known failures of the uWebSockets.js 20.30 parser (see src/http/server.ts): it answers nothing
 * to HTTP/1.0 and to more than 48 header fields, and closes such a connection only at its 10 s
 * idle timeout; and it closes at once, unanswered, a connection whose Content-Length framing it
 * cannot follow (two values in one field, or two fields with a request pipelined behind).
 */
import test, { type ExecutionContext } from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDatasetOffers } from '../src/cluster/dataset-offer.js';
import { silentLogging } from '../src/observability/logger.js';
import { serve } from './helpers/fixtures.js';
import { rawExchange } from './helpers/http.js';
import { queueFixture } from './helpers/queue.js';

/** Longer than uWS's idle timeout (10 s, checked every 4 s), short of the test's own timeout. */
const GUARD_MS = 30_000;
const TOKEN = 'operator-token-for-the-protocol-tests-0123456789';

interface Answer {
  /** null when the server closed the connection without an answer. */
  status: number | null;
  head: string;
  headers: Map<string, string>;
  body: string;
}

/**
 * Writes the bytes and reads until the server closes the connection (or resets it). Rejects when
 * the guard passes first: the server left the client waiting.
 */
function exchange(port: number, bytes: string | Buffer): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const guard = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer and no close in ${GUARD_MS} ms to ${JSON.stringify(String(bytes).slice(0, 80))}`));
    }, GUARD_MS);
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', () => socket.destroy());
    socket.on('close', () => {
      clearTimeout(guard);
      resolve(parse(Buffer.concat(chunks).toString('latin1')));
    });
    socket.write(bytes);
  });
}

function parse(text: string): Answer {
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) return { status: null, head: text, headers: new Map(), body: '' };
  const [statusLine = '', ...lines] = text.slice(0, end).split('\r\n');
  const headers = new Map(
    lines.map((line) => [line.slice(0, line.indexOf(':')).trim().toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
  );
  const status = /^HTTP\/1\.[01] (\d{3}) /.exec(statusLine);
  let body = text.slice(end + 4);
  if (headers.get('transfer-encoding') === 'chunked') body = unchunk(body);
  return { status: status ? Number(status[1]) : null, head: text.slice(0, end), headers, body };
}

function unchunk(text: string): string {
  let body = '';
  for (let at = 0; at < text.length; ) {
    const lineEnd = text.indexOf('\r\n', at);
    const size = parseInt(text.slice(at, lineEnd), 16);
    if (!(size > 0)) break;
    body += text.slice(lineEnd + 2, lineEnd + 2 + size);
    at = lineEnd + 2 + size + 2;
  }
  return body;
}

/** The uniform error body with this status. */
function errorBody(answer: Answer): { statusCode: number; error: string; message: string } {
  const body = JSON.parse(answer.body) as { statusCode: number; error: string; message: string };
  if (body.statusCode !== answer.status || typeof body.error !== 'string' || typeof body.message !== 'string') {
    throw new Error(`not the uniform error body: ${answer.body}`);
  }
  return body;
}

const fields = (count: number) => Array.from({ length: count }, (_, i) => `X-Field-${i}: value ${i}\r\n`).join('');

/** Malformed request lines and heads: each must get a 4xx or a closed connection. */
const MALFORMED: Record<string, string> = {
  'junk instead of a request line': 'GARBAGE\r\n\r\n',
  'an unknown HTTP version': 'GET /healthz HTTP/9.9\r\nHost: x\r\n\r\n',
  'a NUL in the path': 'GET /heal\0thz HTTP/1.1\r\nHost: x\r\n\r\n',
  'no version': 'GET /healthz\r\nHost: x\r\n\r\n',
  'an over-long method': `${'GET'.repeat(200)} /healthz HTTP/1.1\r\nHost: x\r\n\r\n`,
  'a space in the path': 'GET /heal thz HTTP/1.1\r\nHost: x\r\n\r\n',
  'a header without a colon': 'GET /healthz HTTP/1.1\r\nHost: x\r\nNoColon\r\n\r\n',
  'bare LF line ends': 'GET /healthz HTTP/1.1\nHost: x\n\n',
  'HTTP/2 cleartext preface': 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n',
};

/** Every exchange at once (uWS closes several of them only at its idle timeout); the failures, described. */
async function malformedFaults(port: number): Promise<string[]> {
  const faults = await Promise.all(
    Object.entries(MALFORMED).map(async ([name, bytes]) => {
      try {
        const answer = await exchange(port, bytes);
        if (answer.status === null && answer.head !== '') return `${name}: not HTTP: ${JSON.stringify(answer.head.slice(0, 80))}`;
        if (answer.status !== null && (answer.status < 400 || answer.status >= 500)) return `${name}: answered ${answer.status}`;
        return null;
      } catch (error) {
        return `${name}: ${(error as Error).message}`;
      }
    }),
  );
  return faults.filter((fault) => fault !== null);
}

// ---------------------------------------------------------------------------------------------
// The API listener

test.failing('API: an HTTP/1.0 GET /healthz is answered and the server closes the connection (uWS 20.30 answers nothing)', async (t) => {
  const server = await serve(t);
  const answer = await exchange(server.port, 'GET /healthz HTTP/1.0\r\n\r\n');
  t.is(answer.status, 200, answer.head);
  t.deepEqual(JSON.parse(answer.body), { status: 'ok' });
  t.falsy(answer.headers.get('transfer-encoding'));
});

test.failing('API: a request with 60 header fields gets 431 with the uniform body (uWS 20.30 answers nothing past 48)', async (t) => {
  const server = await serve(t);
  const answer = await exchange(server.port, `GET /healthz HTTP/1.1\r\nHost: x\r\n${fields(58)}Connection: close\r\n\r\n`);
  t.is(answer.status, 431, answer.head);
  t.is(errorBody(answer).statusCode, 431);
});

test('API: 48 header fields (the most uWS 20.30 passes on) are served', async (t) => {
  const server = await serve(t);
  const answer = await exchange(server.port, `GET /healthz HTTP/1.1\r\nHost: x\r\n${fields(46)}Connection: close\r\n\r\n`);
  t.is(answer.status, 200, answer.head);
});

test('API: a request asking Connection: close is answered with Connection: close, then the connection is closed; keep-alive stays open', async (t) => {
  const server = await serve(t);
  for (const connection of ['close', 'Close', 'TE, close']) {
    const answer = await exchange(server.port, `GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: ${connection}\r\n\r\n`);
    t.is(answer.status, 200, answer.head);
    t.is(answer.headers.get('connection'), 'close', connection);
  }
  // Two requests on one connection, the second asking to close: both answered, only the second says close.
  const both = await rawExchange(
    server.port,
    'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\nGET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
  );
  const heads = both.split('HTTP/1.1 ').slice(1);
  t.is(heads.length, 2, both);
  t.false(/\r\nConnection: close\r\n/i.test(heads[0]!), heads[0]);
  t.regex(heads[1]!, /\r\nConnection: close\r\n/i);
});

const twoLengths = (first: string, second: string) =>
  `POST /dashboard/api/signin HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${first}\r\nContent-Length: ${second}\r\n\r\n`;
/** One Content-Length field listing two values, as RFC 9110 §8.6 allows a sender to fold them. */
const listedLengths = (first: string, second: string) =>
  `POST /dashboard/api/signin HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${first}, ${second}\r\n\r\n`;
const HIDDEN_REQUEST = 'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n';

test('API: two different Content-Length values get 400 with the uniform body, and the connection is closed', async (t) => {
  const server = await serve(t);
  for (const [first, second] of [
    ['2', '5'],
    ['5', '2'],
  ] as const) {
    const answer = await exchange(server.port, `${twoLengths(first, second)}{}`);
    t.is(answer.status, 400, answer.head);
    t.regex(errorBody(answer).message, /Content-Length/);
    t.is(answer.headers.get('connection'), 'close');
  }
});

test.failing('API: two Content-Lengths followed by another request in the same packet get 400 (uWS 20.30 closes without an answer)', async (t) => {
  const server = await serve(t);
  const answer = await exchange(server.port, `${twoLengths('2', '5')}{}${HIDDEN_REQUEST}`);
  t.is(answer.status, 400, answer.head);
});

test.failing('API: one Content-Length field listing two values gets 400 (uWS 20.30 closes without an answer)', async (t) => {
  const server = await serve(t);
  const answer = await exchange(server.port, `${listedLengths('2', '5')}{}`);
  t.is(answer.status, 400, answer.head);
});

test('API: what uWS 20.30 does instead: the connection is closed at once, unanswered, and a request hidden after the body is never served', async (t) => {
  const server = await serve(t);
  for (const bytes of [
    `${twoLengths('2', '5')}{}${HIDDEN_REQUEST}`,
    `${twoLengths('5', '2')}{}${HIDDEN_REQUEST}`,
    `${listedLengths('2', '5')}{}${HIDDEN_REQUEST}`,
    `${listedLengths('2', '2')}{}`,
  ]) {
    const started = Date.now();
    const answer = await exchange(server.port, bytes);
    t.deepEqual([answer.status, answer.head], [null, ''], bytes);
    // Well before uWS's 10 s idle timeout: the parser gave up on the connection.
    t.true(Date.now() - started < 5000, `closed after ${Date.now() - started} ms`);
  }
});

test('API: a repeated identical Content-Length is accepted (RFC 9110 §8.6)', async (t) => {
  const server = await serve(t);
  const body = '{"email":"nobody@example.com","password":"wrong password"}';
  const answer = await exchange(
    server.port,
    `POST /dashboard/api/signin HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
  );
  // The body was read and judged: wrong credentials, not a framing error.
  t.is(answer.status, 401, answer.body);
});

test('API: malformed request lines and heads get a 4xx or a closed connection, never a 5xx or silence', async (t) => {
  const server = await serve(t);
  t.deepEqual(await malformedFaults(server.port), []);
  // And the server still serves.
  t.is((await exchange(server.port, 'GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')).status, 200);
});

// ---------------------------------------------------------------------------------------------
// The worker's dataset server

async function datasetServer(t: ExecutionContext): Promise<number> {
  const fixture = queueFixture(t);
  const dataDir = mkdtempSync(join(tmpdir(), 'waymark-protocol-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  // A free port: the server listens on the port of its URL.
  const probe = net.createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => probe.once('listening', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  const offers = await startDatasetOffers(
    fixture.redis,
    dataDir,
    { url: `http://127.0.0.1:${port}`, host: '127.0.0.1', token: TOKEN },
    silentLogging().logger,
  );
  fixture.onEnd(() => offers.close());
  return port;
}

test('dataset server: malformed request lines and heads get a 4xx or a closed connection, never a 5xx or silence', async (t) => {
  const port = await datasetServer(t);
  t.deepEqual(await malformedFaults(port), []);
});

test('dataset server: a request node cannot parse gets 400 (431 for a large header block) with the uniform body and a closed connection', async (t) => {
  const port = await datasetServer(t);
  for (const bytes of ['GARBAGE\r\n\r\n', 'GET /datasets/x.tar HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab']) {
    const answer = await exchange(port, bytes);
    t.is(answer.status, 400, answer.head);
    t.is(errorBody(answer).statusCode, 400);
    t.is(answer.headers.get('connection'), 'close');
  }
  const oversized = await exchange(port, `GET /datasets/x.tar HTTP/1.1\r\nHost: x\r\nX-Padding: ${'a'.repeat(20 * 1024)}\r\n\r\n`);
  t.is(oversized.status, 431, oversized.head);
  t.is(errorBody(oversized).statusCode, 431);
});

test('dataset server: request targets that are no URL path get 404, not 500', async (t) => {
  const port = await datasetServer(t);
  for (const target of ['//', '//x/datasets/a.tar', 'http://[', '*', '/datasets/%zz.tar']) {
    const answer = await exchange(port, `GET ${target} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TOKEN}\r\nConnection: close\r\n\r\n`);
    t.is(answer.status, 404, `${target}: ${answer.head}`);
    errorBody(answer);
  }
});

test('dataset server: HTTP/1.0 is answered, and the server closes the connection', async (t) => {
  const port = await datasetServer(t);
  const answer = await exchange(port, 'GET /datasets/none.tar HTTP/1.0\r\n\r\n');
  t.is(answer.status, 401, answer.head);
  t.falsy(answer.headers.get('transfer-encoding'));
  errorBody(answer);
});
