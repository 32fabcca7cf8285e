/**
 * The people a 360 evaluates (subjects) and the evaluators nominated for each. A nomination records
 * `threesixty.nominationCreated` with its evaluation link and queues the invitation e-mail, in one
 * transaction; removing it records `threesixty.nominationRemoved`, and its link stops working at once
 * (the row that held the link's hash is gone).
 */
import type { Page } from '../../db/page.js';
import type { Scope } from '../../db/scope.js';
import type { Deps, Queryable } from '../../deps.js';
import { ApiError } from '../../http/errors.js';
import { newId } from '../../http/ids.js';
import type { Principal } from '../../http/principal.js';
import { notifyJobQueued } from '../../jobs/jobs.service.js';
import { eventTime, lockSubject, recountSubject, type Trx } from './evaluations.service.js';
import * as evaluators from './evaluators.store.js';
import { linkUrl, newLinkToken } from './links.js';
import { queueMail } from './mails.js';
import type { CreateSubjectBody, NominationBody } from './threesixties.schemas.js';
import { requireThreeSixty } from './threesixties.service.js';
import * as store from './threesixties.store.js';
import { nominationCreated, nominationRemoved } from './threesixty-events.js';
import { workflowOf } from './workflow.js';

export function subjectNotFound(id: string): ApiError {
  return ApiError.of('FW_360_2', `Subject ${id} not found.`);
}

export function nominationNotFound(id: string): ApiError {
  return ApiError.of('FW_360_3', `Nomination ${id} not found.`);
}

async function requireSubject(db: Queryable, principal: Principal, threeSixtyId: string, subjectId: string) {
  const program = await requireThreeSixty(db, principal, threeSixtyId);
  const subject = await store.findSubject(db, principal, threeSixtyId, subjectId);
  if (!subject) throw subjectNotFound(subjectId);
  return { program, subject };
}

/** The subject as it is once its lock is held (its status may have moved meanwhile). */
async function lockedSubject(trx: Trx, scope: Scope, program: store.ThreeSixtyRow, subjectId: string) {
  await lockSubject(trx, subjectId);
  const subject = await store.findSubject(trx, scope, program.id, subjectId);
  if (!subject) throw subjectNotFound(subjectId);
  return subject;
}

/**
 * Adds a subject; where subjects nominate their own evaluators, e-mails them the nomination page's link.
 * Answers the id and the subject's open evaluation link (for unsolicited evaluations, when the workflow
 * takes them).
 */
export async function createSubject(
  deps: Deps,
  principal: Principal,
  threeSixtyId: string,
  body: CreateSubjectBody,
) {
  const id = newId('TSP');
  const open = newLinkToken();
  let queued = false;
  let openEvaluationUrl = '';
  await deps.db.transaction().execute(async (trx) => {
    const program = await requireThreeSixty(trx, principal, threeSixtyId);
    const nominate = workflowOf(program).subjectsNominate ? newLinkToken() : undefined;
    const now = deps.clock.now().toISOString();
    await store.insertSubject(trx, {
      id,
      organization_id: principal.organizationId,
      threesixty_id: threeSixtyId,
      first_name: body.firstName,
      last_name: body.lastName,
      email: body.email,
      status: 'Waiting',
      open_token_hash: open.hash,
      nominate_token_hash: nominate?.hash ?? null,
      report_token_hash: null,
      report_ready_at: null,
      created_at: now,
      updated_at: now,
    });
    openEvaluationUrl = linkUrl(program.link_base_url, 'open', open.token);
    if (!nominate) return;
    await queueMail(deps, trx, principal, program, {
      subjectId: id,
      evaluatorId: null,
      kind: 'nominate',
      toEmail: body.email,
      toName: `${body.firstName} ${body.lastName}`.trim(),
      link: linkUrl(program.link_base_url, 'nominate', nominate.token),
    });
    queued = program.status === 'Active';
  });
  if (queued) notifyJobQueued();
  return { id, openEvaluationUrl };
}

export async function listSubjects(deps: Deps, principal: Principal, threeSixtyId: string, page: Page) {
  await requireThreeSixty(deps.db, principal, threeSixtyId);
  return store.listSubjects(deps.db, principal, threeSixtyId, page);
}

export async function getSubject(deps: Deps, principal: Principal, threeSixtyId: string, subjectId: string) {
  return requireSubject(deps.db, principal, threeSixtyId, subjectId);
}

