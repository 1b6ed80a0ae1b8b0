/**
 * The Shortbread rules (data-pipeline/shortbread/) pinned row by row, in the style of OSRM's
 * cucumber tables: each row gives an OSM object (its shape and tags) and the feature it must
 * become in one layer — kind, first zoom and key attributes — and runs the real rules on it
 * (`ShortbreadMapper.map`, the entry point the import uses). A row with no first zoom (`-`)
 * says the object gives nothing in that layer. docs/SHORTBREAD.md is the prose of these tables.
 *
 * Shapes, as osmium exports them: `node`; `way` (an open line); `closed way` (a closed line);
 * `area` (a closed way assembled as an area); `relation` (a multipolygon or boundary relation).
 * Lines are 10 km long and areas 10 km squares on the equator unless the shape gives another
 * size (`area 10m`, `way 1m`, `relation 1500km`): big enough that no "by size" rule delays
 * them, so the first zoom is the class's own.
 */
import test from 'ava';
import type { Position } from 'geojson';
import type { TileFeature } from '../data-pipeline/features.js';
import { MERCATOR_CIRCUMFERENCE } from '../core/geo/mercator-measures.js';
import { ShortbreadMapper } from '../data-pipeline/shortbread/index.js';
import type { OsmElement } from '../data-pipeline/osm/element.js';
import { parsePairs, parseProperties, table, type Row } from './helpers/tables.js';

const DEGREES_PER_METRE = 360 / MERCATOR_CIRCUMFERENCE;

/** `10km`, `10m` → metres; the default size is 10 km. */
function metres(size: string | undefined): number {
  if (size === undefined) return 10_000;
  const match = /^(\d+(?:\.\d+)?)(km|m)$/.exec(size);
  if (match === null) throw new Error(`not a size: ${size}`);
  return Number(match[1]) * (match[2] === 'km' ? 1000 : 1);
}

/** A square of the given side centred on 0,0, counter-clockwise. */
function square(side: number): Position[] {
  const h = (side * DEGREES_PER_METRE) / 2;
  return [
    [-h, -h],
    [h, -h],
    [h, h],
    [-h, h],
    [-h, -h],
  ];
}

/** The OSM element a shape cell describes. */
function element(shape: string, tags: Record<string, string>): OsmElement {
  const words = shape.split(/\s+/);
  const size = /\d/.test(words[words.length - 1]!) ? words.pop() : undefined;
  const side = metres(size);
  switch (words.join(' ')) {
    case 'node':
      return { shape: 'point', type: 'node', id: 1, tags, point: [0, 0] };
    case 'way':
      return {
        shape: 'line',
        type: 'way',
        id: 1,
        tags,
        line: [
          [0, 0],
          [side * DEGREES_PER_METRE, 0],
        ],
        closed: false,
      };
    case 'closed way':
      return { shape: 'line', type: 'way', id: 1, tags, line: square(side), closed: true };
    case 'area':
      return { shape: 'area', type: 'way', id: 1, tags, polygons: [[square(side)]] };
    case 'relation':
      return { shape: 'area', type: 'relation', id: 1, tags, polygons: [[square(side)]] };
  }
  throw new Error(`not a shape: ${shape}`);
}

function featuresOf(shape: string, tags: Record<string, string>): TileFeature[] {
  const out: TileFeature[] = [];
  new ShortbreadMapper().map(element(shape, tags), out);
  return out;
}

const titles = new Set<string>();

/**
 * One test per row: `shape` and `tags` make the object; `layer` is the layer looked at; `minzoom`
 * its first zoom there (`-`: no feature in that layer); `kind` the feature's kind (empty: it has
 * none); `properties` attributes it must carry (others are not compared).
 */
function rules(name: string, rows: Row[]): void {
  for (const row of rows) {
    let title = `${name} ${row.text}${row.comment ? ` (${row.comment})` : ''}`;
    while (titles.has(title)) title += ' again';
    titles.add(title);
    test(title, (t) => {
      const { shape, tags, layer, kind, minzoom, properties } = row.cells;
      if (shape === undefined || layer === undefined) throw new Error(`row without shape or layer: ${row.text}`);
      const found = featuresOf(shape, parsePairs(tags)).filter((f) => f.layer === layer);
      if (minzoom === undefined || minzoom === '-') {
        t.deepEqual(
          found.map((f) => f.properties),
          [],
          `${row.named}: no feature in ${layer}`,
        );
        return;
      }
      t.is(found.length, 1, `${row.named}: one feature in ${layer}`);
      const feature = found[0];
      if (feature === undefined) return;
      const expected = parseProperties(properties);
      const actual = Object.fromEntries(Object.keys(expected).map((key) => [key, feature.properties[key]]));
      t.deepEqual(
        { minzoom: feature.minzoom, kind: feature.properties.kind, ...actual },
        { minzoom: Number(minzoom), kind, ...expected },
        `${row.named}${row.comment ? ` (${row.comment})` : ''}`,
      );
    });
  }
}

// streets.ts HIGHWAYS: every highway class, its kind, first zoom and link flag (links keep their road's class).
rules(
  'streets',
  table`
  | shape | tags                   | layer   | kind          | minzoom | properties                        |
  | way   | highway=motorway       | streets | motorway      | 5       | link=false rail=false             |
  | way   | highway=motorway_link  | streets | motorway      | 5       | link=true rail=false              |
  | way   | highway=trunk          | streets | trunk         | 6       | link=false rail=false             |
  | way   | highway=trunk_link     | streets | trunk         | 6       | link=true rail=false              |
  | way   | highway=primary        | streets | primary       | 8       | link=false rail=false             |
  | way   | highway=primary_link   | streets | primary       | 8       | link=true rail=false              |
  | way   | highway=secondary      | streets | secondary     | 9       | link=false rail=false             |
  | way   | highway=secondary_link | streets | secondary     | 9       | link=true rail=false              |
  | way   | highway=tertiary       | streets | tertiary      | 10      | link=false rail=false             |
  | way   | highway=tertiary_link  | streets | tertiary      | 10      | link=true rail=false              |
  | way   | highway=unclassified   | streets | unclassified  | 12      | link=false rail=false             |
  | way   | highway=residential    | streets | residential   | 12      | link=false rail=false             |
  | way   | highway=busway         | streets | busway        | 12      | link=false rail=false             |
  | way   | highway=bus_guideway   | streets | bus_guideway  | 12      | link=false rail=false             |
  | way   | highway=living_street  | streets | living_street | 13      | link=false rail=false             |
  | way   | highway=service        | streets | service       | 13      | link=false rail=false             | # schema 13, reference 14
  | way   | highway=pedestrian     | streets | pedestrian    | 13      | link=false rail=false             |
  | way   | highway=track          | streets | track         | 13      | link=false rail=false             |
  | way   | highway=footway        | streets | footway       | 13      | link=false rail=false             |
  | way   | highway=steps          | streets | steps         | 13      | link=false rail=false             |
  | way   | highway=path           | streets | path          | 13      | link=false rail=false             |
  | way   | highway=cycleway       | streets | cycleway      | 13      | link=false rail=false             |
  | way   | highway=road           | streets |               | -       |                                   | # not a Shortbread class
  | way   | highway=bridleway      | streets |               | -       |                                   |
  | way   | highway=construction   | streets |               | -       |                                   |
  | way   | highway=proposed       | streets |               | -       |                                   |
  | way   | highway=platform       | streets |               | -       |                                   |
`,
);

