/**
 * The redis+sentinel:// form of WAYMARK_REDIS_URL (core/redis-url.ts): what ioredis is given for
 * each part, and a bad form as one line that names what is wrong and never shows a password.
 */
import test from 'ava';
import { ConfigError, setting } from '../core/config.js';
import { parseSentinelUrl, redactedUrl } from '../core/redis-url.js';
import { waymark } from './helpers/cli.js';

test('the Sentinels (26379 unless given, IPv6 in brackets), the master name, the database and both passwords', (t) => {
  t.deepEqual(parseSentinelUrl('redis+sentinel://10.0.0.1,10.0.0.2:26380,[::1]:26381/mymaster'), {
    sentinels: [
      { host: '10.0.0.1', port: 26379 },
      { host: '10.0.0.2', port: 26380 },
      { host: '::1', port: 26381 },
    ],
    name: 'mymaster',
    db: 0,
  });
  t.deepEqual(parseSentinelUrl('redis+sentinel://app:p%40ss@s1:26379/my%20master/3?sentinel_username=watch&sentinel_password=s%26cret'), {
    sentinels: [{ host: 's1', port: 26379 }],
    name: 'my master',
    db: 3,
    username: 'app',
    password: 'p@ss',
    sentinelUsername: 'watch',
    sentinelPassword: 's&cret',
  });
  t.like(parseSentinelUrl('redis+sentinel://:secret@s1/mymaster'), { password: 'secret' });
});

test('a bad form is one line saying what is wrong, with the passwords shown as ***', (t) => {
  const wrong: [string, RegExp][] = [
    ['redis+sentinel://:secret@s1:26379', /needs the master name the Sentinels monitor as its path/],
    ['redis+sentinel://:secret@s1:26379/', /needs the master name/],
    ['redis+sentinel://:secret@s1:26379/mymaster/x', /has a database that is not a number: "x"/],
    ['redis+sentinel://:secret@s1:26379/mymaster/0/1', /needs the master name/],
    ['redis+sentinel://:secret@s1:99999/mymaster', /names a Sentinel "s1:99999" that is not host\[:port\]/],
    ['redis+sentinel://:secret@s1,,s2/mymaster', /names a Sentinel "" that is not host\[:port\]/],
    ['redis+sentinel://:secret@/mymaster', /names a Sentinel "" that is not host\[:port\]/],
    ['redis+sentinel://:secret@s1/mymaster?db=2', /has an unknown option "db" \(there are sentinel_username and sentinel_password\)/],
    ['redis+sentinel://:secret@s1/mymaster?sentinel_password=secret&x=1', /has an unknown option "x"/],
    ['redis+sentinel://:secret@s1/my%ZZmaster', /has a malformed %-escape/],
  ];
  for (const [url, reason] of wrong) {
    const error = t.throws(() => setting('redisUrl', { WAYMARK_REDIS_URL: url }), { instanceOf: ConfigError });
    t.regex(error!.message, /^WAYMARK_REDIS_URL: "redis\+sentinel:\/\//, url);
    t.regex(error!.message, reason, url);
    t.notRegex(error!.message, /secret/, url);
    t.is(error!.message.split('\n').length, 1);
  }
  const other = t.throws(() => setting('redisUrl', { WAYMARK_REDIS_URL: 'redis-sentinel://:secret@s1/mymaster' }), {
    instanceOf: ConfigError,
  });
  t.is(other!.message, 'WAYMARK_REDIS_URL must be a redis://, rediss:// or redis+sentinel:// URL, not "redis-sentinel://:***@s1/mymaster"');
});

test('logs and messages show URLs without their passwords', (t) => {
  t.is(redactedUrl('redis://app:secret@h:6379/2'), 'redis://app:***@h:6379/2');
  t.is(redactedUrl('redis+sentinel://:secret@s1,s2/m?sentinel_password=other'), 'redis+sentinel://:***@s1,s2/m?sentinel_password=***');
  t.is(
    redactedUrl('redis+sentinel://s1/m?sentinel_username=u&sentinel_password=other'),
    'redis+sentinel://s1/m?sentinel_username=u&sentinel_password=***',
  );
});

test('a command on a redis+sentinel:// URL whose Sentinels cannot be reached says so and exits 1, the password hidden', async (t) => {
  const run = await waymark(['status'], { WAYMARK_REDIS_URL: 'redis+sentinel://:secret@127.0.0.1:1/mymaster' });
  t.is(run.code, 1);
  t.regex(
    run.stderr,
    /cannot reach Redis at redis\+sentinel:\/\/:\*\*\*@127\.0\.0\.1:1\/mymaster \(WAYMARK_REDIS_URL\): All sentinels are unreachable/,
  );
  t.notRegex(run.stderr, /secret/);
});
