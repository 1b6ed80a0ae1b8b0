import test from 'ava';
import { ApiError } from '../src/http/errors.js';
import { refusal } from './helpers/http.js';
import {
  GEOCODING_PARAMETERS,
  sanitizeAutocomplete,
  sanitizeGeocodeAlias,
  sanitizePlace,
  sanitizeReverse,
  sanitizeSearch,
  sanitizeStructured,
} from '../src/geocoding/sanitize/endpoints.js';
import { COUNTRIES, countryByCode } from '../core/geocoding/countries.js';
import { MAX_TEXT_LENGTH } from '../src/geocoding/sanitize/text.js';
import { COARSE_LAYERS, LAYERS, SOURCES } from '../core/geocoding/indexed-record.js';

const q = (raw: string) => new URLSearchParams(raw);

test('search defaults', (t) => {
  const { params, warnings } = sanitizeSearch(q('text=%20Monaco%20'));
  t.is(params.text, 'Monaco');
  t.is(params.size, 10);
  t.deepEqual(params.layers, [...LAYERS]);
  t.deepEqual(params.sources, [...SOURCES]);
  t.is(params.focusPoint, undefined);
  t.is(params.boundaryCountry, undefined);
  t.like(params.lang, { tag: 'en', language: 'en', name: 'English', iso6391: 'en', iso6393: 'eng', defaulted: true });
  t.deepEqual(warnings, []);
});

test('missing, empty and too long text are 400 naming text', (t) => {
  t.regex(
    refusal(() => sanitizeSearch(q('size=3'))),
    /missing parameter 'text'/,
  );
  t.regex(
    refusal(() => sanitizeAutocomplete(q('text=%20%20'))),
    /'text': it must not be empty/,
  );
  for (const text of ['[]', '"', '*', '^', ':', '--', '(', '😀', '\u0301']) {
    t.regex(
      refusal(() => sanitizeSearch(q(`text=${encodeURIComponent(text)}`))),
      /'text': it must not be empty once punctuation and symbols are left out/,
      text,
    );
  }
  t.regex(
    refusal(() => sanitizeGeocodeAlias(q('q=%5B%5D'))),
    /'q': it must not be empty once/,
  );
  t.is(sanitizeSearch(q('text=a%20OR%20b')).params.text, 'a OR b');
  t.regex(
    refusal(() => sanitizeSearch(q(`text=${'a'.repeat(MAX_TEXT_LENGTH + 1)}`))),
    /'text': at most 200/,
  );
  t.is(sanitizeSearch(q(`text=${'ä'.repeat(MAX_TEXT_LENGTH)}`)).params.text.length, MAX_TEXT_LENGTH);
});

test('size above 40 is clamped with a warning; bad sizes are 400', (t) => {
  const clamped = sanitizeSearch(q('text=x&size=41'));
  t.is(clamped.params.size, 40);
  t.deepEqual(clamped.warnings, ["invalid parameter 'size': maximum value is 40, used 40"]);
  t.is(sanitizeSearch(q('text=x&size=40')).params.size, 40);
  t.is(sanitizeSearch(q('text=x&size=1')).params.size, 1);
  for (const bad of ['0', '-1', '2.5', '', 'abc', '0x10', '1e1', 'NaN', 'Infinity', ' 5']) {
    t.regex(
      refusal(() => sanitizeSearch(q(`text=x&size=${encodeURIComponent(bad)}`))),
      /parameter 'size'/,
      bad,
    );
  }
});

test('layers: known values, coarse expansion, unknown values listed', (t) => {
  t.deepEqual(sanitizeSearch(q('text=x&layers=Venue,%20address,venue')).params.layers, ['venue', 'address']);
  t.deepEqual(sanitizeSearch(q('text=x&layers=coarse')).params.layers, [...COARSE_LAYERS]);
  t.deepEqual(sanitizeSearch(q('text=x&layers=venue,coarse')).params.layers, ['venue', ...COARSE_LAYERS]);
  const message = refusal(() => sanitizeSearch(q('text=x&layers=venue,city')));
  t.regex(message, /'layers': 'city' is not one of venue, address, street, neighbourhood, locality, region, country, postalcode, coarse/);
  t.regex(
    refusal(() => sanitizeSearch(q('text=x&layers=venue,'))),
    /'layers': it must not be empty/,
  );
  t.regex(
    refusal(() => sanitizeSearch(q(`text=x&layers=${'z'.repeat(5000)}`))),
    /'z{60}…' is not one of/,
  );
});