// streets.ts railways and AEROWAYS: main lines from 8 (their service tracks from 10), other rail from 10, runways 11, taxiways 13.
rules(
  'streets',
  table`
  | shape | tags                           | layer   | kind         | minzoom | properties                        |
  | way   | railway=rail                   | streets | rail         | 8       | rail=true link=false              | # schema says 10, reference 8
  | way   | railway=rail service=siding    | streets | rail         | 10      | rail=true service=siding          |
  | way   | railway=rail service=yard      | streets | rail         | 10      | rail=true service=yard            |
  | way   | railway=narrow_gauge           | streets | narrow_gauge | 8       | rail=true                         |
  | way   | railway=narrow_gauge service=spur | streets | narrow_gauge | 10   | rail=true service=spur            |
  | way   | railway=light_rail             | streets | light_rail   | 10      | rail=true                         |
  | way   | railway=tram                   | streets | tram         | 10      | rail=true                         |
  | way   | railway=subway                 | streets | subway       | 10      | rail=true                         |
  | way   | railway=funicular              | streets | funicular    | 10      | rail=true                         |
  | way   | railway=monorail               | streets | monorail     | 10      | rail=true                         |
  | way   | railway=abandoned              | streets |              | -       |                                   |
  | way   | railway=disused                | streets |              | -       |                                   |
  | way   | railway=platform               | streets |              | -       |                                   |
  | way   | aeroway=runway                 | streets | runway       | 11      | rail=false link=false             |
  | way   | aeroway=taxiway                | streets | taxiway      | 13      | rail=false                        |
  | way   | aeroway=apron                  | streets |              | -       |                                   |
  | way   | highway=service railway=tram   | streets | service      | 13      | rail=false                        | # highway decides before railway
`,
);

// streets attributes: oneway, tunnel, bridge, layer, surface and access words, tracktype and service when tagged.
rules(
  'streets',
  table`
  | shape      | tags                                        | layer   | kind        | minzoom | properties                                         |
  | way        | highway=residential                         | streets | residential | 12      | oneway=false oneway_reverse=false tunnel=false bridge=false layer=0 surface='' bicycle='' horse='' foot='' |
  | way        | highway=residential oneway=yes              | streets | residential | 12      | oneway=true oneway_reverse=false                   |
  | way        | highway=residential oneway=1                | streets | residential | 12      | oneway=true oneway_reverse=false                   |
  | way        | highway=residential oneway=true             | streets | residential | 12      | oneway=true oneway_reverse=false                   |
  | way        | highway=residential oneway=-1               | streets | residential | 12      | oneway=true oneway_reverse=true                    |
  | way        | highway=residential oneway=no               | streets | residential | 12      | oneway=false oneway_reverse=false                  |
  | way        | highway=residential oneway=reversible       | streets | residential | 12      | oneway=false oneway_reverse=false                  |
  | way        | highway=motorway                            | streets | motorway    | 5       | oneway=false                                       | # only a oneway tag sets the flag
  | way        | railway=rail oneway=yes                     | streets | rail        | 8       | oneway=false                                       | # rail is never oneway
  | way        | highway=primary tunnel=yes                  | streets | primary     | 8       | tunnel=true bridge=false                           |
  | way        | highway=primary tunnel=building_passage     | streets | primary     | 8       | tunnel=true                                        |
  | way        | highway=primary tunnel=culvert              | streets | primary     | 8       | tunnel=true                                        |
  | way        | highway=primary covered=yes                 | streets | primary     | 8       | tunnel=true                                        |
  | way        | highway=primary tunnel=no                   | streets | primary     | 8       | tunnel=false                                       |
  | way        | highway=primary bridge=yes                  | streets | primary     | 8       | bridge=true tunnel=false                           |
  | way        | highway=primary bridge=viaduct              | streets | primary     | 8       | bridge=true                                        |
  | way        | highway=primary bridge=boardwalk            | streets | primary     | 8       | bridge=true                                        |
  | way        | highway=primary bridge=cantilever           | streets | primary     | 8       | bridge=true                                        |
  | way        | highway=primary bridge=covered              | streets | primary     | 8       | bridge=true                                        |
  | way        | highway=primary bridge=low_water_crossing   | streets | primary     | 8       | bridge=true                                        |
  | way        | highway=primary bridge=movable              | streets | primary     | 8       | bridge=true                                        |
  | way        | highway=primary bridge=trestle              | streets | primary     | 8       | bridge=true                                        |
  | way        | highway=primary bridge=no                   | streets | primary     | 8       | bridge=false                                       |
  | way        | highway=primary bridge=aqueduct             | streets | primary     | 8       | bridge=false                                       |
  | way        | highway=primary layer=2                     | streets | primary     | 8       | layer=2                                            |
  | way        | highway=primary layer=-3                    | streets | primary     | 8       | layer=-3                                           |
  | way        | highway=primary layer=12                    | streets | primary     | 8       | layer=7                                            | # clamped to -7…7
  | way        | highway=primary layer=-9                    | streets | primary     | 8       | layer=-7                                           |
  | way        | highway=primary layer=x                     | streets | primary     | 8       | layer=0                                            |
  | way        | highway=track tracktype=grade2 surface=gravel | streets | track     | 13      | tracktype=grade2 surface=gravel                    |
  | way        | highway=service service=driveway            | streets | service     | 13      | service=driveway                                   |
  | way        | highway=path bicycle=designated horse=no foot=yes | streets | path  | 13      | bicycle=designated horse=no foot=yes               |
  | closed way | highway=pedestrian                          | streets | pedestrian  | 13      |                                                    | # a closed street is a line unless area=yes
  | closed way | highway=pedestrian area=yes                 | streets |             | -       |                                                    |
  | way        | highway=residential area=yes                | streets |             | -       |                                                    |
`,
);

