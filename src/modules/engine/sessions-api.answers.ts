/**
 * The sessions API's answers and the engine's form fields, both ways. An API client answers a page as
 * `{QID1: {"2": {selected: true}}, QID2: "text", QID4: {"1": {"2": {selected: true}}}}`; the engine takes
 * the same answers as the browser's form fields (`QID1=2`, `QID2_TEXT=text`, `QID4_1=2`), so the page is
 * read, checked and recorded by one reader (answers.ts), never a second one. Files and signatures come
 * back beside the form (`files`), checked but not stored: the service stores them and hands the engine
 * the stored uploads, as the web layer does for a page.
 */
import { ApiError } from '../../http/errors.js';
import { isObject } from '../surveys/definition/is-object.js';
import type { FormFields, QuestionFields } from './answers.js';
import {
  apiNumberMatrix,
  apiPickGroupRank,
  apiTextMatrix,
  numberMatrixFields,
  pickGroupRankFields,
  textMatrixFields,
} from './sessions-api.matrix-answers.js';
import {
  apiFile,
  apiHeatMap,
  apiHotSpot,
  type GivenFile,
  givenFile,
  heatMapFields,
  hotSpotFields,
} from './sessions-api.media-answers.js';
import type { Question } from './survey-model.js';

export type ApiAnswer = unknown;

/** A page's API answers: the form fields a page would post, and the files given (not stored yet). */
export interface ApiForm {
  form: FormFields;
  files: GivenFile[];
}

const bad = (field: string, problem: string) => ApiError.invalid(field, problem);

/** `{"<id>": {selected: true, text?}}` → the ids selected (and their texts). */
function selections(value: unknown, field: string): Array<{ id: string; text?: string }> {
  if (!isObject(value)) throw bad(field, 'must be an object of choice ids to {"selected": true}');
  const picked: Array<{ id: string; text?: string }> = [];
  for (const [id, mark] of Object.entries(value)) {
    if (mark === true) {
      picked.push({ id });
      continue;
    }
    if (!isObject(mark) || typeof mark.selected !== 'boolean')
      throw bad(`${field}.${id}`, 'must be {"selected": true|false}');
    if (mark.text !== undefined && typeof mark.text !== 'string')
      throw bad(`${field}.${id}.text`, 'must be a string');
    if (mark.selected) picked.push({ id, ...(typeof mark.text === 'string' ? { text: mark.text } : {}) });
  }
  return picked;
}

function scalar(value: unknown, field: string): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  throw bad(field, 'must be a string or a number');
}

function matrixFields(form: FormFields, prefix: string, value: unknown, field: string): void {
  if (!isObject(value)) throw bad(field, 'must be an object of row ids to selected scale points');
  for (const [row, points] of Object.entries(value))
    form[`${prefix}_${row}`] = selections(points, `${field}.${row}`).map((p) => p.id);
}

/** One question's API answer, added to the form the engine reads (a file to the files given). */
function addAnswer({ form, files }: ApiForm, question: Question, value: unknown, field: string): void {
  const id = question.id;
  switch (question.kind) {
    case 'file':
    case 'signature':
      files.push(givenFile(question, value, field));
      return;
    case 'heatmap':
      heatMapFields(form, question, value, field);
      return;
    case 'hotspot':
      hotSpotFields(form, question, value, field);
      return;
    case 'mc-single':
    case 'mc-multi':
    case 'dropdown':
    case 'nps': {
      const picked = selections(value, field);
      form[id] = picked.map((p) => p.id);
      for (const p of picked) if (p.text !== undefined) form[`${id}_${p.id}_TEXT`] = [p.text];
      return;
    }
    case 'text':
    case 'essay':
      form[`${id}_TEXT`] = [scalar(value, field)];
      return;
    case 'form':
    case 'slider':
    case 'rank':
    case 'constant-sum':
      if (!isObject(value)) throw bad(field, 'must be an object of choice ids to values');
      for (const [choice, v] of Object.entries(value))
        form[`${id}_${choice}`] = [scalar(v, `${field}.${choice}`)];
      return;
    case 'matrix-single':
    case 'matrix-multi':
    case 'matrix-profile':
      matrixFields(form, id, value, field);
      return;
    case 'matrix-text':
      textMatrixFields(form, id, value, field);
      return;
    case 'matrix-cs':
    case 'matrix-rank':
      numberMatrixFields(form, id, value, field);
      return;
    case 'pgr':
      pickGroupRankFields(form, question, value, field);
      return;
    case 'sbs':
      if (!isObject(value)) throw bad(field, 'must be an object of column ids to rows');
      for (const [column, rows] of Object.entries(value)) {
        const sub = question.columns.find((c) => c.id === column);
        if (!sub) throw bad(`${field}.${column}`, 'is not a column of this question');
        if (sub.kind === 'matrix-text') textMatrixFields(form, column, rows, `${field}.${column}`);
        else matrixFields(form, column, rows, `${field}.${column}`);
      }
      return;
    default:
      throw bad(field, 'takes no answer');
  }
}

