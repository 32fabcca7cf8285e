import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BootstrapResult } from '../../src/modules/organizations/bootstrap.service.js';
import { importSurvey } from '../engine/engine-helpers.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import { EVALUATION_SURVEY } from '../threesixties/threesixty-helpers.js';

/**
 * A token of organisation B can never read or change organisation A's 360s: every 360 route is tried with
 * B's administrator token against A's program, subject and nomination; each answers 404 as if they did
 * not exist, and A's 360 is unchanged afterwards.
 */
let t: TestApp;
let a: BootstrapResult;
let b: BootstrapResult;
let aProgram: string;
let aSubject: string;
let aEvaluator: string;
let aSurvey: string;
let bProgram: string;

const WORKFLOW = { relationships: [{ name: 'Peer', min: 1, max: 3 }] };

async function result(token: string, method: string, url: string, body?: unknown) {
  const res = await t.call(token, method, `/API/v3${url}`, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.result;
}

beforeAll(async () => {
  t = await buildTestApp();
  a = await t.newOrganization();
  b = await t.newOrganization();
  aSurvey = await importSurvey(t, a.apiToken, EVALUATION_SURVEY);
  aProgram = (
    await result(a.apiToken, 'POST', '/threesixties', { name: 'A', surveyId: aSurvey, workflow: WORKFLOW })
  ).id;
  aSubject = (
    await result(a.apiToken, 'POST', `/threesixties/${aProgram}/subjects`, {
      firstName: 'Ada',
      lastName: 'A',
      email: 'ada@a.example',
    })
  ).id;
  aEvaluator = (
    await result(a.apiToken, 'POST', `/threesixties/${aProgram}/subjects/${aSubject}/nominations`, {
      firstName: 'Eve',
      lastName: 'A',
      email: 'eve@a.example',
      relationship: 'Peer',
    })
  ).id;
  const bSurvey = await importSurvey(t, b.apiToken, EVALUATION_SURVEY);
  bProgram = (
    await result(b.apiToken, 'POST', '/threesixties', { name: 'B', surveyId: bSurvey, workflow: WORKFLOW })
  ).id;
});
afterAll(() => t.close());

const snapshot = async () => ({
  program: await result(a.apiToken, 'GET', `/threesixties/${aProgram}`),
  subjects: await result(a.apiToken, 'GET', `/threesixties/${aProgram}/subjects`),
  nominations: await result(a.apiToken, 'GET', `/threesixties/${aProgram}/subjects/${aSubject}/nominations`),
});

describe("a token of organisation B against organisation A's 360", () => {
  const one = () => `/threesixties/${aProgram}`;
  const subject = () => `${one()}/subjects/${aSubject}`;
  const person = { firstName: 'Mallory', lastName: 'B', email: 'mallory@b.example' };
  const attempts: [string, string, () => string, (() => unknown)?][] = [
    ['GET', '360', one],
    ['PUT', '360', one, () => ({ status: 'Active', name: 'Hijacked' })],
    ['DELETE', '360', one],
    ['POST', 'subject', () => `${one()}/subjects`, () => person],
    ['GET', 'subjects', () => `${one()}/subjects`],
    ['GET', 'subject', subject],
    ['DELETE', 'subject', subject],
    ['GET', 'report', () => `${subject()}/report`],
    ['POST', 'nomination', () => `${subject()}/nominations`, () => ({ ...person, relationship: 'Peer' })],
    ['GET', 'nominations', () => `${subject()}/nominations`],
    ['DELETE', 'nomination', () => `${subject()}/nominations/${aEvaluator}`],
    ['GET', "subject through B's 360", () => `/threesixties/${bProgram}/subjects/${aSubject}`],
    [
      'DELETE',
      "nomination through B's 360",
      () => `/threesixties/${bProgram}/subjects/${aSubject}/nominations/${aEvaluator}`,
    ],
  ];

  it.each(attempts)('%s %s answers 404', async (method, _what, url, body) => {
    const before = await snapshot();
    const res = await t.call(b.apiToken, method, `/API/v3${url()}`, body?.());
    expect(res.status).toBe(404);
    expect(['FW_360_1', 'FW_360_2']).toContain(res.body.meta.error.errorCode);
    expect(await snapshot()).toEqual(before);
  });

  it("never lists A's 360s to B, nor lets B make a 360 of A's survey", async () => {
    const list = await result(b.apiToken, 'GET', '/threesixties');
    expect(list.elements.map((p: { id: string }) => p.id)).toEqual([bProgram]);
    const res = await t.call(b.apiToken, 'POST', '/API/v3/threesixties', {
      name: 'X',
      surveyId: aSurvey,
      workflow: WORKFLOW,
    });
    expect(res.status).toBe(404);
    expect(res.body.meta.error.errorCode).toBe('GSI_2');
  });
});
