/**
 * `POST /v3/graphics` with a `graphicId` part: a Qualtrics graphic's `IM_…` id kept as the graphic's, so an
 * imported survey's texts show it (issue 14). Graphic ids are unique on the server, not per organisation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/http/ids.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import {
  type BlobBackend,
  fetchPublic,
  multipartImage,
  storedGraphicBlobs,
  upload,
} from './graphics-helpers.js';
import { gif, jpeg, png } from './images.js';

async function graphicRows(t: TestApp, organizationId: string): Promise<string[]> {
  const rows = await t.database.db
    .selectFrom('graphics')
    .select('id')
    .where('organization_id', '=', organizationId)
    .execute();
  return rows.map((row) => row.id);
}

describe.each<BlobBackend>(['directory', 'database'])('graphicId, %s blob store', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ config: { blobStore: backend } });
  });
  afterAll(() => t.close());

  const newOrg = async () => {
    const created = await t.newOrganization();
    return { organizationId: created.brandId, token: created.apiToken };
  };

  it('keeps a well-formed id as the graphic id, served at its public URL', async () => {
    const org = await newOrg();
    const id = newId('IM');
    const res = await upload(t, org.token, png(), { fields: { graphicId: id } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.result).toEqual({ id, url: `http://localhost:80/graphics/${id}` });
    const served = await fetchPublic(t, `/graphics/${id}`);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.rawPayload.equals(png())).toBe(true);
    expect(await graphicRows(t, org.organizationId)).toEqual([id]);
    expect(await storedGraphicBlobs(t, backend, org.organizationId)).toHaveLength(1);
    // Deleting it works as for any graphic, and frees the id.
    expect((await t.call(org.token, 'DELETE', `/API/v3/graphics/${id}`)).status).toBe(200);
    expect((await fetchPublic(t, `/graphics/${id}`)).statusCode).toBe(404);
    const again = await upload(t, org.token, gif(), { fields: { graphicId: id } });
    expect(again.status).toBe(200);
    expect((await fetchPublic(t, `/graphics/${id}`)).headers['content-type']).toBe('image/gif');
  });

  it('an empty graphicId is as if absent: a new id', async () => {
    const org = await newOrg();
    const res = await upload(t, org.token, png(), { fields: { graphicId: '' } });
    expect(res.status).toBe(200);
    expect(res.body.result.id).toMatch(/^IM_[A-Za-z0-9]{15}$/);
  });

  it("refuses an id the organisation's graphic has with 409 FW_GRA_3, storing nothing and keeping the first", async () => {
    const org = await newOrg();
    const id = newId('IM');
    expect((await upload(t, org.token, png(), { fields: { graphicId: id } })).status).toBe(200);
    const taken = await upload(t, org.token, jpeg(), { fields: { graphicId: id } });
    expect(taken.status).toBe(409);
    expect(taken.body.meta.httpStatus).toBe('409 - Conflict');
    expect(taken.body.meta.error.errorCode).toBe('FW_GRA_3');
    expect(taken.body.meta.error.errorMessage).toBe(
      `Graphic ${id} already exists in this organisation (delete it first to replace it); nothing was stored.`,
    );
    expect(taken.body.result).toBeUndefined();
    expect(await graphicRows(t, org.organizationId)).toEqual([id]);
    expect(await storedGraphicBlobs(t, backend, org.organizationId)).toHaveLength(1);
    expect((await fetchPublic(t, `/graphics/${id}`)).rawPayload.equals(png())).toBe(true);
  });

  it("refuses an id another organisation's graphic has with 409, without touching theirs", async () => {
    const owner = await newOrg();
    const other = await newOrg();
    const id = newId('IM');
    expect((await upload(t, owner.token, png(), { fields: { graphicId: id } })).status).toBe(200);
    const taken = await upload(t, other.token, gif(), { fields: { graphicId: id } });
    expect(taken.status).toBe(409);
    expect(taken.body.meta.error.errorCode).toBe('FW_GRA_3');
    expect(taken.body.meta.error.errorMessage).toContain(`is taken on this server by another organisation's`);
    expect(taken.body.meta.error.errorMessage).not.toContain(owner.organizationId);
    expect(await graphicRows(t, other.organizationId)).toEqual([]);
    expect(await storedGraphicBlobs(t, backend, other.organizationId)).toEqual([]);
    expect((await fetchPublic(t, `/graphics/${id}`)).rawPayload.equals(png())).toBe(true);
  });

  it('refuses a malformed id with 400 naming graphicId, storing nothing', async () => {
    const org = await newOrg();
    const good = newId('IM');
    for (const graphicId of [
      'IM_short',
      `${good}x`,
      good.replace('IM_', 'SV_'),
      good.replace('IM_', 'im_'),
      `IM_${'a'.repeat(14)}-`,
      '../../etc/passwd',
      ` ${good}`,
    ]) {
      const res = await upload(t, org.token, png(), { fields: { graphicId } });
      expect(res.status, graphicId).toBe(400);
      expect(res.body.meta.error.errorCode).toBe('FW_VAL_1');
      expect(res.body.meta.error.errorMessage).toContain('graphicId must be a graphic id');
    }
    expect(await graphicRows(t, org.organizationId)).toEqual([]);
    expect(await storedGraphicBlobs(t, backend, org.organizationId)).toEqual([]);
  });

  it('of two uploads of one id at once, one is stored and the other is 409; the bytes served are the winner', async () => {
    const org = await newOrg();
    const id = newId('IM');
    const images = [png([255, 0, 0, 255]), png([0, 0, 255, 255])];
    const answers = await Promise.all(
      images.map((image) => upload(t, org.token, image, { fields: { graphicId: id } })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    const winner = images[answers.findIndex((a) => a.status === 200)] as Buffer;
    expect((await fetchPublic(t, `/graphics/${id}`)).rawPayload.equals(winner)).toBe(true);
    expect(await graphicRows(t, org.organizationId)).toEqual([id]);
    expect(await storedGraphicBlobs(t, backend, org.organizationId)).toHaveLength(1);
  });
});

describe('graphicId in the request', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await buildTestApp();
    token = (await t.newOrganization()).apiToken;
  });
  afterAll(() => t.close());

  it('refuses graphicId sent twice', async () => {
    const id = newId('IM');
    const { body, headers } = multipartImage(png(), { fields: { graphicId: id } });
    // The same text part once more, before the file.
    const boundary = headers['content-type'].split('boundary=')[1] as string;
    const extra = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="graphicId"\r\n\r\n${id}\r\n`,
    );
    const res = await t.call(token, 'POST', '/API/v3/graphics', Buffer.concat([extra, body]), headers);
    expect(res.status).toBe(400);
    expect(res.body.meta.error.errorMessage).toContain('graphicId must be sent once');
    expect((await fetchPublic(t, `/graphics/${id}`)).statusCode).toBe(404);
  });

  it('is shown in the OpenAPI document, with its pattern', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/API/v3/openapi.json' })).json();
    const schema = doc.paths['/API/v3/graphics'].post.requestBody.content['multipart/form-data'].schema;
    expect(schema.required).toEqual(['file']);
    expect(schema.properties.graphicId.pattern).toBe('^IM_[A-Za-z0-9]{15}$');
    expect(schema.properties.graphicId.description).toContain('409 FW_GRA_3');
    expect(schema.properties.file.format).toBe('binary');
  });
});