// street_labels: the raw highway value as kind, first zoom by class, ref split at semicolons.
rules(
  'street_labels',
  table`
  | shape | tags                                    | layer         | kind           | minzoom | properties                                   |
  | way   | highway=motorway ref="A 8"              | street_labels | motorway       | 10      | ref="A 8" ref_rows=1 ref_cols=3 tunnel=false |
  | way   | highway=motorway_link name=Exit         | street_labels | motorway_link  | 13      | name=Exit ref='' ref_rows=0 ref_cols=0       |
  | way   | highway=trunk name=T                    | street_labels | trunk          | 12      |                                              |
  | way   | highway=trunk_link name=T               | street_labels | trunk_link     | 13      |                                              |
  | way   | highway=primary name=P                  | street_labels | primary        | 12      |                                              |
  | way   | highway=primary_link name=P             | street_labels | primary_link   | 13      |                                              |
  | way   | highway=secondary name=S                | street_labels | secondary      | 13      |                                              |
  | way   | highway=secondary_link name=S           | street_labels | secondary_link | 13      |                                              |
  | way   | highway=tertiary name=T                 | street_labels | tertiary       | 13      |                                              |
  | way   | highway=tertiary_link name=T            | street_labels | tertiary_link  | 14      |                                              |
  | way   | highway=unclassified name=U             | street_labels | unclassified   | 14      |                                              |
  | way   | highway=residential name=R              | street_labels | residential    | 14      |                                              |
  | way   | highway=busway name=B                   | street_labels | busway         | 14      |                                              |
  | way   | highway=bus_guideway name=B             | street_labels | bus_guideway   | 14      |                                              |
  | way   | highway=living_street name=L            | street_labels | living_street  | 14      |                                              |
  | way   | highway=service name=S                  | street_labels | service        | 14      |                                              |
  | way   | highway=pedestrian name=P               | street_labels | pedestrian     | 14      |                                              |
  | way   | highway=track name=T                    | street_labels | track          | 14      |                                              |
  | way   | highway=footway name=F                  | street_labels | footway        | 14      |                                              |
  | way   | highway=steps name=S                    | street_labels | steps          | 14      |                                              |
  | way   | highway=path name=P                     | street_labels | path           | 14      |                                              |
  | way   | highway=cycleway name=C                 | street_labels | cycleway       | 14      |                                              |
  | way   | railway=rail name=R                     | street_labels | rail           | 10      |                                              |
  | way   | railway=rail service=siding name=R      | street_labels | rail           | 10      |                                              |
  | way   | railway=tram name=T                     | street_labels | tram           | 10      |                                              |
  | way   | railway=subway name=M                   | street_labels | subway         | 10      |                                              |
  | way   | aeroway=runway ref=09/27                | street_labels | runway         | 11      | ref=09/27                                    |
  | way   | aeroway=taxiway ref=A                   | street_labels | taxiway        | 13      | ref=A                                        |
  | way   | highway=primary ref="B 3;B 36"          | street_labels | primary        | 12      | ref="B 3\nB 36" ref_rows=2 ref_cols=4        |
  | way   | highway=primary ref="B 3; ;B 317"       | street_labels | primary        | 12      | ref="B 3\nB 317" ref_rows=2 ref_cols=5       |
  | way   | highway=residential name=R tunnel=yes   | street_labels | residential    | 14      | tunnel=true                                  |
  | way   | highway=residential                     | street_labels |                | -       |                                              | # neither name nor ref
  | way   | highway=road name=R                     | street_labels |                | -       |                                              |
`,
);

// Names, as every labelled layer writes them: name falls back to name:en, then name:de; name_en and name_de likewise.
rules(
  'names',
  table`
  | shape | tags                                                  | layer         | kind        | minzoom | properties                                     |
  | way   | highway=residential name=Rue name:en=Street name:de=Straße | street_labels | residential | 14 | name=Rue name_en=Street name_de=Straße         |
  | way   | highway=residential name=Rue                          | street_labels | residential | 14      | name=Rue name_en=Rue name_de=Rue               |
  | way   | highway=residential name:en=Street                    | street_labels |             | -       |                                                | # a name:en alone is no label (the rule reads name or ref)
  | way   | highway=residential ref=7 name:en=Street name:de=Straße | street_labels | residential | 14   | name=Street name_en=Street name_de=Straße      |
  | way   | highway=residential ref=7 name:de=Straße              | street_labels | residential | 14      | name=Straße name_en=Straße name_de=Straße      |
`,
);

// street_polygons and their labels (areas with area=yes, or area:aeroway), bridges, motorway junctions.
rules(
  'street areas',
  table`
  | shape    | tags                                         | layer                   | kind              | minzoom | properties                             |
  | area     | highway=pedestrian area=yes                  | street_polygons         | pedestrian        | 14      | rail=false tunnel=false bridge=false surface='' |
  | area     | highway=service area=yes service=parking_aisle | street_polygons       | service           | 14      | service=parking_aisle                  |
  | area     | area:aeroway=runway                          | street_polygons         | runway            | 11      |                                        |
  | area     | area:aeroway=taxiway                         | street_polygons         | taxiway           | 13      |                                        |
  | area     | highway=pedestrian                           | street_polygons         |                   | -       |                                        | # without area=yes a closed pedestrian way is a line
  | relation | highway=pedestrian                           | street_polygons         | pedestrian        | 14      |                                        | # relations are areas
  | area     | highway=footway area=yes                     | street_polygons         |                   | -       |                                        |
  | area     | highway=pedestrian area=yes name=Piazza      | streets_polygons_labels | pedestrian        | 14      | name=Piazza                            |
  | area     | highway=pedestrian area=yes                  | streets_polygons_labels |                   | -       |                                        |
  | area     | man_made=bridge                              | bridges                 | bridge            | 12      |                                        |
  | node     | highway=motorway_junction ref=56 name=Monaco | street_labels_points    | motorway_junction | 12      | ref="56" name=Monaco                   |
  | node     | highway=motorway_junction                    | street_labels_points    | motorway_junction | 12      | ref=''                                 |
`,
);

