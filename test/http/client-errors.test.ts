import { type AddressInfo, connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BootstrapResult } from '../../src/modules/organizations/bootstrap.service.js';
import { organizationRows } from '../helpers/rows.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';

// Issue 19, defect 5: requests Node's HTTP parser refuses never reach Fastify (inject bypasses that
// parser), so these go through a real socket on loopback, as raw bytes.
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let t: TestApp;
let org: BootstrapResult;
let port: number;

beforeAll(async () => {
  t = await buildTestApp();
  org = await t.newOrganization();
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(() => t.close());

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  // biome-ignore lint/suspicious/noExplicitAny: the envelope as JSON
  body: any;
}

/** Writes the bytes on a new connection and reads the answer until the server closes it (5 s at most). */
function rawRequest(bytes: Buffer): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => socket.destroy(new Error('no answer within 5 s')), 5_000);
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(parseAnswer(Buffer.concat(chunks).toString('utf8')));
    });
    // Not end(): a half-closed connection is one the server may drop before it answers.
    socket.write(bytes);
  });
}

function parseAnswer(text: string): RawAnswer {
  const [head = '', body = ''] = text.split('\r\n\r\n', 2);
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(
    lines.map((line) => [
      line.slice(0, line.indexOf(':')).toLowerCase(),
      line.slice(line.indexOf(':') + 1).trim(),
    ]),
  );
  return { status: Number(statusLine.split(' ')[1]), headers, body: body ? JSON.parse(body) : undefined };
}

function expectEnvelope(answer: RawAnswer, status: number, code: string, message: RegExp) {
  expect(answer.status).toBe(status);
  expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(answer.body.meta.httpStatus).toMatch(new RegExp(`^${status} - `));
  expect(answer.body.meta.error.errorCode).toBe(code);
  expect(answer.body.meta.error.errorMessage).toMatch(message);
  expect(answer.body.meta.requestId).toMatch(UUID_V4);
  expect(answer.headers['x-request-id']).toBe(answer.body.meta.requestId);
}

const lists = () => organizationRows(t, org.brandId, ['mailing_lists']);

/** A POST that would create a mailing list, with `extraHeaders` and `path` as given. */
function createList(path: string, extraHeaders = ''): Buffer {
  const body = '{"name":"Should not exist"}';
  return Buffer.concat([
    Buffer.from(`POST `),
    Buffer.from(path, 'latin1'),
    Buffer.from(
      ` HTTP/1.1\r\nHost: 127.0.0.1\r\nX-API-TOKEN: ${org.apiToken}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${body.length}\r\nConnection: close\r\n${extraHeaders}\r\n${body}`,
      'latin1',
    ),
  ]);
}

describe("requests Node's parser refuses answer in the v3 envelope", () => {
  it('answers 431 FW_VAL_5 for headers over 16 KB, creating nothing', async () => {
    const before = await lists();
    const answer = await rawRequest(
      createList('/API/v3/mailinglists', `X-Padding: ${'a'.repeat(17_000)}\r\n`),
    );
    expectEnvelope(answer, 431, 'FW_VAL_5', /^The request headers are larger than 16 KB\.$/);
    expect(await lists()).toEqual(before);
  });

  it('answers 400 FW_VAL_1 for raw bytes outside ASCII or a control character in the request line', async () => {
    const before = await lists();
    for (const path of ['/API/v3/mailinglists\u00ff\u00fe', '/API/v3/mail\u0001inglists']) {
      const answer = await rawRequest(createList(path));
      expectEnvelope(
        answer,
        400,
        'FW_VAL_1',
        /^Invalid request: the request line or headers are not valid HTTP/,
      );
    }
    expect(await lists()).toEqual(before);
  });

  it('answers 400 FW_VAL_1 for a malformed header line', async () => {
    const before = await lists();
    for (const header of ['Not a header line\r\n', 'X-Nul: a\u0000b\r\n']) {
      const answer = await rawRequest(createList('/API/v3/mailinglists', header));
      expectEnvelope(
        answer,
        400,
        'FW_VAL_1',
        /^Invalid request: the request line or headers are not valid HTTP \(HPE_/,
      );
    }
    expect(await lists()).toEqual(before);
  });

  it('answers the router refusals in the envelope on a real socket too', async () => {
    const answer = await rawRequest(createList('/API/v3/mailinglists/%ff'));
    expectEnvelope(
      answer,
      400,
      'FW_VAL_1',
      /^Invalid request: the path is not valid percent-encoded UTF-8\.$/,
    );
  });

  it('still serves a well-formed request on the same server', async () => {
    const answer = await rawRequest(
      Buffer.from(
        `GET /API/v3/whoami HTTP/1.1\r\nHost: 127.0.0.1\r\nX-API-TOKEN: ${org.apiToken}\r\nConnection: close\r\n\r\n`,
      ),
    );
    expect(answer.status).toBe(200);
    expect(answer.body.result.userId).toBe(org.userId);
  });
});
