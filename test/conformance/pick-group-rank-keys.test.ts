/**
 * Issue 14 part 2: a real pick-group-rank question (../shared/fixtures/qsf/sp-go-fixture.qsf, QID17) has
 * the value keys, in the order, of the real platform's xml export of that survey
 * (../shared/fixtures/exports/sp-xml.xml: `QID17_0_GROUP_1` … `QID17_G2_5_RANK`, `QID17_5_TEXT`).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { BootstrapResult } from '../../src/modules/organizations/bootstrap.service.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import { uploadQsf } from '../surveys/survey-helpers.js';
import { requireShared, SHARED } from './shared.js';

let t: TestApp;
let org: BootstrapResult;
beforeAll(async () => {
  requireShared();
  t = await buildTestApp();
  org = await t.newOrganization();
});
afterAll(async () => {
  await t.close();
});

it('a real pick-group-rank question runs and has the real export’s keys, in order', async () => {
  const qsf = readFileSync(join(SHARED, 'fixtures', 'qsf', 'sp-go-fixture.qsf'));
  const imported = await uploadQsf(t, org.apiToken, qsf);
  expect(imported.status, JSON.stringify(imported.body)).toBe(200);
  expect(String(imported.body.meta.notice ?? '')).not.toContain('QID17');
  const survey = await t.call(org.apiToken, 'GET', `/API/v3/surveys/${imported.body.result.id}`);
  const question = survey.body.result.questions.QID17 as { supported: boolean; valueKeys: string[] };
  const xml = readFileSync(join(SHARED, 'fixtures', 'exports', 'sp-xml.xml'), 'utf8');
  const real = [...new Set([...xml.matchAll(/<(QID17_[^>\s/]*)>/g)].map((m) => m[1]))];
  expect(real).toHaveLength(31);
  expect(question.supported).toBe(true);
  expect(question.valueKeys).toEqual(real);
});
