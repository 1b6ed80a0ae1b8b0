/** Terrain tiles read back: a PNG or WebP decoded by Skia (@napi-rs/canvas) into elevations, the Terrain-RGB formula written out here. */
import { createCanvas, loadImage } from '@napi-rs/canvas';

export interface DecodedTerrainTile {
  width: number;
  height: number;
  /** Metres at each pixel, row after row. */
  metres: Float64Array;
  /** Whether every pixel is opaque. */
  opaque: boolean;
}

export async function decodeTerrainTile(bytes: Uint8Array): Promise<DecodedTerrainTile> {
  const image = await loadImage(Buffer.from(bytes));
  const canvas = createCanvas(image.width, image.height);
  const context = canvas.getContext('2d');
  context.drawImage(image, 0, 0);
  const { data } = context.getImageData(0, 0, image.width, image.height);
  const metres = new Float64Array(image.width * image.height);
  let opaque = true;
  for (let i = 0; i < metres.length; i++) {
    metres[i] = -10_000 + (data[4 * i]! * 65_536 + data[4 * i + 1]! * 256 + data[4 * i + 2]!) * 0.1;
    opaque &&= data[4 * i + 3] === 255;
  }
  return { width: image.width, height: image.height, metres, opaque };
}
