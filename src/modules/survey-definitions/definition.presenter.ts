/**
 * The definitions API's wire records: the survey definition as the real service's JSON
 * (`GET /v3/survey-definitions/{id}`), as a QSF file (`?format=qsf`), its metadata and its versions.
 */

import { isObject } from '../surveys/definition/is-object.js';
import {
  blocksOf,
  optionsOf,
  type QsfDocument,
  type QsfQuestion,
  questionsOf,
} from '../surveys/definition/qsf.js';
import type { SurveyRecord, SurveyVersionListRow } from '../surveys/survey-versions.service.js';
import { flowRoot } from './flow-edits.js';
import type { Json } from './qsf-parts.js';

/** `YYYY-MM-DD HH:MM:SS` in UTC, as QSF files and the metadata call write dates; null when none. */
export const qsfDate = (iso: string | null): string | null =>
  iso ? new Date(iso).toISOString().slice(0, 19).replace('T', ' ') : null;

const payloadsOf = (document: QsfDocument, kind: string) =>
  document.SurveyElements.filter((e) => e.Element === kind).map((e) => e.Payload);
const firstPayload = (document: QsfDocument, kind: string) => payloadsOf(document, kind)[0] ?? null;

/** The whole definition as the real service's JSON: questions keyed by id, blocks by id, flow, options. */
export function presentDefinition(survey: SurveyRecord, document: QsfDocument, baseUrl: string) {
  const questions = questionsOf(document);
  return {
    SurveyID: survey.id,
    SurveyName: survey.name,
    SurveyStatus: survey.is_active === 1 ? 'Active' : 'Inactive',
    OwnerID: survey.owner_id,
    CreatorID: survey.owner_id,
    BrandID: survey.organization_id,
    BrandBaseURL: baseUrl,
    LastModified: survey.updated_at,
    LastAccessed: null,
    LastActivated: null,
    QuestionCount: String(questions.length),
    Questions: Object.fromEntries(questions.map((q) => [q.QuestionID, q])),
    Blocks: Object.fromEntries(blocksOf(document).map((b) => [b.ID, b])),
    SurveyFlow: flowRoot(structuredClone(document)),
    SurveyOptions: optionsOf(document),
    ResponseSets: Object.fromEntries(
      document.SurveyElements.filter((e) => e.Element === 'RS').map((e) => [
        e.PrimaryAttribute ?? '',
        e.Payload,
      ]),
    ),
    Scoring: firstPayload(document, 'SCO'),
    ProjectInfo: firstPayload(document, 'PROJ'),
  };
}

/**
 * The definition as a QSF file, the survey's id and name in it. Written as the real platform writes its
 * files: flags that are off and empty parts the importer fills in again are left out, a choice's text
 * entry is `"true"`; importing it gives the same definition back.
 */
export function presentQsf(survey: SurveyRecord, document: QsfDocument) {
  return {
    SurveyEntry: { ...document.SurveyEntry, SurveyID: survey.id, SurveyName: survey.name },
    SurveyElements: document.SurveyElements.map((element) => ({
      ...element,
      SurveyID: survey.id,
      Payload: element.Element === 'SQ' ? tidyQuestion(element.Payload as QsfQuestion) : element.Payload,
    })),
  };
}

function tidyQuestion(question: QsfQuestion): Json {
  const out: Json = { ...question, Choices: tidyChoices(question.Choices) };
  if (question.SubSelector === null) delete out.SubSelector;
  if (question.DisplayLogic === null) delete out.DisplayLogic;
  for (const part of ['Answers', 'RecodeValues'] as const) {
    if (Object.keys(question[part]).length === 0) delete out[part];
  }
  if (Object.keys(question.Answers).length === 0) delete out.AnswerOrder;
  else out.Answers = tidyChoices(question.Answers);
  if (question.AdditionalQuestions) {
    out.AdditionalQuestions = Object.fromEntries(
      Object.entries(question.AdditionalQuestions).map(([column, sub]) => [column, tidyQuestion(sub)]),
    );
  }
  return out;
}

function tidyChoices(choices: QsfQuestion['Choices']): Json {
  const out: Json = {};
  for (const [id, choice] of Object.entries(choices)) {
    const { TextEntry, ExclusiveAnswer, ...rest } = choice;
    out[id] = {
      ...rest,
      ...(TextEntry ? { TextEntry: 'true' } : {}),
      ...(ExclusiveAnswer ? { ExclusiveAnswer } : {}),
    };
  }
  return out;
}

/** `GET …/metadata`: the survey's metadata, dates as QSF files write them. */
export function presentMetadata(survey: SurveyRecord, document: QsfDocument) {
  const entry = document.SurveyEntry;
  const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);
  return {
    SurveyID: survey.id,
    SurveyName: survey.name,
    SurveyDescription: text(entry.SurveyDescription),
    SurveyOwnerID: survey.owner_id,
    SurveyBrandID: survey.organization_id,
    DivisionID: null,
    SurveyLanguage: entry.SurveyLanguage || 'EN',
    SurveyActiveResponseSet: text(entry.SurveyActiveResponseSet),
    SurveyStatus: survey.is_active === 1 ? 'Active' : 'Inactive',
    SurveyStartDate: qsfDate(survey.start_date),
    SurveyExpirationDate: qsfDate(survey.end_date),
    SurveyCreationDate: qsfDate(survey.created_at),
    CreatorID: survey.owner_id,
    LastModified: qsfDate(survey.updated_at),
    LastAccessed: null,
    LastActivated: null,
    Deleted: null,
  };
}

/** A version record; `published` marks the one live now, `wasPublished` every version that ever was. */
export function presentVersion(row: SurveyVersionListRow, liveEngineVersion: number | null) {
  return {
    versionID: row.id,
    versionNumber: row.version_number,
    description: row.description,
    userID: row.user_id,
    creationDate: row.created_at,
    published: row.engine_version !== null && row.engine_version === liveEngineVersion,
    wasPublished: row.published === 1,
  };
}

/** The quotas of the definition, each as its QSF payload. */
export const presentQuotas = (document: QsfDocument): Json[] => payloadsOf(document, 'QO').filter(isObject);
