/**
 * The gateway every public service route runs behind: key check, scope check, the short-window
 * rate limits (control-plane/short-window.ts), quota reservation and rate-limit headers, all in
 * memory on the event loop (on Redis, from blocks of tokens and units the node holds). A reserved unit is committed only when
 * the handler answers 2xx or 304 to a client still there, and released otherwise, so enforcement is
 * exact under any concurrency and only answered requests are counted.
 */
import type { Clock } from '../clock.js';
import { checkKeyShape, hashKey } from '../control-plane/keys.js';
import { StoreUnavailable, type ControlStore, type Reservation } from '../control-plane/store.js';
import { bucketsOf, type WindowDecision } from '../control-plane/short-window.js';
import { quotaOf, TIER_LABELS } from '../control-plane/tiers.js';
import type { ApiKeyRecord, Organization, Service } from '../control-plane/types.js';
import { ApiError } from '../http/errors.js';
import { errorReply, type Reply } from '../http/reply.js';
import type { Request } from '../http/request.js';
import type { Handler } from '../http/router.js';
import { findKey } from './credentials.js';
import { KeyPolicy, policyOf } from './key-policy.js';
import { PeriodTracker, rateLimitHeaders, type Period } from './rate-limit.js';
import { windowHeaders, windowMessage } from './window-headers.js';

export interface Caller {
  key: ApiKeyRecord;
  org: Organization;
  /** SHA-256 of the key value the request carried: the key's current one, or its previous one during a roll's grace. */
  valueHash: string;
}

/** What a service route answers once its caller is known (and, when metered, its units reserved). */
export type ServiceHandler = (req: Request, caller: Caller) => Reply | Promise<Reply>;

/** A metered route as the gateway wraps it, made once per route. */
interface MeteredRoute {
  service: Service;
  handler: ServiceHandler;
  unitsOf: (req: Request) => number;
  /** For the usage analytics: the route, relative to `/api/v1`. */
  endpoint: string;
}

/** One metered request as the gateway's steps pass it on: who asks, for what, what it reserved. */
interface MeteredRequest {
  req: Request;
  caller: Caller;
  service: Service;
  handler: ServiceHandler;
  /** Units the request costs (reserved before the handler runs). */
  units: number;
  /** The quota period it is counted in, and when it was received. */
  period: Period;
  nowMs: number;
  /** The short-window buckets it took from; null when no per-minute limit applies. */
  window: WindowDecision | null;
}

/** An API route of a service, relative to `/api/v1` (e.g. `/geocoding/search`). */
export interface ServiceRoute {
  path: string;
  service: Service;
  /** False for routes that need the service's scope but cost nothing (styles, TileJSON, fonts…). */
  metered?: boolean;
  /**
   * Units a request costs, reserved before the handler runs (default 1); it may throw the request's
   * 400, which then costs nothing. E.g. a matrix: one unit per started 100 elements.
   */
  units?: (req: Request) => number;
  handler: ServiceHandler;
  /**
   * The route takes POST too: this reads the body as more query parameters (`a=1&b=2`), added to
   * the URL's before the key and the parameters are read; it throws the 4xx of a body it cannot read.
   */
  bodyAsQuery?: (req: Request) => string;
  /** A longer path and query than the server's 8,192 characters that this route accepts (414 beyond). */
  maxUrlLength?: number;
}

export interface GatewayEvents {
  /** A request refused because the organization's quota for the service is spent. */
  onQuotaRejected?(service: Service): void;
  /** A request refused by a short-window (per-minute) limit. */
  onWindowRejected?(service: Service): void;
}

const KEY_HELP = 'pass it as the key query parameter, an Authorization: Bearer header or an X-API-Key header';
const scopeMessage = (service: Service) =>
  `this API key lacks the "${service}" scope; create a key with that scope in the API Keys area of the dashboard`;
const unknownKey = () => new ApiError(401, 'unknown API key; create one in the API Keys area of the dashboard');
const REVOKED_MESSAGE = 'this API key has been revoked; create a new one in the API Keys area of the dashboard';
const keysUnavailable = (reason: string) =>
  new ApiError(503, `API keys cannot be checked right now (${reason}); try again shortly`, { 'Retry-After': '1' });

const ONE_UNIT = () => 1;

/** A metered request whose store could not be reached: refused, never served unmetered. */
function storeFailure(error: unknown): never {
  if (error instanceof StoreUnavailable) throw keysUnavailable(error.message);
  throw error;
}