/** Deletes the subject with its evaluators (each nomination's removal is an event) and mails. */
export async function deleteSubject(
  deps: Deps,
  principal: Principal,
  threeSixtyId: string,
  subjectId: string,
) {
  await deps.db.transaction().execute(async (trx) => {
    const { program } = await requireSubject(trx, principal, threeSixtyId, subjectId);
    await lockedSubject(trx, principal, program, subjectId);
    const now = deps.clock.now();
    const rows = await evaluators.listEvaluators(trx, principal, subjectId);
    for (const [i, row] of rows.filter((e) => e.nominated === 1).entries())
      await nominationRemoved(trx, principal, row, eventTime(now, i));
    await store.deleteSubject(trx, principal, subjectId);
  });
}

export async function createNomination(
  deps: Deps,
  principal: Principal,
  threeSixtyId: string,
  subjectId: string,
  body: NominationBody,
) {
  const { program } = await requireSubject(deps.db, principal, threeSixtyId, subjectId);
  return nominate(deps, principal, program, subjectId, body);
}

/**
 * A nomination, by the API or by the subject on the nomination page: the relationship must be the
 * workflow's and below its maximum, and the e-mail address not nominated for the subject yet. Answers
 * the EvaluatorID and the evaluation link.
 */
export async function nominate(
  deps: Deps,
  scope: Scope,
  program: store.ThreeSixtyRow,
  subjectId: string,
  body: NominationBody,
): Promise<{ id: string; evaluationUrl: string }> {
  const rule = workflowOf(program).relationships.find((r) => r.name === body.relationship);
  if (!rule) throw ApiError.invalid('relationship', "is not one of the 360's workflow relationships");
  const id = newId('TSE');
  const link = newLinkToken();
  const evaluationUrl = linkUrl(program.link_base_url, 'evaluate', link.token);
  await deps.db.transaction().execute(async (trx) => {
    await lockedSubject(trx, scope, program, subjectId);
    const nominated = (await evaluators.listEvaluators(trx, scope, subjectId)).filter(
      (e) => e.nominated === 1,
    );
    if (nominated.some((e) => e.email.toLowerCase() === body.email.toLowerCase()))
      throw ApiError.of('FW_360_5', `${body.email} is already nominated for subject ${subjectId}.`);
    if (nominated.filter((e) => e.relationship === rule.name).length >= rule.max)
      throw ApiError.of(
        'FW_360_4',
        `${rule.name} already has ${rule.max} evaluator(s), the most the workflow allows.`,
      );
    const now = deps.clock.now();
    const row: evaluators.EvaluatorRow = {
      id,
      organization_id: scope.organizationId,
      threesixty_id: program.id,
      subject_id: subjectId,
      email: body.email,
      first_name: body.firstName,
      last_name: body.lastName,
      relationship: rule.name,
      nominated: 1,
      token_hash: link.hash,
      status: 'Nominated',
      session_id: null,
      response_id: null,
      created_at: now.toISOString(),
      started_at: null,
      finished_at: null,
    };
    await evaluators.insertEvaluator(trx, row);
    await nominationCreated(trx, scope, row, evaluationUrl, now);
    const toName = `${body.firstName} ${body.lastName}`.trim();
    const mail = { subjectId, evaluatorId: id, kind: 'invitation' as const, toEmail: body.email, toName };
    await queueMail(deps, trx, scope, program, { ...mail, link: evaluationUrl });
  });
  if (program.status === 'Active') notifyJobQueued();
  return { id, evaluationUrl };
}

export async function listNominations(
  deps: Deps,
  principal: Principal,
  threeSixtyId: string,
  subjectId: string,
  page: Page,
) {
  await requireSubject(deps.db, principal, threeSixtyId, subjectId);
  return evaluators.listEvaluators(deps.db, principal, subjectId, page);
}

/**
 * Removes an evaluator: a nomination's link stops working and `threesixty.nominationRemoved` is recorded;
 * a finished evaluation no longer counts, so the subject may become Waiting again.
 */
export async function removeNomination(
  deps: Deps,
  principal: Principal,
  threeSixtyId: string,
  subjectId: string,
  evaluatorId: string,
) {
  await deps.db.transaction().execute(async (trx) => {
    const { program } = await requireSubject(trx, principal, threeSixtyId, subjectId);
    const subject = await lockedSubject(trx, principal, program, subjectId);
    const row = await evaluators.findEvaluator(trx, principal, subjectId, evaluatorId);
    if (!row) throw nominationNotFound(evaluatorId);
    await evaluators.deleteEvaluator(trx, principal, evaluatorId);
    const now = deps.clock.now();
    if (row.nominated === 1) await nominationRemoved(trx, principal, row, now);
    await recountSubject(trx, principal, program, subject, now, 1);
  });
}
