/**
 * tilemaker (Debian package) with its OpenMapTiles example config and Lua profile, copied into a
 * working folder. The example's shapefile layers (ocean from coastline/water_polygons.shp, Natural
 * Earth urban areas, ice shelves, glaciers) need files the package does not ship and this machine
 * does not have: they are removed from the copy, and the report says so. Everything else is as
 * shipped, with z0–14 like Waymark.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TILE_MAX_ZOOM } from '../../core/maps/zoom.js';

const EXAMPLES = '/usr/share/doc/tilemaker/examples';
const EXAMPLE_CONFIG = join(EXAMPLES, 'config-openmaptiles.json');
const EXAMPLE_PROFILE = join(EXAMPLES, 'process-openmaptiles.lua');

interface TilemakerConfig {
  layers: Record<string, { source?: string }>;
  settings: { minzoom: number; maxzoom: number };
}

export interface TilemakerSetup {
  config: string;
  profile: string;
  /** Layers removed from the example config, with the file each one needed. */
  removedLayers: { layer: string; source: string }[];
  version: string;
}

/** `tilemaker 2.2.0`, or null when tilemaker or its examples are missing. */
export function tilemakerVersion(): string | null {
  const help = spawnSync('tilemaker', ['--help'], { encoding: 'utf8' });
  if (help.error) return null;
  return (help.stdout + help.stderr).split('\n')[0]!.trim();
}

export function prepareTilemaker(dir: string): TilemakerSetup {
  const version = tilemakerVersion();
  if (!version) throw new Error('tilemaker is not installed (Debian package tilemaker)');
  const example = JSON.parse(readFileSync(EXAMPLE_CONFIG, 'utf8')) as TilemakerConfig;
  const removedLayers = Object.entries(example.layers)
    .filter(([, layer]) => layer.source)
    .map(([layer, { source }]) => ({ layer, source: source! }));
  for (const { layer } of removedLayers) delete example.layers[layer];
  example.settings.minzoom = 0;
  example.settings.maxzoom = TILE_MAX_ZOOM;
  const config = join(dir, 'config-openmaptiles.json');
  const profile = join(dir, 'process-openmaptiles.lua');
  writeFileSync(config, JSON.stringify(example, null, 2));
  copyFileSync(EXAMPLE_PROFILE, profile);
  return { config, profile, removedLayers, version };
}

export function tilemakerArgs(setup: TilemakerSetup, input: string, output: string): string[] {
  return ['--input', input, '--output', output, '--config', setup.config, '--process', setup.profile];
}
