/**
 * The tags of one OSM object, key to value (values unescaped): the properties object `osmium
 * export` writes for a feature, used as parsed (no copy per element), and what the routing
 * import's OPL reader builds. Look a key up with `tags.highway` / `tags['name:en']`; a missing
 * key is undefined.
 */
export type Tags = Readonly<Record<string, string>>;
