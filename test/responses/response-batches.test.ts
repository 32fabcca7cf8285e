import { InsertQueryNode, type KyselyPlugin, type PluginTransformQueryArgs } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Deps } from '../../src/deps.js';
import { ApiError } from '../../src/http/errors.js';
import type { Principal } from '../../src/http/principal.js';
import type { BootstrapResult } from '../../src/modules/organizations/bootstrap.service.js';
import { MAX_BATCH } from '../../src/modules/responses/response-batches.js';
import { createResponse } from '../../src/modules/responses/responses.service.js';
import { createUserWithToken } from '../helpers/factories.js';
import { buildTestApp, type TestApp, testConfig } from '../helpers/test-app.js';
import { startWebhookReceiver } from '../helpers/webhook-receiver.js';
import { importSmallSurvey } from '../surveys/survey-helpers.js';

/**
 * Group commit (decision 0016): completions of one survey posted at the same time are written in one
 * transaction, and each request still gets its own answer. The service is called directly on a database
 * whose Kysely plugin counts the inserts per table and refuses an insert that carries the word `poison`.
 */
let t: TestApp;
let org: BootstrapResult;

beforeAll(async () => {
  t = await buildTestApp({ config: { allowPrivateTargets: true } });
  org = await t.newOrganization();
});
afterAll(() => t?.close());

const POISON = 'poison';

function countingDeps(): { deps: Deps; inserts: (table: string) => number } {
  const tables: string[] = [];
  const plugin: KyselyPlugin = {
    transformQuery: ({ node }: PluginTransformQueryArgs) => {
      if (InsertQueryNode.is(node)) {
        tables.push(node.into?.table.identifier.name ?? '');
        if (JSON.stringify(node).includes(POISON)) throw new Error('this insert is refused');
      }
      return node;
    },
    transformResult: async ({ result }) => result,
  };
  const deps: Deps = { db: t.database.db.withPlugin(plugin), clock: t.clock, config: testConfig() };
  return { deps, inserts: (table) => tables.filter((name) => name === table).length };
}

const admin = (): Principal => ({
  userId: org.userId,
  organizationId: org.brandId,
  userType: 'UT_BRANDADMIN',
  targetAudience: false,
});

/** A settled call: the response id, or the error code (or message) it failed with. */
async function outcome(call: Promise<{ responseId: string }>): Promise<string> {
  try {
    return (await call).responseId;
  } catch (error) {
    return error instanceof ApiError ? String(error.code) : (error as Error).message;
  }
}

async function stored(surveyId: string) {
  const db = t.database.db;
  const responses = await db
    .selectFrom('responses')
    .select(['id', 'seq', 'embedded_data'])
    .where('survey_id', '=', surveyId)
    .execute();
  const events = await db
    .selectFrom('events')
    .select(['id', 'payload'])
    .where('organization_id', '=', org.brandId)
    .where('topic', '=', `surveyengine.completedResponse.${surveyId}`)
    .execute();
  const deliveries = await db
    .selectFrom('event_deliveries')
    .select('event_id')
    .where('event_id', 'in', events.length ? events.map((e) => e.id) : [''])
    .execute();
  return { responses, events, deliveries };
}

const quotaCounts = async (surveyId: string) =>
  Object.fromEntries(
    (
      await t.database.db
        .selectFrom('survey_quotas')
        .select(['id', 'current_count'])
        .where('survey_id', '=', surveyId)
        .execute()
    ).map((q) => [q.id, Number(q.current_count)]),
  );

