/**
 * The column layout of a survey's export, from its definition: the fixed metadata columns, one column per
 * value key (in survey order, named by the question's export tag), then the embedded data fields of the
 * flow. csv2013 wraps the same question columns in its V1..V10 and location columns.
 */
import {
  embeddedFieldsOf,
  type QsfDocument,
  type QsfQuestion,
  questionsOf,
  recodeOf,
} from '../surveys/qsf.js';
import { npsGroup, plainText, type ValueKey, valueKeysOfSurvey } from '../surveys/value-keys.js';
import type { ExportColumn, ExportFormat, ExportLayout, ValueLabel } from './formats/export-layout.js';
import { currentMetadataColumns, legacyColumns } from './formats/metadata-columns.js';

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
  const owner = key.column ? (question.AdditionalQuestions?.[key.column] ?? question) : question;
  switch (key.kind) {
    case 'choice':
      return numericLabels(question, question.ChoiceOrder, question.Choices);
    case 'scale':
      return numericLabels(owner, owner.AnswerOrder, owner.Answers);
    case 'selected': {
      const text =
        key.answerId !== undefined
          ? owner.Answers[key.answerId]?.Display
          : question.Choices[key.choiceId ?? '']?.Display;
      return [{ value: 1, label: plainText(text ?? '1') }];
    }
    case 'npsGroup':
      return [1, 5, 9].map((score) => ({ value: npsGroup(score).value, label: npsGroup(score).label }));
    default:
      return undefined;
  }
}

/** One question column: `QID2_1` of a question tagged `Q2` is named `Q2_1`. */
export function questionColumn(question: QsfQuestion, key: ValueKey): ExportColumn {
  const suffix = key.key.slice(question.QuestionID.length);
  const tag = question.DataExportTag || question.QuestionID;
  // The real files give a multi-answer choice the question's ImportId and the choice id.
  const importId =
    key.kind === 'selected' && key.answerId === undefined && key.column === undefined
      ? { ImportId: question.QuestionID, choiceId: key.choiceId as string }
      : { ImportId: key.key };
  const numeric = key.kind !== 'text';
  const valueLabels = valueLabelsOf(question, key);
  return {
    key: key.key,
    name: `${tag}${suffix}`,
    text: key.description,
    importId,
    kind: 'question',
    type: numeric ? 'numeric' : 'string',
    ...(valueLabels && valueLabels.length > 0 ? { valueLabels } : {}),
    ...(numeric ? { decimals: key.kind === 'number' ? 2 : 0 } : {}),
  };
}

export function questionColumns(doc: QsfDocument): ExportColumn[] {
  const byId = new Map(questionsOf(doc).map((q) => [q.QuestionID, q]));
  return valueKeysOfSurvey(doc).flatMap((key) => {
    const question = byId.get(key.questionId);
    return question ? [questionColumn(question, key)] : [];
  });
}

export function embeddedColumns(doc: QsfDocument): ExportColumn[] {
  return embeddedFieldsOf(doc).map((field) => ({
    key: field.Field,
    name: field.Field,
    text: field.Field,
    importId: { ImportId: field.Field },
    kind: 'embedded',
    type: 'string',
  }));
}

/** The layout of an export of the survey in `format`. */
export function exportLayout(doc: QsfDocument, format: ExportFormat): ExportLayout {
  const questions = questionColumns(doc);
  const embedded = embeddedColumns(doc);
  if (format === 'csv2013') return { columns: legacyColumns([...questions, ...embedded]) };
  return { columns: [...currentMetadataColumns(), ...questions, ...embedded] };
}
