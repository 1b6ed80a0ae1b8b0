/** The Redis directory after its connections drop: it serves keys again by itself once both are back. */
import test from 'ava';
import { randomBytes } from 'node:crypto';
import { commandConnection, subscriberConnection } from '../src/control-plane/redis/connection.js';
import { RedisDirectory } from '../src/control-plane/redis/directory.js';
import { controlKeys } from '../src/control-plane/redis/keys.js';
import { within } from './helpers/waits.js';

const REDIS_URL = process.env.WAYMARK_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

test('a subscriber back before the command connection: the reload that failed is tried again until it loads', async (t) => {
  const settings = { url: REDIS_URL, prefix: `waymark-test-${randomBytes(6).toString('hex')}` };
  const client = commandConnection(settings);
  const subscriber = subscriberConnection(settings);
  t.teardown(() => {
    client.disconnect();
    subscriber.disconnect();
  });
  await client.connect();
  const directory = new RedisDirectory(client, controlKeys(settings.prefix));
  await directory.listen(subscriber);
  t.is(directory.unavailable(), null);

  // The command connection stays down while the subscriber reconnects: its reload fails.
  client.disconnect();
  subscriber.disconnect(true);
  await within('the subscriber is back', async () => (directory.unavailable()?.startsWith('reloading') ? true : undefined));

  await client.connect();
  await within('the directory loads again', async () => (directory.unavailable() === null ? true : undefined));
  t.pass();
});