// aerialways (AERIALWAY_KINDS) and ferries.
rules(
  'transport',
  table`
  | shape | tags                             | layer      | kind       | minzoom | properties        |
  | way   | aerialway=cable_car              | aerialways | cable_car  | 12      |                   |
  | way   | aerialway=gondola                | aerialways | gondola    | 12      |                   |
  | way   | aerialway=goods                  | aerialways | goods      | 12      |                   |
  | way   | aerialway=chair_lift             | aerialways | chair_lift | 12      |                   |
  | way   | aerialway=drag_lift              | aerialways | drag_lift  | 12      |                   |
  | way   | aerialway=t-bar                  | aerialways | t-bar      | 12      |                   |
  | way   | aerialway=j-bar                  | aerialways | j-bar      | 12      |                   |
  | way   | aerialway=platter                | aerialways | platter    | 12      |                   |
  | way   | aerialway=rope_tow               | aerialways | rope-tow   | 12      |                   | # the schema's hyphen
  | way   | aerialway=zip_line               | aerialways |            | -       |                   |
  | way   | aerialway=pylon                  | aerialways |            | -       |                   |
  | way   | route=ferry name="Bateau Bus"    | ferries    | ferry      | 10      | name="Bateau Bus" |
  | way   | route=ferry motor_vehicle=no     | ferries    | ferry      | 12      |                   |
  | way   | route=ferry motor_vehicle=yes    | ferries    | ferry      | 10      |                   |
  | way   | route=bus                        | ferries    |            | -       |                   |
`,
);

// water.ts WATER_AREA_KINDS: water areas from 4 (docks and canals from 10) once big enough to see.
rules(
  'water',
  table`
  | shape     | tags                                   | layer                 | kind      | minzoom | properties            |
  | area      | natural=water                          | water_polygons        | water     | 4       |                       |
  | area      | natural=water water=lake               | water_polygons        | water     | 4       |                       |
  | area      | natural=water water=river              | water_polygons        | river     | 4       |                       |
  | area      | natural=glacier                        | water_polygons        | glacier   | 4       |                       |
  | area      | waterway=riverbank                     | water_polygons        | river     | 4       |                       |
  | area      | landuse=reservoir                      | water_polygons        | reservoir | 4       |                       |
  | area      | landuse=basin                          | water_polygons        | basin     | 4       |                       |
  | area      | waterway=dock                          | water_polygons        | dock      | 10      |                       |
  | area      | waterway=canal                         | water_polygons        | canal     | 10      |                       |
  | relation  | natural=water                          | water_polygons        | water     | 4       |                       |
  | area      | natural=wetland                        | water_polygons        |           | -       |                       |
  | area      | landuse=reservoir natural=water        | water_polygons        | reservoir | 4       |                       | # landuse decides first
  | area 300m | natural=water                          | water_polygons        | water     | 5       |                       | # by size: still water from 0.01 px²
  | area 300m | natural=water water=river              | water_polygons        | river     | 7       |                       | # flowing water from 0.1 px²
  | area 300m | waterway=dock                          | water_polygons        | dock      | 10      |                       |
  | area 10m  | natural=water                          | water_polygons        | water     | 12      |                       | # still water from zoom 10 on needs 0.1 px² too
  | area 1m   | natural=water                          | water_polygons        | water     | 14      |                       | # kept at 14 (the reference drops it)
  | area      | natural=water name=Lac                 | water_polygons_labels | water     | 4       | name=Lac name_de=Lac  |
  | area 300m | waterway=dock name=Port                | water_polygons_labels | dock      | 10      | name=Port             | # labels from their polygon's zoom
  | area      | natural=water                          | water_polygons_labels |           | -       |                       |
`,
);

// water.ts WATER_LINE_KINDS, dams and piers.
rules(
  'water',
  table`
  | shape      | tags                                | layer              | kind       | minzoom | properties               |
  | way        | waterway=river                      | water_lines        | river      | 9       | tunnel=false bridge=false |
  | way        | waterway=canal                      | water_lines        | canal      | 9       |                          |
  | way        | waterway=stream                     | water_lines        | stream     | 14      |                          | # schema 14, reference 13
  | way        | waterway=ditch                      | water_lines        | ditch      | 14      |                          |
  | way        | waterway=drain                      | water_lines        |            | -       |                          | # schema has no drain
  | way        | waterway=stream tunnel=culvert      | water_lines        | stream     | 14      | tunnel=true              |
  | way        | waterway=canal bridge=aqueduct      | water_lines        | canal      | 9       | bridge=false             |
  | way 10m    | waterway=river                      | water_lines        | river      | 11      |                          | # by length: 0.25 px
  | way 1m     | waterway=river                      | water_lines        | river      | 14      |                          | # kept at 14
  | closed way | waterway=river                      | water_lines        |            | -       |                          | # a closed way is an area
  | closed way | waterway=river area=no              | water_lines        | river      | 9       |                          |
  | way        | waterway=river name=Paillon         | water_lines_labels | river      | 12      | name=Paillon             | # schema 12, reference 13
  | way        | waterway=canal name=C               | water_lines_labels | canal      | 12      |                          |
  | way        | waterway=stream name=S              | water_lines_labels | stream     | 14      |                          |
  | way        | waterway=ditch name=D               | water_lines_labels | ditch      | 14      |                          |
  | way 10m    | waterway=river name=R               | water_lines_labels | river      | 12      |                          |
  | way 1m     | waterway=river name=R               | water_lines_labels | river      | 14      |                          |
  | way        | waterway=river                      | water_lines_labels |            | -       |                          |
  | way        | waterway=dam                        | dam_lines          | dam        | 12      |                          |
  | area       | waterway=dam                        | dam_polygons       | dam        | 12      |                          |
  | way        | man_made=pier                       | pier_lines         | pier       | 12      |                          |
  | way        | man_made=breakwater                 | pier_lines         | breakwater | 12      |                          |
  | way        | man_made=groyne                     | pier_lines         | groyne     | 12      |                          |
  | area       | man_made=pier                       | pier_polygons      | pier       | 12      |                          |
  | area       | man_made=breakwater                 | pier_polygons      | breakwater | 12      |                          |
  | area       | man_made=groyne                     | pier_polygons      | groyne     | 12      |                          |
  | way        | man_made=quay                       | pier_lines         |            | -       |                          |
`,
);

