/**
 * 360 programs (issue 16): create, read, change (status, workflow, sender), delete. Every change and the
 * event it causes commit together (spec 6 through the outbox).
 */
import { toJson } from '../../db/json.js';
import type { Page } from '../../db/page.js';
import type { Deps, Queryable } from '../../deps.js';
import { ApiError } from '../../http/errors.js';
import { newId } from '../../http/ids.js';
import { isBrandAdmin, type Principal } from '../../http/principal.js';
import { notifyJobQueued } from '../../jobs/jobs.service.js';
import { loadSurveyForTaking } from '../surveys/survey-taking.service.js';
import { accessibleSurvey } from '../surveys/surveys.service.js';
import { recountSubjects } from './evaluations.service.js';
import { releaseHeldMails } from './mails.js';
import type { CreateThreeSixtyBody, UpdateThreeSixtyBody } from './threesixties.schemas.js';
import * as store from './threesixties.store.js';
import { programCreated, programStatusChanged } from './threesixty-events.js';
import { normalizeWorkflow, type Workflow, type WorkflowInput } from './workflow.js';

export type { ThreeSixtyRow } from './threesixties.store.js';

export function threeSixtyNotFound(id: string): ApiError {
  return ApiError.of('FW_360_1', `360 ${id} not found.`);
}

/** The caller's organisation's program that the caller may manage (brand administrators: all; others: their own). */
export async function requireThreeSixty(db: Queryable, principal: Principal, id: string) {
  const row = await store.findThreeSixty(db, principal, id);
  if (!row) throw threeSixtyNotFound(id);
  if (!isBrandAdmin(principal) && row.owner_id !== principal.userId) throw ApiError.forbidden();
  return row;
}

/** The workflow with its defaults, its competencies' questions checked against the survey. */
async function checkedWorkflow(db: Queryable, surveyId: string, input: WorkflowInput): Promise<Workflow> {
  const workflow = normalizeWorkflow(input);
  if (Array.isArray(workflow)) throw ApiError.invalid(workflow[0], workflow[1]);
  const survey = workflow.competencies.length > 0 ? await loadSurveyForTaking(db, surveyId) : undefined;
  for (const [i, competency] of workflow.competencies.entries()) {
    const unknown = competency.questionIds.find((id) => !survey?.questions.has(id));
    if (unknown)
      throw ApiError.invalid(
        `workflow.competencies[${i}].questionIds`,
        `names ${unknown}, not a question of the survey`,
      );
  }
  return workflow;
}

/** The sender of the program's mails: the caller's, else no-reply at the server's host. */
const defaultFrom = (base: string) => `no-reply@${new URL(base).hostname}`;

export async function createThreeSixty(
  deps: Deps,
  principal: Principal,
  body: CreateThreeSixtyBody,
  linkBaseUrl: string,
): Promise<string> {
  await accessibleSurvey(deps.db, principal, body.surveyId, 'surveyManagement.distributeSurveys');
  const workflow = await checkedWorkflow(deps.db, body.surveyId, body.workflow);
  const id = newId('TS');
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    await store.insertThreeSixty(trx, {
      id,
      organization_id: principal.organizationId,
      owner_id: principal.userId,
      survey_id: body.surveyId,
      name: body.name,
      status: 'Inactive',
      workflow: toJson(workflow),
      from_email: body.fromEmail ?? defaultFrom(linkBaseUrl),
      from_name: body.fromName ?? null,
      link_base_url: linkBaseUrl,
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
    });
    await programCreated(trx, principal, { id, surveyId: body.surveyId, workflow }, now);
  });
  return id;
}

export async function getThreeSixty(deps: Deps, principal: Principal, id: string) {
  return requireThreeSixty(deps.db, principal, id);
}

/** Brand administrators list every program of the organisation; other users their own. */
export async function listThreeSixties(deps: Deps, principal: Principal, page: Page) {
  const rows = await store.listThreeSixties(deps.db, principal, page);
  return isBrandAdmin(principal) ? rows : rows.filter((row) => row.owner_id === principal.userId);
}

/**
 * Changes a program. A new status emits `threesixty.statusChanged` (and activation queues the mails held
 * while inactive); a new workflow recounts every subject, which may make some Done or Waiting.
 */
export async function updateThreeSixty(
  deps: Deps,
  principal: Principal,
  id: string,
  body: UpdateThreeSixtyBody,
) {
  const found = await requireThreeSixty(deps.db, principal, id);
  const workflow = body.workflow && (await checkedWorkflow(deps.db, found.survey_id, body.workflow));
  const now = deps.clock.now();
  let queued = false;
  await deps.db.transaction().execute(async (trx) => {
    const row = await requireThreeSixty(trx, principal, id);
    const changes = {
      ...(body.name !== undefined ? { name: body.name } : {}),
      ...(body.status !== undefined ? { status: body.status } : {}),
      ...(workflow ? { workflow: toJson(workflow) } : {}),
      ...(body.fromEmail !== undefined ? { from_email: body.fromEmail } : {}),
      ...(body.fromName !== undefined ? { from_name: body.fromName } : {}),
    };
    await store.updateThreeSixty(trx, principal, id, { ...changes, updated_at: now.toISOString() });
    const updated = { ...row, ...changes };
    if (body.status !== undefined && body.status !== row.status) {
      await programStatusChanged(trx, principal, id, body.status, now);
      if (body.status === 'Active') queued = (await releaseHeldMails(trx, principal, id, now)) > 0;
    }
    if (workflow) await recountSubjects(trx, principal, updated, now);
  });
  if (queued) notifyJobQueued();
}

/** Deletes the program with its subjects, evaluators and mails (no event: spec 6 names none). */
export async function deleteThreeSixty(deps: Deps, principal: Principal, id: string): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    await requireThreeSixty(trx, principal, id);
    await store.deleteThreeSixty(trx, principal, id);
  });
}
