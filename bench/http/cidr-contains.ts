/**
 * Micro-benchmark of CidrSet.contains (http/cidr.ts), which runs on every request of an
 * IP-restricted key, beside node's net.BlockList: ns per call and heap growth.
 * Run: npm run build && node --expose-gc dist/bench/http/cidr-contains.js
 */
import { BlockList, isIPv4 } from 'node:net';
import { CidrSet } from '../../core/cidr.js';

const RANGES = ['10.0.0.0/8', '192.168.0.0/16', '203.0.113.0/24', '2001:db8::/32', 'fd00::/8'];
const ADDRESSES = ['203.0.113.77', '198.51.100.1', '2001:db8:1::5', '2a00:1450::1', '0000:0000:0000:0000:0000:ffff:cb00:714d'];
const ROUNDS = 2_000_000;

const set = CidrSet.parse(RANGES);
const list = new BlockList();
for (const range of RANGES) {
  const [network, prefix] = range.split('/');
  list.addSubnet(network!, Number(prefix), isIPv4(network!) ? 'ipv4' : 'ipv6');
}
const blockListContains = (address: string) => list.check(address, isIPv4(address) ? 'ipv4' : 'ipv6');

function measure(name: string, contains: (address: string) => boolean): void {
  for (let i = 0; i < 200_000; i++) contains(ADDRESSES[i % ADDRESSES.length]!);
  (globalThis as { gc?: () => void }).gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  let hits = 0;
  const started = process.hrtime.bigint();
  for (let i = 0; i < ROUNDS; i++) if (contains(ADDRESSES[i % ADDRESSES.length]!)) hits++;
  const ns = Number(process.hrtime.bigint() - started) / ROUNDS;
  const heapGrowth = (process.memoryUsage().heapUsed - heapBefore) / 1024;
  console.log(
    `${name}: ${ns.toFixed(0)} ns per call, ${hits} hits, heap +${heapGrowth.toFixed(0)} KiB over ${ROUNDS} calls (no gc in between)`,
  );
}

for (let run = 0; run < 2; run++) {
  measure('CidrSet.contains', (a) => set.contains(a));
  measure('net.BlockList.check', blockListContains);
}
