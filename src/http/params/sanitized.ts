/** The shape every parameter sanitizer returns: a clean value plus errors and warnings, never a throw. */

export interface Sanitized<T> {
  value: T;
  errors: string[];
  warnings: string[];
}

/** A check of one parameter concern, reading the raw query string parameters. */
export type Sanitizer<T> = (query: URLSearchParams) => Sanitized<T>;

export function clean<T>(value: T, warnings: string[] = []): Sanitized<T> {
  return { value, errors: [], warnings };
}

/** A failed check; `value` is a placeholder that is never used because the request is refused. */
export function rejected<T>(placeholder: T, ...errors: string[]): Sanitized<T> {
  return { value: placeholder, errors, warnings: [] };
}
