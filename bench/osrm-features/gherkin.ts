/**
 * A reader of Gherkin feature files as far as OSRM's cucumber features use it: features,
 * backgrounds, scenarios (outlines are recognised so they can be skipped), steps with their data
 * tables (`| a | b |`, `\|` escapes) and doc strings (`"""`, indentation up to the opening quotes
 * removed, as cucumber does).
 */

export interface Step {
  /** The step's text after its keyword (Given/When/Then/And/But). */
  text: string;
  /** 1-based line of the step in its file. */
  line: number;
  /** Rows of cells, the header first. */
  table?: string[][];
  docString?: string;
}

export interface Scenario {
  name: string;
  line: number;
  outline: boolean;
  /** Its tags and its feature's (`@todo`…). */
  tags: string[];
  steps: Step[];
}

export interface Feature {
  file: string;
  name: string;
  tags: string[];
  background: Step[];
  scenarios: Scenario[];
}

/** The cells of one table row: split on unescaped `|`, each cell trimmed and unescaped. */
export function tableCells(line: string): string[] {
  const cells: string[] = [];
  let cell = '';
  const text = line.trim();
  for (let i = 1; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\\' && i + 1 < text.length) {
      const next = text[++i]!;
      cell += next === 'n' ? '\n' : next;
    } else if (c === '|') {
      cells.push(cell.trim());
      cell = '';
    } else {
      cell += c;
    }
  }
  return cells;
}

const STEP = /^(Given|When|Then|And|But|\*)\s+(.*)$/;

export function parseFeature(file: string, source: string): Feature {
  const feature: Feature = { file, name: '', tags: [], background: [], scenarios: [] };
  let tags: string[] = [];
  const lines = source.split(/\r?\n/);
  let steps: Step[] | null = null;
  let step: Step | undefined;
  let inExamples = false;
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!;
    const text = raw.trim();
    if (text.startsWith('"""') || text.startsWith('```')) {
      const fence = text.slice(0, 3);
      const indent = raw.indexOf(fence);
      const body: string[] = [];
      for (i++; i < lines.length && lines[i]!.trim() !== fence; i++) {
        const content = lines[i]!;
        const lead = content.length - content.trimStart().length;
        body.push(content.slice(Math.min(lead, indent)));
      }
      if (step) step.docString = body.join('\n');
      continue;
    }
    if (text.startsWith('@')) {
      tags.push(...text.split(/\s+/).filter((tag) => tag.startsWith('@')));
      continue;
    }
    if (text === '' || text.startsWith('#')) continue;
    if (text.startsWith('|')) {
      if (step && !inExamples) (step.table ??= []).push(tableCells(text));
      continue;
    }
    const heading = /^(Feature|Background|Scenario Outline|Scenario Template|Scenario|Example|Examples|Scenarios|Rule):\s*(.*)$/.exec(text);
    if (heading) {
      const [, keyword, name] = heading;
      step = undefined;
      inExamples = keyword === 'Examples' || keyword === 'Scenarios';
      const headingTags = tags;
      tags = [];
      if (keyword === 'Feature') (feature.name = name!), (feature.tags = headingTags);
      // A `Background:` after the first scenario (car/classes.feature:103) starts nothing: its steps stay in the scenario.
      else if (keyword === 'Background') steps = feature.scenarios.length === 0 ? feature.background : steps;
      else if (keyword === 'Rule') steps = null;
      else if (!inExamples) {
        const scenario: Scenario = {
          name: name!,
          line: i + 1,
          outline: keyword!.includes('Outline') || keyword!.includes('Template'),
          tags: [...feature.tags, ...headingTags],
          steps: [],
        };
        feature.scenarios.push(scenario);
        steps = scenario.steps;
      }
      continue;
    }
    const match = STEP.exec(text);
    if (match && steps) {
      step = { text: match[2]!, line: i + 1 };
      steps.push(step);
    }
    // Anything else is a feature's or scenario's free description.
  }
  return feature;
}
