/**
 * A request as route handlers see it. uWebSockets.js only lets its request object be read during
 * the synchronous part of the handler, so everything is copied out of it at once.
 */
import type { HttpRequest as UwsRequest } from 'uWebSockets.js';

export class Request {
  readonly headers = new Map<string, string>();
  private parsedQuery: URLSearchParams | undefined;
  /** The route pattern matched, for logs and metrics (`/api/v1/usage/current`). */
  route = 'unmatched';
  /** Path parameters of the matched route. */
  params: Record<string, string> = {};
  body: Buffer = Buffer.alloc(0);

  constructor(
    readonly id: string,
    readonly method: string,
    readonly path: string,
    readonly rawQuery: string,
    readonly remoteAddress: string,
  ) {}

  static fromUws(req: UwsRequest, id: string, remoteAddress: string): Request {
    const request = new Request(id, req.getCaseSensitiveMethod().toUpperCase(), req.getUrl(), req.getQuery() ?? '', remoteAddress);
    req.forEach((name, value) => {
      const existing = request.headers.get(name);
      request.headers.set(name, existing === undefined ? value : `${existing}, ${value}`);
    });
    return request;
  }

  get query(): URLSearchParams {
    return (this.parsedQuery ??= new URLSearchParams(this.rawQuery));
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
