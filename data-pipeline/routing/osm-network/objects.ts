/**
 * The routing objects of the OSM files as the mode profiles judge them, kept until every file is
 * read (junctions depend on all ways): each usable way with its points and per-mode travel, the
 * nodes that stop or restrict each mode (barriers, access tags), and the turn restrictions (via a
 * node or via ways) each mode obeys.
 *
 * Everything that grows with the input is held in typed arrays (see docs/ROUTING-ENGINE.md,
 * "Importing"): per point of a way 16 bytes while reading (node id, lon, lat), 12 once read; per
 * way a few dozen bytes; names, refs and travel descriptions once per distinct value.
 */
import { Growable } from '../growable.js';
import type { DirectionTravel, NodePassage, Profile, WayTravel } from '../profiles/profile.js';
import { TURNING_PLACES } from '../profiles/barriers.js';
import { severalMembersAllowed } from '../profiles/restrictions.js';
import { wayLabels } from '../profiles/ways.js';
import { IdIndex } from './id-index.js';
import { oplField, oplId, parseMembers, parseTags, parseWayNodes } from './opl.js';

export interface RestrictionCounts {
  /** Restriction relations some mode obeys. */
  read: number;
  /** Of those, kept with via ways (not a via node). */
  viaWay: number;
  /** Of those, skipped for lacking a from way, a via member or a to way, or for several from or to ways. */
  incomplete: number;
}

/**
 * Restriction relations; `kinds` holds 2 bits per profile index: RESTRICTION_NO, RESTRICTION_ONLY
 * or 0 (ignored by the mode). A relation has a via node or (as OSRM, whichever via member comes
 * last decides) a list of via ways, in the relation's order.
 */
export interface RestrictionRelations {
  count: number;
  kinds: Uint8Array;
  fromWay: Float64Array;
  /** The via node's number (see RoutingWays.nodeCount); -1 when no stored way passes it, or for via ways. */
  viaNode: Int32Array;
  /** The via ways of relation r are viaWays[viaWayFirst[r]] ≤ … < viaWays[viaWayFirst[r + 1]] (none for a via node). */
  viaWayFirst: Uint32Array;
  viaWays: Float64Array;
  toWay: Float64Array;
}

export const RESTRICTION_NO = 1;
export const RESTRICTION_ONLY = 2;

/** What a node does to one mode, 2 bits per profile in RoutingWays.nodePassage (see NodePassage). */
export const NODE_BLOCKED = 1;
export const NODE_RESTRICTED = 2;
const PASSAGE_BITS: Readonly<Record<NonNullable<NodePassage>, number>> = { blocked: NODE_BLOCKED, restricted: NODE_RESTRICTED };

/** The ways that some mode uses, and what else the network builder needs, once every file is read. */
export interface RoutingWays {
  profiles: readonly Profile[];
  count: number;
  wayId: Float64Array;
  /** The points of way w are pointFirst[w] ≤ p < pointFirst[w + 1] (at least 2). */
  pointFirst: Uint32Array;
  /** The node of each point: a dense number below `nodeCount`, the same for every way through it. */
  pointNode: Uint32Array;
  /** lon, lat × 10⁷ of each point. */
  coordinates: Int32Array;
  /** Indices into `strings`. */
  name: Uint32Array;
  ref: Uint32Array;
  /** `name:pronunciation` (OSRM announces a change of it). */
  pronunciation: Uint32Array;
  roundabout: Uint8Array;
  /** 1 for a bridge or a tunnel (profiles/ways.ts, `isOffGround`). */
  offGround: Uint8Array;
  /** GUIDANCE_RAMP, GUIDANCE_MOTORWAY and GUIDANCE_LOW_PRIORITY bits of each way (profiles/ways.ts, `wayLabels`). */
  guidance: Uint8Array;
  /** `travels[travel[w * profiles.length + m]]`: how profile m travels way w; index 0 (undefined) where it does not use it. */
  travel: Uint32Array;
  travels: readonly (WayTravel | undefined)[];
  strings: string[];
  nodeCount: number;
  /** By node number: its OSM id. */
  nodeId: Float64Array;
  /** By node number: 2 bits per profile m (at bit 2m), NODE_BLOCKED or NODE_RESTRICTED, 0 when the node does nothing to its mode. */
  nodePassage: Uint8Array;
  /** By node number: 1 for a designated turning place (see TURNING_PLACES), where every mode may turn round. */
  turningPlace: Uint8Array;
  restrictions: RestrictionRelations;
  restrictionCounts: RestrictionCounts;
}

/** Each distinct value once: its index in `values`. */
class Interned<T> {
  readonly values: T[] = [];
  private readonly index = new Map<string, number>();

  constructor(private readonly keyOf: (value: T) => string) {}

  add(value: T): number {
    const key = this.keyOf(value);
    let i = this.index.get(key);
    if (i === undefined) {
      i = this.values.length;
      this.index.set(key, i);
      this.values.push(value);
    }
    return i;
  }
}

