/**
 * The routing objects of the OSM files as the mode profiles judge them, kept until every file is
 * read (junctions depend on all ways): each usable way with its nodes and per-mode travel, the
 * barrier nodes that stop each mode, and the via-node turn restrictions each mode obeys.
 */
import type { Profile, WayTravel } from '../profiles/profile.js';
import { wayLabels } from '../profiles/ways.js';
import { oplField, oplId, parseMembers, parseTags, parseWayNodes } from './opl.js';

export interface StoredWay {
  id: number;
  /** The way's nodes in order, as indices into the objects' node numbering (see `nodeIndex`). */
  nodes: Uint32Array;
  /** lon, lat per node. */
  coordinates: Float64Array;
  name: string;
  ref: string;
  roundabout: boolean;
  /** By profile index; undefined where the mode does not use the way. */
  travel: (WayTravel | undefined)[];
}

export interface RestrictionRelation {
  /** By profile index; undefined where the mode ignores the relation. */
  kinds: ('no' | 'only' | undefined)[];
  fromWay: number;
  viaNode: number;
  toWay: number;
}

export interface RestrictionCounts {
  /** Restriction relations some mode obeys. */
  read: number;
  /** Of those, skipped because the via member is a way (only via-node restrictions are kept). */
  viaWay: number;
  /** Of those, skipped for lacking a from way, a via node or a to way. */
  incomplete: number;
}

export class RoutingObjects {
  readonly ways: StoredWay[] = [];
  /** By profile index: nodes whose barrier stops the mode. */
  readonly barriers: Set<number>[];
  readonly restrictions: RestrictionRelation[] = [];
  readonly restrictionCounts: RestrictionCounts = { read: 0, viaWay: 0, incomplete: 0 };
  /**
   * A dense number for every OSM node id a stored way uses, so that the builder works with plain
   * arrays instead of maps keyed by ids beyond 2^31 (slow map keys).
   */
  readonly nodeIndex = new Map<number, number>();
  /** Ways already read, from an earlier file that overlaps. */
  private readonly wayIds = new Set<number>();

  constructor(readonly profiles: readonly Profile[]) {
    this.barriers = profiles.map(() => new Set<number>());
  }

  /** Takes one OPL line (a node, way or relation). */
  add(line: string): void {
    const type = line.charCodeAt(0);
    if (type === 0x6e /* n */) this.addNode(line);
    else if (type === 0x77 /* w */) this.addWay(line);
    else if (type === 0x72 /* r */) this.addRelation(line);
  }

  private addNode(line: string): void {
    const tags = parseTags(oplField(line, 'T'));
    if (tags.size === 0) return;
    const id = oplId(line);
    for (let m = 0; m < this.profiles.length; m++) if (this.profiles[m]!.blocks(tags)) this.barriers[m]!.add(id);
  }

  private addWay(line: string): void {
    const id = oplId(line);
    if (this.wayIds.has(id)) return;
    const tags = parseTags(oplField(line, 'T'));
    const travel = this.profiles.map((profile) => profile.way(tags));
    if (travel.every((t) => t === undefined)) return;
    const { ids, coordinates } = parseWayNodes(oplField(line, 'N') ?? '');
    if (ids.length < 2) return;
    this.wayIds.add(id);
    const nodes = new Uint32Array(ids.length);
    for (let i = 0; i < ids.length; i++) {
      let index = this.nodeIndex.get(ids[i]!);
      if (index === undefined) {
        index = this.nodeIndex.size;
        this.nodeIndex.set(ids[i]!, index);
      }
      nodes[i] = index;
    }
    this.ways.push({ id, nodes, coordinates, ...wayLabels(tags), travel });
  }

  private addRelation(line: string): void {
    const tags = parseTags(oplField(line, 'T'));
    const kinds = this.profiles.map((profile) => profile.turnRestriction(tags));
    if (kinds.every((kind) => kind === undefined)) return;
    this.restrictionCounts.read++;
    const members = parseMembers(oplField(line, 'M'));
    const from = members.find((m) => m.role === 'from' && m.type === 'w');
    const to = members.find((m) => m.role === 'to' && m.type === 'w');
    const via = members.filter((m) => m.role === 'via');
    if (via.some((m) => m.type === 'w')) this.restrictionCounts.viaWay++;
    else if (from === undefined || to === undefined || via.length !== 1) this.restrictionCounts.incomplete++;
    else this.restrictions.push({ kinds, fromWay: from.id, viaNode: via[0]!.id, toWay: to.id });
  }
}
