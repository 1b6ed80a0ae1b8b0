/**
 * The operator token: `Authorization: Bearer <WAYMARK_OPERATOR_TOKEN>`, compared in constant time.
 * It is not a customer key and is never checked against the key directory.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { ApiError } from '../http/errors.js';
import type { Request } from '../http/request.js';

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * Returns a check of an `Authorization` header that throws 401 unless it carries the token (hashing
 * first makes lengths irrelevant to timing).
 */
export function operatorTokenCheck(token: string): (authorization: string | undefined) => void {
  const expected = digest(token);
  return (authorization) => {
    const given = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
    if (given === undefined) {
      throw new ApiError(401, 'the operator API needs "Authorization: Bearer <WAYMARK_OPERATOR_TOKEN>"', {
        'WWW-Authenticate': 'Bearer realm="waymark-operator"',
      });
    }
    if (!timingSafeEqual(digest(given), expected)) {
      throw new ApiError(401, 'wrong operator token', { 'WWW-Authenticate': 'Bearer realm="waymark-operator", error="invalid_token"' });
    }
  };
}

/** Returns a check that throws 401 unless the request carries the token. */
export function operatorAuth(token: string): (req: Request) => void {
  const check = operatorTokenCheck(token);
  return (req) => check(req.header('authorization'));
}
