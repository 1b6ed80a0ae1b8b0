/**
 * When a change of road name must be told, as OSRM decides it (util/guidance/name_announcements.hpp,
 * requiresNameAnnounced; engine/guidance/collapsing_utility.hpp, haveSameName). Roads have no
 * pronunciation or exits here, so those parts of OSRM's test are always equal.
 */
import type { TravelMode } from '../../../core/routing/network.js';

export interface Named {
  name: string;
  ref: string;
  /** `name:pronunciation`; absent: none. */
  pronunciation?: string;
}

const COMPASS = ['n', 'ne', 'e', 'se', 's', 'sw', 'w', 'nw', 'north', 'south', 'west', 'east'];

/**
 * The street name suffixes of OSRM v6's profiles (`suffix_list`, lower case as its SuffixTable keeps
 * them): car.lua's, foot.lua's; bicycle.lua has none.
 */
export const NAME_SUFFIXES: Record<TravelMode, ReadonlySet<string>> = {
  driving: new Set([...COMPASS, 'nor', 'sou', 'we', 'ea']),
  walking: new Set(COMPASS),
  cycling: new Set(),
};

/** The longest common substring of two names (OSRM's longest_common_substring). */
function longestCommonSubstring(a: string, b: string): string {
  let best = 0;
  let end = 0;
  // Lengths of the common suffixes ending at a[i - 1] and b[j], one row kept and rewritten right to left.
  const row = new Uint16Array(b.length);
  for (let i = 0; i < a.length; i++) {
    for (let j = b.length - 1; j >= 0; j--) {
      if (a[i] !== b[j]) {
        row[j] = 0;
        continue;
      }
      row[j] = j === 0 ? 1 : row[j - 1]! + 1;
      if (row[j]! > best) {
        best = row[j]!;
        end = i + 1;
      }
    }
  }
  return a.slice(end - best, end);
}

/**
 * isSuffixChange's answers per suffix list and pair of names. The names are the network's, so the
 * same pairs come back route after route, and the test is the costliest of the step rules; the
 * memo is dropped whole when it reaches MEMO_LIMIT pairs, which bounds its memory.
 */
const suffixChanges = new WeakMap<ReadonlySet<string>, Map<string, boolean>>();
const MEMO_LIMIT = 100_000;

function isSuffixChange(a: string, b: string, suffixes: ReadonlySet<string>): boolean {
  let memo = suffixChanges.get(suffixes);
  if (memo === undefined || memo.size >= MEMO_LIMIT) suffixChanges.set(suffixes, (memo = new Map()));
  // Prefixed by the first name's length, the two names make an unambiguous key.
  const key = `${a.length}:${a}${b}`;
  let answer = memo.get(key);
  if (answer === undefined) memo.set(key, (answer = decomposesToSuffixes(a, b, suffixes)));
  return answer;
}

/** Whether `a` and `b` differ only by a suffix or prefix of `suffixes` around a common part (OSRM's decompose + checkForPrefixOrSuffixChange). */
function decomposesToSuffixes(a: string, b: string, suffixes: ReadonlySet<string>): boolean {
  const trim = (s: string) => s.toLowerCase().trim();
  const common = longestCommonSubstring(a, b);
  const parts =
    common === ''
      ? [trim(a), trim(b), '', '']
      : [
          trim(a.slice(0, a.indexOf(common))),
          trim(a.slice(a.indexOf(common) + common.length)),
          trim(b.slice(0, b.indexOf(common))),
          trim(b.slice(b.indexOf(common) + common.length)),
        ];
  return parts.every((part) => part === '' || suffixes.has(part));
}

/** OSRM's requiresNameAnnounced: going from road `from` onto road `to` is a change of road worth telling. */
export function requiresNameAnnounced(from: Named, to: Named, suffixes: ReadonlySet<string>): boolean {
  // A change of pronunciation is always told (a name spoken differently).
  if ((from.pronunciation ?? '') !== (to.pronunciation ?? '')) return true;
  // The same name and ref never need telling (every term below agrees); most joints of a route are such.
  if (from.name === to.name && from.ref === to.ref) return false;
  if (from.name === '' && from.ref === '' && !(to.name === '' && to.ref === '')) return true;
  const namesAreEmpty = from.name === '' && to.name === '';
  const nameIsContained = from.name.startsWith(to.name) || to.name.startsWith(from.name);
  // The costliest term, worked out only where the others leave the answer open.
  const suffixChange = () => isSuffixChange(from.name, to.name, suffixes);
  const namesAreEqual = () => from.name === to.name || nameIsContained || suffixChange();
  const nameIsRemoved = from.name !== '' && to.name === '';
  const refsAreEmpty = from.ref === '' && to.ref === '';
  const refIsContained = from.ref === '' || to.ref === '' || from.ref.includes(to.ref) || to.ref.includes(from.ref);
  const needsAnnounce =
    (from.name === '' && from.ref !== '' && to.name !== '' && to.ref === '') ||
    (from.name !== '' && from.ref === '' && to.name === '' && to.ref !== '') ||
    (namesAreEmpty && !refIsContained);
  if (needsAnnounce) return true;
  const obviousChange =
    (namesAreEmpty && refsAreEmpty) ||
    (refIsContained && nameIsRemoved) ||
    // OSRM also lists refsAreEmpty and refIsRemoved with namesAreEqual; both imply refIsContained.
    (refIsContained && namesAreEqual()) ||
    suffixChange();
  return !obviousChange;
}

/** OSRM's haveSameName: both roads have a name or ref, and going from one to the other needs no announcement. */
export function haveSameName(a: Named, b: Named, suffixes: ReadonlySet<string>): boolean {
  if ((a.name === '' && a.ref === '') || (b.name === '' && b.ref === '')) return false;
  if (a.name === b.name && a.ref === b.ref) return true;
  return !requiresNameAnnounced(a, b, suffixes);
}
