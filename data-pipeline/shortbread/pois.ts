// Shortbread point layers from OSM nodes and areas (areas at a point inside them):
// pois, public_transport and addresses (an address already on a POI is not repeated).
import type { FeatureValue } from '../features.js';
import { nameProperties, type Emit } from './rule-helpers.js';
import { pointOf, type AreaElement, type PointElement } from '../osm/element.js';
import type { Tags } from '../osm/tags.js';

/**
 * Keys and values listed by the schema's pois layer; each matching key becomes an attribute.
 * `convenience`, `optician`, `archaeological_site` are added beside the schema's misspellings.
 */
const POI_VALUES: Record<string, Set<string>> = {
  amenity: new Set([
    'police',
    'fire_station',
    'post_box',
    'post_office',
    'telephone',
    'library',
    'townhall',
    'courthouse',
    'prison',
    'embassy',
    'community_centre',
    'nursing_home',
    'arts_centre',
    'grave_yard',
    'marketplace',
    'recycling',
    'university',
    'school',
    'college',
    'public_building',
    'pharmacy',
    'hospital',
    'clinic',
    'doctors',
    'dentist',
    'veterinary',
    'theatre',
    'nightclub',
    'cinema',
    'restaurant',
    'fast_food',
    'cafe',
    'pub',
    'bar',
    'food_court',
    'biergarten',
    'shelter',
    'car_rental',
    'car_wash',
    'car_sharing',
    'bicycle_rental',
    'vending_machine',
    'bank',
    'atm',
    'toilets',
    'bench',
    'drinking_water',
    'fountain',
    'hunting_stand',
    'waste_basket',
    'place_of_worship',
    'playground',
    'dog_park',
  ]),
  leisure: new Set([
    'sports_centre',
    'pitch',
    'swimming_pool',
    'water_park',
    'golf_course',
    'stadium',
    'ice_rink',
    'playground',
    'dog_park',
  ]),
  tourism: new Set([
    'hotel',
    'motel',
    'bed_and_breakfast',
    'guest_house',
    'hostel',
    'chalet',
    'camp_site',
    'alpine_hut',
    'caravan_site',
    'information',
    'picnic_site',
    'viewpoint',
    'zoo',
    'theme_park',
  ]),
  shop: new Set([
    'supermarket',
    'bakery',
    'kiosk',
    'mall',
    'department_store',
    'general',
    'convinience',
    'convenience',
    'clothes',
    'florist',
    'chemist',
    'books',
    'butcher',
    'shoes',
    'alcohol',
    'beverages',
    'optican',
    'optician',
    'jewelry',
    'gift',
    'sports',
    'stationery',
    'outdoor',
    'mobile_phone',
    'toys',
    'newsagent',
    'greengrocer',
    'beauty',
    'video',
    'car',
    'bicycle',
    'doityourself',
    'hardware',
    'furniture',
    'computer',
    'garden_centre',
    'hairdresser',
    'travel_agency',
    'laundry',
    'dry_cleaning',
  ]),
  man_made: new Set(['surveillance', 'tower', 'windmill', 'lighthouse', 'wastewater_plant', 'water_well', 'watermill', 'water_works']),
  historic: new Set([
    'monument',
    'memorial',
    'artwork',
    'castle',
    'ruins',
    'archaelogical_site',
    'archaeological_site',
    'wayside_cross',
    'wayside_shrine',
    'battlefield',
    'fort',
  ]),
  emergency: new Set(['phone', 'fire_hydrant', 'defibrillator']),
  highway: new Set(['emergency_access_point']),
  office: new Set(['diplomatic']),
};
const POI_KEYS = Object.keys(POI_VALUES);

/** Extra string attributes copied from the equally named OSM key, for the listed `key=value`s. */
const DETAIL_KEYS: [key: string, values: string[], detail: string][] = [
  ['amenity', ['restaurant', 'fast_food', 'pub', 'bar', 'cafe'], 'cuisine'],
  ['leisure', ['pitch', 'sports_centre'], 'sport'],
  ['amenity', ['vending_machine'], 'vending'],
  ['tourism', ['information'], 'information'],
  ['man_made', ['tower'], 'tower:type'],
  ['amenity', ['place_of_worship'], 'religion'],
  ['amenity', ['place_of_worship'], 'denomination'],
];

/** Extra boolean attributes, true when the equally named OSM key is `yes`. */
const FLAG_KEYS: [key: string, value: string, flag: string][] = [
  ['amenity', 'recycling', 'recycling:glass_bottles'],
  ['amenity', 'recycling', 'recycling:paper'],
  ['amenity', 'recycling', 'recycling:clothes'],
  ['amenity', 'recycling', 'recycling:scrap_metal'],
  ['amenity', 'bank', 'atm'],
];

const POIS_MINZOOM = 14;
const ADDRESSES_MINZOOM = 14;

function addressProperties(t: Tags, props: Record<string, FeatureValue>): Record<string, FeatureValue> {
  if (t['addr:housenumber'] !== undefined) props.housenumber = t['addr:housenumber'];
  if (t['addr:housename'] !== undefined) props.housename = t['addr:housename'];
  return props;
}

/** The pois attributes of an object, or undefined when it is no POI the schema lists. */
function poiProperties(t: Tags): Record<string, FeatureValue> | undefined {
  let props: Record<string, FeatureValue> | undefined;
  for (const key of POI_KEYS) {
    const value = t[key];
    if (value !== undefined && POI_VALUES[key]!.has(value)) (props ??= {})[key] = value;
  }
  if (props === undefined) return undefined;
  for (const [key, values, detail] of DETAIL_KEYS) {
    if (values.includes(t[key] ?? '')) props[detail] = t[detail] ?? '';
  }
  for (const [key, value, flag] of FLAG_KEYS) if (t[key] === value) props[flag] = t[flag] === 'yes';
  return addressProperties(t, nameProperties(t, props));
}

export function poisAndAddresses(el: PointElement | AreaElement, emit: Emit): void {
  const t = el.tags;
  const poi = poiProperties(t);
  if (poi !== undefined) emit('pois', POIS_MINZOOM, pointOf(el), poi);
  else if (t['addr:housenumber'] !== undefined || t['addr:housename'] !== undefined) {
    emit('addresses', ADDRESSES_MINZOOM, pointOf(el), addressProperties(t, {}));
  }
}

/** [key, value, kind, first zoom] of public transport stops and stations. */
const PUBLIC_TRANSPORT: [string, string, string, number][] = [
  ['aeroway', 'aerodrome', 'aerodrome', 11],
  ['aeroway', 'helipad', 'helipad', 13],
  ['railway', 'station', 'station', 13],
  ['railway', 'halt', 'halt', 13],
  ['railway', 'tram_stop', 'tram_stop', 14],
  ['amenity', 'bus_station', 'bus_station', 13],
  ['highway', 'bus_stop', 'bus_stop', 14],
  ['amenity', 'ferry_terminal', 'ferry_terminal', 12],
  ['aerialway', 'station', 'aerialway_station', 13],
];

export function publicTransport(el: PointElement | AreaElement, emit: Emit): void {
  const t = el.tags;
  for (const [key, value, kind, minzoom] of PUBLIC_TRANSPORT) {
    if (t[key] !== value) continue;
    const props = nameProperties(t, { kind });
    if (t.iata !== undefined) props.iata = t.iata;
    emit('public_transport', minzoom, pointOf(el), props);
    return;
  }
}
