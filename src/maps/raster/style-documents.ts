/** The style documents the renderer draws, one per slug and label language, generated once. */
import type { StyleSpecification } from '@maplibre/maplibre-gl-style-spec';
import { styleDocument, type LabelLanguage, type StyleEntry } from '../../../core/maps/style-catalog.js';

const documents = new Map<string, StyleSpecification>();

/** `elevation`: the dataset has an elevation store, from which the renderer draws the style's hillshade. */
export function renderedStyle(entry: StyleEntry, language: LabelLanguage, elevation: boolean): StyleSpecification {
  const key = `${entry.slug}/${language}/${elevation}`;
  let style = documents.get(key);
  if (!style) documents.set(key, (style = styleDocument(entry, language, elevation)));
  return style;
}
