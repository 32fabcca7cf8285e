/**
 * One record of an import file → what the responses module records: the inverse of the export's cells
 * (exports/formats/cells.ts). Choice and scale texts (a useLabels export) become recodes again, `True`
 * and `IP Address` become 1 and 0, dates are read in the zone of header row 3 (csv2013: UTC), decimals
 * may use a comma. Answers are then checked by the responses module's own rule (checkAnswer), as the API checks them.
 */
import { unstorableText } from '../../db/storable-text.js';
import { ApiError } from '../../http/errors.js';
import { LEGACY_DEFAULTS } from '../exports/formats/metadata-columns.js';
import { checkAnswer } from '../responses/check-answer.js';
import type { CompletedResponseInput } from '../responses/record-response.js';
import {
  type AnswerValue,
  RESPONSE_EVENT_CONTEXT,
  RESPONSE_EVENT_CONTEXT_MAX,
  STATUS_LABELS,
  type Survey,
} from '../surveys/definition/response-values.js';
import type { ImportColumn } from './import-columns.js';
import { choiceIdFor, readDate, recodeForText, type TextMode } from './import-values.js';

export type RowInput = Omit<CompletedResponseInput, 'surveyId' | 'now'>;

export type DecodedRow = { input: RowInput; responseId?: string } | { reason: string };

/** A response id the import may keep (COMPAT.md "Identifiers"). */
const RESPONSE_ID = /^R_[A-Za-z0-9]{15}$/;
const STATUS_CODES = new Map(Object.entries(STATUS_LABELS).map(([code, label]) => [label, Number(code)]));
/** Status 4 "Imported" when the file has no Status column (docs/exports.md "Response imports"). */
const IMPORTED = 4;

class CellError extends Error {}

/** A cell as a reason quotes it: in quotes, cut at 60 characters (a reason is read, not a copy of the row). */
const shown = (cell: string) =>
  JSON.stringify([...cell].length > 60 ? `${[...cell].slice(0, 60).join('')}…` : cell);

export interface DecodeOptions {
  decimalSeparator: '.' | ',';
}

function numberOf(text: string, name: string, options: DecodeOptions): number {
  const normal = options.decimalSeparator === ',' ? text.replace(',', '.') : text;
  const n = Number(normal.trim());
  if (normal.trim() === '' || !Number.isFinite(n))
    throw new CellError(`${name}: ${shown(text)} is not a number`);
  return n;
}

function integerIn(text: string, name: string, min: number, max: number): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new CellError(`${name}: ${shown(text)} is not an integer from ${min} to ${max}`);
  return n;
}

function statusOf(text: string): number {
  const code = STATUS_CODES.get(text);
  return code ?? integerIn(text, 'Status', 0, 64);
}

function finishedOf(text: string): boolean {
  if (['1', 'True', 'true', 'TRUE'].includes(text)) return true;
  if (['0', 'False', 'false', 'FALSE'].includes(text)) return false;
  throw new CellError(`Finished: ${shown(text)} is not True, False, 1 or 0`);
}

/** A row of a useLabels export writes Status and Finished as texts: its answers are then texts first. */
function textModeOf(cells: string[], columns: readonly ImportColumn[]): TextMode {
  for (const { index, column } of columns) {
    const cell = cells[index] ?? '';
    if (column.key === 'status' && cell !== '' && !/^\d+$/.test(cell)) return 'labels';
    if (column.key === 'finished' && /^(true|false)$/i.test(cell)) return 'labels';
  }
  return 'recodes';
}

/** The row's values kept beside the answers, made when the first one is. */
function extraOf(input: RowInput): Record<string, AnswerValue> {
  input.extraMetadata ??= {};
  return input.extraMetadata;
}

function setMetadata(input: RowInput, key: string, cell: string, ic: ImportColumn, options: DecodeOptions) {
  const name = ic.column.name;
  switch (key) {
    case 'startDate':
    case 'endDate':
    case 'recordedDate': {
      const date = readDate(cell, ic.zone ?? ic.timeZone ?? 'Z');
      if (!date) throw new CellError(`${name}: ${shown(cell)} is not a date (YYYY-MM-DD HH:MM:SS)`);
      input[key] = date;
      return;
    }
    case 'status':
      input.status = statusOf(cell);
      return;
    case 'progress':
      input.progress = integerIn(cell, name, 0, 100);
      return;
    case 'duration':
      input.duration = Math.round(numberOf(cell, name, options));
      return;
    case 'finished':
      input.finished = finishedOf(cell);
      return;
    case 'ipAddress':
    case 'userLanguage':
    case 'distributionChannel':
      input[key] = cell;
      return;
    case 'responseSet':
    case 'recipientName':
      // csv2013's fillers for "none": the export writes them again. Other texts are kept (default below).
      if (cell === LEGACY_DEFAULTS[key]) return;
      extraOf(input)[key] = cell;
      return;
    case 'locationLatitude':
    case 'locationLongitude':
    case 'locationAccuracy':
      extraOf(input)[key] = numberOf(cell, name, options);
      return;
    default:
      // Recipient names and e-mail, ExternalReference: kept as written.
      extraOf(input)[key] = cell;
  }
}

