/** A `<prefix>.lat` / `<prefix>.lon` pair (point, focus.point): both or neither, each a decimal number in range. */
import { messages } from './messages.js';
import { decimalInRange } from '../../http/params/number.js';
import { clean, rejected, type Sanitized } from '../../http/params/sanitized.js';

export interface LatLon {
  lat: number;
  lon: number;
}

/** The pair under `prefix`, or undefined when neither half is given. */
export function optionalLatLon(query: URLSearchParams, prefix: string): Sanitized<LatLon | undefined> {
  const latName = `${prefix}.lat`;
  const lonName = `${prefix}.lon`;
  const rawLat = query.get(latName);
  const rawLon = query.get(lonName);
  if (rawLat === null && rawLon === null) return clean(undefined);
  if (rawLon === null) return rejected(undefined, messages.lone(latName, lonName));
  if (rawLat === null) return rejected(undefined, messages.lone(lonName, latName));
  const lat = decimalInRange(latName, rawLat, -90, 90);
  const lon = decimalInRange(lonName, rawLon, -180, 180);
  const errors = [...lat.errors, ...lon.errors];
  return errors.length > 0 ? rejected(undefined, ...errors) : clean({ lat: lat.value, lon: lon.value });
}
