// Contract §2, requests HTTP itself cannot parse: Node's parser refuses them
// before any route runs. They are still answered in the envelope (JSON: the
// query, `format` included, was never read), with a complete HTTP response,
// and the connection is closed after it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JSON_TYPE } from '../helpers/http.js';
import { openRaw, type RawConnection, type RawResponse } from '../helpers/raw-http.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const BAD_REQUEST = '{"responseCode":400,"responseStatus":"error","responseMessage":"Bad request"}';
const TOO_LARGE = '{"responseCode":431,"responseStatus":"error","responseMessage":"Request header fields too large"}';

let srv: TestServer;
const open: RawConnection[] = [];
beforeAll(async () => {
  srv = await startTestServer();
});
afterAll(async () => {
  for (const c of open) c.destroy();
  await srv?.close();
});

async function connection(): Promise<RawConnection> {
  const c = await openRaw(srv.baseUrl);
  open.push(c);
  return c;
}

function expectEnvelope(res: RawResponse, statusLine: string, body: string): void {
  expect(res.statusLine).toBe(statusLine);
  expect(res.headers['content-type']).toBe(JSON_TYPE);
  expect(res.headers['content-length']).toBe(String(Buffer.byteLength(body)));
  expect(res.headers.connection).toBe('close');
  expect(res.body).toBe(body);
}

/** Sends `bytes` on a fresh connection; expects exactly one answer, then the server closing the connection. */
async function onlyAnswer(bytes: string | Buffer): Promise<RawResponse> {
  const c = await connection();
  c.send(bytes);
  const res = await c.response();
  await c.closed();
  expect(c.leftover()).toBe('');
  return res;
}

const head = (lines: string[]) => `${lines.join('\r\n')}\r\n\r\n`;
const HEALTHZ = head(['GET /healthz HTTP/1.1', 'Host: wallery.test']);

describe('400 Bad request: what HTTP cannot parse', () => {
  const cases: [string, string | Buffer][] = [
    ['NUL in a header value', head(['GET /healthz HTTP/1.1', 'Host: wallery.test', 'X-Note: a\x00b'])],
    ['DEL in a header value', head(['GET /healthz HTTP/1.1', 'Host: wallery.test', 'X-Note: a\x7fb'])],
    ['a control byte in a header value', head(['GET /healthz HTTP/1.1', 'Host: wallery.test', 'X-Note: a\x01b'])],
    ['a space in a header name', head(['GET /healthz HTTP/1.1', 'Host: wallery.test', 'X Note: a'])],
    ['a header line without a colon', head(['GET /healthz HTTP/1.1', 'Host: wallery.test', 'X-Note'])],
    ['an unknown method', head(['FOO / HTTP/1.1', 'Host: wallery.test'])],
    ['an unknown method on an API route', head(['FOO /api/v2/widget/wallInfo/7011?format=xml HTTP/1.1'])],
    ['a lower-case method', head(['get /healthz HTTP/1.1', 'Host: wallery.test'])],
    ['an unknown HTTP version', head(['GET /healthz HTTP/7.3', 'Host: wallery.test'])],
    ['no request line at all', 'this is not HTTP\r\n\r\n'],
    [
      'a Content-Length that is not a number',
      head(['POST /api/v2/widget/create-post HTTP/1.1', 'Host: wallery.test', 'Content-Length: ten']),
    ],
    [
      'two Content-Length headers that disagree',
      head([
        'POST /api/v2/widget/create-post HTTP/1.1',
        'Host: wallery.test',
        'Content-Length: 2',
        'Content-Length: 3',
      ]) + '{}',
    ],
    [
      'Content-Length and Transfer-Encoding: chunked together',
      head([
        'POST /api/v2/widget/create-post HTTP/1.1',
        'Host: wallery.test',
        'Content-Length: 2',
        'Transfer-Encoding: chunked',
      ]) + '0\r\n\r\n',
    ],
  ];
  it.each(cases)('%s → 400 in the JSON envelope, connection closed', async (_name, bytes) => {
    expectEnvelope(await onlyAnswer(bytes), 'HTTP/1.1 400 Bad Request', BAD_REQUEST);
  });

  it('a Content-Length shorter than the body: the request is answered, the rest is refused, the connection closed', async () => {
    const c = await connection();
    // the first two bytes are the body; what follows is where the next request should start
    c.send(
      head([
        'POST /api/v2/widget/create-post HTTP/1.1',
        'Host: wallery.test',
        'Content-Type: application/json',
        'Content-Length: 2',
      ]) + '{}{"wallId":7011,"content":"smuggled"}\r\n\r\n',
    );
    const first = await c.response();
    expect(first.status).toBe(401); // the two-byte request, without a user_key
    expectEnvelope(await c.response(), 'HTTP/1.1 400 Bad Request', BAD_REQUEST);
    await c.closed();
    expect(c.leftover()).toBe('');
  });

  it('a chunked body that is not chunked: answered 400, the connection closed', async () => {
    const c = await connection();
    c.send(
      head(['POST /api/v2/widget/create-post HTTP/1.1', 'Host: wallery.test', 'Transfer-Encoding: chunked']) +
        'zz\r\n{}\r\n0\r\n\r\n',
    );
    // The route may refuse the key (401) before it reads the body, if the
    // body arrived in a later packet; then that answer comes first.
    let res = await c.response();
    if (res.status === 401) res = await c.response();
    expectEnvelope(res, 'HTTP/1.1 400 Bad Request', BAD_REQUEST);
    await c.closed();
    expect(c.leftover()).toBe('');
  });
});

