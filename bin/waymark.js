#!/usr/bin/env node
// The `waymark` command: runs the compiled command line in dist/.
import { existsSync } from 'node:fs';

const entry = new URL('../dist/src/cli/index.js', import.meta.url);
if (!existsSync(entry)) {
  console.error('waymark: the compiled program (dist/) is missing; run "npm run build" first');
  process.exit(1);
}
const { main } = await import(entry.href);
process.exitCode = await main(process.argv.slice(2));