// boundaries.ts: BOUNDARY_MINZOOM by admin_level, and LABEL_ZOOMS by the relation's area.
rules(
  'boundaries',
  table`
  | shape           | tags                                                     | layer           | kind | minzoom | properties                               |
  | way             | boundary=administrative admin_level=2                    | boundaries      |      | 0       | admin_level=2 maritime=false disputed=false |
  | way             | boundary=administrative admin_level=3                    | boundaries      |      | 7       | admin_level=3                            |
  | way             | boundary=administrative admin_level=4                    | boundaries      |      | 7       | admin_level=4                            |
  | way             | boundary=administrative admin_level=5                    | boundaries      |      | -       |                                          |
  | way             | boundary=administrative admin_level=8                    | boundaries      |      | -       |                                          |
  | way             | boundary=administrative                                  | boundaries      |      | -       |                                          |
  | way             | boundary=protected_area admin_level=2                    | boundaries      |      | -       |                                          |
  | way             | boundary=administrative admin_level=2 maritime=yes       | boundaries      |      | 0       | maritime=true                            |
  | way             | boundary=administrative admin_level=2 disputed=yes       | boundaries      |      | 0       | disputed=true                            |
  | relation        | boundary=administrative admin_level=2                    | boundaries      |      | 0       | admin_level=2                            |
  | area            | boundary=administrative admin_level=2                    | boundaries      |      | -       |                                          | # a closed boundary way is drawn once, as a line
  | relation 1500km | boundary=administrative admin_level=2 name=Big           | boundary_labels |      | 2       | admin_level=2 name=Big                   | # ≥ 2·10⁶ km²
  | relation 1000km | boundary=administrative admin_level=2 name=Large         | boundary_labels |      | 3       |                                          | # ≥ 7·10⁵ km²
  | relation 400km  | boundary=administrative admin_level=2 name=Middle        | boundary_labels |      | 4       |                                          | # ≥ 10⁵ km²
  | relation 200km  | boundary=administrative admin_level=2 name=Small         | boundary_labels |      | 5       |                                          |
  | relation 1000km | boundary=administrative admin_level=4 name=State         | boundary_labels |      | 3       | admin_level=4                            |
  | relation 400km  | boundary=administrative admin_level=4 name=State         | boundary_labels |      | 4       |                                          |
  | relation 200km  | boundary=administrative admin_level=4 name=State         | boundary_labels |      | 5       |                                          |
  | relation        | boundary=administrative admin_level=3 name=Region        | boundary_labels |      | -       |                                          | # labels for levels 2 and 4 only
  | relation        | boundary=administrative admin_level=2                    | boundary_labels |      | -       |                                          | # unnamed
`,
);

// land.ts LAND: land use and land cover, by first key of landuse, natural, wetland, amenity, leisure.
rules(
  'land',
  table`
  | shape | tags                              | layer | kind                    | minzoom |
  | area  | landuse=forest                    | land  | forest                  | 7       |
  | area  | natural=wood                      | land  | forest                  | 7       |
  | area  | landuse=residential               | land  | residential             | 10      |
  | area  | landuse=industrial                | land  | industrial              | 10      |
  | area  | landuse=commercial                | land  | commercial              | 10      |
  | area  | landuse=garages                   | land  | garages                 | 10      |
  | area  | landuse=retail                    | land  | retail                  | 10      |
  | area  | landuse=railway                   | land  | railway                 | 10      |
  | area  | landuse=landfill                  | land  | landfill                | 10      |
  | area  | landuse=brownfield                | land  | brownfield              | 10      |
  | area  | landuse=greenfield                | land  | greenfield              | 10      |
  | area  | landuse=farmyard                  | land  | farmyard                | 10      |
  | area  | landuse=farmland                  | land  | farmland                | 10      |
  | area  | natural=sand                      | land  | sand                    | 10      |
  | area  | natural=beach                     | land  | beach                   | 10      |
  | area  | landuse=grass                     | land  | grass                   | 11      |
  | area  | landuse=meadow                    | land  | meadow                  | 11      |
  | area  | landuse=orchard                   | land  | orchard                 | 11      |
  | area  | landuse=vineyard                  | land  | vineyard                | 11      |
  | area  | landuse=allotments                | land  | allotments              | 11      |
  | area  | landuse=village_green             | land  | village_green           | 11      |
  | area  | landuse=recreation_ground         | land  | recreation_ground       | 11      |
  | area  | landuse=greenhouse_horticulture   | land  | greenhouse_horticulture | 11      |
  | area  | landuse=plant_nursery             | land  | plant_nursery           | 11      |
  | area  | landuse=quarry                    | land  | quarry                  | 11      |
  | area  | natural=heath                     | land  | heath                   | 11      |
  | area  | natural=scrub                     | land  | scrub                   | 11      |
  | area  | natural=grassland                 | land  | grassland               | 11      |
  | area  | natural=bare_rock                 | land  | bare_rock               | 11      |
  | area  | natural=scree                     | land  | scree                   | 11      |
  | area  | natural=shingle                   | land  | shingle                 | 11      |
  | area  | wetland=swamp                     | land  | swamp                   | 11      |
  | area  | wetland=bog                       | land  | bog                     | 11      |
  | area  | wetland=string_bog                | land  | string_bog              | 11      |
  | area  | wetland=wet_meadow                | land  | wet_meadow              | 11      |
  | area  | wetland=marsh                     | land  | marsh                   | 11      |
  | area  | leisure=golf_course               | land  | golf_course             | 11      |
  | area  | leisure=park                      | land  | park                    | 11      |
  | area  | leisure=garden                    | land  | garden                  | 11      |
  | area  | leisure=playground                | land  | playground              | 11      |
  | area  | leisure=miniature_golf            | land  | miniature_golf          | 11      |
  | area  | landuse=cemetery                  | land  | cemetery                | 13      |
  | area  | amenity=grave_yard                | land  | grave_yard              | 13      |
  | area  | landuse=grass natural=wood        | land  | grass                   | 11      | # landuse before natural
  | area  | natural=scrub leisure=park        | land  | scrub                   | 11      | # natural before leisure
  | area  | landuse=farm                      | land  |                         | -       |
  | area  | natural=water                     | land  |                         | -       |
  | node  | landuse=forest                    | land  |                         | -       | # areas only
`,
);

// land.ts SITES, and buildings.
rules(
  'sites',
  table`
  | shape    | tags                           | layer     | kind            | minzoom | properties |
  | area     | amenity=university             | sites     | university      | 14      |            |
  | area     | amenity=college                | sites     | college         | 14      |            |
  | area     | amenity=school                 | sites     | school          | 14      |            |
  | area     | amenity=hospital               | sites     | hospital        | 14      |            |
  | area     | amenity=prison                 | sites     | prison          | 14      |            |
  | area     | amenity=parking                | sites     | parking         | 14      |            |
  | area     | amenity=bicycle_parking        | sites     | bicycle_parking | 14      |            |
  | area     | leisure=sports_centre          | sites     | sports_centre   | 14      |            | # schema text: sports_center
  | area     | landuse=construction           | sites     | construction    | 14      |            |
  | area     | military=danger_area           | sites     | danger_area     | 14      |            |
  | area     | amenity=school name=Lycée      | sites     | school          | 14      | name=Lycée |
  | area     | amenity=kindergarten           | sites     |                 | -       |            |
  | area     | building=yes                   | buildings |                 | 14      |            |
  | area     | building=house                 | buildings |                 | 14      |            |
  | relation | building=yes                   | buildings |                 | 14      |            |
  | area     | building=no                    | buildings |                 | -       |            |
  | node     | building=yes                   | buildings |                 | -       |            |
`,
);

