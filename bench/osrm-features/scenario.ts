/**
 * A scenario of OSRM's features read as OSRM's harness (features/support/data.js,
 * features/step_definitions/data.js, options.js) reads it: the profile, the grid size and origin,
 * the node map laid out with cheap-ruler from the origin ([1, 1], 100 m cells, two characters a
 * cell), the nodes / ways / relations tables turned into OSM objects (ways default to
 * `highway=primary` and to the name of their nodes), the query options, and the route tables.
 * Only scenarios made of those steps are run; any other step skips the scenario, with the reason.
 */
import type { Feature, Scenario, Step } from './gherkin.js';

export type OsrmProfile = 'car' | 'bicycle' | 'foot';
export const PROFILE_NAMES: readonly OsrmProfile[] = ['car', 'bicycle', 'foot'];

export interface OsmNode {
  id: number;
  lon: number;
  lat: number;
  tags: Record<string, string>;
}
export interface OsmWay {
  id: number;
  nodes: OsmNode[];
  tags: Record<string, string>;
}
export interface OsmRelation {
  id: number;
  members: { type: 'node' | 'way' | 'relation'; ref: number; role: string }[];
  tags: Record<string, string>;
}

/** A `When I route I should get` table: its header and one object per row. */
export interface RouteTable {
  line: number;
  headers: string[];
  rows: Record<string, string>[];
}

/** The map and the tables, in the order the steps give them; one build per route table. */
export interface ScenarioPlan {
  profile: OsrmProfile;
  /** Map states and query options at each route table. */
  routings: {
    profile: OsrmProfile;
    osm: string;
    locations: Map<string, [number, number]>;
    queryOptions: Record<string, string>;
    table: RouteTable;
  }[];
}

/** cheap-ruler (v3 and later, WGS84) as OSRM's harness uses it: metres to degrees around a latitude. */
export function cheapRulerOffset(origin: [number, number], dx: number, dy: number): [number, number] {
  const RE = 6378.137;
  const FE = 1 / 298.257223563;
  const E2 = FE * (2 - FE);
  const RAD = Math.PI / 180;
  const m = RAD * RE * 1000;
  const coslat = Math.cos(origin[1] * RAD);
  const w2 = 1 / (1 - E2 * (1 - coslat * coslat));
  const w = Math.sqrt(w2);
  const kx = m * w * coslat;
  const ky = m * w * w2 * (1 - E2);
  return [origin[0] + dx / kx, origin[1] + dy / ky];
}

/** A coordinate as OSRM's harness writes it (`ensureDecimal`: whole numbers get `.0`), never with an exponent. */
export function decimal(value: number): string {
  if (Number.isInteger(value)) return value.toFixed(1);
  const text = String(value);
  return text.includes('e') ? value.toFixed(12).replace(/0+$/, '') : text;
}

const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/\n/g, '&#10;');

const tagsXml = (tags: Record<string, string>) =>
  Object.entries(tags)
    .map(([k, v]) => `\n    <tag k="${escapeXml(k)}" v="${escapeXml(v)}"/>`)
    .join('');

/** Thrown while reading a step that OSRM's harness would also refuse (unknown node, duplicate…). */
export class ScenarioError extends Error {}

/** The state OSRM's World holds while a scenario's steps run. */
export class World {
  profile: OsrmProfile = 'bicycle';
  gridSize = 100;
  origin: [number, number] = [1, 1];
  private osmId = 0;
  readonly nodes = new Map<string, OsmNode>();
  /** Named locations (digits in the node map): waypoints only, not OSM nodes. */
  readonly locations = new Map<string, [number, number]>();
  readonly nodeList: OsmNode[] = [];
  readonly ways: OsmWay[] = [];
  private readonly wayByName = new Map<string, OsmWay>();
  readonly relations: OsmRelation[] = [];
  private readonly relationByName = new Map<string, OsmRelation>();
  readonly queryOptions: Record<string, string> = {};

  private nextId(): number {
    return ++this.osmId;
  }

  tableCoordToLonLat(ci: number, ri: number): [number, number] {
    return cheapRulerOffset(this.origin, ci * this.gridSize, -ri * this.gridSize);
  }

  nodeMap(docString: string): void {
    docString.split('\n').forEach((row, ri) => {
      row.split('').forEach((cell, index) => {
        if (!/[a-z0-9]/.test(cell)) return;
        const [lon, lat] = this.tableCoordToLonLat(index * 0.5, ri);
        if (/[a-z]/.test(cell)) {
          if (this.nodes.has(cell)) throw new ScenarioError(`duplicate node ${cell}`);
          const node: OsmNode = { id: this.nextId(), lon, lat, tags: { name: cell } };
          this.nodes.set(cell, node);
          this.nodeList.push(node);
        } else {
          if (this.locations.has(cell)) throw new ScenarioError(`duplicate node ${cell}`);
          this.locations.set(cell, [lon, lat]);
        }
      });
    });
  }

