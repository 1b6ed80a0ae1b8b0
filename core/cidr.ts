/**
 * IPv4 and IPv6 address ranges (CIDR notation), for the trusted proxies and per-key IP
 * restrictions. Every address is held as 128 bits in four 32-bit words, an IPv4 address as its
 * IPv4-mapped IPv6 form (`::ffff:a.b.c.d`): one comparison serves both families, and the text uWS
 * gives for an IPv4 peer on a dual-stack socket (`0000:…:0000:ffff:7f00:0001`) is 127.0.0.1.
 */

/** A range or address that cannot be parsed; the message says what is wrong with it. */
export class CidrError extends Error {}

const DOT = 0x2e;
const COLON = 0x3a;

/**
 * Scratch space of the parsers, so that `contains` (on the path of every request of an
 * IP-restricted key) allocates nothing. Safe because parsing never yields to other code.
 */
const scratch = new Int32Array(4);
const groups = new Uint16Array(8);

/** A dotted-quad IPv4 address within text[start, end) as an unsigned number, or -1. */
function parseV4(text: string, start: number, end: number): number {
  let value = 0;
  let octet = 0;
  let digits = 0;
  let dots = 0;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === DOT) {
      if (digits === 0 || dots === 3) return -1;
      value = value * 256 + octet;
      octet = 0;
      digits = 0;
      dots++;
    } else if (c >= 0x30 && c <= 0x39) {
      // Leading zeros are refused: some parsers read 010 as octal 8.
      if (digits > 0 && octet === 0) return -1;
      octet = octet * 10 + (c - 0x30);
      digits++;
      if (octet > 255) return -1;
    } else {
      return -1;
    }
  }
  if (digits === 0 || dots !== 3) return -1;
  return value * 256 + octet;
}

function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  const lower = c | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : -1;
}

/** An IPv6 address within text[start, end) (an IPv4 tail allowed, no zone) into `out`; false if malformed. */
function parseV6(text: string, start: number, end: number, out: Int32Array): boolean {
  let count = 0;
  let gap = -1;
  let i = start;
  if (end - start >= 2 && text.charCodeAt(i) === COLON && text.charCodeAt(i + 1) === COLON) {
    gap = 0;
    i += 2;
  }
  while (i < end) {
    if (count === 8) return false;
    let j = i;
    let value = 0;
    for (let h = 0; j < end && j - i <= 4 && (h = hexValue(text.charCodeAt(j))) >= 0; j++) value = value * 16 + h;
    if (j < end && text.charCodeAt(j) === DOT) {
      // An IPv4 tail (`::ffff:1.2.3.4`) ends the address and fills its last two groups.
      const v4 = count <= 6 ? parseV4(text, i, end) : -1;
      if (v4 < 0) return false;
      groups[count++] = v4 >>> 16;
      groups[count++] = v4 & 0xffff;
      break;
    }
    if (j === i || j - i > 4) return false;
    groups[count++] = value;
    if (j === end) break;
    if (text.charCodeAt(j) !== COLON || j + 1 === end) return false;
    i = j + 1;
    if (text.charCodeAt(i) === COLON) {
      if (gap >= 0) return false;
      gap = count;
      i++;
    }
  }
  if (gap < 0 ? count !== 8 : count > 7) return false;
  if (gap >= 0) {
    // Moves the groups after `::` to the end and zeroes the ones it stands for.
    const zeros = 8 - count;
    for (let k = count - 1; k >= gap; k--) groups[k + zeros] = groups[k]!;
    groups.fill(0, gap, gap + zeros);
  }
  for (let w = 0; w < 4; w++) out[w] = (groups[2 * w]! << 16) | groups[2 * w + 1]!;
  return true;
}

/** Any IPv4 or IPv6 address text into `out` (IPv4 as mapped IPv6); false if it is not one. */
function parseAddress(text: string, out: Int32Array): boolean {
  if (text.includes(':')) return parseV6(text, 0, text.length, out);
  const v4 = parseV4(text, 0, text.length);
  if (v4 < 0) return false;
  out[0] = 0;
  out[1] = 0;
  out[2] = 0xffff;
  out[3] = v4 | 0;
  return true;
}

const isMapped = (words: ArrayLike<number>) => words[0] === 0 && words[1] === 0 && words[2] === 0xffff;

/** Mask word `w` (0–3) of a prefix length over 128 bits. */
function maskWord(prefix: number, w: number): number {
  const bits = prefix - 32 * w;
  return bits >= 32 ? -1 : bits <= 0 ? 0 : -1 << (32 - bits);
}

