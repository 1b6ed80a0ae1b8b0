/** How a cancelled import stops: with the Error its AbortSignal was aborted with, or a plain one. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (!signal?.aborted) return;
  throw signal.reason instanceof Error && signal.reason.name !== 'AbortError' ? signal.reason : new Error('the import was cancelled');
}
