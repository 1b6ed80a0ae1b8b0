/**
 * Display labels the way pelias/labels builds them: the name, then admin parts chosen by a per-country
 * schema, joined with ", ", with a name repeated by the first admin part dropped. Reduced to our fields.
 */
import type { GeocodeRecord } from '../../../core/geocoding/indexed-record.js';

type LabelPart = (record: GeocodeRecord) => string | undefined;

/** pelias/labels `getRegionalValue`: the full region name for a region, else its abbreviation, else its name. */
const regional: LabelPart = (r) => (r.layer === 'region' ? r.region : (r.region_a ?? r.region));
const locality: LabelPart = (r) => r.locality;
const countryName: LabelPart = (r) => r.country;
/** USA: the country's own name for a country record, else its alpha-3 code. */
const countryNameOrCode: LabelPart = (r) => (r.layer === 'country' ? r.country : (r.country_a ?? r.country));

const DEFAULT_SCHEMA: readonly LabelPart[] = [locality, countryName];
/** Admin parts by country (alpha-3), as in pelias/labels `labelSchema.js`. */
const SCHEMAS: Readonly<Record<string, readonly LabelPart[]>> = {
  USA: [locality, regional, countryNameOrCode],
  CAN: [locality, regional, countryName],
  AUS: [locality, regional, countryName],
  MCO: [(r) => r.neighbourhood, countryName],
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
