/**
 * uWebSockets.js glue: turns each HTTP request into a `Request`, runs the application's handler
 * and writes its `Reply`. Synchronous replies are written at once; async ones after checking the
 * client has not gone away. Refused here with the uniform error body: over-long URLs (414),
 * header blocks over `maxHeaderBytes` (431), and Content-Length headers of different values (400,
 * connection closed; repeats of one value are accepted).
 *
 * Content-Length framing uWebSockets.js 20.30 cannot follow is closed by it at once, unanswered,
 * whatever the handler writes: one field listing values (`Content-Length: 2, 5`, or anything but
 * digits), and two different fields with another request in the same packet after the body (it
 * closes a connection on which a request arrives while the previous answer is pending; answering
 * at once instead would serve that request). Either way no request hidden behind is ever served;
 * test/protocol.test.ts pins both as known failures.
 *
 * What never reaches this glue, because uWebSockets.js 20.30's parser takes it for an incomplete
 * request and waits: a request line that is not `METHOD /target HTTP/1.1` (HTTP/1.0, HTTP/0.9,
 * HTTP/2, a NUL or space in the target, junk), more than 48 header fields, a field without a
 * colon or with control characters, no Host. Such a connection gets no answer and is closed at
 * uWS's idle timeout (10 s); one whose head is over 4 KB and arrives in several reads is closed
 * at once. No uWS setting changes this, newer uWS answers HTTP/1.0 with 505 or 400, and answering
 * it here would take a listener in front that relays every byte (measured: 11 µs more CPU per
 * request, as much again as a whole gateway request, 12 µs). So proxies in front must speak
 * HTTP/1.1 (nginx: `proxy_http_version 1.1`, as in docs/cluster/nginx.conf);
 * test/protocol.test.ts keeps HTTP/1.0 and 60 header fields as known failures.
 */
import { STATUS_CODES } from 'node:http';
import uWS from 'uWebSockets.js';
import { errorReply, type Reply } from './reply.js';
import { Request } from './request.js';

export type AppHandler = (req: Request) => Reply | Promise<Reply>;

export interface ListenOptions {
  host: string;
  port: number;
  /** Largest request body accepted (dashboard JSON); larger ones get 413. */
  maxBodyBytes?: number;
  /** Longest path and query accepted; longer ones get 414 (Mapbox's static API allows 8192). */
  maxUrlLength?: number;
  /** Paths that accept a longer path and query than `maxUrlLength`, and how long. */
  longUrlPaths?: ReadonlyMap<string, number>;
  /** Largest header block accepted (names and values); larger ones get 431. */
  maxHeaderBytes?: number;
}

export interface RunningServer {
  port: number;
  close(): void;
}

const METHODS_WITH_BODY = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const statusLines = new Map<number, string>();
const statusLine = (status: number): string => {
  let line = statusLines.get(status);
  if (!line) statusLines.set(status, (line = `${status} ${STATUS_CODES[status] ?? ''}`));
  return line;
};

const INTERNAL_ERROR = 'internal error; the X-Request-Id of this response identifies it in the server logs';
const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;
let requestCounter = 0;
const requestIdPrefix = `${process.pid.toString(36)}-${Date.now().toString(36)}-`;
function requestId(given: string): string {
  return REQUEST_ID.test(given) ? given : requestIdPrefix + (++requestCounter).toString(36);
}

/**
 * Whether the connection closes after the answer: `asked` by the client (`Connection: close`, RFC 9112
 * §9.6), or `ours`. uWS closes it in both cases but writes `Connection: close` only for `ours`; a
 * client that was not told may send its next request on a connection about to close.
 */
type Closing = 'no' | 'asked' | 'ours';

const closingAsked = (request: Request): Closing =>
  /(?:^|,)\s*close\s*(?:,|$)/i.test(request.headers.get('connection') ?? '') ? 'asked' : 'no';

/** Answers that must not carry a body: a body there would be read as the start of the next answer. */
const withoutBody = (method: string, status: number) => method === 'HEAD' || status === 204 || status === 304;

/** Writes the reply, saying and doing `closing`. */
function write(res: uWS.HttpResponse, reply: Reply, id: string, method: string, closing: Closing): void {
  res.cork(() => {
    res.writeStatus(statusLine(reply.status));
    res.writeHeader('X-Request-Id', id);
    if (reply.preset) for (const [name, value] of reply.preset) res.writeHeader(name, value);
    for (const name in reply.headers) res.writeHeader(name, reply.headers[name]!);
    if (closing === 'asked') res.writeHeader('Connection', 'close');
    res.end(withoutBody(method, reply.status) ? '' : reply.body, closing !== 'no');
  });
}

