import { fromJson } from '../../db/json.js';
import type { Scope } from '../../db/scope.js';
import type { Queryable } from '../../deps.js';
import { type PageParts, pinnedSurvey } from './compiled-survey.js';
import { evaluateLogic } from './definition/logic.js';
import type { QsfDocument, QsfQuestion } from './definition/qsf.js';
import { type QuestionKeys, recordedFacts } from './definition/recorded-facts.js';
import * as store from './surveys.store.js';

/** A survey as the survey-taking engine needs it. */
export interface SurveyForTaking {
  surveyId: string;
  /** The scope to pass to recordCompletedResponse. */
  organizationId: string;
  ownerId: string;
  name: string;
  isActive: boolean;
  /** ISO 8601 UTC with `Z`; null ends are open. */
  expiration: { startDate: string | null; endDate: string | null };
  /**
   * The normalised QSF document (see qsf.ts): `questionsOf`, `blocksOf`, `flowOf`, `optionsOf`,
   * `embeddedFieldsOf` read it; choices are objects keyed by choice id with `ChoiceOrder` string arrays,
   * `TextEntry`/`ExclusiveAnswer` booleans, `SubSelector` null when absent, matrix scale points in
   * `Answers`/`AnswerOrder`, recodes via `recodeOf`. Which questions the engine is expected to run:
   * `isSupportedQuestion` (question-types.ts). Which value keys each question writes: value-keys.ts.
   * One object per survey version on a node, shared by its requests (compiled-survey.ts): never change it;
   * anything built from it alone may be kept beside it (a WeakMap keyed by it lives exactly as long).
   */
  definition: QsfDocument;
  questions: ReadonlyMap<string, QsfQuestion>;
  /** The value keys of `questions`, found on first use and kept with the compiled version (quota facts). */
  questionKeys: QuestionKeys;
  /** The definition has quotas (else fullQuotasMatching reads nothing). */
  hasQuotas: boolean;
  /**
   * Which published definition this is (issue 15): what a new session keeps, and hands back to
   * loadSurveyForTaking on its later pages so it runs the same definition to its end.
   */
  definitionVersion: number;
  /** The published version (`survey_versions.id`) of the definition; null before the first publication. */
  publishedVersionId: string | null;
  /** What the pages need of this definition alone, computed once per version (compiled-survey.ts). */
  pages: PageParts;
}

/**
 * For the survey-taking engine: loads a survey by id alone (a link carries nothing else), or undefined
 * when there is no such survey. Whether it may be taken is `surveyAvailability`'s answer, not this one's.
 * Reads a few short columns; the definition is compiled once per version (decision 0012). With the
 * `definitionVersion` a session started on, it is that published definition (issue 15), under the
 * survey's name now.
 */
export async function loadSurveyForTaking(
  db: Queryable,
  surveyId: string,
  definitionVersion?: number | null,
): Promise<SurveyForTaking | undefined> {
  const row = await store.findSurveyForTaking(db, surveyId);
  if (!row) return undefined;
  const found = await pinnedSurvey(db, row, definitionVersion);
  if (!found) return undefined;
  const { current, pinned } = found;
  return {
    surveyId: row.id,
    organizationId: row.organization_id,
    ownerId: row.owner_id,
    name: current.name,
    isActive: row.is_active === 1,
    expiration: { startDate: row.start_date, endDate: row.end_date },
    definition: pinned.definition,
    questions: pinned.questions,
    questionKeys: pinned.questionKeys,
    hasQuotas: pinned.quotas.length > 0,
    definitionVersion: pinned.definitionVersion,
    publishedVersionId: pinned.publishedVersionId,
    pages: pinned.pages,
  };
}

export type Availability = 'open' | 'inactive' | 'notStarted' | 'expired';

/** Can a respondent take the survey at `now`? Inactive, not yet started and expired surveys show the closed page. */
export function surveyAvailability(
  survey: Pick<SurveyForTaking, 'isActive' | 'expiration'>,
  now: Date,
): Availability {
  if (!survey.isActive) return 'inactive';
  const { startDate, endDate } = survey.expiration;
  if (startDate && now < new Date(startDate)) return 'notStarted';
  if (endDate && now >= new Date(endDate)) return 'expired';
  return 'open';
}

export interface QuotaState {
  id: string;
  name: string;
  limit: number;
  count: number;
  /** The QSF quota Logic; null counts every response. */
  condition: unknown;
  action: string;
}

/** The survey's quotas with their current counts, in definition order. */
export async function quotaStates(db: Queryable, scope: Scope, surveyId: string): Promise<QuotaState[]> {
  const rows = await store.listQuotas(db, scope, surveyId);
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    limit: r.quota_limit,
    count: r.current_count,
    condition: r.logic === null ? null : fromJson(r.logic),
    action: r.action,
  }));
}

/**
 * For the engine ("a full quota ends the survey"): the quotas that are full and whose condition the
 * answers so far (value keys, as recordCompletedResponse takes them) meet. Empty: carry on. `values` is
 * asked for only when the definition has quotas: laying the answers out is work a page of a survey
 * without quotas does not need.
 */
export async function fullQuotasMatching(
  db: Queryable,
  survey: Pick<SurveyForTaking, 'surveyId' | 'organizationId' | 'questions' | 'questionKeys' | 'hasQuotas'>,
  values: () => Record<string, unknown>,
): Promise<QuotaState[]> {
  if (!survey.hasQuotas) return [];
  const quotas = await quotaStates(db, { organizationId: survey.organizationId }, survey.surveyId);
  const facts = recordedFacts(values(), survey.questions, survey.questionKeys);
  return quotas.filter((q) => q.count >= q.limit && evaluateLogic(q.condition, facts));
}
