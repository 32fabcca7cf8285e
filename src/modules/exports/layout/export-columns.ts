/**
 * The column layout of a survey's export, from its stored definition: the fixed metadata columns (fewer
 * for an anonymized survey), the columns of every question outside the trash in survey order (named as
 * question-columns.ts says; with `includeDisplayOrder` the flow's block randomizers' display orders
 * after them), then the embedded data fields of the flow. csv2013 wraps the same question
 * columns in its V1..V10 and location columns and joins header texts with `-`.
 */

import { loopingBlocks } from '../../surveys/definition/loops.js';
import { regionText } from '../../surveys/definition/map-regions.js';
import { scaleOwnerOf } from '../../surveys/definition/matrix-scales.js';
import {
  embeddedFieldsOf,
  hasScreenOut,
  optionsOf,
  type QsfBlock,
  type QsfDocument,
  type QsfQuestion,
  recodeOf,
  TERMINATE_FLAG,
} from '../../surveys/definition/qsf.js';
import {
  type ColumnOptions,
  columnsOfQuestion,
  exportedQuestions,
  type QuestionColumn,
  questionTitle,
  SELECTED_CHOICE,
} from '../../surveys/definition/question-columns.js';
import { isMultiAnswer } from '../../surveys/definition/question-types.js';
import {
  codedNumberLabels,
  npsGroup,
  plainText,
  type ValueKey,
} from '../../surveys/definition/value-keys.js';
import { isEmptyValue } from '../formats/cells.js';
import type {
  ExportColumn,
  ExportFormat,
  ExportLayout,
  ExportRow,
  ValueLabel,
} from '../formats/export-layout.js';
import { currentMetadataColumns, legacyColumns } from '../formats/metadata-columns.js';
import { blockOrderAfter, blockOrderColumns, blockOrderValues } from './block-display-order.js';
import { flowOrderColumns, flowOrderValues } from './flow-display-order.js';

export type { ColumnOptions } from '../../surveys/definition/question-columns.js';

/** Recode → text pairs whose recode is a number (a string recode cannot be a numeric value label). */
function numericLabels(
  question: QsfQuestion,
  ids: readonly string[],
  texts: Record<string, { Display: string }>,
) {
  const labels: ValueLabel[] = [];
  for (const id of ids) {
    const value = Number(recodeOf(question, id));
    if (Number.isFinite(value)) labels.push({ value, label: plainText(texts[id]?.Display ?? id) });
  }
  return labels;
}

function valueLabelsOf(question: QsfQuestion, key: ValueKey): ValueLabel[] | undefined {
  const owner = scaleOwnerOf(question, key);
  switch (key.kind) {
    case 'choice':
      return numericLabels(question, question.ChoiceOrder, question.Choices);
    case 'scale':
      return numericLabels(owner, owner.AnswerOrder, owner.Answers);
    case 'selected': {
      const text =
        key.answerId !== undefined
          ? owner.Answers[key.answerId]?.Display
          : question.QuestionType === 'HeatMap'
            ? regionText(question, key.choiceId)
            : question.Choices[key.choiceId ?? '']?.Display;
      return [{ value: 1, label: plainText(text ?? '1') }];
    }
    case 'npsGroup':
      return [0, 7, 9].map((score) => ({ value: npsGroup(score).value, label: npsGroup(score).label }));
    case 'number':
      return codedNumberLabels(question, key);
    default:
      return undefined;
  }
}

/**
 * A joined set holds the chosen recodes joined by `,`: at most all of them. Its key is in no stored
 * response, so this bound is its .sav width (string-widths.ts keeps it).
 */
function joinedSetBytes(question: QsfQuestion): number {
  const recodes = question.ChoiceOrder.map((id) => Buffer.byteLength(String(recodeOf(question, id))));
  return recodes.reduce((sum, bytes) => sum + bytes, Math.max(0, recodes.length - 1));
}