/** Key values already checked and hashed; cleared when full, so junk keys cannot grow it. */
const MAX_CACHED_HASHES = 10_000;

export class Gateway {
  readonly periods: PeriodTracker;
  private readonly hashes = new Map<string, string>();

  constructor(
    private readonly store: ControlStore,
    private readonly clock: Clock,
    /** The dashboard's billing page as the caller reaches it. */
    private readonly billingUrl: (req: Request) => string,
    private readonly events: GatewayEvents = {},
    /** The client's address for keys restricted to addresses (through trusted proxies). */
    private readonly clientAddressOf: (req: Request) => string = (req) => req.remoteAddress,
  ) {
    this.periods = new PeriodTracker(clock);
  }

  /**
   * The active key and organization a request authenticates as, where the key's restrictions allow
   * it; throws the 400/401/403 otherwise. A promise only for a key the directory lacks, which a
   * networked store may still know.
   */
  authenticate(req: Request, service?: Service): Caller | Promise<Caller> {
    const { directory } = this.store;
    const unavailable = directory.unavailable();
    if (unavailable !== null) throw keysUnavailable(unavailable);
    const value = findKey(req);
    if (value === null) throw new ApiError(401, `an API key is required: ${KEY_HELP}`);
    const hash = this.hashOf(value);
    const key = directory.keyByHash(hash);
    if (key) return this.callerOf(key, hash, req, service);
    if (!directory.findMissingKey) throw unknownKey();
    return directory.findMissingKey(hash).then((found) => {
      if (!found) throw unknownKey();
      return this.callerOf(found, hash, req, service);
    }, storeFailure);
  }

  /** The caller a key makes once its status, restrictions and (when given) scope are checked; throws the refusal. */
  private checkedCaller(key: ApiKeyRecord, valueHash: string, req: Request, service?: Service): Caller {
    if (key.status === 'revoked') throw new ApiError(401, REVOKED_MESSAGE);
    if (KeyPolicy.applies(key, valueHash)) policyOf(key).check(key, valueHash, req, this.clock.now(), this.clientAddressOf);
    if (service !== undefined && !key.scopes.includes(service)) throw new ApiError(403, scopeMessage(service));
    const org = this.store.directory.org(key.orgId);
    if (!org) throw new ApiError(401, 'unknown API key; its organization no longer exists');
    return { key, org, valueHash };
  }

  /**
   * As checkedCaller; but on a networked store a refusal is confirmed on a fresh read of the key
   * first, for the rule may have been lifted through another node a moment ago and this node's
   * directory learn it only an instant later. Refusals are the rare path; answers stay in memory.
   */
  private callerOf(key: ApiKeyRecord, valueHash: string, req: Request, service?: Service): Caller | Promise<Caller> {
    try {
      return this.checkedCaller(key, valueHash, req, service);
    } catch (error) {
      if (!(error instanceof ApiError) || !this.store.directory.refreshKey) throw error;
      return this.refreshedCaller(key.id, valueHash, req, service);
    }
  }

  /** The caller with its key re-read from a networked store and checked again. */
  private async refreshedCaller(keyId: string, valueHash: string, req: Request, service?: Service): Promise<Caller> {
    const key = await this.store.directory.refreshKey!(keyId).catch(storeFailure);
    if (!key) throw unknownKey();
    return this.checkedCaller(key, valueHash, req, service);
  }

  /**
   * For a reservation the store found stale (the key was edited or rolled through another node a
   * moment ago): the caller re-read and checked again; a refusal gives the units back.
   */
  private async refreshedReservation(req: Request, caller: Caller, service: Service, reservation: Reservation): Promise<Caller> {
    try {
      return await this.refreshedCaller(caller.key.id, caller.valueHash, req, service);
    } catch (error) {
      this.store.ledger.release(reservation);
      throw error;
    }
  }

  /** SHA-256 of a well-formed key; throws the 401 for a malformed one without any look-up. */
  private hashOf(value: string): string {
    const cached = this.hashes.get(value);
    if (cached) return cached;
    const shape = checkKeyShape(value);
    if (shape === 'bad-format') {
      throw new ApiError(401, 'malformed API key: Waymark keys are "wmk_" followed by 38 letters and digits');
    }
    if (shape === 'bad-checksum') {
      throw new ApiError(401, 'malformed API key: its checksum does not match; check that the whole key was copied');
    }
    if (this.hashes.size >= MAX_CACHED_HASHES) this.hashes.clear();
    const hash = hashKey(value);
    this.hashes.set(value, hash);
    return hash;
  }