  /** A node's or a location's [lon, lat]. */
  position(name: string): [number, number] {
    if (name.length !== 1 || !/[a-z0-9]/.test(name)) throw new ScenarioError(`invalid node name "${name}"`);
    const node = this.nodes.get(name);
    if (node) return [node.lon, node.lat];
    const location = this.locations.get(name);
    if (location) return location;
    throw new ScenarioError(`unknown node "${name}"`);
  }

  nodesTable(rows: Record<string, string>[]): void {
    for (const { node: name, ...rest } of rows) {
      const node = this.nodes.get(name ?? '');
      if (!node) throw new ScenarioError(`unknown node ${name}`);
      for (const [key, value] of Object.entries(rest)) {
        if (key === 'id') node.id = Number.parseInt(value, 10);
        else node.tags[key] = value;
      }
    }
  }

  waysTable(rows: Record<string, string>[]): void {
    for (const row of rows) {
      const names = row.nodes ?? '';
      const nodes = names.split('').map((c) => {
        if (!/[a-z]/.test(c)) throw new ScenarioError(`ways can only use names a-z (${c})`);
        const node = this.nodes.get(c);
        if (!node) throw new ScenarioError(`unknown node ${c}`);
        return node;
      });
      const tags: Record<string, string> = { highway: 'primary', ...row };
      delete tags.nodes;
      if (row.highway === '(nil)') delete tags.highway;
      if (row.name === undefined) tags.name = names;
      else if (row.name === '""' || row.name === "''") tags.name = '';
      else if (row.name === '' || row.name === '(nil)') delete tags.name;
      const way: OsmWay = { id: this.nextId(), nodes, tags };
      this.ways.push(way);
      this.wayByName.set(names, way);
    }
  }

  private findWay(name: string): OsmWay | undefined {
    return this.wayByName.get(name) ?? this.wayByName.get(name.split('').reverse().join(''));
  }

  relationsTable(raw: string[][]): void {
    const [headers, ...rows] = raw;
    for (const row of rows) {
      const relation: OsmRelation = { id: this.nextId(), members: [], tags: {} };
      let name: string | null = null;
      row.forEach((value, index) => {
        const key = headers![index]!;
        const isNode = /^node:?(.*)/.exec(key);
        const isWay = /^way:?(.*)/.exec(key);
        const isRelation = /^relation:?(.*)/.exec(key);
        const colon = /^(.*):(.*)/.exec(key);
        const names = value.split(',').map((v) => v.trim());
        if (isNode) {
          for (const nodeName of names) {
            if (nodeName.length !== 1) throw new ScenarioError(`invalid relation node member "${nodeName}"`);
            const node = this.nodes.get(nodeName);
            if (!node) throw new ScenarioError(`unknown relation node member "${nodeName}"`);
            relation.members.push({ type: 'node', ref: node.id, role: isNode[1]! });
          }
        } else if (isWay) {
          for (const wayName of names) {
            const way = this.findWay(wayName);
            if (!way) throw new ScenarioError(`unknown relation way member "${wayName}"`);
            relation.members.push({ type: 'way', ref: way.id, role: isWay[1]! });
          }
        } else if (isRelation) {
          for (const relationName of names) {
            const other = this.relationByName.get(relationName) ?? this.relationByName.get(relationName.split('').reverse().join(''));
            if (!other) throw new ScenarioError(`unknown relation relation member "${relationName}"`);
            relation.members.push({ type: 'relation', ref: other.id, role: isRelation[1]! });
          }
        } else if (colon && colon[1] !== 'restriction') {
          throw new ScenarioError(`unknown relation member type "${key}"`);
        } else {
          relation.tags[key] = value;
          if (/name/.test(key)) name = value;
        }
      });
      if (name !== null) this.relationByName.set(name, relation);
      this.relations.push(relation);
    }
  }

  /** The map as OSM XML, as OSRM's lib/osm.js writes it. */
  toXml(): string {
    const head = 'version="1" uid="1" user="osrm" timestamp="2000-01-01T00:00:00Z"';
    const parts = ['<?xml version="1.0" encoding="UTF-8"?>', '<osm version="0.6" generator="waymark osrm-features">'];
    for (const node of this.nodeList) {
      parts.push(`  <node id="${node.id}" ${head} lon="${decimal(node.lon)}" lat="${decimal(node.lat)}">${tagsXml(node.tags)}\n  </node>`);
    }
    for (const way of this.ways) {
      const nds = way.nodes.map((node) => `\n    <nd ref="${node.id}"/>`).join('');
      parts.push(`  <way id="${way.id}" ${head}>${nds}${tagsXml(way.tags)}\n  </way>`);
    }
    for (const relation of this.relations) {
      const members = relation.members.map((m) => `\n    <member type="${m.type}" ref="${m.ref}" role="${escapeXml(m.role)}"/>`).join('');
      parts.push(`  <relation id="${relation.id}" ${head}>${members}${tagsXml(relation.tags)}\n  </relation>`);
    }
    parts.push('</osm>', '');
    return parts.join('\n');
  }
}

