import { groupsOf } from './definition/pick-group-rank.js';
import {
  blocksOf,
  embeddedFieldsOf,
  flowOf,
  optionsOf,
  type QsfChoices,
  type QsfDocument,
  type QsfFlowNode,
  type QsfQuestion,
  quotasOf,
  recodeOf,
} from './definition/qsf.js';
import { columnsOfQuestion, exportedQuestions } from './definition/question-columns.js';
import { isSupportedQuestion } from './definition/question-types.js';
import { valueKeysOf } from './definition/value-keys.js';
import type { SurveyListRow } from './surveys.store.js';

/**
 * Row + normalised QSF → the v3 survey record (COMPAT.md "Surveys"). The spec's and COMPAT's field names
 * live here and in survey-from-v3.ts, its inverse (a JSON body in this shape creates a survey).
 */
export function presentSurvey(
  row: SurveyListRow,
  doc: QsfDocument,
  responseCounts: { auditable: number; generated: number; deleted: number },
) {
  const questions: Record<string, ReturnType<typeof presentQuestion>> = {};
  for (const element of doc.SurveyElements.filter((e) => e.Element === 'SQ')) {
    const question = element.Payload as QsfQuestion;
    questions[question.QuestionID] = presentQuestion(question);
  }
  return {
    ...presentSurveyListElement(row),
    organizationId: row.organization_id,
    lastModifiedDate: row.updated_at,
    expiration: { startDate: row.start_date, endDate: row.end_date },
    questions,
    exportColumnMap: exportColumnMap(doc),
    blocks: presentBlocks(doc),
    flow: flowOf(doc).map(presentFlowNode),
    embeddedData: embeddedFieldsOf(doc).map((f) => ({
      name: f.Field,
      type: f.Type,
      defaultValue: f.Value ?? null,
    })),
    comments: {},
    loopAndMerge: {},
    responseCounts,
    quotas: quotasOf(doc).map((q) => ({
      id: q.ID,
      name: q.Name,
      limit: q.Occurrences,
      condition: q.Logic ?? null,
      action: q.QuotaAction,
    })),
    options: optionsOf(doc),
    language: doc.SurveyEntry.SurveyLanguage,
  };
}

export type SurveyRecord = ReturnType<typeof presentSurvey>;

/** COMPAT.md "Surveys": list element `{id, name, ownerId, lastModified, creationDate, isActive}`. */
export function presentSurveyListElement(row: SurveyListRow) {
  return {
    id: row.id,
    name: row.name,
    ownerId: row.owner_id,
    lastModified: row.updated_at,
    creationDate: row.created_at,
    isActive: row.is_active === 1,
  };
}

function presentChoices(question: QsfQuestion, choices: QsfChoices, recoded: boolean) {
  const out: Record<string, Record<string, unknown>> = {};
  for (const [id, choice] of Object.entries(choices)) {
    out[id] = {
      recode: recoded ? recodeOf(question, id) : id,
      description: choice.Display.replace(/<[^>]*>/g, '').trim(),
      choiceText: choice.Display,
      textEntry: choice.TextEntry,
      exclusive: choice.ExclusiveAnswer,
    };
  }
  return out;
}

