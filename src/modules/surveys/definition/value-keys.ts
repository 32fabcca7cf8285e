import { resolvedQuestionsOf } from './carry-forward.js';
import { mapRegionsOf } from './map-regions.js';
import { isNumberMatrix } from './matrix-scales.js';
import { groupKey, groupsOf, rankKey } from './pick-group-rank.js';
import { blocksOf, type QsfDocument, type QsfQuestion } from './qsf.js';
import { isMultiAnswer, isTextMatrix } from './question-types.js';

/**
 * What a value under a key holds:
 * - `choice`: the recode of the one chosen choice (MC single answer); its label is the choice text.
 * - `selected`: 1 when that choice (or matrix cell) was chosen; absent otherwise; its label is the choice text.
 * - `scale`: the recode of the chosen scale point of one matrix row (or side-by-side cell); label: the scale point text.
 * - `text`: typed text; the label is the text itself.
 * - `number`: a number (slider position, rank, seconds, click count); the label is the number.
 * - `npsGroup`: 1 Detractor, 2 Passive, 3 Promoter, derived from the NPS answer.
 */
export type ValueKeyKind = 'choice' | 'selected' | 'scale' | 'text' | 'number' | 'npsGroup';

export interface ValueKey {
  key: string;
  questionId: string;
  kind: ValueKeyKind;
  /** The MC choice, matrix row, slider statement or rank item the key is about. */
  choiceId?: string;
  /** The matrix scale point (multi-answer matrix cells). */
  answerId?: string;
  /** The side-by-side column ("1", "2", …). */
  column?: string;
  /** The pick-group-rank group ("0", "1", …: its index in `Groups`). */
  group?: string;
  /** Human description, as an export's second header row would read. */
  description: string;
}

const TIMING_KEYS = ['FIRST_CLICK', 'LAST_CLICK', 'PAGE_SUBMIT', 'CLICK_COUNT'] as const;
const META_KEYS = ['BROWSER', 'VERSION', 'OS', 'RESOLUTION'] as const;
const FILE_KEYS = [
  ['FILE_ID', 'text'],
  ['FILE_NAME', 'text'],
  ['FILE_SIZE', 'number'],
  ['FILE_TYPE', 'text'],
] as const;

// A block tag separates words; an inline one (`<b>most</b>?`) sits inside a word or before punctuation.
const BLOCK_TAG = /<\/?(?:br|p|div|li|ul|ol|tr|td|th|table|h[1-6]|hr)\b[^>]*>/gi;

