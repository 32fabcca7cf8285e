/**
 * How the real platform names and describes the export columns of one question
 * (../shared/fixtures/exports/README.md "Column naming"; checked against a real definition and its real
 * export in test/conformance/export-layout.test.ts). Row 2 is kept in parts, joined with ` - ` in csv and
 * `-` in csv2013. Column keys are the value keys of value-keys.ts (where a row's value is), except the
 * display-order columns (`QID6_DO_1`: the position choice 1 was shown at) and a joined multi-answer
 * column (`QID4`), which have no stored value key.
 */
import { groupsOf } from './pick-group-rank.js';
import { blocksOf, type QsfDocument, type QsfQuestion } from './qsf.js';
import { isMultiAnswer } from './question-types.js';
import { plainText, questionsInSurveyOrder, type ValueKey, valueKeysOf } from './value-keys.js';

/** The third CSV header row, `{"ImportId":"QID36","choiceId":"1"}`; date columns get `timeZone` added. */
export interface ImportId {
  ImportId: string;
  choiceId?: string;
}

export interface ColumnOptions {
  /** `_DO_` / `_ADO_` columns for questions whose choices / answers are randomized (default false). */
  includeDisplayOrder?: boolean;
  /** false: a multi-answer question is one column of its chosen answers joined by `,` (default true). */
  breakoutSets?: boolean;
}

export interface QuestionColumn {
  key: string;
  name: string;
  /** Header row 2 in parts: `[question text, 'Selected Choice', choice text]`. */
  parts: string[];
  importId: ImportId;
  /** The value key the column shows; absent for display-order and joined columns. */
  valueKey?: ValueKey;
  /** A display-order position or a joined set, not a value key's value. */
  derived?: 'displayOrder' | 'joinedSet';
}

/** The word the current layout puts before a choice when the question also takes typed text. */
export const SELECTED_CHOICE = 'Selected Choice';

/** Timing and meta-info keys are written in words: `timing_First Click`, `metainfo_Operating System`. */
const FIXED_NAMES: Readonly<Record<string, string>> = {
  _FIRST_CLICK: 'First Click',
  _LAST_CLICK: 'Last Click',
  _PAGE_SUBMIT: 'Page Submit',
  _CLICK_COUNT: 'Click Count',
  _BROWSER: 'Browser',
  _VERSION: 'Version',
  _OS: 'Operating System',
  _RESOLUTION: 'Resolution',
  // File upload and signature: `Q5_Id`, `Q5_Name`, `Q5_Size`, `Q5_Type`.
  _FILE_ID: 'Id',
  _FILE_NAME: 'Name',
  _FILE_SIZE: 'Size',
  _FILE_TYPE: 'Type',
};

export const questionTitle = (question: QsfQuestion) =>
  plainText(question.QuestionText) || question.DataExportTag;
const tagOf = (question: QsfQuestion) => question.DataExportTag || question.QuestionID;
const textOf = (choices: QsfQuestion['Choices'], id: string) => plainText(choices[id]?.Display ?? id);
const takesText = (question: QsfQuestion) =>
  question.ChoiceOrder.some((id) => question.Choices[id]?.TextEntry);

/** Header row 1: the export tag and the key's suffix, with the few spellings that differ. */
function columnName(question: QsfQuestion, key: ValueKey): string {
  const tag = tagOf(question);
  const suffix = key.key.slice(question.QuestionID.length);
  if (key.column !== undefined) {
    // Side-by-side: the column's own tag (`sidebyside#1`), then the row (and answer).
    const sub = question.AdditionalQuestions?.[key.column];
    const own = sub?.DataExportTag && sub.DataExportTag !== sub.QuestionID ? sub.DataExportTag : undefined;
    return (own ?? `${tag}#${key.column}`) + suffix.slice(`#${key.column}`.length);
  }
  if (suffix === '_TEXT') return tag; // a text entry question is its tag alone (`textentry` ← QID9_TEXT)
  // Pick-group-rank ranks drop the `G` of their ImportId: `Q17_0_1_RANK` ← QID17_G0_1_RANK.
  if (key.group !== undefined && key.kind === 'number') return `${tag}_${key.group}_${key.choiceId}_RANK`;
  const fixed = FIXED_NAMES[suffix];
  return fixed ? `${tag}_${fixed}` : tag + suffix;
}

