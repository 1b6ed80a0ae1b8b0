/** A request to change accounts that is invalid as given; its message says what to fix. */
export class AccountError extends Error {}