  /** The 429 message: what was exceeded, and how to get more (an upgrade, or on Enterprise a higher custom quota). */
  private quotaMessage(req: Request, service: Service, org: Organization, limit: number | null): string {
    const exceeded = `monthly quota exceeded for the ${service} service (${limit} requests per month`;
    if (org.tier === 'enterprise') return `${exceeded}, the custom quota of your Enterprise plan); contact us to raise the custom quota`;
    return `${exceeded} on the ${TIER_LABELS[org.tier]} plan); upgrade at the billing page: ${this.billingUrl(req)}`;
  }

  /** Wraps a handler that needs `service`'s scope but is not metered (no quota, no usage, no headers). */
  scoped(service: Service, handler: ServiceHandler): Handler {
    return (req) => {
      const caller = this.authenticate(req, service);
      return caller instanceof Promise ? caller.then((found) => handler(req, found)) : handler(req, caller);
    };
  }

  /**
   * Wraps a service handler with authentication, scope check and metering of `service` (`unitsOf`:
   * what a request costs); once its key is known, its answer is counted for the usage analytics as
   * one of `endpoint`'s (the route, relative to `/api/v1`).
   */
  meter(service: Service, handler: ServiceHandler, unitsOf: (req: Request) => number = ONE_UNIT, endpoint = ''): Handler {
    const route: MeteredRoute = { service, handler, unitsOf, endpoint };
    return (req) => {
      const caller = this.authenticate(req);
      return caller instanceof Promise ? caller.then((found) => this.counted(req, found, route)) : this.counted(req, caller, route);
    };
  }

  /** The metering steps on the request, and its answer's status (a thrown ApiError's, or a 5xx) counted in the store's analytics. */
  private counted(req: Request, caller: Caller, route: MeteredRoute): Reply | Promise<Reply> {
    let reply: Reply | Promise<Reply>;
    try {
      reply = this.meterCaller(req, caller, route);
    } catch (error) {
      return this.countFailure(caller, route, error);
    }
    if (reply instanceof Promise) {
      return reply.then(
        (done) => this.countReply(caller, route, done),
        (error: unknown) => this.countFailure(caller, route, error),
      );
    }
    return this.countReply(caller, route, reply);
  }

  private countReply(caller: Caller, route: MeteredRoute, reply: Reply): Reply {
    this.store.analytics.count(caller.org.id, caller.key.id, route.service, route.endpoint, reply.status, this.periods.now().day);
    return reply;
  }

  private countFailure(caller: Caller, route: MeteredRoute, error: unknown): never {
    const status = error instanceof ApiError ? error.statusCode : 500;
    this.store.analytics.count(caller.org.id, caller.key.id, route.service, route.endpoint, status, this.periods.now().day);
    throw error;
  }

  /**
   * The metering steps: the scope (confirmed on a fresh read before a refusal, see callerOf), the
   * short-window limits (`limitWindow`), a reservation of the request's units (`reserve`), then the
   * handler on it (`runReserved`).
   */
  private meterCaller(req: Request, caller: Caller, route: MeteredRoute, fresh = false): Reply | Promise<Reply> {
    const { service, handler, unitsOf } = route;
    const nowMs = this.clock.now();
    const period = this.periods.now(nowMs);
    if (!caller.key.scopes.includes(service)) {
      if (!fresh && this.store.directory.refreshKey) {
        return this.refreshedCaller(caller.key.id, caller.valueHash, req).then((again) => this.meterCaller(req, again, route, true));
      }
      return this.refuseWithQuotaHeaders(caller.org, service, period, new ApiError(403, scopeMessage(service)));
    }
    return this.limitWindow({ req, caller, service, handler, units: unitsOf(req), period, nowMs, window: null });
  }

