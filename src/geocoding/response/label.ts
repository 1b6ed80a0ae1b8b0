/**
 * Display labels the way pelias/labels builds them: the name, then admin parts chosen by a per-country
 * schema, joined with ", ", with a name repeated by the first admin part dropped. Reduced to our fields.
 */
import type { GeocodeRecord } from '../../../core/geocoding/indexed-record.js';
import { normalizeText } from '../../../core/geocoding/text/normalize.js';

type LabelPart = (record: GeocodeRecord) => string | undefined;

/** pelias/labels `getRegionalValue`: the full region name for a region, else its abbreviation, else its name. */
const regional: LabelPart = (r) => (r.layer === 'region' ? r.region : (r.region_a ?? r.region));
/**
 * pelias/labels `getUniqueRegionalValue`: as `regional`, but nothing when the region is called as
 * the locality (Berlin, Andorra la Vella: a city that is its own region).
 */
const uniqueRegional: LabelPart = (r) =>
  r.layer !== 'region' && r.locality !== undefined && r.region !== undefined && normalizeText(r.locality) === normalizeText(r.region)
    ? undefined
    : regional(r);
const locality: LabelPart = (r) => r.locality;
const neighbourhood: LabelPart = (r) => r.neighbourhood;
const countryName: LabelPart = (r) => r.country;
/** USA: the country's own name for a country record, else its alpha-3 code. */
const countryNameOrCode: LabelPart = (r) => (r.layer === 'country' ? r.country : (r.country_a ?? r.country));
/** France's overseas regions stand for the country in their labels (`Saint-Denis, Reunion`). */
const FRA_OVERSEAS = new Set(['GF', 'GP', 'MQ', 'RE', 'YT']);
const frenchCountry: LabelPart = (r) => (FRA_OVERSEAS.has(r.region_a ?? '') ? (r.region ?? r.country) : r.country);

const DEFAULT_SCHEMA: readonly LabelPart[] = [locality, uniqueRegional, countryName];
/**
 * Admin parts by country (alpha-3), as in pelias/labels `labelSchema.js`. Not carried: Great
 * Britain's macroregion (so its labels have none), Korea's and Japan's own builders.
 */
const SCHEMAS: Readonly<Record<string, readonly LabelPart[]>> = {
  USA: [locality, regional, countryNameOrCode],
  CAN: [locality, regional, countryName],
  AUS: [locality, regional, countryName],
  ITA: [locality, regional, countryName],
  GBR: [locality, countryName],
  FRA: [locality, frenchCountry],
  MCO: [neighbourhood, countryName],
  SGP: [neighbourhood, countryName],
};

/** Pelias leaves the name out for countries (the country part says it) and for US/CA regions of WOF/GeoNames. */
function hasNamePrefix(record: GeocodeRecord): boolean {
  if (record.layer === 'country' && record.country) return false;
  const northAmerican = record.country_a === 'USA' || record.country_a === 'CAN';
  const adminSource = record.source === 'whosonfirst' || record.source === 'geonames';
  return !(record.layer === 'region' && adminSource && northAmerican);
}

export function label(record: GeocodeRecord): string {
  const schema = SCHEMAS[record.country_a ?? ''] ?? DEFAULT_SCHEMA;
  const admin = schema.map((part) => part(record)).filter((value): value is string => !!value);
  if (!hasNamePrefix(record)) return admin.join(', ');
  const parts = admin[0] === record.name ? admin : [record.name, ...admin];
  return parts.join(', ');
}
