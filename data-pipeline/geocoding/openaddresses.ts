/**
 * OpenAddresses importer: a CSV in the classic layout `LON,LAT,NUMBER,STREET,UNIT,CITY,DISTRICT,
 * REGION,POSTCODE,ID` (columns found by header name), streamed row by row into address records.
 * `source_id` is `<file stem>:<ID>`, or `<file stem>:<hash>` of the position, number, street and
 * postcode when the row has no ID — stable across runs of the same file. The unit is not part of
 * the record: rows differing only by unit are one address (the later ones count as duplicates).
 * CITY and REGION are kept as locality/region hints that point-in-polygon may replace.
 */
import { createHash } from 'node:crypto';
import { basename, extname } from 'node:path';
import type { ProgressReporter } from '../progress.js';
import { readCsvRows } from './csv.js';
import { isValidPosition, placeGid, type PlaceRecord } from '../../core/geocoding/place-record.js';

export interface OpenAddressesCounts {
  rows: number;
  records: number;
  skippedNoNumberOrStreet: number;
  skippedInvalidPosition: number;
  skippedDuplicate: number;
}

const COLUMNS = ['LON', 'LAT', 'NUMBER', 'STREET', 'CITY', 'REGION', 'POSTCODE', 'ID'] as const;
const REQUIRED_COLUMNS = ['LON', 'LAT', 'NUMBER', 'STREET'] as const;
const PROGRESS_EVERY = 10_000;

export function emptyOpenAddressesCounts(): OpenAddressesCounts {
  return { rows: 0, records: 0, skippedNoNumberOrStreet: 0, skippedInvalidPosition: 0, skippedDuplicate: 0 };
}

/** The address records of one OpenAddresses CSV; `counts` is updated as rows are read. */
export async function* readOpenAddresses(
  file: string,
  counts: OpenAddressesCounts,
  onProgress?: ProgressReporter,
): AsyncGenerator<PlaceRecord> {
  const stem = basename(file, extname(file));
  const seen = new Set<string>();
  let column: Record<(typeof COLUMNS)[number], number> | null = null;
  for await (const row of readCsvRows(file)) {
    if (!column) {
      column = columnIndexes(row, file);
      continue;
    }
    counts.rows++;
    if (counts.rows % PROGRESS_EVERY === 0) onProgress?.({ phase: `oa ${stem}`, done: counts.rows, total: null, unit: 'rows' });
    const field = (name: (typeof COLUMNS)[number]) => (row[column![name]] ?? '').trim();
    const number = field('NUMBER');
    const street = field('STREET');
    if (!number || !street) {
      counts.skippedNoNumberOrStreet++;
      continue;
    }
    const lon = parseCoordinate(field('LON'));
    const lat = parseCoordinate(field('LAT'));
    if (!isValidPosition(lon, lat)) {
      counts.skippedInvalidPosition++;
      continue;
    }
    const postcode = field('POSTCODE');
    const id = field('ID') || rowHash([lon, lat, number, street, postcode]);
    const sourceId = `${stem}:${id}`;
    if (seen.has(sourceId)) {
      counts.skippedDuplicate++;
      continue;
    }
    seen.add(sourceId);
    counts.records++;
    const city = field('CITY');
    const region = field('REGION');
    yield {
      source: 'openaddresses',
      layer: 'address',
      source_id: sourceId,
      gid: placeGid('openaddresses', 'address', sourceId),
      name: `${number} ${street}`,
      names: {},
      housenumber: number,
      street,
      lon,
      lat,
      ...(postcode ? { postalcode: postcode } : {}),
      // The file's city stays a name of the address even where a polygon names another locality.
      ...(city ? { locality: city, admin_names: [city] } : {}),
      ...(region ? { region } : {}),
    };
  }
}

const columnNames = (header: string[]) => header.map((name) => name.trim().toUpperCase());

/** Why a CSV with this first row is not an OpenAddresses file, or null when it is one. */
function headerProblem(header: string[] | undefined): string | null {
  if (header === undefined) return 'not an OpenAddresses CSV (the file is empty)';
  const names = columnNames(header);
  const missing = REQUIRED_COLUMNS.filter((name) => !names.includes(name));
  return missing.length > 0 ? `not an OpenAddresses CSV (no ${missing.join(', ')} column)` : null;
}

function columnIndexes(header: string[], file: string): Record<(typeof COLUMNS)[number], number> {
  const problem = headerProblem(header);
  if (problem) throw new Error(`${basename(file)}: ${problem}`);
  const names = columnNames(header);
  return Object.fromEntries(COLUMNS.map((name) => [name, names.indexOf(name)])) as Record<(typeof COLUMNS)[number], number>;
}

/** Reads the header row only: why the file is not an OpenAddresses CSV, or null when it is one. */
export async function openAddressesHeaderProblem(file: string): Promise<string | null> {
  for await (const header of readCsvRows(file)) return headerProblem(header);
  return headerProblem(undefined);
}

/** A number, or NaN for an empty or malformed field (`Number('')` would be 0). */
function parseCoordinate(text: string): number {
  return text === '' ? NaN : Number(text);
}

function rowHash(values: readonly (string | number)[]): string {
  return createHash('sha1').update(values.join('\u0000')).digest('hex').slice(0, 16);
}
