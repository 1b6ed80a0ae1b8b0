/**
 * The fonts of Waymark's maps: each font name the styles use (a `text-font` entry) and the open TTF
 * it is drawn from (Noto Sans, from @expo-google-fonts/noto-sans, SIL Open Font License). The import
 * builds glyphs from them (data-pipeline/assets/), the raster renderer draws labels with them.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
const NOTO_SANS_DIR = dirname(require.resolve('@expo-google-fonts/noto-sans/package.json'));

export interface FontSource {
  /** The name styles use in `text-font` and glyph URLs. */
  name: string;
  ttf: string;
}

export const FONTS: readonly FontSource[] = [
  { name: 'noto_sans_regular', ttf: join(NOTO_SANS_DIR, '400Regular', 'NotoSans_400Regular.ttf') },
  { name: 'noto_sans_bold', ttf: join(NOTO_SANS_DIR, '700Bold', 'NotoSans_700Bold.ttf') },
];
