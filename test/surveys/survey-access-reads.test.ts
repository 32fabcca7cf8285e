import {
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  SelectQueryNode,
  TableNode,
} from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Deps } from '../../src/deps.js';
import type { Principal } from '../../src/http/principal.js';
import type { ExportPayload } from '../../src/modules/exports/response-export.job.js';
import { getExport, startExport } from '../../src/modules/exports/response-exports.service.js';
import type { BootstrapResult } from '../../src/modules/organizations/bootstrap.service.js';
import { getResponse } from '../../src/modules/responses/responses.service.js';
import { createUserWithToken } from '../helpers/factories.js';
import { buildTestApp, type TestApp, testConfig } from '../helpers/test-app.js';
import { importSmallSurvey } from './survey-helpers.js';

/**
 * A collaborator's shares are read once per request: reading a response and starting an export check the
 * access and trim the personal data (`result.viewPersonalData`) from the same read of the caller's groups
 * and shares. The queries are counted by a Kysely plugin on the database the services are handed.
 */
let t: TestApp;
let org: BootstrapResult;
let owner: { userId: string; token: string };
let collaborator: { userId: string; token: string };
let surveyId: string;
let responseId: string;

const share = (recipientId: string, result: Record<string, boolean>) =>
  t.call(owner.token, 'POST', `/API/v3/surveys/${surveyId}/permissions/collaborations`, {
    recipientId,
    permissions: { result },
  });

beforeAll(async () => {
  t = await buildTestApp();
  org = await t.newOrganization();
  owner = await createUserWithToken(t, org.apiToken);
  collaborator = await createUserWithToken(t, org.apiToken);
  surveyId = await importSmallSurvey(t, owner.token);
  const posted = await t.call(owner.token, 'POST', `/API/v3/surveys/${surveyId}/responses`, {
    values: { QID1: 10, ipAddress: '203.0.113.9' },
  });
  expect(posted.status).toBe(200);
  responseId = posted.body.result.responseId;
  // The collaborator reaches the survey through a group, so both the groups and the shares are read.
  const group = await t.call(org.apiToken, 'POST', '/API/v3/groups', { name: `Analysts ${Date.now()}` });
  const groupId = group.body.result.id;
  const joined = await t.call(org.apiToken, 'POST', `/API/v3/groups/${groupId}/members`, {
    userId: collaborator.userId,
  });
  expect(joined.status).toBe(200);
  expect((await share(groupId, { viewSurveyResults: true, downloadSurveyResults: true })).status).toBe(200);
});
afterAll(() => t?.close());

/** The services' dependencies on a database that notes the table of every select it runs. */
function countingDeps(): { deps: Deps; reads: (table: string) => number } {
  const tables: string[] = [];
  const plugin: KyselyPlugin = {
    transformQuery: ({ node }: PluginTransformQueryArgs) => {
      if (SelectQueryNode.is(node))
        for (const from of node.from?.froms ?? [])
          if (TableNode.is(from)) tables.push(from.table.identifier.name);
      return node;
    },
    transformResult: async ({ result }: PluginTransformResultArgs) => result,
  };
  const deps: Deps = { db: t.database.db.withPlugin(plugin), clock: t.clock, config: testConfig() };
  return { deps, reads: (table) => tables.filter((name) => name === table).length };
}

const principalOf = (userId: string): Principal => ({
  userId,
  organizationId: org.brandId,
  userType: 'UT_PARTICIPANT',
  targetAudience: false,
});

describe("a collaborator's shares", () => {
  it('are read once to read a response, which leaves the personal data out without viewPersonalData', async () => {
    const { deps, reads } = countingDeps();
    const read = await getResponse(deps, principalOf(collaborator.userId), surveyId, responseId);
    expect(read.personalData).toBe(false);
    expect(reads('survey_collaborations')).toBe(1);
    expect(reads('group_members')).toBe(1);
  });

  it('are read once to start an export, which leaves the personal-data columns out without it', async () => {
    const { deps, reads } = countingDeps();
    const principal = principalOf(collaborator.userId);
    const id = await startExport(deps, principal, surveyId, { format: 'csv' });
    expect(reads('survey_collaborations')).toBe(1);
    expect(reads('group_members')).toBe(1);
    const job = await getExport(deps, principal, id, surveyId);
    const columns = (job.payload as ExportPayload).selection?.surveyMetadataIds;
    expect(columns).toContain('recordedDate');
    expect(columns).not.toContain('ipAddress');
    expect(columns).not.toContain('recipientEmail');
  });

  it('granting viewPersonalData to the user (beside the group) shows it, still from one read', async () => {
    expect(
      (await share(collaborator.userId, { viewSurveyResults: true, viewPersonalData: true })).status,
    ).toBe(200);
    const principal = principalOf(collaborator.userId);
    const reading = countingDeps();
    expect((await getResponse(reading.deps, principal, surveyId, responseId)).personalData).toBe(true);
    expect(reading.reads('survey_collaborations')).toBe(1);
    const exporting = countingDeps();
    const id = await startExport(exporting.deps, principal, surveyId, { format: 'csv' });
    expect(exporting.reads('survey_collaborations')).toBe(1);
    const job = await getExport(exporting.deps, principal, id, surveyId);
    expect((job.payload as ExportPayload).selection?.surveyMetadataIds).toBeUndefined();
  });

  it('are not read for the owner, who sees everything', async () => {
    const { deps, reads } = countingDeps();
    expect((await getResponse(deps, principalOf(owner.userId), surveyId, responseId)).personalData).toBe(
      true,
    );
    await startExport(deps, principalOf(owner.userId), surveyId, { format: 'csv' });
    expect(reads('survey_collaborations')).toBe(0);
    expect(reads('group_members')).toBe(0);
  });
});
