/** Bare uWebSockets.js: the benchmark's route with no gateway, no router, no logs, no metrics. */
import uWS from 'uWebSockets.js';
import { announceListening, onShutdown } from '../../lib/child.js';
import { BODY, PATH } from '../common.js';

/** The package silently falls back to a slow Node.js implementation when its binary does not load. */
const native = 'SSLApp' in uWS;

const app = uWS.App();
app.get(PATH, (res) => {
  res.cork(() => {
    res.writeStatus('200 OK').writeHeader('Content-Type', 'application/json; charset=utf-8').end(JSON.stringify(BODY));
  });
});
app.any('/*', (res) => {
  res.cork(() => res.writeStatus('404 Not Found').end());
});

app.listen('127.0.0.1', 0, (socket) => {
  if (!socket) throw new Error('cannot listen');
  onShutdown(() => uWS.us_listen_socket_close(socket));
  announceListening(uWS.us_socket_local_port(socket), { uws: native ? 'native' : 'fallback' });
});
