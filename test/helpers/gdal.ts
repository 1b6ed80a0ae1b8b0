/**
 * GDAL (Debian's gdal-bin, installed by `scripts/setup.sh --test`) as an independent reader of the
 * same elevation files: `gdallocationinfo` for the sample at a point, `gdalwarp -r bilinear` onto a
 * single pixel centred on a point for the bilinear value there. Tests that need it are skipped
 * with a message on a plain run without it, and fail under CI.
 */
import type { ExecutionContext } from 'ava';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { requiringTest } from './shared-data.js';

const hasGdal = spawnSync('gdallocationinfo', ['--version']).status === 0 && spawnSync('gdalwarp', ['--version']).status === 0;

/** A test that needs GDAL and the files. */
export function gdalTest(title: string, files: string[], body: (t: ExecutionContext) => Promise<void> | void): void {
  const missing = files.filter((file) => !existsSync(file));
  const lacking = [
    ...(hasGdal ? [] : ['GDAL (gdal-bin: scripts/setup.sh --test)']),
    ...(missing.length > 0 ? [`test data (${missing.join(', ')})`] : []),
  ];
  requiringTest(title, lacking.length === 0 ? null : `missing ${lacking.join(' and ')}`, body);
}

/** The raster's value at each [lon, lat] (the pixel holding it), as GDAL reads it; null for its nodata. */
export function gdalValuesAt(file: string, points: [number, number][]): (number | null)[] {
  const input = points.map(([lon, lat]) => `${lon} ${lat}`).join('\n');
  const output = execFileSync('gdallocationinfo', ['-valonly', '-wgs84', file], { input, encoding: 'utf8' });
  return output
    .trimEnd()
    .split('\n')
    .map((line) => (line.trim() === '' ? null : Number(line)));
}

/** GDAL's bilinear value at [lon, lat]: the raster warped onto one tiny pixel centred there. */
export function gdalBilinearAt(file: string, [lon, lat]: [number, number]): number {
  const dir = mkdtempSync(join(tmpdir(), 'waymark-gdal-'));
  try {
    const out = join(dir, 'point.tif');
    const e = 1e-6;
    execFileSync('gdalwarp', [
      '-q',
      '-ot',
      'Float64',
      '-r',
      'bilinear',
      '-te',
      `${lon - e}`,
      `${lat - e}`,
      `${lon + e}`,
      `${lat + e}`,
      '-ts',
      '1',
      '1',
      file,
      out,
    ]);
    return Number(execFileSync('gdallocationinfo', ['-valonly', out, '0', '0'], { encoding: 'utf8' }).trim());
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
