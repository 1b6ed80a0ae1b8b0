/**
 * Waymark as deployed: `startWaymark` with its production defaults (info-level access log through
 * pino to stdout, Prometheus metrics, usage flushed every second) and one cheap metered route. An
 * Enterprise organization (unlimited quotas) and a key with the route's scope are created in a
 * fresh data folder (`BENCH_DATA_DIR`); the key is reported to the driver, and a second key
 * restricted as a web page's would be (allowed origins, exact and wildcard; allowed client
 * address ranges; an expiry), which the benchmark's own Origin header and loopback address pass,
 * and a third with a per-minute limit no benchmark reaches, whose every request takes a token from
 * its short-window bucket. On Redis when the driver sets WAYMARK_REDIS_URL.
 */
import uWS from 'uWebSockets.js';
import type { ServiceRoute } from '../../../src/gateway/index.js';
import { createKey, signUp } from '../../../src/control-plane/accounts.js';
import { MAX_PER_MINUTE } from '../../../src/control-plane/short-window.js';
import { json } from '../../../src/http/reply.js';
import { startWaymark } from '../../../src/serve.js';
import { announceListening, onShutdown } from '../../lib/child.js';
import { BODY, ROUTE, SERVICE } from '../common.js';

const dataDir = process.env.BENCH_DATA_DIR;
if (!dataDir) throw new Error('BENCH_DATA_DIR is required');

const route: ServiceRoute = { path: ROUTE, service: SERVICE, handler: () => json(200, BODY) };
const waymark = await startWaymark({ dataDir, port: 0, services: [route] });
onShutdown(() => waymark.close());

const { org } = await signUp(waymark.store, { email: 'bench@example.com', password: 'benchmark password', organization: 'Bench' });
await waymark.store.setTier(org.id, 'enterprise');
const { value } = await createKey(waymark.store, org.id, { name: 'bench', scopes: [SERVICE] }, Date.now());
const restricted = await createKey(
  waymark.store,
  org.id,
  {
    name: 'bench, restricted',
    scopes: [SERVICE],
    allowedOrigins: ['https://app.example.com', 'https://www.example.com', 'https://*.example.org'],
    allowedIps: ['10.0.0.0/8', '127.0.0.0/8', '::1'],
    expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
  },
  Date.now(),
);

const limited = await createKey(
  waymark.store,
  org.id,
  { name: 'bench, limited per minute', scopes: [SERVICE], perMinute: { [SERVICE]: MAX_PER_MINUTE } },
  Date.now(),
);

announceListening(waymark.port, {
  key: value,
  restrictedKey: restricted.value,
  limitedKey: limited.value,
  orgId: org.id,
  uws: 'SSLApp' in uWS ? 'native' : 'fallback',
});
