/**
 * What an import has finished, kept in its build folder (`datasets/.tmp-<id>/journal.json`), so that
 * `waymark import --resume` after a failure, a cancellation or a killed process goes on from the last
 * finished step instead of starting over. A step is written to the journal only once its output is
 * complete, with what the later steps and the manifest need of it; an unfinished step's output is
 * made again from scratch. The journal names its inputs (paths, sizes, modification times): a build
 * folder is resumed only by an import of the same inputs.
 */
import { readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const JOURNAL = 'journal.json';

interface JournalFile {
  inputs: string;
  steps: Record<string, unknown>;
}

/** What identifies an import's inputs: each as given, with the size and modification time of local files. */
export function inputsFingerprint(inputs: object, localFiles: readonly string[]): string {
  const files = localFiles.map((file) => {
    try {
      const { size, mtimeMs } = statSync(file);
      return [file, size, mtimeMs];
    } catch {
      return [file, null, null];
    }
  });
  return JSON.stringify({ inputs, files });
}

export class BuildJournal {
  private constructor(
    private readonly file: string,
    private readonly content: JournalFile,
  ) {}

  /** A new journal in the build folder `dir`. */
  static create(dir: string, inputs: string): BuildJournal {
    const journal = new BuildJournal(join(dir, JOURNAL), { inputs, steps: {} });
    journal.save();
    return journal;
  }

  /** The newest build folder in `datasetsDir` whose journal names the same inputs, with its journal; null when there is none. */
  static findResumable(datasetsDir: string, inputs: string): { dir: string; journal: BuildJournal } | null {
    let entries: string[];
    try {
      entries = readdirSync(datasetsDir);
    } catch {
      return null;
    }
    // Build folders are `.tmp-<id>`, and ids begin with their UTC start time: the newest sorts last.
    for (const entry of entries
      .filter((name) => name.startsWith('.tmp-'))
      .sort()
      .reverse()) {
      const dir = join(datasetsDir, entry);
      try {
        const content = JSON.parse(readFileSync(join(dir, JOURNAL), 'utf8')) as JournalFile;
        if (content.inputs === inputs) return { dir, journal: new BuildJournal(join(dir, JOURNAL), content) };
      } catch {
        // No journal (a build that died at once) or a torn one: not resumable.
      }
    }
    return null;
  }

  /** The steps finished so far, in the order they finished. */
  get finished(): string[] {
    return Object.keys(this.content.steps);
  }

  /**
   * Runs `step` unless the journal says it finished, in which case what it resolved to then is
   * returned. `step` must leave nothing behind that a second run of it would trip over.
   */
  async step<T>(name: string, step: () => Promise<T>): Promise<T> {
    if (name in this.content.steps) return this.content.steps[name] as T;
    const result = await step();
    this.content.steps[name] = result ?? null;
    this.save();
    return result;
  }

  /** Deletes the journal: the build is complete. */
  remove(): void {
    rmSync(this.file, { force: true });
  }

  /** Written whole to a new file and renamed over the old one: a crash leaves the old or the new journal. */
  private save(): void {
    writeFileSync(`${this.file}.new`, JSON.stringify(this.content));
    renameSync(`${this.file}.new`, this.file);
  }
}
