/**
 * The subject's report, for the API (`GET …/subjects/{subjectId}/report`) and the page at its ReportURL:
 * the survey's scored items (single-answer choices and matrix rows by their recodes, sliders by their
 * positions), the counted finished evaluations' responses (read through the responses module), and
 * report.ts's arithmetic.
 */
import { fromJson } from '../../db/json.js';
import type { Scope } from '../../db/scope.js';
import type { Deps } from '../../deps.js';
import type { Principal } from '../../http/principal.js';
import { streamResponsesForExport } from '../responses/export-reads.service.js';
import { blocksOf, type QsfDocument } from '../surveys/definition/qsf.js';
import { valueKeysOfSurvey } from '../surveys/definition/value-keys.js';
import { loadSurveyForTaking } from '../surveys/survey-taking.service.js';
import { listEvaluators } from './evaluators.store.js';
import { buildReport, type RatedEvaluation, type Report, type ReportItem } from './report.js';
import { getSubject } from './subjects.service.js';
import type { SubjectRow, ThreeSixtyRow } from './threesixties.store.js';
import { counts, type Workflow, workflowOf } from './workflow.js';

export interface SubjectReport extends Report {
  threeSixtyId: string;
  subjectId: string;
  firstName: string;
  lastName: string;
  status: string;
  /** Whether the subject is Done (the report was announced by `threesixty.reportReady`). */
  ready: boolean;
}

/** The items a report scores, each with its competency (the workflow's, else the question's block). */
export function reportItems(doc: QsfDocument, workflow: Workflow): ReportItem[] {
  const competencyOf = new Map<string, string>();
  if (workflow.competencies.length > 0) {
    for (const c of workflow.competencies)
      for (const id of c.questionIds) if (!competencyOf.has(id)) competencyOf.set(id, c.name);
  } else {
    for (const block of blocksOf(doc).filter((b) => b.Type !== 'Trash'))
      for (const element of block.BlockElements)
        if (element.QuestionID) competencyOf.set(element.QuestionID, block.Description || block.ID);
  }
  const sliders = new Set(
    doc.SurveyElements.filter(
      (e) => e.Element === 'SQ' && (e.Payload as { QuestionType?: string }).QuestionType === 'Slider',
    ).map((e) => (e.Payload as { QuestionID: string }).QuestionID),
  );
  return valueKeysOfSurvey(doc)
    .filter(
      (k) => k.kind === 'choice' || k.kind === 'scale' || (k.kind === 'number' && sliders.has(k.questionId)),
    )
    .map((k) => ({
      key: k.key,
      questionId: k.questionId,
      text: k.description,
      competency: competencyOf.get(k.questionId) ?? null,
    }));
}

export async function subjectReport(deps: Deps, scope: Scope, program: ThreeSixtyRow, subject: SubjectRow) {
  const workflow = workflowOf(program);
  const survey = await loadSurveyForTaking(deps.db, program.survey_id);
  const finished = (await listEvaluators(deps.db, scope, subject.id)).filter(
    (e) => e.status === 'Finished' && e.response_id !== null && counts(workflow, e),
  );
  const values = new Map<string, Record<string, unknown>>();
  if (survey && finished.length > 0) {
    const filter = { surveyId: program.survey_id, responseIds: finished.map((e) => e.response_id as string) };
    const parts = { labels: false, displayedFields: false, displayedValues: false };
    for await (const row of streamResponsesForExport(deps.db, scope, filter, 500, parts))
      values.set(row.id, fromJson<Record<string, unknown>>(row.values));
  }
  const evaluations: RatedEvaluation[] = finished.flatMap((e) => {
    const answers = values.get(e.response_id as string);
    return answers ? [{ relationship: e.relationship, values: answers }] : [];
  });
  const report = buildReport({
    anonymityThreshold: workflow.anonymityThreshold,
    relationships: workflow.relationships.map((r) => r.name),
    items: survey ? reportItems(survey.definition, workflow) : [],
    evaluations,
  });
  const result: SubjectReport = {
    threeSixtyId: program.id,
    subjectId: subject.id,
    firstName: subject.first_name,
    lastName: subject.last_name,
    status: subject.status,
    ready: subject.status === 'Done',
    ...report,
  };
  return result;
}

/** `GET /v3/threesixties/{id}/subjects/{subjectId}/report`. */
export async function getReport(deps: Deps, principal: Principal, threeSixtyId: string, subjectId: string) {
  const { program, subject } = await getSubject(deps, principal, threeSixtyId, subjectId);
  return subjectReport(deps, principal, program, subject);
}
