/**
 * A request as route handlers see it. uWebSockets.js only lets its request object be read during
 * the synchronous part of the handler, so everything is copied out of it at once.
 */
import type { HttpResponse as UwsResponse, HttpRequest as UwsRequest } from 'uWebSockets.js';

const NO_BODY = Buffer.alloc(0);
const EQUALS = 0x3d;
const NO_PARAMS: Readonly<Record<string, string>> = Object.freeze({});

export class Request {
  readonly headers = new Map<string, string>();
  private parsedQuery: URLSearchParams | undefined;
  /** The route pattern matched, for logs and metrics (`/api/v1/usage/current`). */
  route = 'unmatched';
  /** Path parameters of the matched route. */
  params: Readonly<Record<string, string>> = NO_PARAMS;
  body: Buffer = NO_BODY;
  id = '';
  /** The client went away before its answer was written (set by the server glue): nothing it was answered reaches it. */
  clientGone = false;
  private address: string | undefined;

  constructor(
    readonly method: string,
    readonly path: string,
    private currentQuery: string,
    private readonly readAddress: () => string,
  ) {}

  /** The query string as received, plus what `appendQuery` added. */
  get rawQuery(): string {
    return this.currentQuery;
  }

  /** Adds parameters (`a=1&b=2`) to the query: a body that carries a route's parameters (a form's). */
  appendQuery(parameters: string): void {
    if (parameters === '') return;
    this.currentQuery = this.currentQuery === '' ? parameters : `${this.currentQuery}&${parameters}`;
    this.parsedQuery = undefined;
  }

  /** Copies a uWS request; `makeId` gets the client's X-Request-Id header ('' when absent). */
  static fromUws(req: UwsRequest, res: UwsResponse, makeId: (given: string) => string): Request {
    const request = new Request(req.getCaseSensitiveMethod().toUpperCase(), req.getUrl(), req.getQuery() ?? '', () =>
      Buffer.from(res.getRemoteAddressAsText()).toString(),
    );
    req.forEach((name, value) => {
      const existing = request.headers.get(name);
      request.headers.set(name, existing === undefined ? value : `${existing}, ${value}`);
    });
    request.id = makeId(request.headers.get('x-request-id') ?? '');
    return request;
  }

  /** The client's IP address. Read it before the reply is written (uWS frees the connection's state then). */
  get remoteAddress(): string {
    return (this.address ??= this.readAddress());
  }

  get query(): URLSearchParams {
    return (this.parsedQuery ??= new URLSearchParams(this.rawQuery));
  }

  /**
   * The values of one query parameter, as `query.getAll` gives them. A query without escapes
   * (`%`, `+`) is scanned for that parameter alone, which costs less than parsing all of it.
   */
  queryAll(name: string): string[] {
    const raw = this.rawQuery;
    if (this.parsedQuery !== undefined || raw.includes('%') || raw.includes('+')) return this.query.getAll(name);
    const values: string[] = [];
    for (let start = 0; start < raw.length; ) {
      let end = raw.indexOf('&', start);
      if (end < 0) end = raw.length;
      const afterName = start + name.length;
      if (raw.startsWith(name, start) && (afterName === end || raw.charCodeAt(afterName) === EQUALS)) {
        values.push(raw.slice(Math.min(afterName + 1, end), end));
      }
      start = end + 1;
    }
    return values;
  }

  header(name: string): string | undefined {
    return this.headers.get(name);
  }

  /** Value of one cookie, or undefined. */
  cookie(name: string): string | undefined {
    const header = this.headers.get('cookie');
    if (!header) return undefined;
    for (const part of header.split(';')) {
      const eq = part.indexOf('=');
      if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
    }
    return undefined;
  }
}