/** Header row 2, in parts. */
function columnParts(question: QsfQuestion, key: ValueKey): string[] {
  const title = questionTitle(question);
  const fixed = FIXED_NAMES[key.key.slice(question.QuestionID.length)];
  if (fixed) return [title, fixed];
  const row = key.choiceId === undefined ? undefined : textOf(question.Choices, key.choiceId);
  if (key.column !== undefined) {
    const sub = question.AdditionalQuestions?.[key.column];
    const answer = key.answerId === undefined ? [] : [textOf(sub?.Answers ?? {}, key.answerId)];
    return [title, plainText(sub?.QuestionText ?? ''), row ?? '', ...answer];
  }
  if (row === undefined) {
    if (key.kind === 'npsGroup') return [title, 'Group'];
    return key.kind === 'choice' && takesText(question) ? [title, SELECTED_CHOICE] : [title];
  }
  if (key.key.endsWith('_TEXT')) return [title, row, 'Text'];
  if (key.group !== undefined) {
    const group = groupsOf(question)[Number(key.group)] ?? key.group;
    return key.kind === 'number' ? [title, group, 'Rank', row] : [title, group, row];
  }
  if (key.answerId !== undefined) return [title, row, textOf(question.Answers, key.answerId)];
  if (key.kind === 'selected' && takesText(question)) return [title, SELECTED_CHOICE, row];
  return [title, row];
}

/**
 * Header row 3: the key, except that a chosen-or-not cell names its question (or matrix row) and the
 * choice apart, as the real files write it: `{"ImportId":"QID36","choiceId":"1"}`,
 * `{"ImportId":"QID8#2_1","choiceId":"2"}`.
 */
function importIdOf(key: ValueKey): ImportId {
  if (key.kind !== 'selected') return { ImportId: key.key };
  const choiceId = (key.answerId ?? key.choiceId) as string;
  return { ImportId: key.key.slice(0, -(choiceId.length + 1)), choiceId };
}

function valueColumn(question: QsfQuestion, key: ValueKey): QuestionColumn {
  return {
    key: key.key,
    name: columnName(question, key),
    parts: columnParts(question, key),
    importId: importIdOf(key),
    valueKey: key,
  };
}

/** Randomization `{Type: "All"}` (or a subset, or advanced) shuffles; `{Type: "None"}` or none does not. */
function randomized(setting: unknown): boolean {
  const type = (setting as { Type?: unknown } | null | undefined)?.Type;
  return typeof type === 'string' && type !== '' && type !== 'None';
}

/**
 * `_DO_<choice>` (choices, labelled by their variable names when set) and `_ADO_<answer>` (matrix
 * answers) columns of a randomized question, after its other columns (README "Display order").
 */
function displayOrderColumns(question: QsfQuestion): QuestionColumn[] {
  const qid = question.QuestionID;
  const naming = (question.VariableNaming ?? {}) as Record<string, string>;
  const order = (what: 'DO' | 'ADO', ids: string[], label: (id: string) => string): QuestionColumn[] =>
    ids.map((id) => ({
      key: `${qid}_${what}_${id}`,
      name: `${tagOf(question)}_${what}_${id}`,
      parts: [questionTitle(question), what === 'DO' ? 'Display Order' : 'Answer Display Order', label(id)],
      importId: { ImportId: `${qid}_${what}`, choiceId: id },
      derived: 'displayOrder',
    }));
  return [
    ...(randomized(question.Randomization)
      ? order('DO', question.ChoiceOrder, (id) => naming[id] ?? textOf(question.Choices, id))
      : []),
    ...(question.QuestionType === 'Matrix' && randomized(question.AnswerRandomization)
      ? order('ADO', question.AnswerOrder, (id) => textOf(question.Answers, id))
      : []),
  ];
}

/** A multi-answer MC question exported without breakout: one column, like a single-answer one. */
function joinedSetColumn(question: QsfQuestion): QuestionColumn {
  return {
    key: question.QuestionID,
    name: tagOf(question),
    parts: takesText(question) ? [questionTitle(question), SELECTED_CHOICE] : [questionTitle(question)],
    importId: { ImportId: question.QuestionID },
    derived: 'joinedSet',
  };
}

/** Every export column of one question, in the real files' order. */
export function columnsOfQuestion(question: QsfQuestion, options: ColumnOptions = {}): QuestionColumn[] {
  const joined = options.breakoutSets === false && question.QuestionType === 'MC' && isMultiAnswer(question);
  const keys = valueKeysOf(question);
  const columns = joined
    ? [
        joinedSetColumn(question),
        ...keys.filter((k) => k.kind === 'text').map((k) => valueColumn(question, k)),
      ]
    : keys.map((k) => valueColumn(question, k));
  return options.includeDisplayOrder ? [...columns, ...displayOrderColumns(question)] : columns;
}

/** Questions an export shows: those of the survey's blocks, but not of the trash (README: QID3, QID11). */
export function exportedQuestions(doc: QsfDocument): QsfQuestion[] {
  const ids = (trash: boolean) =>
    new Set(
      blocksOf(doc)
        .filter((b) => (b.Type === 'Trash') === trash)
        .flatMap((b) => b.BlockElements.map((e) => e.QuestionID)),
    );
  const placed = ids(false);
  const trashed = ids(true);
  return questionsInSurveyOrder(doc).filter((q) => placed.has(q.QuestionID) || !trashed.has(q.QuestionID));
}