// places.ts PLACES: named place nodes, first zoom and default population by kind; capitals from 4.
rules(
  'places',
  table`
  | shape | tags                                          | layer        | kind              | minzoom | properties                       |
  | node  | place=city name=C                             | place_labels | city              | 6       | population=100000 name=C         |
  | node  | place=town name=T                             | place_labels | town              | 7       | population=5000                  |
  | node  | place=village name=V                          | place_labels | village           | 10      | population=100                   |
  | node  | place=hamlet name=H                           | place_labels | hamlet            | 10      | population=50                    |
  | node  | place=suburb name=S                           | place_labels | suburb            | 10      | population=1000                  |
  | node  | place=quarter name=Q                          | place_labels | quarter           | 10      | population=500                   |
  | node  | place=neighbourhood name=N                    | place_labels | neighbourhood     | 10      | population=100                   |
  | node  | place=isolated_dwelling name=I                | place_labels | isolated_dwelling | 10      | population=5                     |
  | node  | place=farm name=F                             | place_labels | farm              | 10      | population=5                     |
  | node  | place=island name=I                           | place_labels | island            | 10      | population=0                     |
  | node  | place=locality name=L                         | place_labels | locality          | 10      | population=0                     |
  | node  | place=city capital=yes name=Monaco            | place_labels | capital           | 4       | population=100000                |
  | node  | place=town capital=yes name=Vaduz             | place_labels | capital           | 4       |                                  |
  | node  | place=village capital=yes name=V              | place_labels | capital           | 4       | population=100                   |
  | node  | place=hamlet capital=yes name=H               | place_labels | capital           | 4       |                                  |
  | node  | place=city capital=4 name=Stuttgart           | place_labels | state_capital     | 4       |                                  |
  | node  | place=city capital=6 name=C                   | place_labels | city              | 6       |                                  |
  | node  | place=suburb capital=yes name=S               | place_labels | suburb            | 10      |                                  | # only settlements are capitals
  | node  | place=town population=12532 name=T            | place_labels | town              | 7       | population=12532                 |
  | node  | place=town population="12 345" name=T         | place_labels | town              | 7       | population=12345                 |
  | node  | place=town population=12,345 name=T           | place_labels | town              | 7       | population=12345                 |
  | node  | place=town population=1234.6 name=T           | place_labels | town              | 7       | population=1235                  |
  | node  | place=town population=about_500 name=T        | place_labels | town              | 7       | population=5000                  | # unreadable: the kind's default
  | node  | place=town population=-5 name=T               | place_labels | town              | 7       | population=5000                  |
  | node  | place=city                                    | place_labels |                   | -       |                                  | # unnamed
  | node  | place=country name=Monaco                     | place_labels |                   | -       |                                  |
  | area  | place=city name=C                             | place_labels |                   | -       |                                  | # nodes only
`,
);

