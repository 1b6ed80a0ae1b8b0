import test from 'ava';
import { presetHeaders } from '../src/http/reply.js';
import { Request } from '../src/http/request.js';
import { seededRandom } from './helpers/http.js';

const request = (rawQuery: string) => new Request('GET', '/', rawQuery, () => '127.0.0.1');

test('queryAll gives what URLSearchParams.getAll gives, on random queries with and without escapes', (t) => {
  const random = seededRandom(12);
  const pieces = ['key', 'ke', 'keys', 'k%65y', 'lang', '=', '&', 'a', '+', '%20', '%', 'wmk_x1', ''];
  for (let i = 0; i < 5000; i++) {
    let raw = '';
    for (let n = Math.floor(random() * 8); n > 0; n--) raw += pieces[Math.floor(random() * pieces.length)];
    for (const name of ['key', 'lang'])
      t.deepEqual(request(raw).queryAll(name), new URLSearchParams(raw).getAll(name), `${name} in ${JSON.stringify(raw)}`);
  }
});

test('a header block holds its headers in order and refuses a line break in a name or value', (t) => {
  const [name, value] = presetHeaders({ 'Content-Type': 'image/png', ETag: '"a1"', Vary: 'Accept-Encoding' });
  t.is(`${Buffer.from(name)}: ${Buffer.from(value)}`, 'Content-Type: image/png\r\nETag: "a1"\r\nVary: Accept-Encoding');
  t.throws(() => presetHeaders({ ETag: '"a"\r\nSet-Cookie: x=1' }), { message: /line break/ });
  t.throws(() => presetHeaders({}), { message: /at least one/ });
});
