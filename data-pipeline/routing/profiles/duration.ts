/** Reading `duration` (a ferry's crossing time): `mm`, `hh:mm`, `hh:mm:ss` or ISO 8601 `PT1H30M`. */

const CLOCK = /^(\d+)(?::(\d{1,2}))?(?::(\d{1,2}))?$/;
const ISO = /^PT(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?$/i;

/** Seconds; undefined when absent, zero or not understood. */
export function parseDuration(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  let seconds: number | undefined;
  const clock = CLOCK.exec(text);
  if (clock) {
    // A single number is minutes (OSM wiki Key:duration).
    seconds = clock[2] === undefined ? Number(clock[1]) * 60 : Number(clock[1]) * 3600 + Number(clock[2]) * 60 + Number(clock[3] ?? 0);
  } else {
    const iso = ISO.exec(text);
    if (iso) seconds = Number(iso[1] ?? 0) * 3600 + Number(iso[2] ?? 0) * 60 + Number(iso[3] ?? 0);
  }
  return seconds !== undefined && seconds > 0 ? seconds : undefined;
}