/** RFC 5952 text: IPv4 for mapped addresses, else lower-case hex with the longest zero run as `::`. */
function formatAddress(words: ArrayLike<number>): string {
  if (isMapped(words)) {
    const v4 = words[3]! >>> 0;
    return `${v4 >>> 24}.${(v4 >>> 16) & 255}.${(v4 >>> 8) & 255}.${v4 & 255}`;
  }
  const parts: number[] = [];
  for (let w = 0; w < 4; w++) parts.push((words[w]! >>> 16) & 0xffff, words[w]! & 0xffff);
  let bestStart = -1;
  let bestLength = 1;
  for (let k = 0; k < 8; ) {
    let end = k;
    while (end < 8 && parts[end] === 0) end++;
    if (end - k > bestLength) [bestStart, bestLength] = [k, end - k];
    k = end === k ? k + 1 : end;
  }
  const hex = (from: number, to: number) =>
    parts
      .slice(from, to)
      .map((p) => p.toString(16))
      .join(':');
  return bestStart < 0 ? hex(0, 8) : `${hex(0, bestStart)}::${hex(bestStart + bestLength, 8)}`;
}

/** The canonical text of an IPv4 or IPv6 address (IPv4-mapped IPv6 as IPv4), or null when it is not one. */
export function normalizeAddress(text: string): string | null {
  if (!parseAddress(text, scratch)) return null;
  // Dotted-quad text that parses is canonical already (leading zeros are refused): no new string.
  return text.includes(':') ? formatAddress(scratch) : text;
}

interface Range {
  /** The network's words, its host bits zero. */
  network: number[];
  /** Prefix length over 128 bits (an IPv4 /n is 96 + n). */
  prefix: number;
  text: string;
}

function parseRange(entry: string): Range {
  const text = entry.trim();
  const quoted = JSON.stringify(entry);
  if (text === '') throw new CidrError('an empty entry is not an IP address or range');
  const slash = text.indexOf('/');
  const addressText = slash < 0 ? text : text.slice(0, slash);
  const words = new Int32Array(4);
  if (!parseAddress(addressText, words)) {
    throw new CidrError(
      `${quoted} is not an IPv4 or IPv6 address${slash < 0 ? ' or a range like 10.0.0.0/8 or 2001:db8::/32' : ' before its "/"'}`,
    );
  }
  const v4 = !addressText.includes(':');
  const maxPrefix = v4 ? 32 : 128;
  let prefix = maxPrefix;
  if (slash >= 0) {
    const prefixText = text.slice(slash + 1);
    if (!/^(?:0|[1-9]\d{0,2})$/.test(prefixText) || Number(prefixText) > maxPrefix) {
      throw new CidrError(`${quoted}: the prefix length after "/" must be a whole number from 0 to ${maxPrefix}`);
    }
    prefix = Number(prefixText);
  }
  const bits = v4 ? 96 + prefix : prefix;
  const network = [0, 1, 2, 3].map((w) => words[w]! & maskWord(bits, w));
  if (network.some((word, w) => word !== words[w])) {
    const suggestion = `${formatAddress(network)}/${prefix}`;
    throw new CidrError(`${quoted} has bits set after its /${prefix} prefix; the range it starts is ${suggestion}`);
  }
  // An IPv4-mapped range is written as IPv4; a single address without its /32 or /128.
  const mapped = bits >= 96 && isMapped(network);
  const shownPrefix = mapped ? bits - 96 : bits;
  const single = bits === 128 ? '' : `/${shownPrefix}`;
  return { network, prefix: bits, text: formatAddress(network) + single };
}

/** The canonical text of an address or range: `10.0.0.0/8`, `2001:db8::/32`, `192.0.2.7`. Throws CidrError. */
export function normalizeCidr(entry: string): string {
  return parseRange(entry).text;
}

/** A set of IPv4 and IPv6 ranges, for asking whether an address is in any of them. */
export class CidrSet {
  /** The canonical entries, without repeats. */
  readonly entries: readonly string[];
  /** Per range, 4 network words then 4 mask words. */
  private readonly words: Int32Array;

  private constructor(ranges: Range[]) {
    this.entries = ranges.map((r) => r.text);
    this.words = new Int32Array(ranges.length * 8);
    ranges.forEach((range, i) => {
      for (let w = 0; w < 4; w++) {
        this.words[i * 8 + w] = range.network[w]!;
        this.words[i * 8 + 4 + w] = maskWord(range.prefix, w);
      }
    });
  }

  /** Parses addresses and CIDR ranges; throws CidrError naming the first bad entry. */
  static parse(entries: readonly string[]): CidrSet {
    const ranges = new Map<string, Range>();
    for (const entry of entries) {
      const range = parseRange(entry);
      ranges.set(range.text, range);
    }
    return new CidrSet([...ranges.values()]);
  }

  get empty(): boolean {
    return this.words.length === 0;
  }

  /** Whether the address (any IPv4 or IPv6 text form) is in one of the ranges; false for anything else. */
  contains(address: string): boolean {
    const words = this.words;
    if (words.length === 0 || !parseAddress(address, scratch)) return false;
    for (let i = 0; i < words.length; i += 8) {
      if (
        (scratch[0]! & words[i + 4]!) === words[i] &&
        (scratch[1]! & words[i + 5]!) === words[i + 1] &&
        (scratch[2]! & words[i + 6]!) === words[i + 2] &&
        (scratch[3]! & words[i + 7]!) === words[i + 3]
      ) {
        return true;
      }
    }
    return false;
  }
}
