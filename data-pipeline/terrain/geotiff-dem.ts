/**
 * GeoTIFF elevation rasters, read with `geotiff`: one band of 16-, 32- or 64-bit numbers in metres,
 * georeferenced in EPSG:4326 (longitude/latitude on WGS 84) without rotation. A pixel's value is
 * the elevation at its centre (PixelIsArea, the default) or at its corner point (PixelIsPoint), as
 * GDAL reads them. The nodata value (GDAL_NODATA), NaN and values no place on Earth has (below
 * -12,000 m or above 9,000 m: sentinels such as -32768 or -3.4e38 that a writer did not declare)
 * are no sample — outside the raster's coverage, not filled: a GeoTIFF's nodata usually frames
 * its footprint.
 * A raster is read in windows (`readGeoTiffWindow`), so a large one never needs its whole in memory.
 */
import { isMainThread } from 'node:worker_threads';
import type { GeoTIFFImage } from 'geotiff';
import { latticeThrough, type Lattice } from '../../core/terrain/elevation-file.js';
import type { RasterPiece } from './raster-piece.js';

export interface GeoTiffLayout {
  width: number;
  height: number;
  lattice: Lattice;
  /** Longitude of column 0's samples and latitude of row 0's (the northernmost). */
  west: number;
  north: number;
  noData: number | null;
}

const WGS84 = 4326;
const WGS84_DATUM = 6326;
const USER_DEFINED = 32767;
const MODEL_GEOGRAPHIC = 2;
const PIXEL_IS_POINT = 2;
/** Below the deepest sea floor and above Everest: values out of this range are undeclared nodata sentinels. */
const LOWEST_METRES = -12_000;
const HIGHEST_METRES = 9_000;
const GEO_TAGS = [
  'GeoKeyDirectory',
  'GeoAsciiParams',
  'GeoDoubleParams',
  'ModelPixelScale',
  'ModelTiepoint',
  'ModelTransformation',
  'GDAL_NODATA',
] as const;

/** A GeoTIFF that is no elevation raster Waymark reads, with the reason in words. */
export class UnsupportedGeoTiff extends Error {}

/**
 * geotiff, loaded on first use. It loads `web-worker`, which, loaded in a worker thread of Node (no
 * global Worker), takes the thread for a web worker of its own and fails (its `workerData` is not
 * there); a placeholder global Worker keeps it from that in the elevation pool's threads. Nothing
 * here uses geotiff's decoder pool (its only user of web-worker): rasters decode in the thread.
 */
async function openGeoTiff(path: string) {
  if (!isMainThread && typeof Reflect.get(globalThis, 'Worker') !== 'function')
    Reflect.set(globalThis, 'Worker', class WorkerPlaceholder {});
  const { fromFile } = await import('geotiff');
  return fromFile(path);
}

async function firstImage(path: string): Promise<GeoTIFFImage> {
  let image: GeoTIFFImage;
  try {
    image = await (await openGeoTiff(path)).getImage(0);
  } catch (error) {
    throw new UnsupportedGeoTiff(`not a TIFF file (${(error as Error).message})`);
  }
  for (const tag of GEO_TAGS) if (image.fileDirectory.hasTag(tag)) await image.fileDirectory.loadValue(tag);
  return image;
}

/** The coordinate system named by the GeoKeys, in words, when it is not EPSG:4326; null when it is. */
function crsProblem(keys: Record<string, unknown> | null): string | null {
  if (keys === null) return 'it has no georeferencing (GeoKeys): not a GeoTIFF';
  const reproject =
    'elevation rasters must be in EPSG:4326 (longitude/latitude); reproject it first, e.g. gdalwarp -t_srs EPSG:4326 in.tif out.tif';
  const projected = keys.ProjectedCSTypeGeoKey;
  if (keys.GTModelTypeGeoKey !== MODEL_GEOGRAPHIC || projected !== undefined) {
    const name = typeof projected === 'number' && projected !== USER_DEFINED ? `EPSG:${projected}` : 'a projected coordinate system';
    return `it is in ${name}; ${reproject}`;
  }
  const geographic = keys.GeographicTypeGeoKey;
  if (geographic === WGS84 || (geographic === USER_DEFINED && keys.GeogGeodeticDatumGeoKey === WGS84_DATUM)) return null;
  return `it is in ${typeof geographic === 'number' && geographic !== USER_DEFINED ? `EPSG:${geographic}` : 'a geographic system other than WGS 84'}; ${reproject}`;
}

