import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/clock.js';
import { bootstrapOrganization } from '../../src/modules/organizations/bootstrap.service.js';
import { startExportWorker, unzip } from '../exports/exports-helpers.js';
import { pollUntil } from '../helpers/poll.js';
import { buildTestApp, type TestApp, uniqueBrandId } from '../helpers/test-app.js';
import { accessToken, basic, createClient } from '../oauth/oauth-helpers.js';
import { multipartBody, SMALL_QSF } from '../surveys/survey-helpers.js';
import { callAt, type TwoDatacenters, twoDatacenters } from './two-datacenters.js';

let dc: TwoDatacenters;
/** An organisation of iad1, held in iad1's database only. */
let iadOrg: Awaited<ReturnType<typeof bootstrapOrganization>>;
let iadHost: string;
beforeAll(async () => {
  dc = await twoDatacenters();
  iadOrg = await bootstrapOrganization(dc.iadDatabase.db, systemClock.now(), {
    brandId: uniqueBrandId(),
    datacenter: 'iad1',
  });
  iadHost = new URL(dc.iadUrl).host;
});
afterAll(() => dc.close());

const notice = (host: string) => `Request proxied. For faster response times, use this host instead: ${host}`;

describe('an API token used at the wrong data center', () => {
  it('is answered by the right one, with meta.notice naming its host', async () => {
    const token = { 'x-api-token': iadOrg.apiToken };
    const home = await callAt(dc.iadUrl, 'GET', '/API/v3/whoami', token);
    expect(home.status).toBe(200);
    expect(home.body.result).toMatchObject({ brandId: iadOrg.brandId, datacenter: 'iad1' });
    expect(home.body.meta.notice).toBeUndefined();

    const away = await callAt(dc.fraUrl, 'GET', '/API/v3/whoami', token);
    expect(away.status).toBe(200);
    expect(away.body.result).toEqual(home.body.result);
    expect(away.body.meta.notice).toBe(notice(iadHost));
  });

  it('keeps the method, path, query and body: a list made through fra1 exists in iad1', async () => {
    const token = { 'x-api-token': iadOrg.apiToken };
    const lists = `/API/v3/directories/${iadOrg.directoryId}/mailinglists`;
    const made = await callAt(dc.fraUrl, 'POST', lists, token, { name: 'Made through fra1' });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect(made.body.meta.notice).toBe(notice(iadHost));
    await callAt(dc.iadUrl, 'POST', lists, token, { name: 'Made at home' });

    const page = await callAt(dc.fraUrl, 'GET', `${lists}?pageSize=1`, token);
    expect(page.status).toBe(200);
    expect(page.body.result.elements).toHaveLength(1);
    expect(page.body.result.elements[0]).toMatchObject({ mailingListId: made.body.result.id });
    // The next page is iad1's: the client follows it to the right host.
    expect(page.body.result.nextPage).toMatch(new RegExp(`^http://${iadHost}/API/v3/directories/`));
    expect(page.body.meta.notice).toBe(notice(iadHost));
    const atHome = await callAt(dc.iadUrl, 'GET', lists, token);
    expect(atHome.body.result.elements.map((l: { name: string }) => l.name).sort()).toEqual([
      'Made at home',
      'Made through fra1',
    ]);
    // fra1's own database holds nothing of it.
    const held = await dc.fra.database.db
      .selectFrom('organizations')
      .select('id')
      .where('id', '=', iadOrg.brandId)
      .execute();
    expect(held).toEqual([]);
  });

  it("passes the peer's errors and headers back, with the notice", async () => {
    const res = await callAt(dc.fraUrl, 'GET', '/API/v3/surveys/SV_000000000000000', {
      'X-API-TOKEN': iadOrg.apiToken,
    });
    expect(res.status).toBe(404);
    expect(res.body.meta.error.errorCode).toBe('GSI_2');
    expect(res.body.meta.notice).toBe(notice(iadHost));
    expect(res.headers.get('x-fieldwork-forwarded-by')).toBe('iad1');
  });

  it('forwards a bearer-style API token too (Authorization: Bearer works wherever X-API-TOKEN does)', async () => {
    const res = await callAt(dc.fraUrl, 'GET', '/API/v3/whoami', {
      authorization: `Bearer ${iadOrg.apiToken}`,
    });
    expect(res.status).toBe(200);
    expect(res.body.meta.notice).toBe(notice(iadHost));
  });

  it('forwards a multipart upload, and streams a file answer back unchanged', async () => {
    const token = { 'x-api-token': iadOrg.apiToken };
    const qsf = multipartBody(SMALL_QSF);
    const uploaded = await fetch(`${dc.fraUrl}/API/v3/surveys`, {
      method: 'POST',
      headers: { ...token, 'content-type': qsf.contentType },
      body: qsf.body,
    });
    const survey = await uploaded.json();
    expect(uploaded.status, JSON.stringify(survey)).toBe(200);
    expect(survey.meta.notice).toBe(notice(iadHost));
    const surveyId = survey.result.id as string;
    const values = { QID1: '30', QID3_TEXT: 'Sent through fra1' };
    expect(
      (await callAt(dc.fraUrl, 'POST', `/API/v3/surveys/${surveyId}/responses`, token, { values })).status,
    ).toBe(200);

    const exports = `/API/v3/surveys/${surveyId}/export-responses`;
    const worker = startExportWorker(dc.iadTest as TestApp);
    try {
      const started = await callAt(dc.fraUrl, 'POST', exports, token, { format: 'csv' });
      expect(started.status).toBe(200);
      const progress = `${exports}/${started.body.result.progressId}`;
      const done = await pollUntil('the export through fra1', async () => {
        const res = await callAt(dc.fraUrl, 'GET', progress, token);
        return res.body.result.status === 'inProgress' ? undefined : res.body.result;
      });
      expect(done.status).toBe('complete');
      const away = await fetch(`${dc.fraUrl}${exports}/${done.fileId}/file`, { headers: token });
      const home = await fetch(`${dc.iadUrl}${exports}/${done.fileId}/file`, { headers: token });
      expect(away.status).toBe(200);
      expect(away.headers.get('content-type')).toBe(home.headers.get('content-type'));
      expect(away.headers.get('content-disposition')).toBe(home.headers.get('content-disposition'));
      const bytes = Buffer.from(await away.arrayBuffer());
      expect(bytes.equals(Buffer.from(await home.arrayBuffer()))).toBe(true);
      const [csv] = [...(await unzip(bytes)).values()];
      expect(String(csv)).toContain('Sent through fra1');
    } finally {
      await worker.stop();
    }
  });

  it('a token no data center knows is 401 DCD_7, without a notice', async () => {
    const res = await callAt(dc.fraUrl, 'GET', '/API/v3/whoami', { 'x-api-token': 'A'.repeat(40) });
    expect(res.status).toBe(401);
    expect(res.body.meta.error.errorCode).toBe('DCD_7');
    expect(res.body.meta.notice).toBeUndefined();
  });

  it('a call a peer already forwarded is answered where it lands: no loop', async () => {
    const res = await callAt(dc.fraUrl, 'GET', '/API/v3/whoami', {
      'x-api-token': iadOrg.apiToken,
      'x-fieldwork-forwarded-by': 'iad1',
    });
    expect(res.status).toBe(401);
    expect(res.body.meta.error.errorCode).toBe('DCD_7');
  });

  it('a deployment without peers forwards nothing', async () => {
    const alone = await buildTestApp({ config: { datacenter: 'fra1' } });
    try {
      const res = await alone.call(iadOrg.apiToken, 'GET', '/API/v3/whoami');
      expect(res.status).toBe(401);
      expect(res.body.meta.error.errorCode).toBe('DCD_7');
    } finally {
      await alone.close();
    }
  });
});