test('sources: short names normalized to long names, unknown values listed', (t) => {
  t.deepEqual(sanitizeSearch(q('text=x&sources=osm,OA,gn,wof')).params.sources, [...SOURCES]);
  t.deepEqual(sanitizeSearch(q('text=x&sources=whosonfirst,wof')).params.sources, ['whosonfirst']);
  t.regex(
    refusal(() => sanitizeSearch(q('text=x&sources=osm,tiger'))),
    /'sources': 'tiger' is not one of osm, oa, gn, wof, openstreetmap, openaddresses, geonames, whosonfirst/,
  );
});

test('focus.point: both or neither, decimal numbers in range', (t) => {
  t.deepEqual(sanitizeSearch(q('text=x&focus.point.lat=43.73&focus.point.lon=7.42')).params.focusPoint, {
    lat: 43.73,
    lon: 7.42,
  });
  t.regex(
    refusal(() => sanitizeSearch(q('text=x&focus.point.lat=43.7'))),
    /missing parameter 'focus.point.lon'/,
  );
  t.regex(
    refusal(() => sanitizeAutocomplete(q('text=x&focus.point.lon=7'))),
    /missing parameter 'focus.point.lat'/,
  );
  t.regex(
    refusal(() => sanitizeSearch(q('text=x&focus.point.lat=91&focus.point.lon=7'))),
    /'focus.point.lat': it must be between -90 and 90/,
  );
  t.regex(
    refusal(() => sanitizeSearch(q('text=x&focus.point.lat=1&focus.point.lon=0x10'))),
    /'focus.point.lon': '0x10' is not a decimal number/,
  );
});

test('reverse: point required and in range', (t) => {
  const { params } = sanitizeReverse(q('point.lat=-90&point.lon=180'));
  t.deepEqual(params.point, { lat: -90, lon: 180 });
  t.is(params.size, 10);
  const missing = refusal(() => sanitizeReverse(q('')));
  t.regex(missing, /missing parameter 'point.lat'/);
  t.regex(missing, /missing parameter 'point.lon'/);
  t.regex(
    refusal(() => sanitizeReverse(q('point.lat=43'))),
    /missing parameter 'point.lon'/,
  );
  t.regex(
    refusal(() => sanitizeReverse(q('point.lat=90.5&point.lon=0'))),
    /'point.lat': it must be between -90 and 90/,
  );
  t.regex(
    refusal(() => sanitizeReverse(q('point.lat=0&point.lon=-180.01'))),
    /'point.lon': it must be between -180 and 180/,
  );
  for (const bad of ['', 'NaN', 'Infinity', '-Infinity', '1e2', '0x1', '1,5', '.']) {
    t.regex(
      refusal(() => sanitizeReverse(q(`point.lat=${encodeURIComponent(bad)}&point.lon=0`))),
      /'point.lat'/,
      bad,
    );
  }
});

test('boundary.country: alpha-2 or alpha-3 of a real country, both kept', (t) => {
  t.is(COUNTRIES.length, 250); // ISO 3166-1's 249 assigned codes and Kosovo (XK/XKX)
  t.like(sanitizeSearch(q('text=x&boundary.country=mc')).params.boundaryCountry, { alpha2: 'MC', alpha3: 'MCO' });
  t.like(sanitizeSearch(q('text=x&boundary.country=DEU')).params.boundaryCountry, { alpha2: 'DE', alpha3: 'DEU' });
  t.like(countryByCode('and'), { alpha2: 'AD', alpha3: 'AND' });
  for (const bad of ['XX', 'XXX', 'UK', 'D', 'GERMANY', '']) {
    t.regex(
      refusal(() => sanitizeSearch(q(`text=x&boundary.country=${bad}`))),
      /'boundary.country': '.*' is not an ISO 3166-1/,
      bad,
    );
  }
});

test('lang: BCP 47 tags of known languages; malformed is 400', (t) => {
  t.like(sanitizeSearch(q('text=x&lang=de-CH')).params.lang, {
    tag: 'de-CH',
    language: 'de',
    name: 'German',
    iso6391: 'de',
    iso6393: 'deu',
    defaulted: false,
  });
  t.like(sanitizeReverse(q('point.lat=0&point.lon=0&lang=FR')).params.lang, { tag: 'fr', iso6393: 'fra' });
  t.like(sanitizePlace(q('ids=geonames:locality:1&lang=gsw')).params.lang, { language: 'gsw', iso6393: 'gsw' });
  for (const bad of ['', 'de_CH', 'x', 'en--', '123', 'xx', 'und']) {
    t.regex(
      refusal(() => sanitizeSearch(q(`text=x&lang=${bad}`))),
      /'lang': '.*' is not a BCP 47 language tag/,
      bad,
    );
  }
});