/**
 * The form a page of these questions would post with these API answers. An answer to a question that
 * is not on the page is refused (the browser's form could not carry it either).
 */
export function formOfAnswers(
  onPage: Question[],
  responses: Record<string, unknown>,
  extra: FormFields,
): ApiForm {
  const answers: ApiForm = { form: { ...extra }, files: [] };
  const byId = new Map(onPage.map((q) => [q.id, q]));
  for (const [qid, value] of Object.entries(responses)) {
    const question = byId.get(qid);
    if (!question) throw bad(`responses.${qid}`, "is not a question of the session's current page");
    if (value === null) continue;
    addAnswer(answers, question, value, `responses.${qid}`);
  }
  return answers;
}

const selected = (ids: string[] | undefined) =>
  Object.fromEntries((ids ?? []).map((id) => [id, { selected: true }]));

function matrixOf(prefix: string, rows: string[], fields: QuestionFields): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const row of rows) {
    const picked = fields[`${prefix}_${row}`];
    if (picked?.length) out[row] = selected(picked);
  }
  return out;
}

/** A question's stored fields in the API's answer shape (undefined when unanswered). */
export function apiAnswerOf(question: Question, fields: QuestionFields): ApiAnswer | undefined {
  const id = question.id;
  const rows = question.choices.map((c) => c.id);
  const numeric = question.kind === 'slider' || question.kind === 'rank' || question.kind === 'constant-sum';
  switch (question.kind) {
    case 'mc-single':
    case 'mc-multi':
    case 'dropdown':
    case 'nps': {
      const picked = fields[id];
      if (!picked?.length) return undefined;
      return Object.fromEntries(
        picked.map((c) => {
          const text = fields[`${id}_${c}_TEXT`]?.[0];
          return [c, { selected: true, ...(text === undefined ? {} : { text }) }];
        }),
      );
    }
    case 'text':
    case 'essay':
      return fields[`${id}_TEXT`]?.[0];
    case 'form':
    case 'slider':
    case 'rank':
    case 'constant-sum': {
      const out: Record<string, unknown> = {};
      for (const row of rows) {
        const v = fields[`${id}_${row}`]?.[0];
        if (v !== undefined && v !== '') out[row] = numeric ? Number(v) : v;
      }
      return Object.keys(out).length > 0 ? out : undefined;
    }
    case 'matrix-single':
    case 'matrix-multi':
    case 'matrix-profile': {
      const out = matrixOf(id, rows, fields);
      return Object.keys(out).length > 0 ? out : undefined;
    }
    case 'matrix-text':
      return apiTextMatrix(question, id, fields);
    case 'matrix-cs':
    case 'matrix-rank':
      return apiNumberMatrix(question, fields);
    case 'pgr':
      return apiPickGroupRank(question, fields);
    case 'file':
    case 'signature':
      return apiFile(question, fields);
    case 'heatmap':
      return apiHeatMap(question, fields);
    case 'hotspot':
      return apiHotSpot(question, fields);
    case 'sbs': {
      const out: Record<string, unknown> = {};
      for (const column of question.columns) {
        const m =
          column.kind === 'matrix-text'
            ? (apiTextMatrix(column, column.id, fields) ?? {})
            : matrixOf(column.id, rows, fields);
        if (Object.keys(m).length > 0) out[column.id] = m;
      }
      return Object.keys(out).length > 0 ? out : undefined;
    }
    default:
      return undefined;
  }
}