describe('completions of one survey posted together', () => {
  it('are written in one transaction, each with its own id, number, event, delivery and counts', async () => {
    const surveyId = await importSmallSurvey(t, org.apiToken);
    const receiver = await startWebhookReceiver();
    const hook = await t.call(org.apiToken, 'POST', '/API/v3/eventsubscriptions', {
      publicationUrl: receiver.url,
      topics: `surveyengine.completedResponse.${surveyId}`,
    });
    expect(hook.status, JSON.stringify(hook.body)).toBe(200);
    await receiver.close();
    const owner = async () =>
      (await t.call(org.apiToken, 'GET', `/API/v3/users/${org.userId}`)).body.result.responseCounts;
    const ownerBefore = await owner();
    const quotasBefore = await quotaCounts(surveyId);
    const { deps, inserts } = countingDeps();

    // QID1 choice 1 (recode 10) meets the first quota's condition: 10 of the 16 count towards it.
    const ids = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        createResponse(deps, admin(), surveyId, {
          QID1: i < 10 ? 10 : 20,
          status: i < 12 ? 0 : 2,
          n: String(i),
        }),
      ).map((call) => call.then((recorded) => recorded.responseId)),
    );
    expect(new Set(ids).size).toBe(16);
    expect(inserts('responses')).toBe(1);
    expect(inserts('events')).toBe(1);
    expect(inserts('event_deliveries')).toBe(1);

    const { responses, events, deliveries } = await stored(surveyId);
    expect(responses.map((r) => r.id).sort()).toEqual([...ids].sort());
    expect(new Set(responses.map((r) => Number(r.seq))).size).toBe(16);
    // Each request's own values went to its own response.
    for (const [i, id] of ids.entries())
      expect(JSON.parse(responses.find((r) => r.id === id)?.embedded_data ?? '{}')).toEqual({ n: String(i) });
    expect(events.map((e) => JSON.parse(e.payload).ResponseID).sort()).toEqual([...ids].sort());
    expect(deliveries).toHaveLength(16);
    expect(await owner()).toEqual({
      ...ownerBefore,
      auditable: ownerBefore.auditable + 12,
      generated: ownerBefore.generated + 4,
    });
    const quotasAfter = await quotaCounts(surveyId);
    expect(quotasAfter.QO_aaaaaaaaaaaaaa1).toBe((quotasBefore.QO_aaaaaaaaaaaaaa1 ?? 0) + 10);
  });

  it('over HTTP, each of many at once is answered 200 and recorded once', async () => {
    const surveyId = await importSmallSurvey(t, org.apiToken);
    const answers = await Promise.all(
      Array.from({ length: MAX_BATCH + 6 }, (_, i) =>
        t.call(org.apiToken, 'POST', `/API/v3/surveys/${surveyId}/responses`, {
          values: { QID1: 10, n: String(i) },
        }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    const ids = answers.map((a) => a.body.result.responseId);
    expect(new Set(ids).size).toBe(MAX_BATCH + 6);
    expect((await stored(surveyId)).responses.map((r) => r.id).sort()).toEqual([...ids].sort());
  });

  it("answer a request's own mistake (no access, a bad value) to that request alone and record the others", async () => {
    const surveyId = await importSmallSurvey(t, org.apiToken);
    const stranger = await createUserWithToken(t, org.apiToken);
    const { deps } = countingDeps();
    const results = await Promise.all([
      outcome(createResponse(deps, admin(), surveyId, { QID1: 10 })),
      outcome(createResponse(deps, admin(), surveyId, { QID99: 1 })),
      outcome(
        createResponse(
          deps,
          {
            userId: stranger.userId,
            organizationId: org.brandId,
            userType: 'UT_PARTICIPANT',
            targetAudience: false,
          },
          surveyId,
          { QID1: 10 },
        ),
      ),
      outcome(createResponse(deps, admin(), surveyId, { QID1: 20, ResponseEventContext: 'x'.repeat(51) })),
      outcome(createResponse(deps, admin(), surveyId, { QID1: 20 })),
    ]);
    expect(results[0]).toMatch(/^R_/);
    expect(results[1]).toBe(ApiError.invalid('values.QID99', 'x').code);
    expect(results[2]).toBe('GSI_2');
    expect(results[3]).toBe(ApiError.invalid('values.ResponseEventContext', 'x').code);
    expect(results[4]).toMatch(/^R_/);
    const { responses, events } = await stored(surveyId);
    expect(responses.map((r) => r.id).sort()).toEqual([results[0], results[4]].sort());
    expect(events).toHaveLength(2);
  });

  it('are written again one by one when the batch fails, so the failure stays with the request that caused it', async () => {
    const surveyId = await importSmallSurvey(t, org.apiToken);
    const { deps, inserts } = countingDeps();
    const results = await Promise.all(
      ['a', POISON, 'b', 'c'].map((n) => outcome(createResponse(deps, admin(), surveyId, { QID1: 10, n }))),
    );
    expect(results[1]).toBe('this insert is refused');
    const recorded = [results[0], results[2], results[3]];
    for (const id of recorded) expect(id).toMatch(/^R_/);
    // The batch of four failed; then each was written alone.
    expect(inserts('responses')).toBe(5);
    const { responses, events } = await stored(surveyId);
    expect(responses.map((r) => r.id).sort()).toEqual([...recorded].sort());
    expect(events.map((e) => JSON.parse(e.payload).ResponseID).sort()).toEqual([...recorded].sort());
  });

  it('an unknown survey is GSI_2 for every request of the batch, and nothing is written', async () => {
    const { deps, inserts } = countingDeps();
    const results = await Promise.all(
      [1, 2, 3].map(() => outcome(createResponse(deps, admin(), 'SV_nothinghere1234', { QID1: 10 }))),
    );
    expect(results).toEqual(['GSI_2', 'GSI_2', 'GSI_2']);
    expect(inserts('responses')).toBe(0);
  });
});