// pois.ts POI_VALUES: every key=value the schema's pois layer lists (plus the correct spellings beside its
// misspellings convinience, optican, archaelogical_site), as a point from 14 with the matching key as attribute.
rules(
  'pois',
  table`
  | shape | tags                           | layer | minzoom | properties                     |
  | node  | amenity=police                 | pois | 14      | amenity=police                 |
  | node  | amenity=fire_station           | pois | 14      | amenity=fire_station           |
  | node  | amenity=post_box               | pois | 14      | amenity=post_box               |
  | node  | amenity=post_office            | pois | 14      | amenity=post_office            |
  | node  | amenity=telephone              | pois | 14      | amenity=telephone              |
  | node  | amenity=library                | pois | 14      | amenity=library                |
  | node  | amenity=townhall               | pois | 14      | amenity=townhall               |
  | node  | amenity=courthouse             | pois | 14      | amenity=courthouse             |
  | node  | amenity=prison                 | pois | 14      | amenity=prison                 |
  | node  | amenity=embassy                | pois | 14      | amenity=embassy                |
  | node  | amenity=community_centre       | pois | 14      | amenity=community_centre       |
  | node  | amenity=nursing_home           | pois | 14      | amenity=nursing_home           |
  | node  | amenity=arts_centre            | pois | 14      | amenity=arts_centre            |
  | node  | amenity=grave_yard             | pois | 14      | amenity=grave_yard             |
  | node  | amenity=marketplace            | pois | 14      | amenity=marketplace            |
  | node  | amenity=recycling              | pois | 14      | amenity=recycling              |
  | node  | amenity=university             | pois | 14      | amenity=university             |
  | node  | amenity=school                 | pois | 14      | amenity=school                 |
  | node  | amenity=college                | pois | 14      | amenity=college                |
  | node  | amenity=public_building        | pois | 14      | amenity=public_building        |
  | node  | amenity=pharmacy               | pois | 14      | amenity=pharmacy               |
  | node  | amenity=hospital               | pois | 14      | amenity=hospital               |
  | node  | amenity=clinic                 | pois | 14      | amenity=clinic                 |
  | node  | amenity=doctors                | pois | 14      | amenity=doctors                |
  | node  | amenity=dentist                | pois | 14      | amenity=dentist                |
  | node  | amenity=veterinary             | pois | 14      | amenity=veterinary             |
  | node  | amenity=theatre                | pois | 14      | amenity=theatre                |
  | node  | amenity=nightclub              | pois | 14      | amenity=nightclub              |
  | node  | amenity=cinema                 | pois | 14      | amenity=cinema                 |
  | node  | amenity=restaurant             | pois | 14      | amenity=restaurant             |
  | node  | amenity=fast_food              | pois | 14      | amenity=fast_food              |
  | node  | amenity=cafe                   | pois | 14      | amenity=cafe                   |
  | node  | amenity=pub                    | pois | 14      | amenity=pub                    |
  | node  | amenity=bar                    | pois | 14      | amenity=bar                    |
  | node  | amenity=food_court             | pois | 14      | amenity=food_court             |
  | node  | amenity=biergarten             | pois | 14      | amenity=biergarten             |
  | node  | amenity=shelter                | pois | 14      | amenity=shelter                |
  | node  | amenity=car_rental             | pois | 14      | amenity=car_rental             |
  | node  | amenity=car_wash               | pois | 14      | amenity=car_wash               |
  | node  | amenity=car_sharing            | pois | 14      | amenity=car_sharing            |
  | node  | amenity=bicycle_rental         | pois | 14      | amenity=bicycle_rental         |
  | node  | amenity=vending_machine        | pois | 14      | amenity=vending_machine        |
  | node  | amenity=bank                   | pois | 14      | amenity=bank                   |
  | node  | amenity=atm                    | pois | 14      | amenity=atm                    |
  | node  | amenity=toilets                | pois | 14      | amenity=toilets                |
  | node  | amenity=bench                  | pois | 14      | amenity=bench                  |
  | node  | amenity=drinking_water         | pois | 14      | amenity=drinking_water         |
  | node  | amenity=fountain               | pois | 14      | amenity=fountain               |
  | node  | amenity=hunting_stand          | pois | 14      | amenity=hunting_stand          |
  | node  | amenity=waste_basket           | pois | 14      | amenity=waste_basket           |
  | node  | amenity=place_of_worship       | pois | 14      | amenity=place_of_worship       |
  | node  | amenity=playground             | pois | 14      | amenity=playground             |
  | node  | amenity=dog_park               | pois | 14      | amenity=dog_park               |
  | node  | leisure=sports_centre          | pois | 14      | leisure=sports_centre          |
  | node  | leisure=pitch                  | pois | 14      | leisure=pitch                  |
  | node  | leisure=swimming_pool          | pois | 14      | leisure=swimming_pool          |
  | node  | leisure=water_park             | pois | 14      | leisure=water_park             |
  | node  | leisure=golf_course            | pois | 14      | leisure=golf_course            |
  | node  | leisure=stadium                | pois | 14      | leisure=stadium                |
  | node  | leisure=ice_rink               | pois | 14      | leisure=ice_rink               |
  | node  | leisure=playground             | pois | 14      | leisure=playground             |
  | node  | leisure=dog_park               | pois | 14      | leisure=dog_park               |
  | node  | tourism=hotel                  | pois | 14      | tourism=hotel                  |
  | node  | tourism=motel                  | pois | 14      | tourism=motel                  |
  | node  | tourism=bed_and_breakfast      | pois | 14      | tourism=bed_and_breakfast      |
  | node  | tourism=guest_house            | pois | 14      | tourism=guest_house            |
  | node  | tourism=hostel                 | pois | 14      | tourism=hostel                 |
  | node  | tourism=chalet                 | pois | 14      | tourism=chalet                 |
  | node  | tourism=camp_site              | pois | 14      | tourism=camp_site              |
  | node  | tourism=alpine_hut             | pois | 14      | tourism=alpine_hut             |
  | node  | tourism=caravan_site           | pois | 14      | tourism=caravan_site           |
  | node  | tourism=information            | pois | 14      | tourism=information            |
  | node  | tourism=picnic_site            | pois | 14      | tourism=picnic_site            |
  | node  | tourism=viewpoint              | pois | 14      | tourism=viewpoint              |
  | node  | tourism=zoo                    | pois | 14      | tourism=zoo                    |
  | node  | tourism=theme_park             | pois | 14      | tourism=theme_park             |
  | node  | shop=supermarket               | pois | 14      | shop=supermarket               |
  | node  | shop=bakery                    | pois | 14      | shop=bakery                    |
  | node  | shop=kiosk                     | pois | 14      | shop=kiosk                     |
  | node  | shop=mall                      | pois | 14      | shop=mall                      |
  | node  | shop=department_store          | pois | 14      | shop=department_store          |
  | node  | shop=general                   | pois | 14      | shop=general                   |
  | node  | shop=convinience               | pois | 14      | shop=convinience               |
  | node  | shop=convenience               | pois | 14      | shop=convenience               |
  | node  | shop=clothes                   | pois | 14      | shop=clothes                   |
  | node  | shop=florist                   | pois | 14      | shop=florist                   |
  | node  | shop=chemist                   | pois | 14      | shop=chemist                   |
  | node  | shop=books                     | pois | 14      | shop=books                     |
  | node  | shop=butcher                   | pois | 14      | shop=butcher                   |
  | node  | shop=shoes                     | pois | 14      | shop=shoes                     |
  | node  | shop=alcohol                   | pois | 14      | shop=alcohol                   |
  | node  | shop=beverages                 | pois | 14      | shop=beverages                 |
  | node  | shop=optican                   | pois | 14      | shop=optican                   |
  | node  | shop=optician                  | pois | 14      | shop=optician                  |
  | node  | shop=jewelry                   | pois | 14      | shop=jewelry                   |
  | node  | shop=gift                      | pois | 14      | shop=gift                      |
  | node  | shop=sports                    | pois | 14      | shop=sports                    |
  | node  | shop=stationery                | pois | 14      | shop=stationery                |
  | node  | shop=outdoor                   | pois | 14      | shop=outdoor                   |
  | node  | shop=mobile_phone              | pois | 14      | shop=mobile_phone              |
  | node  | shop=toys                      | pois | 14      | shop=toys                      |
  | node  | shop=newsagent                 | pois | 14      | shop=newsagent                 |
  | node  | shop=greengrocer               | pois | 14      | shop=greengrocer               |
  | node  | shop=beauty                    | pois | 14      | shop=beauty                    |
  | node  | shop=video                     | pois | 14      | shop=video                     |
  | node  | shop=car                       | pois | 14      | shop=car                       |
  | node  | shop=bicycle                   | pois | 14      | shop=bicycle                   |
  | node  | shop=doityourself              | pois | 14      | shop=doityourself              |
  | node  | shop=hardware                  | pois | 14      | shop=hardware                  |
  | node  | shop=furniture                 | pois | 14      | shop=furniture                 |
  | node  | shop=computer                  | pois | 14      | shop=computer                  |
  | node  | shop=garden_centre             | pois | 14      | shop=garden_centre             |
  | node  | shop=hairdresser               | pois | 14      | shop=hairdresser               |
  | node  | shop=travel_agency             | pois | 14      | shop=travel_agency             |
  | node  | shop=laundry                   | pois | 14      | shop=laundry                   |
  | node  | shop=dry_cleaning              | pois | 14      | shop=dry_cleaning              |
  | node  | man_made=surveillance          | pois | 14      | man_made=surveillance          |
  | node  | man_made=tower                 | pois | 14      | man_made=tower                 |
  | node  | man_made=windmill              | pois | 14      | man_made=windmill              |
  | node  | man_made=lighthouse            | pois | 14      | man_made=lighthouse            |
  | node  | man_made=wastewater_plant      | pois | 14      | man_made=wastewater_plant      |
  | node  | man_made=water_well            | pois | 14      | man_made=water_well            |
  | node  | man_made=watermill             | pois | 14      | man_made=watermill             |
  | node  | man_made=water_works           | pois | 14      | man_made=water_works           |
  | node  | historic=monument              | pois | 14      | historic=monument              |
  | node  | historic=memorial              | pois | 14      | historic=memorial              |
  | node  | historic=artwork               | pois | 14      | historic=artwork               |
  | node  | historic=castle                | pois | 14      | historic=castle                |
  | node  | historic=ruins                 | pois | 14      | historic=ruins                 |
  | node  | historic=archaelogical_site    | pois | 14      | historic=archaelogical_site    |
  | node  | historic=archaeological_site   | pois | 14      | historic=archaeological_site   |
  | node  | historic=wayside_cross         | pois | 14      | historic=wayside_cross         |
  | node  | historic=wayside_shrine        | pois | 14      | historic=wayside_shrine        |
  | node  | historic=battlefield           | pois | 14      | historic=battlefield           |
  | node  | historic=fort                  | pois | 14      | historic=fort                  |
  | node  | emergency=phone                | pois | 14      | emergency=phone                |
  | node  | emergency=fire_hydrant         | pois | 14      | emergency=fire_hydrant         |
  | node  | emergency=defibrillator        | pois | 14      | emergency=defibrillator        |
  | node  | highway=emergency_access_point | pois | 14      | highway=emergency_access_point |
  | node  | office=diplomatic              | pois | 14      | office=diplomatic              |
`,
);