/** Strips markup from question and choice texts for descriptions. */
export function plainText(html: string): string {
  return html
    .replace(BLOCK_TAG, ' ')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * The value keys one question produces, in export column order, named as the real platform's exports name
 * them by ImportId (../shared/fixtures/exports/README.md): `QID1` single answer, `QID1_3_TEXT` a choice's
 * text, `QID4_2` choice 2 of a multi-answer question, `QID2_TEXT` text entry, `QID10_1` form field,
 * `QID6_1` matrix row, `QID5_1_2` multi-answer matrix cell, `QID8#1_1` side-by-side, `QID13_1` rank,
 * `QID14_FIRST_CLICK` timing, `QID15_BROWSER` meta info, `QID3_NPS_GROUP` before `QID3`. Descriptive
 * text produces none. The engine writes answers under these keys; the response API accepts only these
 * (plus metadata and embedded data); exports use them as columns.
 */
export function valueKeysOf(question: QsfQuestion): ValueKey[] {
  const qid = question.QuestionID;
  const title = plainText(question.QuestionText) || question.DataExportTag;
  const choiceText = (id: string) => plainText(question.Choices[id]?.Display ?? id);
  const key = (suffix: string, kind: ValueKeyKind, extra: Partial<ValueKey> = {}): ValueKey => ({
    key: `${qid}${suffix}`,
    questionId: qid,
    kind,
    description: title,
    ...extra,
  });
  const textKeys = () =>
    question.ChoiceOrder.filter((id) => question.Choices[id]?.TextEntry).map((id) =>
      key(`_${id}_TEXT`, 'text', { choiceId: id, description: `${title} - ${choiceText(id)} - Text` }),
    );
  const perChoice = (kind: ValueKeyKind) =>
    question.ChoiceOrder.map((id) =>
      key(`_${id}`, kind, { choiceId: id, description: `${title} - ${choiceText(id)}` }),
    );

  switch (question.QuestionType) {
    case 'DB':
      return [];
    case 'MC':
      if (isMultiAnswer(question)) return [...perChoice('selected'), ...textKeys()];
      return [
        ...(question.Selector === 'NPS'
          ? [key('_NPS_GROUP', 'npsGroup', { description: `${title} - Group` })]
          : []),
        key('', 'choice'),
        ...textKeys(),
      ];
    case 'TE':
      return question.Selector === 'FORM' ? perChoice('text') : [key('_TEXT', 'text')];
    case 'Matrix':
      return [...matrixKeys(question, key, choiceText), ...textKeys()];
    case 'Slider':
    case 'CS':
      return perChoice('number');
    case 'RO':
      return [...perChoice('number'), ...textKeys()];
    case 'PGR':
      return [...pickGroupRankKeys(question, title, choiceText), ...textKeys()];
    case 'SBS':
      return sideBySideKeys(question, title, choiceText);
    case 'Timing':
      return TIMING_KEYS.map((suffix) =>
        key(`_${suffix}`, 'number', { description: `${title} - ${suffix}` }),
      );
    case 'FileUpload':
    case 'Draw':
      // A file or a signature: the stored file's id, name, size in bytes and media type.
      return FILE_KEYS.map(([suffix, kind]) =>
        key(`_${suffix}`, kind, { description: `${title} - ${suffix}` }),
      );
    case 'HeatMap':
    case 'HotSpot': {
      // Heat map: the click in image pixels, then 1 for the region it fell in; hot spot: each region 1
      // (on) or 2 (off). Our reading: no real export we have holds either (map-regions.ts).
      const regions = mapRegionsOf(question);
      const perRegion = (kind: ValueKeyKind) =>
        regions.map((r) =>
          key(`_${r.id}`, kind, { choiceId: r.id, description: `${title} - ${plainText(r.text)}` }),
        );
      if (question.QuestionType === 'HotSpot') return perRegion('number');
      return [
        key('_1_x', 'number', { description: `${title} - Click 1 - x` }),
        key('_1_y', 'number', { description: `${title} - Click 1 - y` }),
        ...perRegion('selected'),
      ];
    }
    case 'Meta':
      return META_KEYS.map((suffix) => key(`_${suffix}`, 'text', { description: `${title} - ${suffix}` }));
    default:
      // Types the engine does not run: one text key per choice, or one for the question.
      return question.ChoiceOrder.length > 0 ? perChoice('text') : [key('_TEXT', 'text')];
  }
}

function matrixKeys(
  question: QsfQuestion,
  key: (suffix: string, kind: ValueKeyKind, extra?: Partial<ValueKey>) => ValueKey,
  choiceText: (id: string) => string,
): ValueKey[] {
  if (isTextMatrix(question)) return textMatrixKeys(question, choiceText, key);
  // Constant sum and rank order matrices: a number per row and column (matrix-scales.ts).
  if (isNumberMatrix(question)) return textMatrixKeys(question, choiceText, key, 'number');
  if (!isMultiAnswer(question)) {
    return question.ChoiceOrder.map((row) =>
      key(`_${row}`, 'scale', { choiceId: row, description: choiceText(row) }),
    );
  }
  return question.ChoiceOrder.flatMap((row) =>
    question.AnswerOrder.map((answer) =>
      key(`_${row}_${answer}`, 'selected', {
        choiceId: row,
        answerId: answer,
        description: `${choiceText(row)} - ${plainText(question.Answers[answer]?.Display ?? answer)}`,
      }),
    ),
  );
}

/** Matrix text entry: one text per row and column, `QID1_<row>_<column>` (side-by-side: `QID8#2_<row>_<column>`). */
function textMatrixKeys(
  question: QsfQuestion,
  choiceText: (id: string) => string,
  key: (suffix: string, kind: ValueKeyKind, extra?: Partial<ValueKey>) => ValueKey,
  kind: ValueKeyKind = 'text',
): ValueKey[] {
  return question.ChoiceOrder.flatMap((row) =>
    question.AnswerOrder.map((answer) =>
      key(`_${row}_${answer}`, kind, {
        choiceId: row,
        answerId: answer,
        description: `${choiceText(row)} - ${plainText(question.Answers[answer]?.Display ?? answer)}`,
      }),
    ),
  );
}

/** Pick, group and rank: item-in-group keys (1 when the item is in the group), then ranks within groups. */
function pickGroupRankKeys(question: QsfQuestion, title: string, choiceText: (id: string) => string) {
  const qid = question.QuestionID;
  const groups = groupsOf(question).map((name, i) => ({ name, group: String(i) }));
  const each = (kind: ValueKeyKind, keyOf: typeof groupKey, word: string) =>
    groups.flatMap(({ name, group }) =>
      question.ChoiceOrder.map(
        (id): ValueKey => ({
          key: keyOf(qid, group, id),
          questionId: qid,
          kind,
          choiceId: id,
          group,
          description: `${title} - ${name}${word} - ${choiceText(id)}`,
        }),
      ),
    );
  return [...each('selected', groupKey, ''), ...each('number', rankKey, ' - Rank')];
}

function sideBySideKeys(
  question: QsfQuestion,
  title: string,
  choiceText: (id: string) => string,
): ValueKey[] {
  const columns = Object.entries(question.AdditionalQuestions ?? {});
  return columns.flatMap(([column, sub]) =>
    question.ChoiceOrder.flatMap((row): ValueKey[] => {
      const base = { questionId: question.QuestionID, choiceId: row, column };
      const description = `${title} - ${plainText(sub.QuestionText)} - ${choiceText(row)}`;
      if (isTextMatrix(sub)) {
        return sub.AnswerOrder.map((answer) => ({
          ...base,
          key: `${question.QuestionID}#${column}_${row}_${answer}`,
          kind: 'text' as const,
          answerId: answer,
          description: `${description} - ${plainText(sub.Answers[answer]?.Display ?? answer)}`,
        }));
      }
      if (sub.SubSelector !== 'MultipleAnswer') {
        return [{ ...base, key: `${question.QuestionID}#${column}_${row}`, kind: 'scale', description }];
      }
      return sub.AnswerOrder.map((answer) => ({
        ...base,
        key: `${question.QuestionID}#${column}_${row}_${answer}`,
        kind: 'selected' as const,
        answerId: answer,
        description: `${description} - ${plainText(sub.Answers[answer]?.Display ?? answer)}`,
      }));
    }),
  );
}

/**
 * Questions in survey order: the blocks' order (the trash block last), then questions in no block.
 * This is the order of a survey's value keys and of an export's columns.
 */
export function questionsInSurveyOrder(doc: QsfDocument): QsfQuestion[] {
  const byId = new Map(resolvedQuestionsOf(doc).map((q) => [q.QuestionID, q]));
  const ordered: QsfQuestion[] = [];
  const blocks = [...blocksOf(doc)].sort((a, b) => Number(a.Type === 'Trash') - Number(b.Type === 'Trash'));
  for (const block of blocks) {
    for (const element of block.BlockElements) {
      const question = element.QuestionID ? byId.get(element.QuestionID) : undefined;
      if (question && !ordered.includes(question)) ordered.push(question);
    }
  }
  for (const question of byId.values()) if (!ordered.includes(question)) ordered.push(question);
  return ordered;
}

/** Every value key of the survey, in survey order. */
export function valueKeysOfSurvey(doc: QsfDocument): ValueKey[] {
  return questionsInSurveyOrder(doc).flatMap(valueKeysOf);
}

/** The key → ValueKey index of a survey, for validating and labelling response values. */
export function valueKeyIndex(doc: QsfDocument): Map<string, ValueKey> {
  return new Map(valueKeysOfSurvey(doc).map((k) => [k.key, k]));
}

/**
 * The texts of the numbers a key records when they are codes, not amounts: a hot spot region 1 On / 2 Off,
 * or 1 Like / 2 Dislike (`Selector: LikeDislike`), as the engine records them (engine/answers-map.ts; our
 * reading: no real export we have holds a hot spot). Undefined for every other key.
 */
export function codedNumberLabels(
  question: QsfQuestion,
  key: ValueKey,
): Array<{ value: number; label: string }> | undefined {
  if (question.QuestionType !== 'HotSpot' || key.kind !== 'number') return undefined;
  const [on, off] = question.Selector === 'LikeDislike' ? ['Like', 'Dislike'] : ['On', 'Off'];
  return [
    { value: 1, label: on },
    { value: 2, label: off },
  ];
}

/** Spec-free NPS grouping as the real exports write it: 0–6 Detractor (1), 7–8 Passive (2), 9–10 Promoter (3). */
export function npsGroup(score: number): { value: number; label: string } {
  if (score <= 6) return { value: 1, label: 'Detractor' };
  if (score <= 8) return { value: 2, label: 'Passive' };
  return { value: 3, label: 'Promoter' };
}
