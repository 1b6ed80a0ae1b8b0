/**
 * The US states (and DC) with their USPS codes, and their polygons from npm `us-atlas` (Census
 * cartographic boundaries, 1:10m TopoJSON): Pelias labels US places `Baltimore, MD, USA`, and most
 * imports carry no state boundary. The polygons are used only where no imported polygon gives a
 * US record its region; the territories (FIPS 60 and above) are left out: ISO gives them
 * countries of their own.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { MultiPolygon, Polygon } from 'geojson';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import type { AdminPolygon } from '../../core/geocoding/admin-lookup.js';

/** USPS code and name by FIPS code. */
const US_STATES: Readonly<Record<string, readonly [string, string]>> = {
  '01': ['AL', 'Alabama'],
  '02': ['AK', 'Alaska'],
  '04': ['AZ', 'Arizona'],
  '05': ['AR', 'Arkansas'],
  '06': ['CA', 'California'],
  '08': ['CO', 'Colorado'],
  '09': ['CT', 'Connecticut'],
  '10': ['DE', 'Delaware'],
  '11': ['DC', 'District of Columbia'],
  '12': ['FL', 'Florida'],
  '13': ['GA', 'Georgia'],
  '15': ['HI', 'Hawaii'],
  '16': ['ID', 'Idaho'],
  '17': ['IL', 'Illinois'],
  '18': ['IN', 'Indiana'],
  '19': ['IA', 'Iowa'],
  '20': ['KS', 'Kansas'],
  '21': ['KY', 'Kentucky'],
  '22': ['LA', 'Louisiana'],
  '23': ['ME', 'Maine'],
  '24': ['MD', 'Maryland'],
  '25': ['MA', 'Massachusetts'],
  '26': ['MI', 'Michigan'],
  '27': ['MN', 'Minnesota'],
  '28': ['MS', 'Mississippi'],
  '29': ['MO', 'Missouri'],
  '30': ['MT', 'Montana'],
  '31': ['NE', 'Nebraska'],
  '32': ['NV', 'Nevada'],
  '33': ['NH', 'New Hampshire'],
  '34': ['NJ', 'New Jersey'],
  '35': ['NM', 'New Mexico'],
  '36': ['NY', 'New York'],
  '37': ['NC', 'North Carolina'],
  '38': ['ND', 'North Dakota'],
  '39': ['OH', 'Ohio'],
  '40': ['OK', 'Oklahoma'],
  '41': ['OR', 'Oregon'],
  '42': ['PA', 'Pennsylvania'],
  '44': ['RI', 'Rhode Island'],
  '45': ['SC', 'South Carolina'],
  '46': ['SD', 'South Dakota'],
  '47': ['TN', 'Tennessee'],
  '48': ['TX', 'Texas'],
  '49': ['UT', 'Utah'],
  '50': ['VT', 'Vermont'],
  '51': ['VA', 'Virginia'],
  '53': ['WA', 'Washington'],
  '54': ['WV', 'West Virginia'],
  '55': ['WI', 'Wisconsin'],
  '56': ['WY', 'Wyoming'],
};

const STATE_NAME_BY_USPS = new Map(Object.values(US_STATES));

/** The name of a state (or DC) by its USPS code (GeoNames' admin1 code in the US), else undefined. */
export function usStateName(usps: string | undefined): string | undefined {
  return STATE_NAME_BY_USPS.get(usps ?? '');
}

const require = createRequire(import.meta.url);

/** The 50 states and DC; their GIDs (`us-atlas:region:<FIPS>`) name no indexed record and are never written. */
export function usStatePolygons(): AdminPolygon[] {
  const topology = JSON.parse(readFileSync(require.resolve('us-atlas/states-10m.json'), 'utf8')) as Topology;
  const states = feature(topology, topology.objects.states as GeometryCollection);
  return states.features.flatMap(({ id, geometry }) => {
    const state = US_STATES[String(id)];
    if (!state || (geometry.type !== 'Polygon' && geometry.type !== 'MultiPolygon')) return [];
    const [usps, name] = state;
    return [
      {
        layer: 'region',
        name,
        gid: `us-atlas:region:${String(id)}`,
        country_a: 'USA',
        abbreviation: usps,
        geometry: geometry as Polygon | MultiPolygon,
      },
    ];
  });
}
