/** The command-line checks every load benchmark makes before it starts; a bad setting exits with status 2. */
import { INSTALL_HINT, wrkAvailable } from './wrk.js';

export function checkRunSettings(
  positive: Record<string, number>,
  load: { warmupS: number; quietWaitMs: number },
  seed: number,
  options: { whole?: boolean } = {},
): void {
  for (const [name, value] of Object.entries(positive)) {
    if (!(value > 0) || (options.whole && !Number.isInteger(value))) {
      console.error(`--${name} must be a positive ${options.whole ? 'whole ' : ''}number`);
      process.exit(2);
    }
  }
  if (!(load.warmupS >= 0) || !(load.quietWaitMs >= 0) || !Number.isInteger(seed)) {
    console.error('--warmup and --quiet-wait must be zero or more seconds, --seed an integer');
    process.exit(2);
  }
  if (!wrkAvailable()) {
    console.error(INSTALL_HINT);
    process.exit(1);
  }
}