  /** Takes a token from each short-window bucket of the request; a 429 when one is empty, else on to the reservation. */
  private limitWindow(request: MeteredRequest): Reply | Promise<Reply> {
    const { caller, service } = request;
    const buckets = bucketsOf(caller.org, caller.key, service);
    if (buckets.length === 0) return this.reserve(request);
    const go = (window: WindowDecision): Reply | Promise<Reply> => {
      request.window = window;
      if (window.allowed) return this.reserve(request);
      this.events.onWindowRejected?.(service);
      const headers = { 'Retry-After': String(window.retryAfterS), ...windowHeaders(window) };
      const refusal = new ApiError(429, windowMessage(service, window), headers);
      return this.refuseWithQuotaHeaders(caller.org, service, request.period, refusal);
    };
    const window = this.store.shortWindow.take(buckets);
    return window instanceof Promise ? window.then(go, storeFailure) : go(window);
  }

  /** A refusal before any reservation (a missing scope, a short-window limit), with the organization's monthly rate-limit headers. */
  private refuseWithQuotaHeaders(
    org: Organization,
    service: Service,
    { month, resetIso }: Period,
    refusal: ApiError,
  ): Reply | Promise<Reply> {
    const limit = quotaOf(org, service);
    const refuse = (used: number) =>
      errorReply(refusal.statusCode, refusal.message, { ...refusal.headers, ...rateLimitHeaders(limit, used, resetIso) });
    const used = this.store.ledger.used(org.id, service, month);
    return used instanceof Promise ? used.then(refuse, storeFailure) : refuse(used);
  }

  /** Reserves the request's units of the month's quota; a reservation the store found stale re-checks the caller first. */
  private reserve(request: MeteredRequest): Reply | Promise<Reply> {
    const { req, caller, service, units } = request;
    const { org, key } = caller;
    const { month, day } = request.period;
    const reservation = this.store.ledger.reserve({ org, key, service, month, day, limit: quotaOf(org, service), units });
    const run = (granted: Reservation): Reply | Promise<Reply> =>
      granted.stale && this.store.directory.refreshKey
        ? this.refreshedReservation(req, caller, service, granted).then((fresh) => this.runReserved({ ...request, caller: fresh }, granted))
        : this.runReserved(request, granted);
    return reservation instanceof Promise ? reservation.then(run, storeFailure) : run(reservation);
  }

  /** Runs the handler on a reservation (or refuses: revoked 401, quota 429), and settles the reservation by the answer. */
  private runReserved(request: MeteredRequest, reservation: Reservation): Reply | Promise<Reply> {
    const { req, caller, service } = request;
    const { resetIso } = request.period;
    if (reservation.revoked) throw new ApiError(401, REVOKED_MESSAGE);
    if (!reservation.granted) {
      this.events.onQuotaRejected?.(service);
      const { limit, used } = reservation;
      const headers = { ...rateLimitHeaders(limit, used, resetIso), ...windowHeaders(request.window) };
      return errorReply(429, this.quotaMessage(req, service, caller.org, limit), headers);
    }
    try {
      const result = request.handler(req, caller);
      return result instanceof Promise
        ? result.then(
            (reply) => this.settle(request, reservation, reply),
            (error: unknown) => this.settleFailure(request, reservation, error),
          )
        : this.settle(request, reservation, result);
    } catch (error) {
      return this.settleFailure(request, reservation, error);
    }
  }

  /** A handler's answer: its units committed when it succeeded for a client still there, else released; the rate-limit headers added. */
  private settle({ req, caller, units, period, nowMs, window }: MeteredRequest, reservation: Reservation, reply: Reply): Reply {
    const ledger = this.store.ledger;
    const success = (reply.status >= 200 && reply.status < 300) || reply.status === 304;
    // A client that went away (it gave up waiting) was not served, whatever the handler answered.
    if (success && !req.clientGone) {
      ledger.commit(reservation);
      ledger.touchKey(caller.key.id, nowMs);
    } else {
      ledger.release(reservation);
    }
    const used = reservation.used + (success ? units : 0);
    Object.assign(reply.headers, rateLimitHeaders(reservation.limit, used, period.resetIso), windowHeaders(window));
    return reply;
  }

  /** A handler's throw: the units released; an ApiError becomes its reply with the rate-limit headers, anything else goes on up. */
  private settleFailure({ period, window }: MeteredRequest, reservation: Reservation, error: unknown): Reply {
    this.store.ledger.release(reservation);
    if (error instanceof ApiError) {
      const headers = {
        ...error.headers,
        ...rateLimitHeaders(reservation.limit, reservation.used, period.resetIso),
        ...windowHeaders(window),
      };
      return errorReply(error.statusCode, error.message, headers, error.code);
    }
    throw error;
  }
}