/** A choice or scale point recoded to a non-number (`a`, `yes`) is a string variable in the .sav. */
function hasTextRecodes(question: QsfQuestion, key: ValueKey): boolean {
  if (key.kind !== 'choice' && key.kind !== 'scale') return false;
  const owner = scaleOwnerOf(question, key);
  const ids = key.kind === 'choice' ? owner.ChoiceOrder : owner.AnswerOrder;
  return ids.some((id) => !Number.isFinite(Number(recodeOf(owner, id))));
}

/** Types and labels of a column: display orders are positions, a joined set is text. */
function typed(question: QsfQuestion, column: QuestionColumn): Partial<ExportColumn> {
  const key = column.valueKey;
  if (!key)
    return column.derived === 'displayOrder'
      ? { type: 'numeric', decimals: 0 }
      : { type: 'string', maxBytes: joinedSetBytes(question) };
  if (key.kind === 'text' || hasTextRecodes(question, key)) return { type: 'string' };
  const valueLabels = valueLabelsOf(question, key);
  return {
    type: 'numeric',
    ...(valueLabels && valueLabels.length > 0 ? { valueLabels } : {}),
    decimals: key.kind === 'number' && !valueLabels ? 2 : 0,
    // The real .sav labels a multi-answer choice "<question> <choice>" (README "SPSS").
    ...(key.kind === 'selected' &&
    key.answerId === undefined &&
    key.column === undefined &&
    key.group === undefined
      ? { spssLabel: `${questionTitle(question)} ${column.parts.at(-1)}` }
      : {}),
  };
}

function exportColumn(question: QsfQuestion, column: QuestionColumn, legacy: boolean): ExportColumn {
  // csv2013 predates the "Selected Choice" wording and joins with a bare dash.
  const text = legacy
    ? column.parts.filter((p) => p !== SELECTED_CHOICE).join('-')
    : column.parts.join(' - ');
  return {
    key: column.key,
    name: column.name,
    text,
    importId: column.importId,
    kind: 'question',
    type: 'string',
    ...typed(question, column),
  };
}

export function questionColumns(
  doc: QsfDocument,
  options: ColumnOptions = {},
  legacy = false,
): ExportColumn[] {
  const columnsOf = (question: QsfQuestion) =>
    columnsOfQuestion(question, options).map((column) => exportColumn(question, column, legacy));
  // Loop & merge: a looping block's questions once per loop, `<loop>_` before each column, loop by loop.
  const loops = loopingBlocks(doc);
  const loopOf = new Map([...loops.values()].flatMap((l) => l.questionIds.map((id) => [id, l] as const)));
  const questions = exportedQuestions(doc);
  const done = new Set<string>();
  // A randomized block's display order follows its last question (block-display-order.ts).
  const orderAfter = options.includeDisplayOrder
    ? blockOrderAfter(doc, new Set(questions.map((q) => q.QuestionID)))
    : new Map<string, QsfBlock>();
  const withBlockOrder = (question: QsfQuestion): ExportColumn[] => {
    const block = orderAfter.get(question.QuestionID);
    if (!block) return columnsOf(question);
    const ids = new Set(block.BlockElements.map((e) => e.QuestionID));
    const inBlock = questions.filter((q) => ids.has(q.QuestionID));
    return [...columnsOf(question), ...blockOrderColumns(block, inBlock, options)];
  };
  return questions.flatMap((question) => {
    const loop = loopOf.get(question.QuestionID);
    if (!loop) return withBlockOrder(question);
    if (done.has(question.QuestionID)) return [];
    const inLoop = questions.filter((q) => loop.questionIds.includes(q.QuestionID));
    for (const q of inLoop) done.add(q.QuestionID);
    return loop.loopIds.flatMap((loopId) =>
      inLoop.flatMap(columnsOf).map((column) => ({
        ...column,
        key: `${loopId}_${column.key}`,
        name: `${loopId}_${column.name}`,
        importId: { ...column.importId, ImportId: `${loopId}_${column.importId.ImportId}` },
      })),
    );
  });
}

