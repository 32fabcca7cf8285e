import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserWithToken } from '../helpers/factories.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import {
  type BlobBackend,
  fetchPublic,
  multipartImage,
  pathOf,
  storedGraphicBlobs,
  upload,
} from './graphics-helpers.js';
import { gif, jpeg, png, SVG, webp } from './images.js';

const TEN_MB = 10 * 1024 * 1024;
const IMAGES = [
  ['png', png(), 'image/png'],
  ['jpeg', jpeg(), 'image/jpeg'],
  ['gif', gif(), 'image/gif'],
  ['webp', webp(), 'image/webp'],
] as const;

describe.each<BlobBackend>(['directory', 'database'])('graphics, %s blob store', (backend) => {
  let t: TestApp;
  let org: { organizationId: string; token: string };
  beforeAll(async () => {
    t = await buildTestApp({ config: { blobStore: backend } });
    const created = await t.newOrganization();
    org = { organizationId: created.brandId, token: created.apiToken };
  });
  afterAll(() => t.close());

  it.each(IMAGES)(
    'stores a %s image and serves its bytes at the public URL, without a token',
    async (_, bytes, type) => {
      // The declared type and name say nothing true: the format comes from the bytes.
      const res = await upload(t, org.token, bytes, { filename: 'upload.dat', mimetype: 'text/plain' });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.meta.httpStatus).toBe('200 - OK');
      const { id, url } = res.body.result;
      expect(id).toMatch(/^IM_[A-Za-z0-9]{15}$/);
      expect(url).toBe(`http://localhost:80/graphics/${id}`);

      const image = await fetchPublic(t, pathOf(url));
      expect(image.statusCode).toBe(200);
      expect(image.headers['content-type']).toBe(type);
      expect(image.rawPayload.equals(bytes)).toBe(true);
      expect(Number(image.headers['content-length'])).toBe(bytes.length);
      expect(image.headers['cache-control']).toBe('public, max-age=86400, immutable');
      expect(image.headers['x-content-type-options']).toBe('nosniff');
      const digest = createHash('sha256').update(bytes).digest('hex').slice(0, 32);
      expect(image.headers.etag).toBe(`"${digest}"`);
    },
  );

  it('answers 304 with no body to a matching If-None-Match, and the image to any other', async () => {
    const { url } = (await upload(t, org.token, png([0, 128, 0, 255]))).body.result;
    const first = await fetchPublic(t, pathOf(url));
    const etag = String(first.headers.etag);

    for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const again = await fetchPublic(t, pathOf(url), { 'if-none-match': ifNoneMatch });
      expect(again.statusCode, ifNoneMatch).toBe(304);
      expect(again.body).toBe('');
      expect(again.headers.etag).toBe(etag);
      expect(again.headers['cache-control']).toBe('public, max-age=86400, immutable');
    }
    const changed = await fetchPublic(t, pathOf(url), { 'if-none-match': '"something-else"' });
    expect(changed.statusCode).toBe(200);
    expect(changed.rawPayload.equals(first.rawPayload)).toBe(true);
  });

  it('answers HEAD with the headers of the image', async () => {
    const bytes = gif();
    const { url } = (await upload(t, org.token, bytes)).body.result;
    const head = await fetchPublic(t, pathOf(url), {}, 'HEAD');
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-type']).toBe('image/gif');
    expect(Number(head.headers['content-length'])).toBe(bytes.length);
    expect(head.body).toBe('');
  });

  it('refuses a text file renamed x.png, and an SVG, with 400 FW_GRA_1, storing nothing', async () => {
    const { brandId: organizationId, apiToken: token } = await t.newOrganization();
    const text = Buffer.from('Dear respondent,\nthis is plain text and not an image at all.\n');
    for (const [content, filename, mimetype] of [
      [text, 'x.png', 'image/png'],
      [SVG, 'logo.svg', 'image/svg+xml'],
      [SVG, 'logo.png', 'image/png'],
      [Buffer.alloc(0), 'empty.png', 'image/png'],
      [Buffer.from([0x89, 0x50, 0x4e]), 'short.png', 'image/png'],
    ] as const) {
      const res = await upload(t, token, content, { filename, mimetype });
      expect(res.status, filename).toBe(400);
      expect(res.body.meta.error.errorCode).toBe('FW_GRA_1');
      expect(res.body.meta.error.errorMessage).toMatch(/not a PNG, JPEG, GIF or WebP image.*SVG/);
      expect(res.body.result).toBeUndefined();
    }
    expect(await storedGraphicBlobs(t, backend, organizationId)).toEqual([]);
    expect(await graphicRows(t, organizationId)).toBe(0);
  });

  it('refuses a file past 10 MB with 413 FW_VAL_4 naming the limit, storing nothing; 10 MB exactly is taken', async () => {
    const { brandId: organizationId, apiToken: token } = await t.newOrganization();
    const header = png();
    const tooLarge = Buffer.concat([header, Buffer.alloc(TEN_MB + 1 - header.length)]);
    const res = await upload(t, token, tooLarge, { filename: 'big.png', mimetype: 'image/png' });
    expect(res.status).toBe(413);
    expect(res.body.meta.error.errorCode).toBe('FW_VAL_4');
    expect(res.body.meta.error.errorMessage).toContain('10 MB');
    expect(res.headers.connection).toBe('close');
    expect(await storedGraphicBlobs(t, backend, organizationId)).toEqual([]);
    expect(await graphicRows(t, organizationId)).toBe(0);

    const atLimit = tooLarge.subarray(0, TEN_MB);
    const taken = await upload(t, token, atLimit);
    expect(taken.status, JSON.stringify(taken.body)).toBe(200);
    const served = await fetchPublic(t, pathOf(taken.body.result.url));
    expect(Number(served.headers['content-length'])).toBe(TEN_MB);
    expect(await storedGraphicBlobs(t, backend, organizationId)).toHaveLength(1);
  });

  it('deletes the record and the bytes; the public URL and a second delete then answer 404', async () => {
    const { brandId: organizationId, apiToken: token } = await t.newOrganization();
    const { id, url } = (await upload(t, token, webp())).body.result;
    expect(await storedGraphicBlobs(t, backend, organizationId)).toHaveLength(1);

    const deleted = await t.call(token, 'DELETE', `/API/v3/graphics/${id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ meta: { httpStatus: '200 - OK', requestId: expect.any(String) } });
    expect(await storedGraphicBlobs(t, backend, organizationId)).toEqual([]);
    expect(await graphicRows(t, organizationId)).toBe(0);

    const gone = await fetchPublic(t, pathOf(url));
    expect(gone.statusCode).toBe(404);
    expect(gone.json().meta.error.errorCode).toBe('FW_GRA_2');
    expect(gone.headers['cache-control']).toBeUndefined();
    const again = await t.call(token, 'DELETE', `/API/v3/graphics/${id}`);
    expect(again.status).toBe(404);
    expect(again.body.meta.error.errorCode).toBe('FW_GRA_2');
  });

  it('a token of another organisation cannot delete the graphic: 404, and the image stays served', async () => {
    const { id, url } = (await upload(t, org.token, jpeg())).body.result;
    const other = await t.newOrganization();
    const res = await t.call(other.apiToken, 'DELETE', `/API/v3/graphics/${id}`);
    expect(res.status).toBe(404);
    expect(res.body.meta.error.errorCode).toBe('FW_GRA_2');
    expect((await fetchPublic(t, pathOf(url))).statusCode).toBe(200);
  });

  it("a participant deletes their own graphic, not another user's (403); an administrator deletes any", async () => {
    const alice = await createUserWithToken(t, org.token);
    const bob = await createUserWithToken(t, org.token);
    const ofAlice = (await upload(t, alice.token, png())).body.result.id;
    const ofBob = (await upload(t, bob.token, png())).body.result.id;

    const refused = await t.call(alice.token, 'DELETE', `/API/v3/graphics/${ofBob}`);
    expect(refused.status).toBe(403);
    expect(refused.body.meta.error.errorCode).toBe('QMST_2.1');
    expect((await t.call(alice.token, 'DELETE', `/API/v3/graphics/${ofAlice}`)).status).toBe(200);
    expect((await t.call(org.token, 'DELETE', `/API/v3/graphics/${ofBob}`)).status).toBe(200);
  });

  it('takes the upload only with a token: none is 400 ATP_2, an unknown one 401 DCD_7', async () => {
    const none = await upload(t, undefined, png());
    expect(none.status).toBe(400);
    expect(none.body.meta.error.errorCode).toBe('ATP_2');
    const unknown = await upload(t, 'x'.repeat(40), png());
    expect(unknown.status).toBe(401);
    expect(unknown.body.meta.error.errorCode).toBe('DCD_7');
  });

  it('names what is wrong with a body that holds no image part', async () => {
    const json = await t.call(org.token, 'POST', '/API/v3/graphics', { file: 'x' });
    expect(json.status).toBe(415);
    expect(json.body.meta.error.errorCode).toBe('FW_VAL_3');
    const wrongPart = await upload(t, org.token, png(), { part: 'image' });
    expect(wrongPart.status).toBe(400);
    expect(wrongPart.body.meta.error.errorMessage).toContain('`file`');
  });

  it('ignores text fields sent beside the file, and answers 404 for an unknown id at the public URL', async () => {
    const res = await upload(t, org.token, png(), { fields: { name: 'Logo', folder: 'Brand' } });
    expect(res.status).toBe(200);
    const unknown = await fetchPublic(t, '/graphics/IM_000000000000000');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().meta.error.errorCode).toBe('FW_GRA_2');
  });
});

async function graphicRows(t: TestApp, organizationId: string): Promise<number> {
  const rows = await t.database.db
    .selectFrom('graphics')
    .select('id')
    .where('organization_id', '=', organizationId)
    .execute();
  return rows.length;
}

describe('graphics over a real socket', () => {
  it('answers a refused upload (past the limit, or not an image) before reading the rest, and closes the connection', async () => {
    const t = await buildTestApp();
    const { apiToken } = await t.newOrganization();
    const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
    try {
      const post = (content: Buffer) => {
        const { body, headers } = multipartImage(content);
        return fetch(`${address}/API/v3/graphics`, {
          method: 'POST',
          body,
          headers: { ...headers, 'x-api-token': apiToken },
        });
      };
      const tooLarge = await post(Buffer.concat([png(), Buffer.alloc(TEN_MB + 1024 * 1024)]));
      expect(tooLarge.status).toBe(413);
      expect(tooLarge.headers.get('connection')).toBe('close');
      expect((await tooLarge.json()).meta.error.errorCode).toBe('FW_VAL_4');

      const svg = await post(Buffer.concat([SVG, Buffer.alloc(4 * 1024 * 1024)]));
      expect(svg.status).toBe(400);
      expect(svg.headers.get('connection')).toBe('close');
      expect((await svg.json()).meta.error.errorCode).toBe('FW_GRA_1');

      const image = await post(png());
      expect(image.status).toBe(200);
      const { url } = (await image.json()).result;
      const served = await fetch(url);
      expect(served.headers.get('content-type')).toBe('image/png');
      expect(Buffer.from(await served.arrayBuffer()).equals(png())).toBe(true);
    } finally {
      await t.close();
    }
  });
});
