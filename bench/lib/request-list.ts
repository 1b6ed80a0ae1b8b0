/**
 * Fixed request lists for wrk: a seeded shuffle (every run requests the same things in the same
 * order) and a Lua script that cycles through a list of paths.
 */
import { writeFileSync } from 'node:fs';

/** A small deterministic PRNG (mulberry32): numbers in [0, 1). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/** Fisher–Yates shuffles `items` in place with `random` and returns them. */
export function shuffle<T>(items: T[], random: () => number): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

/** A request with a body, for a wrk script (a GET is its path alone). */
export interface WrkRequest {
  method: string;
  path: string;
  body: string;
  headers?: Record<string, string>;
}

const luaTable = (headers: Record<string, string>) =>
  `{${Object.entries(headers)
    .map(([name, value]) => `[${JSON.stringify(name)}] = ${JSON.stringify(value)}`)
    .join(', ')}}`;

/**
 * A wrk script sending `requests` in turn (a string is a GET of that path). The requests are
 * formatted once in `init` (with the `-H` headers): building one per call in `request()` would make
 * wrk, not the server, the limit.
 */
export function writeWrkScript(file: string, requests: (string | WrkRequest)[]): void {
  const formats = requests.map((request) =>
    typeof request === 'string'
      ? `wrk.format("GET", ${JSON.stringify(request)})`
      : `wrk.format(${JSON.stringify(request.method)}, ${JSON.stringify(request.path)}, ${luaTable(request.headers ?? {})}, ${JSON.stringify(request.body)})`,
  );
  writeFileSync(
    file,
    `local requests = {}\nlocal n = 0\n\n` +
      `function init(args)\n  requests = {\n    ${formats.join(',\n    ')}\n  }\nend\n\n` +
      'function request()\n  n = n % #requests + 1\n  return requests[n]\nend\n',
  );
}
