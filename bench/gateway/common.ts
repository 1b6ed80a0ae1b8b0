/** What every server of the gateway benchmark answers: one cheap, metered-looking JSON request. */
import type { Service } from '../../src/control-plane/types.js';

export const SERVICE: Service = 'geocoding';
/** Relative to `/api/v1`, as a Waymark `ServiceRoute` path. */
export const ROUTE = '/bench/cheap';
export const PATH = `/api/v1${ROUTE}`;
/** The handlers serialize this on every request, as a real handler would. */
export const BODY = { service: SERVICE, ok: true, result: { lat: 52.5163, lon: 13.3777, label: 'Pariser Platz, Berlin' } };
export const BODY_TEXT = JSON.stringify(BODY);
/** The web page the restricted key's requests come from: matched by a wildcard, after the exact origins miss. */
export const RESTRICTED_ORIGIN = 'https://maps.example.org';