/** The 414 or 431 for a request line or header block over the limits, else null. */
function oversized(request: Request, urlLengths: ReadonlyMap<string, number>, maxUrlLength: number, maxHeaderBytes: number): Reply | null {
  const limit = urlLengths.get(request.path) ?? maxUrlLength;
  if (request.path.length + request.rawQuery.length + 1 > limit) {
    return errorReply(414, `the URL is longer than ${limit} characters; send fewer or shorter parameters`);
  }
  let headerBytes = 0;
  for (const [name, value] of request.headers) headerBytes += name.length + value.length + 4;
  if (headerBytes > maxHeaderBytes) {
    return errorReply(431, `the request headers are larger than ${maxHeaderBytes} bytes; send fewer or shorter headers`);
  }
  return null;
}

/**
 * Whether the request has Content-Length headers of different values (`5, 6` as the glue joins
 * them). uWS frames the body by the first one, a proxy in front may have used another: the end
 * of the body, and so the start of the next request, is ambiguous (request smuggling, RFC 9112
 * §6.3). Repeats of one value are allowed (RFC 9110 §8.6).
 */
function conflictingLength(request: Request): boolean {
  const length = request.headers.get('content-length');
  if (length === undefined || !length.includes(',')) return false;
  const [first, ...rest] = length.split(',').map((value) => value.trim());
  return rest.some((value) => value !== first);
}

export function listen(handler: AppHandler, options: ListenOptions): Promise<RunningServer> {
  const maxBodyBytes = options.maxBodyBytes ?? 64 * 1024;
  const maxUrlLength = options.maxUrlLength ?? 8192;
  const longUrlPaths = options.longUrlPaths ?? new Map<string, number>();
  const maxHeaderBytes = options.maxHeaderBytes ?? 16 * 1024;
  const app = uWS.App();

  app.any('/*', (res, req) => {
    const request = Request.fromUws(req, res, requestId);
    const { id, method } = request;
    const closing = closingAsked(request);
    // uWS needs an abort handler before answering later; attached only when the answer waits.
    let watching = false;
    const watchAbort = () => {
      if (watching) return;
      watching = true;
      res.onAborted(() => {
        request.clientGone = true;
      });
    };

    const run = (): void => {
      let result: Reply | Promise<Reply>;
      try {
        result = handler(request);
      } catch {
        result = errorReply(500, INTERNAL_ERROR);
      }
      if (!(result instanceof Promise)) return write(res, result, id, method, closing);
      watchAbort();
      result.then(
        (reply) => request.clientGone || write(res, reply, id, method, closing),
        () => request.clientGone || write(res, errorReply(500, INTERNAL_ERROR), id, method, closing),
      );
    };

    const refused = oversized(request, longUrlPaths, maxUrlLength, maxHeaderBytes);
    if (refused) return write(res, refused, id, method, closing);
    if (conflictingLength(request)) {
      // Answered on the next turn of the event loop, closing the connection: whatever follows
      // cannot be told apart from the body. Answered now, uWS would read on past the answer and
      // serve a request hidden after the body; by the next turn it has read the rest of this
      // packet and, if a request was there, closed the connection itself.
      watchAbort();
      setImmediate(
        () =>
          request.clientGone ||
          write(res, errorReply(400, 'the request has Content-Length headers of different values'), id, method, 'ours'),
      );
      return;
    }
    if (!METHODS_WITH_BODY.has(method)) return run();
    watchAbort();
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    res.onData((chunk, isLast) => {
      if (!tooLarge) {
        size += chunk.byteLength;
        if (size > maxBodyBytes) tooLarge = true;
        // uWS reuses the chunk's memory after this callback returns, so it is copied.
        else chunks.push(Buffer.from(chunk.slice(0)));
      }
      if (!isLast || request.clientGone) return;
      if (tooLarge) return write(res, errorReply(413, `request body larger than ${maxBodyBytes} bytes`), id, method, closing);
      request.body = Buffer.concat(chunks);
      run();
    });
  });

  return new Promise((resolve, reject) => {
    app.listen(options.host, options.port, (socket) => {
      if (!socket) return reject(new Error(`cannot listen on ${options.host}:${options.port} (in use, or not permitted)`));
      resolve({
        port: uWS.us_socket_local_port(socket),
        close: () => {
          uWS.us_listen_socket_close(socket);
          // Also drops kept-alive connections; present at run time though missing from the typings.
          (app as unknown as { close?: () => void }).close?.();
        },
      });
    });
  });
}
