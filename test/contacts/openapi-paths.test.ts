import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';

/** Every path of the family: spec/endpoints.tsv's rows for directories and mailing lists, and issue 3's. */
const PATHS: [string, string][] = [
  ['GET', '/v3/directories'],
  ['POST', '/v3/directories/{directoryId}/contacts'],
  ['GET', '/v3/directories/{directoryId}/contacts'],
  ['GET', '/v3/directories/{directoryId}/contacts/{contactId}/history'],
  ['GET', '/v3/directories/{directoryId}/contacts/{contactId}'],
  ['PUT', '/v3/directories/{directoryId}/contacts/{contactId}'],
  ['DELETE', '/v3/directories/{directoryId}/contacts/{contactId}'],
  ['POST', '/v3/directories/{directoryId}/contacts/search'],
  ['GET', '/v3/directories/{directoryId}/mailinglists'],
  ['POST', '/v3/directories/{directoryId}/mailinglists'],
  ['GET', '/v3/directories/{directoryId}/mailinglists/{mailingListId}'],
  ['PUT', '/v3/directories/{directoryId}/mailinglists/{mailingListId}'],
  ['DELETE', '/v3/directories/{directoryId}/mailinglists/{mailingListId}'],
  ['GET', '/v3/directories/{directoryId}/mailinglists/{mailingListId}/contacts'],
  ['POST', '/v3/directories/{directoryId}/mailinglists/{mailingListId}/contacts'],
  ['GET', '/v3/directories/{directoryId}/mailinglists/{mailingListId}/contacts/{contactId}'],
  ['PUT', '/v3/directories/{directoryId}/mailinglists/{mailingListId}/contacts/{contactId}'],
  ['DELETE', '/v3/directories/{directoryId}/mailinglists/{mailingListId}/contacts/{contactId}'],
  ['GET', '/v3/directories/{directoryId}/mailinglists/{mailingListId}/optedOutContacts'],
  ['GET', '/v3/directories/{directoryId}/mailinglists/{mailingListId}/bouncedContacts'],
  ['POST', '/v3/directories/{directoryId}/mailinglists/{mailingListId}/contactimports'],
  ['GET', '/v3/directories/{directoryId}/mailinglists/{mailingListId}/contactimports/{importId}'],
  ['GET', '/v3/mailinglists'],
  ['POST', '/v3/mailinglists'],
  ['GET', '/v3/mailinglists/{mailingListId}'],
  ['PUT', '/v3/mailinglists/{mailingListId}'],
  ['DELETE', '/v3/mailinglists/{mailingListId}'],
  ['GET', '/v3/mailinglists/{mailingListId}/contacts'],
  ['POST', '/v3/mailinglists/{mailingListId}/contacts'],
  ['GET', '/v3/mailinglists/{mailingListId}/contacts/{contactId}'],
  ['PUT', '/v3/mailinglists/{mailingListId}/contacts/{contactId}'],
  ['DELETE', '/v3/mailinglists/{mailingListId}/contacts/{contactId}'],
  ['POST', '/v3/mailinglists/{mailingListId}/contactimports'],
  ['GET', '/v3/mailinglists/{mailingListId}/contactimports/{importId}'],
  ['GET', '/v3/mailinglists/{mailingListId}/samples'],
  ['POST', '/v3/mailinglists/{mailingListId}/samples'],
  ['GET', '/v3/mailinglists/{mailingListId}/samples/{sampleId}'],
  ['GET', '/v3/mailinglists/{mailingListId}/samples/{sampleId}/contacts'],
];

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

it('documents every directory, mailing list and contact path in the OpenAPI document', async () => {
  const res = await t.call(undefined, 'GET', '/API/v3/openapi.json');
  expect(res.status).toBe(200);
  const paths = res.body.paths as Record<string, Record<string, unknown>>;
  const missing = PATHS.filter(([method, path]) => !paths[`/API${path}`]?.[method.toLowerCase()]);
  expect(missing).toEqual([]);
});
