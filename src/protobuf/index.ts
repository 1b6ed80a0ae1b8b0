/**
 * Protobuf bodies for the JSON endpoints, as one layer around their handlers: a request asking for
 * protobuf (negotiate.ts) gets the handler's JSON answer encoded as the route's message type
 * (json-to-message.ts), from the `.proto` files published at `/api/v1/schemas/`. Errors stay JSON.
 * See docs/API.md, "Protobuf bodies".
 */
import type protobuf from 'protobufjs';
import type { Reply } from '../http/reply.js';
import type { Request } from '../http/request.js';
import type { Handler } from '../http/router.js';
import { encodeJson } from './json-to-message.js';
import { requestedFormat, type BodyFormat } from './negotiate.js';
import { loadSchemas, readSchemaFiles, type SchemaFile } from './schemas.js';
import { schemaRoutes } from './schema-routes.js';

export const PROTOBUF_MEDIA_TYPE = 'application/x-protobuf';

/** The message type of each route path (under `/api/v1`) that can answer protobuf. */
export const PROTOBUF_MESSAGES: Readonly<Record<string, string>> = {
  '/directions': 'waymark.DirectionsResponse',
  '/isochrone': 'waymark.IsochroneResponse',
  '/matrix': 'waymark.MatrixResponse',
  '/match': 'waymark.MatchResponse',
  '/optimize': 'waymark.OptimizeResponse',
  '/geocoding/search': 'waymark.GeocodeResponse',
  '/geocoding/search/structured': 'waymark.GeocodeResponse',
  '/geocoding/autocomplete': 'waymark.GeocodeResponse',
  '/geocoding/reverse': 'waymark.GeocodeResponse',
  '/geocoding/place': 'waymark.GeocodeResponse',
  '/geocode': 'waymark.GeocodeResponse',
  '/elevation': 'waymark.ElevationResponse',
};

type ServiceHandler<C> = (req: Request, caller: C) => Reply | Promise<Reply>;

export class ProtobufBodies {
  readonly files: readonly SchemaFile[] = readSchemaFiles();
  private readonly root: protobuf.Root = loadSchemas(this.files);

  /** The schema routes (`/schemas/`, `/schemas/{file}.proto`), public and unmetered. */
  schemaRoutes(): { path: string; handler: Handler }[] {
    return schemaRoutes(this.files, PROTOBUF_MESSAGES);
  }

  /**
   * `handler` answering protobuf too when the route has a message type (else `handler` itself).
   * `format` is this layer's parameter: it is taken out of the query before the handler reads it.
   */
  wrap<C>(path: string, handler: ServiceHandler<C>): ServiceHandler<C> {
    const typeName = PROTOBUF_MESSAGES[path];
    if (typeName === undefined) return handler;
    const type = this.root.lookupType(typeName);
    const contentType = `${PROTOBUF_MEDIA_TYPE}; messageType=${typeName}`;
    // Only successes change: errors keep their JSON body, and do not vary with Accept.
    const answer = (reply: Reply, asked: BodyFormat): Reply => {
      if (reply.status < 200 || reply.status >= 300) return reply;
      reply.headers.Vary = 'Accept';
      if (asked === 'json') return reply;
      const body = typeof reply.body === 'string' ? reply.body : Buffer.from(reply.body).toString('utf8');
      return { ...reply, headers: { ...reply.headers, 'Content-Type': contentType }, body: encodeJson(type, body) };
    };
    return (req, caller) => {
      const asked = requestedFormat(req);
      req.query.delete('format');
      const result = handler(req, caller);
      return result instanceof Promise ? result.then((reply) => answer(reply, asked)) : answer(result, asked);
    };
  }
}
