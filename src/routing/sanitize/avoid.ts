/**
 * `avoid`: road classes a route keeps off, Waymark's names for OSRM's `exclude` classes —
 * `motorways` (motorway), `tolls` (toll), `ferries` (ferry), comma-separated, each at most once.
 * Driving may avoid all three, walking and cycling ferries (core/routing/network.ts,
 * EXCLUDABLE_CLASSES). The clean value is the classes' mask (0: none).
 */
import { EXCLUDABLE_CLASSES, classMask, type RoadClass, type TravelMode } from '../../../core/routing/network.js';
import { clean, rejected, type Sanitizer } from '../../http/params/sanitized.js';
import { messages } from './messages.js';

/** Each `avoid` word and the road class it stands for. */
export const AVOIDABLE: Readonly<Record<string, RoadClass>> = { motorways: 'motorway', tolls: 'toll', ferries: 'ferry' };
const AVOID_WORDS = Object.keys(AVOIDABLE);

/** The `avoid` word of a road class. */
export const avoidWordOf = (roadClass: RoadClass): string => AVOID_WORDS.find((word) => AVOIDABLE[word] === roadClass)!;

export const sanitizeAvoid: Sanitizer<number> = (query) => {
  const raw = query.get('avoid');
  if (raw === null) return clean(0);
  const words = raw.split(',');
  const unknown = words.find((word) => !Object.hasOwn(AVOIDABLE, word));
  if (unknown !== undefined) return rejected(0, messages.unknownValue('avoid', unknown, AVOID_WORDS));
  if (new Set(words).size !== words.length) return rejected(0, messages.repeatedClass('avoid', raw));
  // An unknown mode is the mode check's to report.
  const mode = (query.get('mode') ?? 'driving') as TravelMode;
  if (!Object.hasOwn(EXCLUDABLE_CLASSES, mode)) return clean(0);
  const avoidable = EXCLUDABLE_CLASSES[mode];
  const classes = words.map((word) => AVOIDABLE[word]!);
  const missing = classes.find((roadClass) => !avoidable.includes(roadClass));
  if (missing !== undefined) return rejected(0, messages.unavoidable('avoid', mode, avoidWordOf(missing), avoidable.map(avoidWordOf)));
  return clean(classMask(classes));
};
