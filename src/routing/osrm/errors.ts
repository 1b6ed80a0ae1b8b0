/**
 * OSRM's error codes for the OSRM-compatible paths. The body stays Waymark's uniform error body,
 * whose `code` and `message` are the two fields of OSRM's own (`{code, message}`), so OSRM clients
 * read it unchanged.
 */
import { ApiError } from '../../http/errors.js';

export type OsrmErrorCode = 'InvalidUrl' | 'InvalidQuery' | 'InvalidOptions' | 'InvalidValue' | 'TooBig' | 'NotImplemented';

/** As osrm-routed: every refusal, including NoRoute and NoSegment, is HTTP 400. */
export const OSRM_ERROR_STATUS = 400;

export const osrmError = (code: OsrmErrorCode, message: string) => new ApiError(OSRM_ERROR_STATUS, message, {}, code);

/** Runs a Waymark parameter check, re-coding its 400 as OSRM's `code` (the message already names the parameter). */
export function withOsrmCode<T>(code: OsrmErrorCode, check: () => T): T {
  try {
    return check();
  } catch (error) {
    if (error instanceof ApiError && error.statusCode === 400) throw osrmError(code, error.message);
    throw error;
  }
}