const directionKey = (along: DirectionTravel | null) =>
  along === null ? '-' : `${along.kmh} ${along.travel} ${along.restricted === true} ${along.classes ?? 0}`;
const travelKey = (travel: WayTravel | undefined): string =>
  travel === undefined
    ? ''
    : `${directionKey(travel.forward)} ${directionKey(travel.backward)} ${travel.durationSeconds} ${travel.noStart === true}`;

const float64 = (n: number) => new Float64Array(n);
const uint32 = (n: number) => new Uint32Array(n);
const uint8 = (n: number) => new Uint8Array(n);

export class RoutingObjects {
  readonly restrictionCounts: RestrictionCounts = { read: 0, viaWay: 0, incomplete: 0 };
  private readonly wayIds = new Growable(float64);
  private readonly pointFirst = new Growable(uint32);
  private readonly pointIds = new Growable(float64);
  private readonly coordinates = new Growable((n) => new Int32Array(n));
  private readonly names = new Growable(uint32);
  private readonly refs = new Growable(uint32);
  private readonly pronunciations = new Growable(uint32);
  private readonly roundabouts = new Growable(uint8);
  private readonly offGround = new Growable(uint8);
  private readonly guidance = new Growable(uint8);
  private readonly travel = new Growable(uint32);
  private readonly strings = new Interned<string>((text) => text);
  private readonly travels = new Interned<WayTravel | undefined>(travelKey);
  private readonly passageIds = new Growable(float64);
  private readonly passages = new Growable(uint8);
  private readonly turningIds = new Growable(float64);
  private readonly restrictionKinds = new Growable(uint8);
  private readonly restrictionFrom = new Growable(float64);
  private readonly restrictionVia = new Growable(float64);
  private readonly restrictionTo = new Growable(float64);
  private readonly restrictionViaWayFirst = new Growable(uint32);
  private readonly restrictionViaWays = new Growable(float64);
  /** Ways read from earlier files (overlapping extracts): not read again. */
  private earlierWays: IdIndex | null = null;

  constructor(readonly profiles: readonly Profile[]) {
    if (profiles.length > 4) throw new Error('at most 4 profiles: restriction kinds and node passages take 2 bits each in a byte');
    this.pointFirst.push(0);
    this.restrictionViaWayFirst.push(0);
    this.strings.add('');
    this.travels.add(undefined);
  }

  /** Takes one OPL line (a node, way or relation). */
  add(line: string): void {
    const type = line.charCodeAt(0);
    if (type === 0x6e /* n */) this.addNode(line);
    else if (type === 0x77 /* w */) this.addWay(line);
    else if (type === 0x72 /* r */) this.addRelation(line);
  }

  /** Call between files: a way already read is not read again from the next one. */
  nextFile(): void {
    this.earlierWays = new IdIndex(this.wayIds.toArray());
  }

  private addNode(line: string): void {
    const tagField = oplField(line, 'T');
    if (!tagField) return;
    const tags = parseTags(tagField);
    if (TURNING_PLACES.has(tags.highway ?? '')) this.turningIds.push(oplId(line));
    let passages = 0;
    this.profiles.forEach((profile, m) => {
      const passage = profile.node(tags);
      if (passage !== undefined) passages |= PASSAGE_BITS[passage] << (2 * m);
    });
    if (passages === 0) return;
    this.passageIds.push(oplId(line));
    this.passages.push(passages);
  }

  private addWay(line: string): void {
    const id = oplId(line);
    if (this.earlierWays !== null && this.earlierWays.indexOf(id) >= 0) return;
    const tags = parseTags(oplField(line, 'T'));
    const travel = this.profiles.map((profile) => profile.way(tags));
    if (travel.every((t) => t === undefined)) return;
    const { ids, coordinates } = parseWayNodes(oplField(line, 'N') ?? '');
    if (ids.length < 2) return;
    this.wayIds.push(id);
    for (let i = 0; i < ids.length; i++) {
      this.pointIds.push(ids[i]!);
      this.coordinates.push(coordinates[2 * i]!);
      this.coordinates.push(coordinates[2 * i + 1]!);
    }
    this.pointFirst.push(this.pointIds.length);
    const { name, ref, pronunciation, roundabout, offGround, guidance } = wayLabels(tags);
    this.names.push(this.strings.add(name));
    this.refs.push(this.strings.add(ref));
    this.pronunciations.push(this.strings.add(pronunciation));
    this.roundabouts.push(roundabout ? 1 : 0);
    this.offGround.push(offGround ? 1 : 0);
    this.guidance.push(guidance);
    for (const t of travel) this.travel.push(this.travels.add(t));
  }