describe('431 Request header fields too large', () => {
  it('a 20 KB request line', async () => {
    const res = await onlyAnswer(head([`GET /healthz?pad=${'a'.repeat(20 * 1024)} HTTP/1.1`, 'Host: wallery.test']));
    expectEnvelope(res, 'HTTP/1.1 431 Request Header Fields Too Large', TOO_LARGE);
  });

  it('headers over 16 KiB in all (each one small)', async () => {
    const many = Array.from({ length: 40 }, (_, i) => `X-Pad-${i}: ${'b'.repeat(500)}`);
    const res = await onlyAnswer(head(['GET /healthz HTTP/1.1', 'Host: wallery.test', ...many]));
    expectEnvelope(res, 'HTTP/1.1 431 Request Header Fields Too Large', TOO_LARGE);
  });

  it('one header value of 20 KB, with format=xml asked (the query was never read: JSON)', async () => {
    const res = await onlyAnswer(
      head(['GET /api/v2/widget/wallInfo/7011?format=xml HTTP/1.1', `Cookie: c=${'c'.repeat(20 * 1024)}`]),
    );
    expectEnvelope(res, 'HTTP/1.1 431 Request Header Fields Too Large', TOO_LARGE);
  });
});

describe('keep-alive around a refused request', () => {
  it('earlier requests on the connection are answered normally; the bad one is answered, then the connection closes', async () => {
    const c = await connection();
    c.send(HEALTHZ);
    const ok = await c.response();
    expect(ok.status).toBe(200);
    expect(ok.headers.connection).toBe('keep-alive');
    c.send(HEALTHZ);
    expect((await c.response()).status).toBe(200);
    c.send(head(['GET /healthz HTTP/1.1', 'X-Note: \x00']));
    expectEnvelope(await c.response(), 'HTTP/1.1 400 Bad Request', BAD_REQUEST);
    await c.closed();
  });

  it('pipelined: requests before the bad bytes get their own answers first, in order', async () => {
    const c = await connection();
    c.send(HEALTHZ + head(['GET /api/v2/widget/nope HTTP/1.1', 'Host: wallery.test']) + 'FOO / HTTP/1.1\r\n\r\n');
    const first = await c.response();
    expect(first.status).toBe(200);
    expect(first.body).toContain('ok');
    const second = await c.response();
    expect(second.status).toBe(404);
    expect(second.body).toBe('{"responseCode":404,"responseStatus":"error","responseMessage":"Not found"}');
    expectEnvelope(await c.response(), 'HTTP/1.1 400 Bad Request', BAD_REQUEST);
    await c.closed();
    expect(c.leftover()).toBe('');
  });

  it('the server keeps serving other connections', async () => {
    await onlyAnswer('FOO / HTTP/1.1\r\n\r\n');
    const c = await connection();
    c.send(HEALTHZ);
    expect((await c.response()).status).toBe(200);
  });
});