describe('an OAuth token used at the wrong data center', () => {
  it('is refused with 401 naming the right host; at home it works', async () => {
    const iad = {
      call: async (method: string, url: string, body?: unknown) => {
        const res = await dc.iad.inject({
          method: method as 'POST',
          url,
          headers: { 'x-api-token': iadOrg.apiToken },
          ...(body === undefined ? {} : { payload: body as object }),
        });
        return { status: res.statusCode, body: res.json(), headers: res.headers, raw: res };
      },
    };
    const created = await iad.call('POST', '/API/v3/oauth-clients', {
      name: 'iad client',
      scopes: ['manage:all'],
    });
    expect(created.status).toBe(200);
    const { clientId, clientSecret } = created.body.result;
    const issued = await fetch(`${dc.iadUrl}/oauth2/token`, {
      method: 'POST',
      headers: {
        authorization: basic(clientId, clientSecret),
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
    });
    const { access_token: token } = await issued.json();
    expect(token).toMatch(/^iad1\./);

    const away = await callAt(dc.fraUrl, 'GET', '/API/v3/whoami', { authorization: `Bearer ${token}` });
    expect(away.status).toBe(401);
    expect(away.body.meta.error.errorCode).toBe('FW_DC_1');
    expect(away.body.meta.error.errorMessage).toContain(iadHost);
    expect(away.headers.get('www-authenticate')).toBe('Bearer realm="fieldwork", error="invalid_token"');

    const home = await callAt(dc.iadUrl, 'GET', '/API/v3/whoami', { authorization: `Bearer ${token}` });
    expect(home.status).toBe(200);
    expect(home.body.result.datacenter).toBe('iad1');
  });
});

describe('one database shared by two data centers', () => {
  let shared: TwoDatacenters;
  beforeAll(async () => {
    shared = await twoDatacenters({ shared: true });
  });
  afterAll(() => shared.close());

  it('serves each organisation from its own data center: the other forwards API calls and refuses OAuth tokens', async () => {
    const org = await bootstrapOrganization(shared.fra.database.db, systemClock.now(), {
      brandId: uniqueBrandId(),
      datacenter: 'iad1',
    });
    const host = new URL(shared.iadUrl).host;
    const away = await callAt(shared.fraUrl, 'GET', '/API/v3/whoami', { 'x-api-token': org.apiToken });
    expect(away.status).toBe(200);
    expect(away.body.result.datacenter).toBe('iad1');
    expect(away.body.meta.notice).toBe(notice(host));
    const home = await callAt(shared.iadUrl, 'GET', '/API/v3/whoami', { 'x-api-token': org.apiToken });
    expect(home.body.meta.notice).toBeUndefined();

    // A token asked for at fra1 is iad1's, since the organisation is; it works there and only there.
    const client = await createClient(shared.fra, org.apiToken, ['read:users']);
    const token = await accessToken(shared.fra, client);
    expect(token).toMatch(/^iad1\./);
    const refused = await callAt(shared.fraUrl, 'GET', '/API/v3/whoami', {
      authorization: `Bearer ${token}`,
    });
    expect(refused.status).toBe(401);
    expect(refused.body.meta.error.errorCode).toBe('FW_DC_1');
    expect(refused.body.meta.error.errorMessage).toContain(host);
    const served = await callAt(shared.iadUrl, 'GET', '/API/v3/whoami', { authorization: `Bearer ${token}` });
    expect(served.status).toBe(200);
  });

  it("reports the organisation's data center in whoami, not the deployment's", async () => {
    // zrh1 is no peer: the organisation is served where it is, and whoami says where it belongs.
    const org = await bootstrapOrganization(shared.fra.database.db, systemClock.now(), {
      brandId: uniqueBrandId(),
      datacenter: 'zrh1',
    });
    const res = await callAt(shared.fraUrl, 'GET', '/API/v3/whoami', { 'x-api-token': org.apiToken });
    expect(res.status).toBe(200);
    expect(res.body.result.datacenter).toBe('zrh1');
    expect(res.body.meta.notice).toBeUndefined();
  });
});
