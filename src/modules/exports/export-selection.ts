/**
 * Column selection of an export (`questionIds`, `embeddedDataIds`, `surveyMetadataIds`): checked against
 * the survey when the export is asked for, then applied as a filter on the layout export-columns.ts built,
 * so the naming of the columns stays in one place and the selection only says which ones stay.
 */
import { ApiError } from '../../http/errors.js';
import { embeddedFieldsOf, type QsfDocument, questionsOf } from '../surveys/definition/qsf.js';
import { METADATA_KEYS } from '../surveys/definition/response-values.js';
import { valueKeysOfSurvey } from '../surveys/definition/value-keys.js';
import type { ExportColumn, ExportLayout } from './formats/export-layout.js';
import { blockOrderQuestions } from './layout/block-display-order.js';

/** The v3 metadata ids a caller may select; they are also the metadata columns' keys. */
export const SURVEY_METADATA_IDS = [
  ...METADATA_KEYS,
  'recipientLastName',
  'recipientFirstName',
  'recipientEmail',
  'externalDataReference',
] as const;

/** csv2013 columns with no id of their own follow the ids they are made of; ResponseSet always stays. */
const DERIVED_METADATA: Readonly<Record<string, readonly string[]>> = {
  recipientName: ['recipientFirstName', 'recipientLastName'],
  locationAccuracy: ['locationLatitude', 'locationLongitude'],
  responseSet: [],
};

/** What the caller selected; an absent list means every column of that kind. */
export interface ColumnSelection {
  questionIds?: string[];
  embeddedDataIds?: string[];
  surveyMetadataIds?: string[];
}

function checkIds(field: string, given: string[] | undefined, known: Iterable<string>): void {
  if (given === undefined) return;
  const allowed = new Set(known);
  const bad = given.find((id) => !allowed.has(id));
  if (bad !== undefined) throw ApiError.invalid(field, `has an unknown id "${bad}"`);
}

/** 400 naming the field and the first id the survey does not have. */
export function checkColumnSelection(doc: QsfDocument, selection: ColumnSelection): ColumnSelection {
  checkIds(
    'questionIds',
    selection.questionIds,
    questionsOf(doc).map((q) => q.QuestionID),
  );
  checkIds(
    'embeddedDataIds',
    selection.embeddedDataIds,
    embeddedFieldsOf(doc).map((f) => f.Field),
  );
  checkIds('surveyMetadataIds', selection.surveyMetadataIds, SURVEY_METADATA_IDS);
  const out: ColumnSelection = {};
  if (selection.questionIds) out.questionIds = [...new Set(selection.questionIds)];
  if (selection.embeddedDataIds) out.embeddedDataIds = [...new Set(selection.embeddedDataIds)];
  if (selection.surveyMetadataIds) out.surveyMetadataIds = [...new Set(selection.surveyMetadataIds)];
  return out;
}

function keepMetadata(key: string, selected: ReadonlySet<string>): boolean {
  const parts = DERIVED_METADATA[key];
  if (parts === undefined) return selected.has(key);
  return parts.length === 0 || parts.some((part) => selected.has(part));
}

/** The layout with only the selected columns, in the layout's own order. */
export function selectColumns(
  layout: ExportLayout,
  doc: QsfDocument,
  selection: ColumnSelection,
): ExportLayout {
  const { questionIds, embeddedDataIds, surveyMetadataIds } = selection;
  if (!questionIds && !embeddedDataIds && !surveyMetadataIds) return layout;
  const questionOfKey = new Map(valueKeysOfSurvey(doc).map((k) => [k.key, k.questionId]));
  const blockOrders = blockOrderQuestions(doc);
  const questions = questionIds && new Set(questionIds);
  const embedded = embeddedDataIds && new Set(embeddedDataIds);
  const metadata = surveyMetadataIds && new Set(surveyMetadataIds);
  // Display-order and joined-set columns are no value keys; their keys still start with the QID, after
  // a loop's id in a loop's columns (`2_QID3_TEXT`, loops.ts).
  const questionOf = (key: string) => questionOfKey.get(key) ?? /^(?:[^_]+_)?(QID\d+)/.exec(key)?.[1] ?? key;
  // A block's display order stays with any of the block's questions.
  const kept = (key: string) =>
    blockOrders.get(key)?.some((id) => questions?.has(id)) ?? questions?.has(questionOf(key));
  const keep = (column: ExportColumn): boolean => {
    if (column.kind === 'question') return !questions || kept(column.key) === true;
    if (column.kind === 'embedded') return !embedded || embedded.has(column.key);
    return !metadata || keepMetadata(column.key, metadata);
  };
  return { ...layout, columns: layout.columns.filter(keep) };
}