/** A table's rows as objects keyed by its header (cucumber's `hashes()`). */
export function hashes(table: string[][]): Record<string, string>[] {
  const [headers, ...rows] = table;
  return rows.map((row) => Object.fromEntries(headers!.map((header, i) => [header, row[i] ?? ''])));
}

/** The supported steps; each reads its step into the world, or returns a route table. */
const STEPS: { pattern: RegExp; run: (world: World, step: Step, match: RegExpExecArray) => RouteTable | void }[] = [
  {
    pattern: /^the profile "([^"]*)"$/,
    run: (world, _step, match) => {
      const name = match[1]!;
      if (!(PROFILE_NAMES as readonly string[]).includes(name)) throw new Unsupported(`profile "${name}"`);
      world.profile = name as OsrmProfile;
    },
  },
  { pattern: /^a grid size of ([0-9.]+) meters$/, run: (world, _step, match) => void (world.gridSize = Number.parseFloat(match[1]!)) },
  {
    pattern: /^the origin ([-+]?[0-9]*\.?[0-9]+),([-+]?[0-9]*\.?[0-9]+)$/,
    run: (world, _step, match) => void (world.origin = [Number.parseFloat(match[1]!), Number.parseFloat(match[2]!)]),
  },
  { pattern: /^the node map$/, run: (world, step) => world.nodeMap(step.docString ?? '') },
  { pattern: /^the nodes$/, run: (world, step) => world.nodesTable(hashes(step.table ?? [[]])) },
  { pattern: /^the ways$/, run: (world, step) => world.waysTable(hashes(step.table ?? [[]])) },
  { pattern: /^the relations$/, run: (world, step) => world.relationsTable(step.table ?? [[]]) },
  {
    pattern: /^the query options$/,
    run: (world, step) => {
      for (const [key, value] of step.table ?? []) world.queryOptions[key!] = value ?? '';
    },
  },
  {
    pattern: /^I route I should get$/,
    run: (_world, step) => {
      const table = step.table ?? [[]];
      return { line: step.line, headers: table[0]!, rows: hashes(table) };
    },
  },
];

/** A step the harness does not run: the scenario is skipped for this reason. */
export class Unsupported extends Error {}

/** A step's text with quoted values and numbers generalised, to group skip reasons. */
export const stepPattern = (text: string) =>
  text
    .replace(/"[^"]*"/g, '"…"')
    .replace(/[-+]?\d+(\.\d+)?/g, 'N')
    .replace(/\s+/g, ' ');

/**
 * Runs a scenario's steps (the background's first) into a plan, or says why it is skipped:
 * `{skip: reason}` for an outline, an unsupported step or profile, no route table, or a step
 * OSRM's harness would refuse too.
 */
export function planScenario(feature: Feature, scenario: Scenario): ScenarioPlan | { skip: string } {
  if (scenario.outline) return { skip: 'scenario outline' };
  // OSRM's own runs (cucumber profile `verify`) leave out @todo and @stress.
  for (const tag of ['@todo', '@stress']) if (scenario.tags.includes(tag)) return { skip: `tagged ${tag} (OSRM's own run leaves it out)` };
  const world = new World();
  // OSRM's hooks.js: the profile when a scenario names none.
  world.profile = 'bicycle';
  const routings: ScenarioPlan['routings'] = [];
  try {
    for (const step of [...feature.background, ...scenario.steps]) {
      const entry = STEPS.map((s) => ({ s, match: s.pattern.exec(step.text) })).find(({ match }) => match !== null);
      if (!entry) throw new Unsupported(`step: ${stepPattern(step.text)}`);
      const table = entry.s.run(world, step, entry.match!);
      if (table) {
        const locations = new Map<string, [number, number]>();
        for (const [name] of [...world.nodes, ...world.locations]) locations.set(name, world.position(name));
        routings.push({ profile: world.profile, osm: world.toXml(), locations, queryOptions: { ...world.queryOptions }, table });
      }
    }
  } catch (error) {
    if (error instanceof Unsupported) return { skip: error.message };
    if (error instanceof ScenarioError) return { skip: `refused by OSRM's harness too: ${error.message}` };
    throw error;
  }
  if (routings.length === 0) return { skip: 'no "I route I should get" table' };
  return { profile: world.profile, routings };
}
