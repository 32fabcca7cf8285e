/**
 * What the 360's pages do (pages.routes.ts): open a nominated evaluator's evaluation, start an unsolicited
 * one from a subject's open link, let a subject nominate evaluators, show a report. Every link is looked
 * up by its token's hash; a removed nomination, a deleted subject or an unknown token is simply not found.
 */
import type { Deps } from '../../deps.js';
import { ApiError } from '../../http/errors.js';
import { newId } from '../../http/ids.js';
import { sameHash } from '../../secret-hash.js';
import { loadRunnableSurvey, type RunnableSurvey } from '../engine/engine-survey.js';
import { renewSessionKey, type SessionKey, type Visitor } from '../engine/sessions.service.js';
import { StartedElsewhere, startSession } from './evaluations.service.js';
import * as evaluators from './evaluators.store.js';
import { tokenHashOf } from './links.js';
import { subjectReport } from './report.service.js';
import { nominate } from './subjects.service.js';
import type { NominationBody } from './threesixties.schemas.js';
import {
  findSubject,
  findSubjectByToken,
  findThreeSixty,
  type SubjectRow,
  type ThreeSixtyRow,
} from './threesixties.store.js';
import { unsolicitedRelationships, type Workflow, workflowOf } from './workflow.js';

export type Opened =
  | { kind: 'invalid' }
  /** The program is inactive, or its survey does not take responses now. */
  | { kind: 'closed' }
  | { kind: 'finished' }
  | { kind: 'session'; surveyId: string; key: SessionKey };

interface Target {
  program: ThreeSixtyRow;
  subject: SubjectRow;
  workflow: Workflow;
}

/** The runnable survey of an active program, or why there is none. */
async function runOf(deps: Deps, program: ThreeSixtyRow): Promise<RunnableSurvey | Opened> {
  if (program.status !== 'Active') return { kind: 'closed' };
  const run = await loadRunnableSurvey(deps.db, program.survey_id, deps.clock.now());
  if (!run) return { kind: 'invalid' };
  return run.availability === 'open' ? run : { kind: 'closed' };
}

/** A nominated evaluator's link: starts the evaluation, or continues it. */
export async function openEvaluation(deps: Deps, token: string, visitor: Visitor): Promise<Opened> {
  const hash = tokenHashOf(token);
  const evaluator = hash === undefined ? undefined : await evaluators.findEvaluatorByToken(deps.db, hash);
  if (!hash || !evaluator?.token_hash || !sameHash(evaluator.token_hash, hash)) return { kind: 'invalid' };
  const scope = { organizationId: evaluator.organization_id };
  const program = await findThreeSixty(deps.db, scope, evaluator.threesixty_id);
  const subject = program && (await findSubject(deps.db, scope, program.id, evaluator.subject_id));
  if (!program || !subject) return { kind: 'invalid' };
  return begin(deps, program, subject, evaluator, visitor);
}

async function begin(
  deps: Deps,
  program: ThreeSixtyRow,
  subject: SubjectRow,
  evaluator: evaluators.EvaluatorRow,
  visitor: Visitor,
): Promise<Opened> {
  if (evaluator.status === 'Finished') return { kind: 'finished' };
  const run = await runOf(deps, program);
  if (!('taking' in run)) return run;
  const surveyId = run.taking.surveyId;
  if (evaluator.session_id === null) {
    try {
      const key = await deps.db
        .transaction()
        .execute((trx) => startSession(deps, trx, run, subject, evaluator, visitor));
      return { kind: 'session', surveyId, key };
    } catch (error) {
      if (!(error instanceof StartedElsewhere)) throw error;
    }
  }
  const scope = { organizationId: evaluator.organization_id };
  const current = await evaluators.findEvaluator(deps.db, scope, subject.id, evaluator.id);
  if (!current?.session_id) return { kind: 'invalid' };
  if (current.status === 'Finished') return { kind: 'finished' };
  const key = await renewSessionKey(deps, {
    id: current.session_id,
    organization_id: current.organization_id,
  });
  return { kind: 'session', surveyId, key };
}

/** The subject behind a subject link of this kind, with its active program. */
async function subjectTarget(
  deps: Deps,
  column: 'open_token_hash' | 'nominate_token_hash' | 'report_token_hash',
  token: string,
): Promise<Target | undefined> {
  const hash = tokenHashOf(token);
  const subject = hash === undefined ? undefined : await findSubjectByToken(deps.db, column, hash);
  const stored = subject?.[column];
  if (!hash || !subject || !stored || !sameHash(stored, hash)) return undefined;
  const program = await findThreeSixty(
    deps.db,
    { organizationId: subject.organization_id },
    subject.threesixty_id,
  );
  return program && { program, subject, workflow: workflowOf(program) };
}