  private addRelation(line: string): void {
    const tags = parseTags(oplField(line, 'T'));
    let kinds = 0;
    this.profiles.forEach((profile, m) => {
      const kind = profile.turnRestriction(tags);
      if (kind !== undefined) kinds |= (kind === 'no' ? RESTRICTION_NO : RESTRICTION_ONLY) << (2 * m);
    });
    if (kinds === 0) return;
    this.restrictionCounts.read++;
    const members = parseMembers(oplField(line, 'M'));
    // As OSRM v6's RestrictionParser: `from`/`to` are ways (other types ignored), `via` a node (the
    // last one) or ways, whichever via member comes last; several `from` only for no_entry, several
    // `to` only for no_exit.
    const from = members.filter((m) => m.role === 'from' && m.type === 'w');
    const to = members.filter((m) => m.role === 'to' && m.type === 'w');
    const vias = members.filter((m) => m.role === 'via' && (m.type === 'n' || m.type === 'w'));
    const viaNode = vias.findLast((m) => m.type === 'n');
    const viaWays = vias[vias.length - 1]?.type === 'w' ? vias.filter((m) => m.type === 'w') : [];
    const several = severalMembersAllowed(tags);
    if (from.length === 0 || to.length === 0 || vias.length === 0) this.restrictionCounts.incomplete++;
    else if ((from.length > 1 && !several.from) || (to.length > 1 && !several.to)) this.restrictionCounts.incomplete++;
    else {
      if (viaWays.length > 0) this.restrictionCounts.viaWay++;
      // As OSRM, one restriction per from way and to way (several only for no_entry / no_exit).
      for (const fromWay of from) {
        for (const toWay of to) {
          this.restrictionKinds.push(kinds);
          this.restrictionFrom.push(fromWay.id);
          this.restrictionVia.push(viaWays.length > 0 ? NaN : viaNode!.id);
          for (const way of viaWays) this.restrictionViaWays.push(way.id);
          this.restrictionViaWayFirst.push(this.restrictionViaWays.length);
          this.restrictionTo.push(toWay.id);
        }
      }
    }
  }

  /** Numbers the nodes and hands everything over; the objects are empty afterwards. */
  finish(): RoutingWays {
    const pointIds = this.pointIds.take();
    const nodes = new IdIndex(pointIds);
    const pointNode = new Uint32Array(pointIds.length);
    for (let p = 0; p < pointIds.length; p++) pointNode[p] = nodes.indexOf(pointIds[p]!);

    const nodePassage = new Uint8Array(nodes.size);
    const passageIds = this.passageIds.take();
    const passages = this.passages.take();
    for (let i = 0; i < passageIds.length; i++) {
      const node = nodes.indexOf(passageIds[i]!);
      if (node >= 0) nodePassage[node]! |= passages[i]!;
    }
    const turningPlace = new Uint8Array(nodes.size);
    for (const id of this.turningIds.take()) {
      const node = nodes.indexOf(id);
      if (node >= 0) turningPlace[node] = 1;
    }
    const viaIds = this.restrictionVia.take();
    const viaNode = Int32Array.from(viaIds, (id) => (Number.isNaN(id) ? -1 : nodes.indexOf(id)));

    const wayId = this.wayIds.take();
    this.earlierWays = null;
    return {
      profiles: this.profiles,
      count: wayId.length,
      wayId,
      pointFirst: this.pointFirst.take(),
      pointNode,
      coordinates: this.coordinates.take(),
      name: this.names.take(),
      ref: this.refs.take(),
      pronunciation: this.pronunciations.take(),
      roundabout: this.roundabouts.take(),
      offGround: this.offGround.take(),
      guidance: this.guidance.take(),
      travel: this.travel.take(),
      travels: this.travels.values,
      strings: this.strings.values,
      nodeCount: nodes.size,
      nodeId: nodes.ids,
      nodePassage,
      turningPlace,
      restrictions: {
        count: viaNode.length,
        kinds: this.restrictionKinds.take(),
        fromWay: this.restrictionFrom.take(),
        viaNode,
        viaWayFirst: this.restrictionViaWayFirst.take(),
        viaWays: this.restrictionViaWays.take(),
        toWay: this.restrictionTo.take(),
      },
      restrictionCounts: this.restrictionCounts,
    };
  }
}

/** What node `node` does to profile `m`'s mode: NODE_BLOCKED, NODE_RESTRICTED, or 0; blocked wins when files disagree. */
export function nodePassageOf(ways: RoutingWays, node: number, m: number): number {
  const bits = (ways.nodePassage[node]! >> (2 * m)) & 3;
  return bits & NODE_BLOCKED ? NODE_BLOCKED : bits;
}

/** The kind of restriction `r` for profile `m`: RESTRICTION_NO, RESTRICTION_ONLY, or 0 when the mode ignores it. */
export function restrictionKindOf(restrictions: RestrictionRelations, r: number, m: number): number {
  return (restrictions.kinds[r]! >> (2 * m)) & 3;
}
