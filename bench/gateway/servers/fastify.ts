/**
 * The baseline a user would otherwise pick: Fastify 5 with @fastify/bearer-auth checking the key in
 * `Authorization: Bearer` against a set. Fastify's logger is off, its default.
 */
import bearerAuth from '@fastify/bearer-auth';
import Fastify from 'fastify';
import type { AddressInfo } from 'node:net';
import { announceListening, onShutdown } from '../../lib/child.js';
import { BODY, PATH } from '../common.js';

const key = process.env.BENCH_KEY;
if (!key) throw new Error('BENCH_KEY is required');

const app = Fastify();
await app.register(bearerAuth, { keys: new Set([key]) });
app.get(PATH, async () => BODY);
await app.listen({ host: '127.0.0.1', port: 0 });
onShutdown(() => app.close());
announceListening((app.server.address() as AddressInfo).port);