test('place: GIDs with slashes and colons, short sources normalized, duplicates dropped', (t) => {
  const { params } = sanitizePlace(
    q(
      'ids=openstreetmap:venue:node/123,whosonfirst:locality:101751765,gn:locality:2993458,openstreetmap:venue:node/123,openaddresses:address:de/bw:ab12',
    ),
  );
  t.deepEqual(
    params.ids.map((id) => id.gid),
    ['openstreetmap:venue:node/123', 'whosonfirst:locality:101751765', 'geonames:locality:2993458', 'openaddresses:address:de/bw:ab12'],
  );
  t.deepEqual(params.ids[0], { source: 'openstreetmap', layer: 'venue', sourceId: 'node/123', gid: 'openstreetmap:venue:node/123' });
});

test('place: bad ids are 400 naming the bad GID; at most 40', (t) => {
  t.regex(
    refusal(() => sanitizePlace(q(''))),
    /missing parameter 'ids'/,
  );
  for (const bad of ['openstreetmap:venue:', 'openstreetmap:city:1', 'tiger:venue:1', 'openstreetmap', 'a b:c:d', 'osm:venue:node 1']) {
    const message = refusal(() => sanitizePlace(q(`ids=${encodeURIComponent(`whosonfirst:locality:1,${bad}`)}`)));
    t.true(message.includes(`'${bad.trim()}' is not a GID`), message);
  }
  const forty = Array.from({ length: 40 }, (_, i) => `geonames:locality:${i}`).join(',');
  t.is(sanitizePlace(q(`ids=${forty}`)).params.ids.length, 40);
  t.regex(
    refusal(() => sanitizePlace(q(`ids=${forty},geonames:locality:99`))),
    /'ids': at most 40 values/,
  );
});

test('geocode alias: q is the text; q and text together are refused', (t) => {
  t.is(sanitizeGeocodeAlias(q('q=Heidelberg&size=2')).params.text, 'Heidelberg');
  t.regex(
    refusal(() => sanitizeGeocodeAlias(q('text=Heidelberg'))),
    /missing parameter 'q'/,
  );
  t.regex(
    refusal(() => sanitizeGeocodeAlias(q('q=a&text=b'))),
    /'q' and 'text'/,
  );
});

test('a parameter given twice is refused; several errors are reported together', (t) => {
  t.regex(
    refusal(() => sanitizeSearch(q('text=a&text=b'))),
    /'text': it can only be given once/,
  );
  t.regex(
    refusal(() => sanitizeReverse(q('point.lat=1&point.lat=1&point.lon=2'))),
    /'point.lat': it can only be given once/,
  );
  const message = refusal(() => sanitizeSearch(q('size=0&layers=town')));
  t.regex(message, /missing parameter 'text'/);
  t.regex(message, /'size'/);
  t.regex(message, /'town'/);
  t.notThrows(() => sanitizeSearch(q('text=a&key=k1&key=k1&unknown=1&unknown=2')));
});

/** mulberry32: a small seeded PRNG, so the fuzz cases are the same on every run. */
function prng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