/** A subject's open link: the form an unsolicited evaluator fills in first, when the workflow takes them. */
export async function openLinkTarget(
  deps: Deps,
  token: string,
): Promise<Target | { kind: 'invalid' | 'closed' }> {
  const target = await subjectTarget(deps, 'open_token_hash', token);
  if (!target) return { kind: 'invalid' };
  if (!target.workflow.allowUnsolicited || target.program.status !== 'Active') return { kind: 'closed' };
  return target;
}

export interface UnsolicitedForm {
  firstName: string;
  lastName: string;
  email: string;
  relationship: string;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** What is wrong with a form's name and e-mail address, or undefined. */
export function personProblem(form: Omit<UnsolicitedForm, 'relationship'>): string | undefined {
  if (!EMAIL.test(form.email) || form.email.length > 254) return 'Please enter an e-mail address.';
  if (form.firstName.length > 100 || form.lastName.length > 100) return 'Please shorten the name.';
  return undefined;
}

/** What is wrong with the open link's form, or undefined. */
export function formProblem(form: UnsolicitedForm, workflow: Workflow): string | undefined {
  const person = personProblem(form);
  if (person) return person;
  if (!(unsolicitedRelationships(workflow) as string[]).includes(form.relationship))
    return 'Please choose your relationship.';
  return undefined;
}

/**
 * Starts (or continues) an unsolicited evaluation from the open link: one evaluator per e-mail address
 * and subject; an address that was nominated is sent to its own invitation.
 */
export async function startUnsolicited(
  deps: Deps,
  target: Target,
  form: UnsolicitedForm,
  visitor: Visitor,
): Promise<Opened | { kind: 'nominated' }> {
  const { program, subject } = target;
  const scope = { organizationId: subject.organization_id };
  const same = (await evaluators.listEvaluators(deps.db, scope, subject.id)).find(
    (e) => e.email.toLowerCase() === form.email.toLowerCase(),
  );
  if (same?.nominated === 1) return { kind: 'nominated' };
  const now = deps.clock.now().toISOString();
  const evaluator: evaluators.EvaluatorRow = same ?? {
    id: newId('TSE'),
    organization_id: subject.organization_id,
    threesixty_id: program.id,
    subject_id: subject.id,
    email: form.email,
    first_name: form.firstName,
    last_name: form.lastName,
    relationship: form.relationship,
    nominated: 0,
    token_hash: null,
    status: 'Nominated',
    session_id: null,
    response_id: null,
    created_at: now,
    started_at: null,
    finished_at: null,
  };
  if (!same) await evaluators.insertEvaluator(deps.db, evaluator);
  return begin(deps, program, subject, evaluator, visitor);
}

/** A subject's nomination page, where the workflow lets subjects nominate and the program is active. */
export async function nominationTarget(deps: Deps, token: string) {
  const target = await subjectTarget(deps, 'nominate_token_hash', token);
  if (!target) return { kind: 'invalid' as const };
  if (!target.workflow.subjectsNominate || target.program.status !== 'Active')
    return { kind: 'closed' as const };
  const scope = { organizationId: target.subject.organization_id };
  const nominated = (await evaluators.listEvaluators(deps.db, scope, target.subject.id)).filter(
    (e) => e.nominated === 1,
  );
  return { kind: 'page' as const, ...target, nominated };
}

/** A nomination from the page: undefined when made, else the message to show. */
export async function nominateFromPage(deps: Deps, target: Target, body: NominationBody) {
  try {
    await nominate(
      deps,
      { organizationId: target.subject.organization_id },
      target.program,
      target.subject.id,
      body,
    );
    return undefined;
  } catch (error) {
    if (error instanceof ApiError && error.status < 500)
      return error.message.replace(/^Invalid request: /, '');
    throw error;
  }
}

/** The report behind a ReportURL, or undefined. */
export async function reportByToken(deps: Deps, token: string) {
  const target = await subjectTarget(deps, 'report_token_hash', token);
  if (!target) return undefined;
  return subjectReport(
    deps,
    { organizationId: target.subject.organization_id },
    target.program,
    target.subject,
  );
}
