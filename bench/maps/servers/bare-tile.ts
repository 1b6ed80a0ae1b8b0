/**
 * Bare uWebSockets.js sending one stored tile from memory: the ceiling for `waymark serve` on that
 * tile. The tile (gzip bytes, as stored) is read from the MBTiles once at start; every request to
 * any path gets it with the headers a tile client needs. No gateway, router, log or metrics.
 *
 *   BARE_TILE_MBTILES=<tiles.mbtiles> BARE_TILE=<z/x/y> node dist/bench/maps/servers/bare-tile.js
 */
import uWS from 'uWebSockets.js';
import { announceListening, onShutdown } from '../../lib/child.js';
import { tileBytes } from '../mbtiles.js';

const { BARE_TILE_MBTILES: mbtiles, BARE_TILE: tile } = process.env;
const [z, x, y] = (tile ?? '').split('/').map(Number);
if (!mbtiles || z === undefined || x === undefined || y === undefined) throw new Error('set BARE_TILE_MBTILES and BARE_TILE (z/x/y)');
const body = tileBytes(mbtiles, [{ z, x, y }]).get(tile!);
if (!body) throw new Error(`${mbtiles} has no tile ${tile}`);

const app = uWS.App();
app.any('/*', (res) => {
  res.cork(() => {
    res.writeStatus('200 OK').writeHeader('Content-Type', 'application/x-protobuf').writeHeader('Content-Encoding', 'gzip').end(body);
  });
});

app.listen('127.0.0.1', 0, (socket) => {
  if (!socket) throw new Error('cannot listen');
  onShutdown(() => uWS.us_listen_socket_close(socket));
  announceListening(uWS.us_socket_local_port(socket), { bytes: body.length });
});