/** Why the band is no elevation band: several bands, 8-bit samples, not numbers. */
function bandProblem(image: GeoTIFFImage): string | null {
  const bands = image.getSamplesPerPixel();
  if (bands !== 1) return `it has ${bands} bands (an image?); an elevation raster has one`;
  const bits = image.getBitsPerSample(0);
  const format = image.getSampleFormat(0);
  if (bits < 16) return `its samples are ${bits}-bit (an image?); elevations are 16-, 32- or 64-bit numbers`;
  if (format !== 1 && format !== 2 && format !== 3) return `its samples are of TIFF sample format ${format}, not numbers`;
  return null;
}

/** The raster's layout; throws UnsupportedGeoTiff saying why it cannot be read as elevations. */
export async function geoTiffLayout(path: string): Promise<GeoTiffLayout> {
  const image = await firstImage(path);
  const directory = image.fileDirectory;
  const problem = bandProblem(image) ?? crsProblem(image.getGeoKeys() as Record<string, unknown> | null);
  if (problem) throw new UnsupportedGeoTiff(problem);
  const transformation = directory.getValue('ModelTransformation') as number[] | undefined;
  if (transformation && (transformation[1] !== 0 || transformation[4] !== 0))
    throw new UnsupportedGeoTiff('it is rotated; warp it north-up first (gdalwarp)');
  const scale = directory.getValue('ModelPixelScale') as number[] | undefined;
  const tiepoint = directory.getValue('ModelTiepoint') as number[] | undefined;
  const [stepLon, stepLat, cornerLon, cornerLat] =
    scale && tiepoint && tiepoint.length >= 6
      ? [scale[0]!, scale[1]!, tiepoint[3]! - tiepoint[0]! * scale[0]!, tiepoint[4]! + tiepoint[1]! * scale[1]!]
      : transformation
        ? [transformation[0]!, -transformation[5]!, transformation[3]!, transformation[7]!]
        : [NaN, NaN, NaN, NaN];
  if (!(stepLon > 0 && stepLat > 0 && Number.isFinite(cornerLon) && Number.isFinite(cornerLat)))
    throw new UnsupportedGeoTiff('it has no usable pixel size and origin (ModelPixelScale and ModelTiepoint)');
  const width = image.getWidth();
  const height = image.getHeight();
  const keys = image.getGeoKeys() as Record<string, unknown>;
  // PixelIsArea: the tie point is the corner of pixel (0, 0), its sample lies at the pixel's centre.
  const half = keys.GTRasterTypeGeoKey === PIXEL_IS_POINT ? 0 : 0.5;
  const west = cornerLon + half * stepLon;
  const north = cornerLat - half * stepLat;
  const south = north - (height - 1) * stepLat;
  const east = west + (width - 1) * stepLon;
  if (west < -180 - stepLon || east > 180 + stepLon || south < -90 - stepLat || north > 90 + stepLat)
    throw new UnsupportedGeoTiff(
      `its extent (${west}, ${south}, ${east}, ${north}) is not within longitude -180..180 and latitude -90..90`,
    );
  return { width, height, lattice: latticeThrough(west, north, [stepLon, stepLat]), west, north, noData: image.getGDALNoData() };
}

/** Why `path` is not a GeoTIFF elevation raster Waymark reads, or null. Reads its header only. */
export async function geoTiffProblem(path: string): Promise<string | null> {
  try {
    await geoTiffLayout(path);
    return null;
  } catch (error) {
    if (error instanceof UnsupportedGeoTiff) return error.message;
    throw error;
  }
}

/** The window [x0, y0, x1) × [y0, y1) of the raster as a raster piece (metres; NaN where there is no sample). */
export async function readGeoTiffWindow(
  path: string,
  layout: GeoTiffLayout,
  window: [number, number, number, number],
): Promise<RasterPiece> {
  const image = await (await openGeoTiff(path)).getImage(0);
  const [x0, y0, x1, y1] = window;
  const raster = (await image.readRasters({ window, samples: [0], interleave: true })) as ArrayLike<number>;
  const values = new Float32Array(raster.length);
  const { noData } = layout;
  for (let i = 0; i < values.length; i++) {
    const value = raster[i]!;
    values[i] = value === noData || !(value >= LOWEST_METRES && value <= HIGHEST_METRES) ? NaN : value;
  }
  const [stepLon, stepLat] = layout.lattice.step;
  return {
    lattice: layout.lattice,
    west: layout.west + x0 * stepLon,
    north: layout.north - y0 * stepLat,
    width: x1 - x0,
    height: y1 - y0,
    values,
  };
}
