/** The text `instruction` of a step, from osrm-text-instructions in the requested language. */
import textInstructions from 'osrm-text-instructions';
import type { OsrmManeuver, OsrmStep } from './osrm.js';

const compiler = textInstructions('v5');

export interface LegPosition {
  legIndex: number;
  legCount: number;
}

/** A step as far as its text depends on it: the maneuver before it has an instruction. */
export type UntoldStep = Omit<OsrmStep, 'maneuver'> & { maneuver: Omit<OsrmManeuver, 'instruction'> };

/** `lang` is a code osrm-text-instructions supports. */
export function instructionOf(lang: string, step: UntoldStep, leg: LegPosition): string {
  return compiler.compile(lang, step, leg);
}