function answerOf(survey: Survey, ic: ImportColumn, cell: string, mode: TextMode, options: DecodeOptions) {
  const key = survey.keys.get(ic.column.key);
  if (!key || key.kind === 'npsGroup') return undefined; // derived from the NPS answer
  const question = survey.questions.get(key.questionId);
  if (!question) return undefined;
  let value: unknown = cell;
  if (key.kind === 'number') value = numberOf(cell, ic.column.name, options);
  else if (key.kind !== 'text') value = recodeForText(question, key, cell, mode) ?? cell;
  try {
    return checkAnswer(survey, key, value, `column ${ic.column.name}`);
  } catch (error) {
    if (error instanceof ApiError) throw new CellError(error.message.replace(/^Invalid request: /, ''));
    throw error;
  }
}

/**
 * A column with no value key of its own: a display order (`QID6_DO_1`, the position choice 1 was shown
 * at, kept as given beside the answers, where the export reads it), or a multi-answer question exported
 * without breakout (`QID4`: the chosen choices joined by `,`).
 */
function derivedCell(
  survey: Survey,
  ic: ImportColumn,
  cell: string,
  mode: TextMode,
  input: RowInput,
  answers: Record<string, AnswerValue>,
) {
  const { key, name } = ic.column;
  if (/_A?DO_[^_]+$/.test(key)) {
    extraOf(input)[key] = integerIn(cell, name, 1, 100_000);
    return;
  }
  const question = survey.questions.get(key);
  if (!question) return;
  for (const part of cell.split(',')) {
    const id = choiceIdFor(question, question.ChoiceOrder, question.Choices, part, mode);
    if (id === undefined) throw new CellError(`${name}: ${shown(part)} is not one of the question’s choices`);
    answers[`${key}_${id}`] = 1;
  }
}

/**
 * Decodes one record of a file whose header has `width` columns; a cell that cannot be read or stored
 * (a NUL character), or a record of another width, makes the whole row fail with the reason.
 */
export function decodeRow(
  survey: Survey,
  columns: readonly ImportColumn[],
  width: number,
  cells: string[],
  options: DecodeOptions,
): DecodedRow {
  if (cells.length !== width)
    return { reason: `The row has ${cells.length} fields; the header has ${width}.` };
  const mode = textModeOf(cells, columns);
  const answers: Record<string, AnswerValue> = {};
  const embedded: Record<string, string> = {};
  const input: RowInput = { answers, embeddedData: embedded, status: IMPORTED };
  let responseId: string | undefined;
  try {
    for (const ic of columns) {
      const cell = cells[ic.index] ?? '';
      const { kind, key } = ic.column;
      const unstorable = unstorableText(cell);
      if (unstorable !== undefined) throw new CellError(`${ic.column.name} ${unstorable}`);
      if (kind === 'metadata') {
        if (key === '_recordId') responseId = RESPONSE_ID.test(cell) ? cell : undefined;
        else if (cell !== '' || key === 'distributionChannel') setMetadata(input, key, cell, ic, options);
      } else if (cell !== '' && kind === 'embedded') {
        embedded[key] = cell;
      } else if (cell !== '' && !survey.keys.has(key)) {
        derivedCell(survey, ic, cell, mode, input, answers);
      } else if (cell !== '') {
        const answer = answerOf(survey, ic, cell, mode, options);
        if (answer !== undefined) answers[key] = answer;
      }
    }
  } catch (error) {
    if (error instanceof CellError) return { reason: `${error.message}.` };
    throw error;
  }
  const context = embedded[RESPONSE_EVENT_CONTEXT];
  if (context !== undefined && [...context].length > RESPONSE_EVENT_CONTEXT_MAX)
    return { reason: `${RESPONSE_EVENT_CONTEXT} is longer than ${RESPONSE_EVENT_CONTEXT_MAX} characters.` };
  return responseId ? { input, responseId } : { input };
}