// pois.ts DETAIL_KEYS and FLAG_KEYS, names and addresses on POIs; addresses; public_transport.
rules(
  'pois',
  table`
  | shape | tags                                                                  | layer     | minzoom | properties                                        |
  | node  | amenity=restaurant cuisine=pizza                                      | pois      | 14      | amenity=restaurant cuisine=pizza                  |
  | node  | amenity=cafe                                                          | pois      | 14      | cuisine=''                                        | # listed detail keys are always written
  | node  | amenity=fast_food cuisine=burger                                      | pois      | 14      | cuisine=burger                                    |
  | node  | amenity=pub cuisine=regional                                          | pois      | 14      | cuisine=regional                                  |
  | node  | amenity=bar cuisine=cocktail                                          | pois      | 14      | cuisine=cocktail                                  |
  | node  | amenity=police cuisine=pizza                                          | pois      | 14      | cuisine=undefined                                 |
  | node  | leisure=pitch sport=soccer                                            | pois      | 14      | leisure=pitch sport=soccer                        |
  | node  | leisure=sports_centre sport=tennis                                    | pois      | 14      | sport=tennis                                      |
  | node  | amenity=vending_machine vending=drinks                                | pois      | 14      | vending=drinks                                    |
  | node  | tourism=information information=board                                 | pois      | 14      | information=board                                 |
  | node  | man_made=tower tower:type=communication                               | pois      | 14      | tower:type=communication                          |
  | node  | amenity=place_of_worship religion=christian denomination=catholic     | pois      | 14      | religion=christian denomination=catholic          |
  | node  | amenity=recycling recycling:glass_bottles=yes recycling:paper=no      | pois      | 14      | recycling:glass_bottles=true recycling:paper=false recycling:clothes=false recycling:scrap_metal=false |
  | node  | amenity=recycling recycling:clothes=yes recycling:scrap_metal=yes     | pois      | 14      | recycling:clothes=true recycling:scrap_metal=true |
  | node  | amenity=bank atm=yes                                                  | pois      | 14      | atm=true                                          |
  | node  | amenity=bank                                                          | pois      | 14      | atm=false                                         |
  | node  | amenity=cafe shop=bakery                                              | pois      | 14      | amenity=cafe shop=bakery                          | # every matching key is written
  | node  | amenity=cafe name=Café name:en=Coffee addr:housenumber=12a            | pois      | 14      | name=Café name_en=Coffee name_de=Café housenumber=12a |
  | node  | tourism=hotel addr:housename="Villa Paloma"                           | pois      | 14      | housename="Villa Paloma"                          |
  | area  | amenity=cafe                                                          | pois      | 14      | amenity=cafe                                      | # at a point inside the area
  | area  | leisure=stadium building=yes                                          | pois      | 14      | leisure=stadium                                   |
  | node  | amenity=parking                                                       | pois      | -       |                                                   |
  | node  | shop=yes                                                              | pois      | -       |                                                   |
  | node  | tourism=attraction                                                    | pois      | -       |                                                   |
  | node  | addr:housenumber=12a                                                  | addresses | 14      | housenumber=12a housename=undefined               |
  | node  | addr:housenumber=4 addr:housename="Villa Malet"                       | addresses | 14      | housenumber="4" housename="Villa Malet"           |
  | node  | addr:housename="Le Cap"                                               | addresses | 14      | housename="Le Cap" housenumber=undefined          | # no empty housenumber
  | area  | building=yes addr:housenumber=2                                       | addresses | 14      | housenumber="2"                                   |
  | node  | amenity=cafe addr:housenumber=12a                                     | addresses | -       |                                                   | # already on the POI
`,
);

// pois.ts PUBLIC_TRANSPORT: stops and stations, nodes or areas, the first matching row deciding.
rules(
  'public_transport',
  table`
  | shape | tags                                       | layer            | kind              | minzoom | properties             |
  | node  | aeroway=aerodrome iata=NCE name=Nice       | public_transport | aerodrome         | 11      | iata=NCE name=Nice     |
  | area  | aeroway=aerodrome                          | public_transport | aerodrome         | 11      | iata=undefined         |
  | node  | amenity=ferry_terminal                     | public_transport | ferry_terminal    | 12      |                        |
  | node  | aeroway=helipad                            | public_transport | helipad           | 13      |                        |
  | node  | railway=station name=Monaco                | public_transport | station           | 13      | name=Monaco            |
  | area  | railway=station                            | public_transport | station           | 13      |                        |
  | node  | railway=halt                               | public_transport | halt              | 13      |                        |
  | node  | amenity=bus_station                        | public_transport | bus_station       | 13      |                        |
  | node  | aerialway=station                          | public_transport | aerialway_station | 13      |                        |
  | node  | railway=tram_stop                          | public_transport | tram_stop         | 14      |                        |
  | node  | highway=bus_stop                           | public_transport | bus_stop          | 14      |                        |
  | node  | railway=tram_stop highway=bus_stop         | public_transport | tram_stop         | 14      |                        | # first row of the table wins
  | node  | public_transport=platform                  | public_transport |                   | -       |                        |
  | node  | railway=subway_entrance                    | public_transport |                   | -       |                        |
`,
);
