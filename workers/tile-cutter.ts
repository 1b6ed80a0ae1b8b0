/**
 * The Piscina task of an import's tiling: one job of stored features cut into its tiles, encoded
 * and gzipped (data-pipeline/tiles/cut-job.ts). The main thread writes the tiles it returns.
 */
import { cutJob, type CutJob, type CutResult } from '../data-pipeline/tiles/cut-job.js';

export default function tileCutterTask(job: CutJob): CutResult {
  return cutJob(job);
}