test('fuzz: every random query is clean parameters or an ApiError 400', (t) => {
  const random = prng(20240611);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const names = [...GEOCODING_PARAMETERS, 'key', ''];
  const values = [
    '',
    ' ',
    '0',
    '-0',
    '41',
    '1e400',
    '-91',
    '181',
    '43.7',
    'NaN',
    'Infinity',
    '0x1f',
    'venue,coarse',
    'osm,,gn',
    'de-CH',
    'en_US',
    'MC',
    'xyz',
    'osm:venue:node/1',
    'wof:locality:101748479',
    'whosonfirst:country:85633285',
    'wof:locality:',
    'food,retail',
    'food:cuisine:italian, ,Nightlife',
    'transport:air:airport',
    '0.00000001',
    '20039',
    ',',
    '%',
    '%E0%A4%A',
    '\u0000',
    '\uD800',
    'a'.repeat(300),
    'Straße',
    '🗺️',
  ];
  const sanitizers = [sanitizeSearch, sanitizeAutocomplete, sanitizeReverse, sanitizePlace, sanitizeGeocodeAlias, sanitizeStructured];
  /** Percent-encoding, or the raw text where it holds a lone surrogate (which cannot be encoded). */
  const encode = (text: string) => (/[\uD800-\uDFFF]/.test(text) ? text : encodeURIComponent(text));
  let clean = 0;
  let refused = 0;
  for (let i = 0; i < 5000; i++) {
    const parts: string[] = [];
    const count = Math.floor(random() * 6);
    for (let p = 0; p < count; p++) {
      const value = random() < 0.2 ? String.fromCharCode(...Array.from({ length: 4 }, () => Math.floor(random() * 0x3000))) : pick(values);
      parts.push(`${encodeURIComponent(pick(names))}=${random() < 0.5 ? encode(value) : value}`);
    }
    const raw = parts.join(random() < 0.9 ? '&' : ';');
    try {
      pick(sanitizers)(q(raw));
      clean++;
    } catch (error) {
      if (!(error instanceof ApiError) || error.statusCode !== 400) t.fail(`${raw}: ${String(error)}`);
      refused++;
    }
  }
  t.true(clean > 0 && refused > 0, `${clean} clean, ${refused} refused`);
});

const RECT = 'boundary.rect.min_lat=43.72&boundary.rect.max_lat=43.76&boundary.rect.min_lon=7.40&boundary.rect.max_lon=7.44';

test('boundary.rect: all four corners in range, each minimum below its maximum', (t) => {
  const box = { west: 7.4, south: 43.72, east: 7.44, north: 43.76 };
  t.deepEqual(sanitizeSearch(q(`text=a&${RECT}`)).params.boundaryRect, box);
  t.deepEqual(sanitizeAutocomplete(q(`text=a&${RECT}`)).params.boundaryRect, box);
  t.deepEqual(sanitizeGeocodeAlias(q(`q=a&${RECT}`)).params.boundaryRect, box);
  t.like(sanitizeStructured(q(`locality=Monaco&${RECT}`)).params.boundaryRect, { west: 7.4 });
  const lone = refusal(() => sanitizeSearch(q('text=a&boundary.rect.min_lat=1&boundary.rect.max_lon=2')));
  t.regex(
    lone,
    /missing parameter 'boundary.rect.max_lat': parameters boundary.rect.min_lat, boundary.rect.max_lat, boundary.rect.min_lon and boundary.rect.max_lon must all be specified/,
  );
  t.regex(lone, /missing parameter 'boundary.rect.min_lon'/);
  t.regex(
    refusal(() => sanitizeSearch(q(`text=a&${RECT.replace('max_lat=43.76', 'max_lat=43.72')}`))),
    /'boundary.rect.min_lat': boundary.rect.min_lat \(43.72\) must be less than boundary.rect.max_lat \(43.72\)/,
  );
  // Across the antimeridian: refused as Pelias does.
  t.regex(
    refusal(() => sanitizeSearch(q(`text=a&${RECT.replace('min_lon=7.40', 'min_lon=179').replace('max_lon=7.44', 'max_lon=-179')}`))),
    /boundary.rect.min_lon \(179\) must be less than boundary.rect.max_lon \(-179\)/,
  );
  t.regex(
    refusal(() => sanitizeSearch(q(`text=a&${RECT.replace('max_lat=43.76', 'max_lat=91')}`))),
    /'boundary.rect.max_lat': it must be between -90 and 90/,
  );
  t.regex(
    refusal(() => sanitizeSearch(q(`text=a&${RECT.replace('min_lon=7.40', 'min_lon=')}`))),
    /'boundary.rect.min_lon': '' is not a decimal number/,
  );
  // Reverse takes no rect (Pelias' reverse does not): ignored as any unknown parameter.
  t.false('boundaryRect' in sanitizeReverse(q(`point.lat=1&point.lon=2&${RECT}`)).params);
});

