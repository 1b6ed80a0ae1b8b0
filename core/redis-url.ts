/**
 * The forms of `WAYMARK_REDIS_URL`: one Redis (`redis://`, `rediss://`, read by ioredis itself), or a
 * primary and its replicas behind Redis Sentinel, written as the redis-py world writes it
 * (redis-sentinel-url, RedisVL, Prefect; ioredis has no URL form of its own for Sentinel):
 *
 *   redis+sentinel://[[user]:password@]host[:port][,host[:port]…]/master-name[/db][?sentinel_username=…&sentinel_password=…]
 *
 * The hosts are Sentinels (port 26379 unless given); the user and password are the data nodes'
 * (primary and replicas), the `sentinel_*` options the Sentinels' own when they require one.
 */

export const SENTINEL_SCHEME = 'redis+sentinel://';
export const DEFAULT_SENTINEL_PORT = 26379;

/** Where Sentinel is and what to ask it for: the fields of ioredis' Sentinel options. */
export interface SentinelTarget {
  sentinels: { host: string; port: number }[];
  /** The master name the Sentinels monitor (`sentinel monitor <name> …`). */
  name: string;
  db: number;
  username?: string;
  password?: string;
  sentinelUsername?: string;
  sentinelPassword?: string;
}

const SENTINEL_OPTIONS = { sentinel_username: 'sentinelUsername', sentinel_password: 'sentinelPassword' } as const;
const EXAMPLE = `${SENTINEL_SCHEME}:password@10.0.0.1:26379,10.0.0.2:26379,10.0.0.3:26379/mymaster`;

/** The URL without its passwords, for messages and logs. */
export function redactedUrl(url: string): string {
  return url.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@').replace(/([?&]sentinel_password=)[^&#]*/g, '$1***');
}

export const isSentinelUrl = (url: string) => url.startsWith(SENTINEL_SCHEME);

/** Reads a `redis+sentinel://` URL; throws an Error saying what is wrong with it (passwords redacted). */
export function parseSentinelUrl(url: string): SentinelTarget {
  const wrong = (what: string) => new Error(`${JSON.stringify(redactedUrl(url))} ${what}; e.g. ${EXAMPLE}`);
  const parts = /^redis\+sentinel:\/\/(?:([^@/]*)@)?([^/?#@]*)(\/[^?#]*)?(?:\?([^#]*))?$/.exec(url);
  if (!parts) throw wrong('is not a redis+sentinel:// URL');
  const [, userInfo, hostList = '', path = '', query = ''] = parts;
  const target: SentinelTarget = { sentinels: hostList.split(',').map((entry) => sentinelAddress(entry, wrong)), name: '', db: 0 };
  if (userInfo !== undefined) {
    const colon = userInfo.indexOf(':');
    const [user, password] = colon < 0 ? [userInfo, ''] : [userInfo.slice(0, colon), userInfo.slice(colon + 1)];
    if (user) target.username = decoded(user, wrong);
    if (password) target.password = decoded(password, wrong);
  }
  const [name, db, ...rest] = path.split('/').slice(1);
  if (!name || rest.length > 0) throw wrong('needs the master name the Sentinels monitor as its path (then the database number, if not 0)');
  target.name = decoded(name, wrong);
  if (db !== undefined) {
    if (!/^\d{1,5}$/.test(db)) throw wrong(`has a database that is not a number: ${JSON.stringify(db)}`);
    target.db = Number(db);
  }
  for (const [option, value] of new URLSearchParams(query)) {
    if (!Object.hasOwn(SENTINEL_OPTIONS, option)) {
      throw wrong(`has an unknown option ${JSON.stringify(option)} (there are ${Object.keys(SENTINEL_OPTIONS).join(' and ')})`);
    }
    target[SENTINEL_OPTIONS[option as keyof typeof SENTINEL_OPTIONS]] = value;
  }
  return target;
}

function sentinelAddress(entry: string, wrong: (what: string) => Error): { host: string; port: number } {
  const address = /^(\[[0-9a-fA-F:.]+\]|[^:[\]\s]+)(?::(\d{1,5}))?$/.exec(entry);
  const port = Number(address?.[2] ?? DEFAULT_SENTINEL_PORT);
  if (!address || port < 1 || port > 65535) throw wrong(`names a Sentinel ${JSON.stringify(entry)} that is not host[:port]`);
  return { host: address[1]!.replace(/^\[|\]$/g, ''), port };
}

function decoded(part: string, wrong: (what: string) => Error): string {
  try {
    return decodeURIComponent(part);
  } catch {
    throw wrong('has a malformed %-escape');
  }
}
