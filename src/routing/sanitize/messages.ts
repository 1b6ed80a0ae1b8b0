/** Every 400 message of the routing parameters: the shared ones (src/http/params/messages.ts), and their own; each names its parameter. */
import { list, messages as shared, quoted } from '../../http/params/messages.js';

export const messages = {
  ...shared,
  badAlternatives: (name: string, raw: string, max: number) =>
    `invalid parameter '${name}': ${quoted(raw)} is not true, false or a whole number from 0 to ${max}`,
  badInstructionLanguage: (name: string, raw: string, supported: readonly string[]) =>
    `invalid parameter '${name}': ${quoted(raw)} is not a language of the instructions; use one of ${list(supported)}`,
  repeatedAnnotation: (name: string, raw: string) => `invalid parameter '${name}': ${quoted(raw)} names an annotation more than once`,
  tooManyElements: (elements: number, max: number) =>
    `too many matrix elements: sources × destinations is ${elements}, the limit is ${max} per request`,
  repeatedClass: (name: string, raw: string) => `invalid parameter '${name}': ${quoted(raw)} names a road class more than once`,
  unavoidable: (name: string, mode: string, word: string, avoidable: readonly string[]) =>
    `invalid parameter '${name}': ${mode} cannot avoid ${word}; it may avoid ${list(avoidable)}`,
  repeatedValue: (name: string, value: number) => `invalid parameter '${name}': ${value} is given more than once`,
  perPointCount: (name: string, given: number, points: number, pointNames: string) =>
    `invalid parameter '${name}': ${given} entries for ${points} points; give one per point (${pointNames}), empty for the default`,
  badRadius: (name: string, entry: string) =>
    `invalid parameter '${name}': ${quoted(entry)} is not a distance in metres (a decimal from 0) or unlimited`,
  tooFewPoints: (name: string, min: number) => `invalid parameter '${name}': at least ${min} positions lat,lng separated by |`,
  unsupportedTrip:
    "invalid parameters 'roundtrip', 'source' and 'destination': a trip that is not a round trip needs source=first or destination=last (or both)",
  badBearing: (name: string, entry: string) =>
    `invalid parameter '${name}': ${quoted(entry)} is not a bearing and range in whole degrees (0 to 360, 0 to 180), e.g. 90,20`,
} as const;
