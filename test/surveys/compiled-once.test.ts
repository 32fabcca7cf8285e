import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { BootstrapResult } from '../../src/modules/organizations/bootstrap.service.js';
import { surveyForResponses } from '../../src/modules/surveys/survey-responses.service.js';
import { importSurvey } from '../engine/engine-helpers.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';

// Decision 0012: a survey's definition is compiled once per version. A session of a survey never published
// runs its current definition (its definition version 0): recording its response must take the compiled
// survey of the version just read, not compile the definition again for every completion (it did: the
// cache holds the survey under its version, and the completion asked for version 0).

let t: TestApp;
let org: BootstrapResult;
let surveyId: string;

beforeAll(async () => {
  t = await buildTestApp();
  org = await t.newOrganization();
  const qsf = readFileSync(new URL('../fixtures/engine/pets.qsf', import.meta.url), 'utf8');
  surveyId = await importSurvey(t, org.apiToken, qsf);
});
afterAll(async () => {
  await t?.close();
});

it("a never-published survey's sessions record against the compiled survey of its current version", async () => {
  const scope = { organizationId: org.brandId };
  const current = await surveyForResponses(t.database.db, scope, surveyId);
  const first = await surveyForResponses(t.database.db, scope, surveyId, 0);
  const second = await surveyForResponses(t.database.db, scope, surveyId, 0);
  expect(current?.definitionVersion).toBe(0);
  // The same compiled objects each time: nothing was compiled again.
  expect(first?.questions).toBe(current?.questions);
  expect(second?.questions).toBe(current?.questions);
  expect(second?.keys).toBe(current?.keys);
});
