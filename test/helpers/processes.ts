/** The process tree as Linux's /proc shows it: a process's descendants and their states (Z: a zombie, exited but not waited for). */
import { readdirSync, readFileSync } from 'node:fs';

export interface ProcessEntry {
  pid: number;
  parent: number;
  /** R, S, D, Z… (proc(5)). */
  state: string;
  command: string;
}

function entry(pid: number): ProcessEntry | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (name) state ppid …": the name may hold spaces and parentheses, so split after its last ')'.
    const [state, parent] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
    return { pid, parent: Number(parent), state: state!, command };
  } catch {
    return null; // Gone meanwhile.
  }
}

/** Every process below `pid` (children, their children…). */
export function descendants(pid: number): ProcessEntry[] {
  const all = readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map((name) => entry(Number(name)))
    .filter((p): p is ProcessEntry => p !== null);
  const found: ProcessEntry[] = [];
  const parents = new Set([pid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of all) {
      if (parents.has(p.parent) && !parents.has(p.pid)) {
        parents.add(p.pid);
        found.push(p);
        grew = true;
      }
    }
  }
  return found;
}

/** Whether process `pid` exists (a zombie included). */
export function exists(pid: number): boolean {
  return entry(pid) !== null;
}
