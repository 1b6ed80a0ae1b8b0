/** Runs an endpoint's list of sanitizers over a query: clean parameters and warnings, or one ApiError 400. */
import { ApiError } from '../errors.js';
import type { Sanitizer } from './sanitized.js';
import { messages } from './messages.js';

/** An endpoint's checks: each clean parameter and the sanitizer that produces it. */
export type SanitizerList = Readonly<Record<string, Sanitizer<unknown>>>;

export type CleanParams<L extends SanitizerList> = { [K in keyof L]: L[K] extends Sanitizer<infer T> ? T : never };

export interface CleanRequest<P> {
  params: P;
  warnings: string[];
}

/**
 * Throws ApiError(400) whose message joins every error found, so a client can fix all at once.
 * Each of the endpoint's `parameters` may be given once: a repeated one is refused rather than
 * silently picking one of its values.
 */
export function sanitize<L extends SanitizerList>(
  query: URLSearchParams,
  list: L,
  parameters: readonly string[],
): CleanRequest<CleanParams<L>> {
  const errors = parameters.filter((name) => query.getAll(name).length > 1).map(messages.duplicate);
  const warnings: string[] = [];
  const params: Record<string, unknown> = {};
  for (const [name, sanitizer] of Object.entries(list)) {
    const result = sanitizer(query);
    params[name] = result.value;
    errors.push(...result.errors);
    warnings.push(...result.warnings);
  }
  if (errors.length > 0) throw new ApiError(400, errors.join('; '));
  return { params: params as CleanParams<L>, warnings };
}
