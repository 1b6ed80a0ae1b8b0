/**
 * The Piscina task of an import's reading for tiles: one block of osmium's output parsed, mapped
 * to Shortbread features and spilled (data-pipeline/tiles/spill-osm-block.ts).
 */
import { spillOsmBlock, type OsmBlockResult, type OsmBlockTask } from '../data-pipeline/tiles/spill-osm-block.js';

export default function osmSpillTask(task: OsmBlockTask): OsmBlockResult {
  return spillOsmBlock(task);
}
