import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const toOpenApiPath = (fastifyPath: string) => fastifyPath.replace(/:(\w+)/g, '{$1}');

it('serves an OpenAPI 3 document, without a token, that lists the routes with their schemas', async () => {
  const res = await t.call(undefined, 'GET', '/API/v3/openapi.json');
  expect(res.status).toBe(200);
  const doc = res.body;
  expect(doc.openapi).toMatch(/^3\./);
  expect(doc.components.securitySchemes.apiToken).toEqual({
    type: 'apiKey',
    in: 'header',
    name: 'X-API-TOKEN',
  });
  // OAuth clients find where to get a token and which scopes exist.
  const oauth2 = doc.components.securitySchemes.oauth2;
  expect(oauth2.flows.clientCredentials.tokenUrl).toBe('/oauth2/token');
  expect(Object.keys(oauth2.flows.clientCredentials.scopes)).toEqual(
    expect.arrayContaining([
      'manage:all',
      'read:surveys',
      'read:survey_responses',
      'write:mailing_list_contacts',
    ]),
  );
  expect(doc.security).toContainEqual({ oauth2: [] });
  for (const [method, path] of [
    ['get', '/API/v3/whoami'],
    ['get', '/API/v3/users'],
    ['post', '/API/v3/users'],
    ['get', '/API/v3/users/{userId}'],
    ['put', '/API/v3/users/{userId}'],
    ['delete', '/API/v3/users/{userId}'],
    ['post', '/API/v3/users/{userId}/apitoken'],
    ['get', '/API/v3/organizations/{organizationId}'],
    ['get', '/API/v3/divisions'],
    ['post', '/API/v3/divisions'],
    ['get', '/API/v3/divisions/{divisionId}'],
    ['get', '/API/v3/groups'],
    ['post', '/API/v3/groups'],
    ['delete', '/API/v3/groups/{groupId}'],
    ['post', '/API/v3/groups/{groupId}/members'],
    ['delete', '/API/v3/groups/{groupId}/members'],
  ] as const) {
    const operation = doc.paths[path]?.[method];
    expect(operation, `${method} ${path}`).toBeDefined();
    expect(operation.responses['200'].content['application/json'].schema.properties).toHaveProperty('meta');
  }
  const createUser = doc.paths['/API/v3/users'].post;
  expect(createUser.requestBody.content['application/json'].schema.required).toContain('username');
});

it('documents every route it serves, and serves every route it documents', async () => {
  const doc = (await t.call(undefined, 'GET', '/API/v3/openapi.json')).body;
  for (const [path, operations] of Object.entries(doc.paths as Record<string, Record<string, unknown>>)) {
    for (const method of Object.keys(operations)) {
      const url = path.replace(/\{(\w+)\}/g, ':$1');
      expect(t.app.hasRoute({ method: method.toUpperCase() as 'GET', url }), `${method} ${path}`).toBe(true);
    }
  }
  const documented = new Set(
    Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([path, ops]) =>
      Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`),
    ),
  );
  const served = t.app.registeredRoutes.filter((route) => route.url.startsWith('/API/v3/'));
  expect(served.length).toBeGreaterThan(10);
  for (const route of served) {
    if (route.url === '/API/v3/openapi.json') continue;
    expect(documented, `${route.method} ${route.url}`).toContain(
      `${route.method} ${toOpenApiPath(route.url)}`,
    );
  }
});

it('serves interactive docs whose assets all come from Fieldwork itself', async () => {
  const page = await t.call(undefined, 'GET', '/API/docs/');
  expect(page.status).toBe(200);
  expect(String(page.headers['content-type'])).toContain('text/html');
  const assetUrls = [...String(page.body).matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] as string);
  expect(assetUrls.length).toBeGreaterThan(0);
  for (const asset of assetUrls) {
    expect(asset).not.toMatch(/^(https?:)?\/\//);
    const res = await t.call(undefined, 'GET', new URL(asset, 'http://x/API/docs/').pathname);
    expect(res.status, asset).toBe(200);
  }
});
