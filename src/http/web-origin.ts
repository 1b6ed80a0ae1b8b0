/**
 * A web origin as a browser sends it in `Origin` (RFC 6454 §7): `scheme://host[:port]` and
 * nothing else. Parsed as a URL (WHATWG) and accepted only when the text is that URL's origin,
 * so that a query, fragment, user info or path (`https://evil.com?.example.com`,
 * `https://evil.com@.example.com`) can never pass for another host.
 */

/** Origins already parsed: a server sees few (its customers' web sites); cleared when full, so junk cannot grow it. */
const parsed = new Map<string, Readonly<URL> | null>();
const MAX_PARSED = 10_000;

/**
 * The origin `text` names, or null: `null` (an opaque origin), a scheme other than http(s), or
 * anything more or less than an origin. Remembered per text: parsing a URL costs a restricted key's
 * request more than all its checks (callers only read the URL).
 */
export function parseWebOrigin(text: string): Readonly<URL> | null {
  const known = parsed.get(text);
  if (known !== undefined) return known;
  if (parsed.size >= MAX_PARSED) parsed.clear();
  const origin = parseOnce(text);
  parsed.set(text, origin);
  return origin;
}

function parseOnce(text: string): URL | null {
  if (!URL.canParse(text)) return null;
  const url = new URL(text);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  // Browsers send origins lower-cased, punycoded, without a default port: that is the URL's own origin.
  return url.origin === text.toLowerCase() ? url : null;
}
