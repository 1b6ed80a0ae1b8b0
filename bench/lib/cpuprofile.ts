/**
 * Summarizes a V8 `.cpuprofile` (as written by `node --cpu-prof`, e.g. `npm run bench:gateway --
 * --cpu-prof`): the functions with the most self time and inclusive time, as shares of the time
 * the process was not idle.
 *
 *   node dist/bench/lib/cpuprofile.js bench/results/profiles/CPU.….cpuprofile [top=30]
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileSummary {
  /** Microseconds sampled in all, and while not idle. */
  totalUs: number;
  busyUs: number;
  self: [string, number][];
  inclusive: [string, number][];
}

const label = ({ functionName, url, lineNumber }: ProfileNode['callFrame']) =>
  `${functionName || '(anonymous)'} ${url.replace(/^.*\/(node_modules|dist)\//, '$1/')}${url ? `:${lineNumber + 1}` : ''}`;

export function summarizeProfile(profile: Profile): ProfileSummary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let totalUs = 0;
  let idleUs = 0;
  profile.samples.forEach((id, i) => {
    const us = profile.timeDeltas[i] ?? 0;
    totalUs += us;
    const leaf = byId.get(id)!;
    if (leaf.callFrame.functionName === '(idle)') return void (idleUs += us);
    self.set(label(leaf.callFrame), (self.get(label(leaf.callFrame)) ?? 0) + us);
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const name = label(byId.get(cur)!.callFrame);
      if (!seen.has(name)) inclusive.set(name, (inclusive.get(name) ?? 0) + us);
      seen.add(name);
    }
  });
  const sorted = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]);
  return { totalUs, busyUs: totalUs - idleUs, self: sorted(self), inclusive: sorted(inclusive) };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [file, top = '30'] = process.argv.slice(2);
  if (!file) {
    console.error('usage: node dist/bench/lib/cpuprofile.js <file.cpuprofile> [top]');
    process.exit(2);
  }
  const summary = summarizeProfile(JSON.parse(readFileSync(file, 'utf8')) as Profile);
  const pct = (us: number) => `${((us / summary.busyUs) * 100).toFixed(1).padStart(5)} %`;
  console.log(`${(summary.totalUs / 1e6).toFixed(2)} s sampled, ${(summary.busyUs / 1e6).toFixed(2)} s not idle; shares of the latter:`);
  for (const [title, rows] of [
    ['self', summary.self],
    ['inclusive', summary.inclusive],
  ] as const) {
    console.log(`\n${title}:`);
    for (const [name, us] of rows.slice(0, Number(top))) console.log(`${pct(us)}  ${name}`);
  }
}