/** The flow's embedded fields, then `Q_TerminateFlag` when an ending screens out (as the real platform). */
export function embeddedColumns(doc: QsfDocument): ExportColumn[] {
  const names = embeddedFieldsOf(doc).map((field) => field.Field);
  if (hasScreenOut(doc) && !names.includes(TERMINATE_FLAG)) names.push(TERMINATE_FLAG);
  return names.map((name) => ({
    key: name,
    name,
    text: name,
    importId: { ImportId: name },
    kind: 'embedded',
    type: 'string',
  }));
}

/** Survey option "Anonymize responses": no IP address, recipient, reference or location (README). */
export function isAnonymized(doc: QsfDocument): boolean {
  const value = optionsOf(doc).AnonymizeResponse;
  return value === true || (typeof value === 'string' && /^(yes|true|1|on)$/i.test(value));
}

/**
 * With `breakoutSets: false`, fills each joined multi-answer column (`QID4`) from the row's per-choice
 * values (`QID4_1`, `QID4_3`): the chosen recodes, and their labels, which the writers join with `,`.
 */
export function joinSets(
  doc: QsfDocument,
  options: ColumnOptions,
): ((row: ExportRow) => ExportRow) | undefined {
  if (options.breakoutSets !== false) return undefined;
  const questions = exportedQuestions(doc).filter((q) => q.QuestionType === 'MC' && isMultiAnswer(q));
  if (questions.length === 0) return undefined;
  return (row) => {
    const values = { ...row.values };
    const labels = { ...row.labels };
    for (const q of questions) {
      if (values[q.QuestionID] !== undefined) continue;
      const chosen = q.ChoiceOrder.filter((id) => !isEmptyValue(row.values[`${q.QuestionID}_${id}`]));
      values[q.QuestionID] = chosen.map((id) => recodeOf(q, id));
      labels[q.QuestionID] = chosen.map((id) => {
        const label = row.labels?.[`${q.QuestionID}_${id}`];
        return typeof label === 'string' ? label : plainText(q.Choices[id]?.Display ?? id);
      });
    }
    return { ...row, values, labels };
  };
}

/**
 * What an export row holds beyond the recorded values: joined multi-answer sets (`breakoutSets: false`)
 * and block and block randomizer display orders (`includeDisplayOrder`); undefined when none applies.
 */
export function derivedValues(
  doc: QsfDocument,
  options: ColumnOptions,
): ((row: ExportRow) => ExportRow) | undefined {
  const questions = new Map(exportedQuestions(doc).map((q) => [q.QuestionID, q]));
  const steps = [
    joinSets(doc, options),
    blockOrderValues(doc, questions, options),
    flowOrderValues(doc, options),
  ].filter((step): step is (row: ExportRow) => ExportRow => step !== undefined);
  if (steps.length === 0) return undefined;
  return (row) => steps.reduce((out, step) => step(out), row);
}

/** The layout of an export of the survey in `format`. */
export function exportLayout(
  doc: QsfDocument,
  format: ExportFormat,
  options: ColumnOptions = {},
): ExportLayout {
  const legacy = format === 'csv2013';
  // A block randomizer's display order: after the question columns (flow-display-order.ts).
  const questions = [...questionColumns(doc, options, legacy), ...flowOrderColumns(doc, options)];
  const embedded = embeddedColumns(doc);
  if (legacy) return { columns: legacyColumns([...questions, ...embedded]) };
  const metadata = currentMetadataColumns({ anonymized: isAnonymized(doc) });
  return { columns: [...metadata, ...questions, ...embedded] };
}

/** The layout options of an export request (the real API's `includeDisplayOrder`, `breakoutSets`). */
export function columnOptionsOf(request: {
  includeDisplayOrder?: boolean;
  breakoutSets?: boolean;
}): ColumnOptions {
  return {
    ...(request.includeDisplayOrder !== undefined
      ? { includeDisplayOrder: request.includeDisplayOrder }
      : {}),
    ...(request.breakoutSets !== undefined ? { breakoutSets: request.breakoutSets } : {}),
  };
}