test('boundary.circle: a centre, a radius in km above 0 defaulting to 50; reverse clamps the radius around its point', (t) => {
  t.deepEqual(sanitizeSearch(q('text=a&boundary.circle.lat=43.7&boundary.circle.lon=7.4')).params.boundaryCircle, {
    lat: 43.7,
    lon: 7.4,
    radius: 50,
  });
  t.deepEqual(
    sanitizeAutocomplete(q('text=a&boundary.circle.lat=43.7&boundary.circle.lon=7.4&boundary.circle.radius=0.5')).params.boundaryCircle,
    {
      lat: 43.7,
      lon: 7.4,
      radius: 0.5,
    },
  );
  t.regex(
    refusal(() => sanitizeSearch(q('text=a&boundary.circle.lat=43.7'))),
    /missing parameter 'boundary.circle.lon'/,
  );
  const radiusAlone = refusal(() => sanitizeSearch(q('text=a&boundary.circle.radius=3')));
  t.regex(radiusAlone, /missing parameter 'boundary.circle.lat': 'boundary.circle.radius' needs 'boundary.circle.lat' too/);
  t.regex(radiusAlone, /missing parameter 'boundary.circle.lon'/);
  for (const radius of ['0', '-1', 'x', '20039', '1e3']) {
    t.regex(
      refusal(() => sanitizeSearch(q(`text=a&boundary.circle.lat=1&boundary.circle.lon=1&boundary.circle.radius=${radius}`))),
      /'boundary.circle.radius'/,
    );
  }
  const reverse = (extra: string) => sanitizeReverse(q(`point.lat=43.7&point.lon=7.4${extra}`));
  t.is(reverse('').params.radius, undefined);
  t.is(reverse('&boundary.circle.radius=0.25').params.radius, 0.25);
  t.deepEqual(reverse('&boundary.circle.radius=12'), {
    params: reverse('&boundary.circle.radius=5').params,
    warnings: ["invalid parameter 'boundary.circle.radius': maximum value is 5, used 5"],
  });
  t.is(reverse('&boundary.circle.radius=0.000001').params.radius, 0.00001);
  t.regex(
    reverse('&boundary.circle.lat=1&boundary.circle.lon=2').warnings.join(),
    /boundary.circle.lat\/boundary.circle.lon are currently unsupported/,
  );
  t.regex(
    refusal(() => reverse('&boundary.circle.radius=0')),
    /'boundary.circle.radius': it must be greater than 0/,
  );
});

test('boundary.gid: a GID on search, structured, autocomplete and reverse', (t) => {
  for (const sanitizer of [sanitizeSearch, sanitizeAutocomplete]) {
    t.like(sanitizer(q('text=a&boundary.gid=wof:locality:101748479')).params.boundaryGid, {
      gid: 'whosonfirst:locality:101748479',
      sourceId: '101748479',
    });
  }
  t.like(sanitizeStructured(q('address=a&boundary.gid=openstreetmap:locality:relation/1')).params.boundaryGid, {
    gid: 'openstreetmap:locality:relation/1',
  });
  t.like(sanitizeReverse(q('point.lat=1&point.lon=2&boundary.gid=whosonfirst:country:85633285')).params.boundaryGid, {
    sourceId: '85633285',
  });
  for (const gid of ['', '101748479', 'whosonfirst:locality', 'whosonfirst:town:1', 'nowhere:locality:1']) {
    t.regex(
      refusal(() => sanitizeSearch(q(`text=a&boundary.gid=${gid}`))),
      /invalid parameter 'boundary.gid': .* is not a GID <source>:<layer>:<id>/,
    );
  }
});

test('categories: known ones filter, blank asks only for the property, place ignores a list with a warning', (t) => {
  t.deepEqual(sanitizeSearch(q('text=a&categories=Food,%20retail,,food')).params.categories, ['food', 'retail']);
  t.deepEqual(sanitizeStructured(q('address=a&categories=food:cuisine:italian')).params.categories, ['food:cuisine:italian']);
  t.deepEqual(sanitizeReverse(q('point.lat=1&point.lon=2&categories=transport:air:airport')).params.categories, ['transport:air:airport']);
  t.is(sanitizeAutocomplete(q('text=a')).params.categories, undefined);
  t.deepEqual(sanitizeAutocomplete(q('text=a&categories=')), {
    params: { ...sanitizeAutocomplete(q('text=a')).params, categories: [] },
    warnings: ['Categories parameter left blank, showing results from all categories.'],
  });
  t.regex(
    refusal(() => sanitizeSearch(q('text=a&categories=food,pizza'))),
    /invalid parameter 'categories': 'pizza' is not a category of Pelias' taxonomy \(e.g. accommodation, education/,
  );
  t.deepEqual(sanitizePlace(q('ids=wof:country:1&categories=')).params.categories, []);
  t.deepEqual(sanitizePlace(q('ids=wof:country:1&categories=food')).warnings, [
    'Categories filtering not supported on this endpoint, showing results from all categories.',
  ]);
});
