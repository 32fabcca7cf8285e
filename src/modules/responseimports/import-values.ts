/**
 * The two cell readings that need the survey or a zone: a choice text back to its recode, and an
 * export date (`YYYY-MM-DD HH:MM:SS` wall-clock time in the file's zone) back to an instant.
 */
import { createDateFormatter, type DateFormatter, toEpochMs } from '../exports/formats/dates.js';
import { scaleOwnerOf } from '../surveys/definition/matrix-scales.js';
import { type QsfQuestion, recodeOf } from '../surveys/definition/qsf.js';
import { plainText, type ValueKey } from '../surveys/definition/value-keys.js';

/** Whether a row's answers are written as texts (a useLabels export) or as recodes. */
export type TextMode = 'labels' | 'recodes';

const WALL_CLOCK = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/;

/** The zone of a date column (`Z` = UTC), made once per column: a zone's formatter holds its offsets. */
export const zoneOf = (timeZone: string): DateFormatter =>
  createDateFormatter(timeZone === 'Z' ? undefined : timeZone);

/**
 * A date cell as an instant. Wall-clock text is read in `timeZone` (`Z` = UTC, or the column's formatter,
 * zoneOf); text with its own zone or offset (ISO 8601) is taken as it says.
 */
export function readDate(text: string, timeZone: string | DateFormatter): Date | undefined {
  const m = WALL_CLOCK.exec(text.trim());
  if (!m) {
    const ms = /[zZ]|[+-]\d{2}:?\d{2}$/.test(text) ? toEpochMs(text) : undefined;
    return ms === undefined ? undefined : new Date(ms);
  }
  const [, y, mo, d, h, mi, s] = m.map(Number) as number[];
  const wall = Date.UTC(y as number, (mo as number) - 1, d, h, mi, s || 0);
  if (Number.isNaN(wall)) return undefined;
  const zone = typeof timeZone === 'string' ? zoneOf(timeZone) : timeZone;
  // The offset at the wall-clock time, then at the instant it gives: right across a DST change too.
  const first = wall - zone.offsetMs(wall);
  return new Date(wall - zone.offsetMs(first));
}

/** The texts a choice may be written as: its display text, and the real platform's variable naming. */
function textsOf(owner: QsfQuestion, choices: QsfQuestion['Choices'], id: string): string[] {
  const naming = (owner.VariableNaming as Record<string, unknown> | undefined)?.[id];
  const display = choices[id]?.Display;
  return [
    ...(display !== undefined ? [plainText(display)] : []),
    ...(typeof naming === 'string' ? [plainText(naming)] : []),
  ];
}

function idByRecode(owner: QsfQuestion, ids: readonly string[], cell: string): string | undefined {
  const recode = cell.trim();
  for (const id of ids) if (recodeOf(owner, id) === recode) return id;
  return undefined;
}

function idByText(
  owner: QsfQuestion,
  ids: readonly string[],
  choices: QsfQuestion['Choices'],
  cell: string,
): string | undefined {
  const text = plainText(cell);
  for (const id of ids) if (textsOf(owner, choices, id).includes(text)) return id;
  return undefined;
}

/**
 * The choice (or scale point) a cell names, by its recode or its text; texts first in a labels row. The
 * second reading is tried only when the first finds nothing (a recodes row rarely needs the texts).
 */
export function choiceIdFor(
  owner: QsfQuestion,
  ids: readonly string[],
  choices: QsfQuestion['Choices'],
  cell: string,
  mode: TextMode,
): string | undefined {
  if (mode === 'labels') return idByText(owner, ids, choices, cell) ?? idByRecode(owner, ids, cell);
  return idByRecode(owner, ids, cell) ?? idByText(owner, ids, choices, cell);
}

function pick(
  owner: QsfQuestion,
  ids: readonly string[],
  choices: QsfQuestion['Choices'],
  cell: string,
  mode: TextMode,
) {
  const id = choiceIdFor(owner, ids, choices, cell, mode);
  return id === undefined ? undefined : recodeOf(owner, id);
}

/**
 * The stored value a choice-like cell stands for: a recode (`choice`, `scale`) or 1/0 (`selected`);
 * undefined when it names nothing, and the caller's check says why.
 */
export function recodeForText(
  question: QsfQuestion,
  key: ValueKey,
  cell: string,
  mode: TextMode,
): string | number | undefined {
  const owner = scaleOwnerOf(question, key);
  switch (key.kind) {
    case 'choice':
      return pick(question, question.ChoiceOrder, question.Choices, cell, mode);
    case 'scale':
      return pick(owner, owner.AnswerOrder, owner.Answers, cell, mode);
    case 'selected': {
      if (cell === '1' || cell === '0') return Number(cell);
      const texts =
        key.answerId !== undefined
          ? textsOf(owner, owner.Answers, key.answerId)
          : textsOf(question, question.Choices, key.choiceId ?? '');
      return texts.includes(plainText(cell)) ? 1 : undefined;
    }
    default:
      return undefined;
  }
}