function presentQuestion(question: QsfQuestion) {
  const matrix = question.QuestionType === 'Matrix';
  const settings = question.Validation.Settings;
  const base = {
    questionType: {
      type: question.QuestionType,
      selector: question.Selector,
      subSelector: question.SubSelector,
    },
    questionText: question.QuestionText,
    questionDescription: question.QuestionDescription,
    questionName: question.DataExportTag,
    validation: {
      doesForceResponse: settings.ForceResponse === 'ON',
      doesRequestResponse: settings.ForceResponse === 'RequestResponse',
      settings,
    },
    // A matrix's rows are its subQuestions and its scale points its choices, as the real record has them.
    choices: matrix
      ? presentChoices(question, question.Answers, true)
      : presentChoices(question, question.Choices, question.QuestionType === 'MC'),
    choiceOrder: matrix ? question.AnswerOrder : question.ChoiceOrder,
    displayLogic: question.DisplayLogic ?? null,
    configuration: question.Configuration,
    supported: isSupportedQuestion(question),
    valueKeys: valueKeysOf(question).map((k) => k.key),
  };
  const extra: Record<string, unknown> = {};
  if (matrix || question.QuestionType === 'SBS') {
    extra.subQuestions = presentChoices(question, question.Choices, false);
    extra.subQuestionOrder = question.ChoiceOrder;
  }
  // Pick, group and rank: the groups the items go into (its value keys are named by group).
  if (question.QuestionType === 'PGR') extra.groups = groupsOf(question);
  if (question.QuestionType === 'SBS') {
    const columns: Record<string, unknown> = {};
    for (const [column, sub] of Object.entries(question.AdditionalQuestions ?? {})) {
      columns[column] = {
        questionType: { type: sub.QuestionType, selector: sub.Selector, subSelector: sub.SubSelector },
        questionText: sub.QuestionText,
        choices: presentChoices(sub, sub.Answers, true),
        choiceOrder: sub.AnswerOrder,
      };
    }
    extra.columns = columns;
  }
  return { ...base, ...extra };
}

function presentBlocks(doc: QsfDocument) {
  const blocks: Record<string, Record<string, unknown>> = {};
  for (const block of blocksOf(doc)) {
    blocks[block.ID] = {
      description: block.Description,
      type: block.Type,
      elements: block.BlockElements.map((e) =>
        e.Type === 'Question'
          ? { type: 'Question', questionId: e.QuestionID }
          : { type: e.Type.replace(/\s/g, '') },
      ),
    };
  }
  return blocks;
}

export interface FlowNodeRecord {
  type: string;
  id: string;
  flowId: string;
  flow?: FlowNodeRecord[];
  embeddedData?: { name: string; type: string; value: string | null }[];
  /** Everything else the QSF node carries (branch logic, randomizer subset, end-of-survey options). */
  details?: Record<string, unknown>;
}

function presentFlowNode(node: QsfFlowNode): FlowNodeRecord {
  const { Type, ID, FlowID, Flow, EmbeddedData, ...rest } = node;
  const out: FlowNodeRecord = { type: Type, id: ID ?? FlowID, flowId: FlowID };
  if (Flow) out.flow = Flow.map(presentFlowNode);
  if (EmbeddedData)
    out.embeddedData = EmbeddedData.map((f) => ({ name: f.Field, type: f.Type, value: f.Value ?? null }));
  if (Object.keys(rest).length > 0) out.details = rest;
  return out;
}

/**
 * Export column name (the first header row of a csv export, named by the export's own rule) → where its
 * value comes from, in the real record's form: `{question, choice?: "QID2.choices.3", subQuestion?,
 * textEntry?}`.
 */
function exportColumnMap(doc: QsfDocument): Record<string, Record<string, string>> {
  const map: Record<string, Record<string, string>> = {};
  for (const question of exportedQuestions(doc)) {
    const matrix = question.QuestionType === 'Matrix' || question.QuestionType === 'SBS';
    for (const { name, valueKey: key } of columnsOfQuestion(question)) {
      if (!key) continue;
      const entry: Record<string, string> = { question: question.QuestionID };
      if (key.choiceId !== undefined) {
        entry[matrix ? 'subQuestion' : 'choice'] =
          `${question.QuestionID}.${matrix ? 'subQuestions' : 'choices'}.${key.choiceId}`;
      }
      if (key.answerId !== undefined) entry.choice = `${question.QuestionID}.choices.${key.answerId}`;
      if (key.key.endsWith('_TEXT')) entry.textEntry = 'true';
      map[name] = entry;
    }
  }
  return map;
}
