import { regionText } from './map-regions.js';
import { scaleOwnerOf } from './matrix-scales.js';
import { type QsfQuestion, recodeOf } from './qsf.js';
import { codedNumberLabels, npsGroup, plainText, type ValueKey } from './value-keys.js';

export type AnswerValue = string | number;

/** Spec 6 and 8: ResponseEventContext is at most 50 characters. */
export const RESPONSE_EVENT_CONTEXT_MAX = 50;
export const RESPONSE_EVENT_CONTEXT = 'ResponseEventContext';

/** Status codes of a response and their labels, as the real exports write them. */
export const STATUS_LABELS: Record<number, string> = {
  0: 'IP Address',
  1: 'Survey Preview',
  2: 'Survey Test',
  4: 'Imported',
  8: 'Spam',
  9: 'Survey Preview Spam',
  12: 'Imported Spam',
  16: 'Offline',
  17: 'Offline Survey Preview',
};

/** Metadata value keys of a response (COMPAT.md "Responses"); everything else not a question key is embedded data. */
export const METADATA_KEYS = [
  'startDate',
  'endDate',
  'status',
  'ipAddress',
  'progress',
  'duration',
  'finished',
  'recordedDate',
  '_recordId',
  'locationLatitude',
  'locationLongitude',
  'distributionChannel',
  'userLanguage',
] as const;
const METADATA = new Set<string>(METADATA_KEYS);
export const isMetadataKey = (key: string) => METADATA.has(key);
/** A key that names a question's value (QID…), so it must be one the survey produces. */
export const isQuestionKey = (key: string) => /^QID\d+([#_]|$)/.test(key);

export interface Survey {
  keys: ReadonlyMap<string, ValueKey>;
  questions: ReadonlyMap<string, QsfQuestion>;
}

/** Choice ids whose recode is `value` (a recode may be a number or a string in a request). */
function choiceWithRecode(question: QsfQuestion, ids: string[], value: AnswerValue): string | undefined {
  return ids.find((id) => recodeOf(question, id) === String(value));
}

/** The (sub-)question whose scale points a key's value is one of (matrix-scales.ts). */
const scaleOwner = scaleOwnerOf;

/** An answer in its stored form (undefined: nothing to store), or why it cannot be taken. */
export type StoredAnswer = { value: AnswerValue | undefined } | { problem: string };

/**
 * One answer against its key's kind, in its stored form. Choices and scale points are given by their
 * recode; `selected` keys take 1 (0 means not chosen and is dropped); numbers may come as numeric strings.
 */
export function storedAnswer(survey: Survey, key: ValueKey, value: unknown): StoredAnswer {
  const question = survey.questions.get(key.questionId) as QsfQuestion;
  if (value === null || value === undefined || value === '') return { value: undefined };
  if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean')
    return { problem: 'must be a string or a number' };
  switch (key.kind) {
    case 'choice':
      if (choiceWithRecode(question, question.ChoiceOrder, value as AnswerValue) === undefined)
        return { problem: 'must be the recode of one of the question’s choices' };
      return { value: numberIfNumeric(String(value)) };
    case 'scale': {
      const owner = scaleOwner(question, key);
      if (choiceWithRecode(owner, owner.AnswerOrder, value as AnswerValue) === undefined)
        return { problem: 'must be the recode of one of the question’s scale points' };
      return { value: numberIfNumeric(String(value)) };
    }
    case 'selected':
      if (value === 1 || value === '1' || value === true) return { value: 1 };
      if (value === 0 || value === '0' || value === false) return { value: undefined };
      return { problem: 'must be 1 (chosen) or 0' };
    case 'number': {
      const n = Number(value);
      return typeof value === 'boolean' || !Number.isFinite(n)
        ? { problem: 'must be a number' }
        : { value: n };
    }
    case 'npsGroup':
      return { value: undefined }; // derived from the NPS answer, never taken from the caller
    default:
      return typeof value === 'string' ? { value } : { problem: 'must be a string' };
  }
}

const numberIfNumeric = (value: string): AnswerValue =>
  /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value;

/** Adds the derived keys (the NPS group beside each NPS answer). */
export function withDerivedAnswers(survey: Survey, answers: Record<string, AnswerValue>) {
  const out = { ...answers };
  for (const key of survey.keys.values()) {
    if (key.kind !== 'npsGroup') continue;
    const score = answers[key.questionId];
    if (score === undefined) delete out[key.key];
    else out[key.key] = npsGroup(Number(score)).value;
  }
  return out;
}

/** `labels`: the same keys mapped to the texts a person reads (choice and scale point texts, "True", …). */
export function labelsOf(survey: Survey, values: Record<string, unknown>): Record<string, string> {
  const labels: Record<string, string> = {};
  // for…in, not Object.entries: the same keys in the same order, without an array per key (a response import labels 100,000s).
  for (const name in values) {
    const value = values[name];
    const key = survey.keys.get(name);
    if (!key) {
      if (name === 'status') labels[name] = STATUS_LABELS[Number(value)] ?? String(value);
      else if (name === 'finished') labels[name] = value === 1 || value === true ? 'True' : 'False';
      continue;
    }
    labels[name] = labelOf(survey, key, value);
  }
  return labels;
}

/** A choice's text in labels: its variable naming when the author set one, as the real exports write it. */
function choiceLabel(question: QsfQuestion, id: string | undefined, fallback: string): string {
  const naming = (question.VariableNaming as Record<string, unknown> | undefined)?.[id ?? ''];
  return plainText(typeof naming === 'string' ? naming : (question.Choices[id ?? '']?.Display ?? fallback));
}

function labelOf(survey: Survey, key: ValueKey, value: unknown): string {
  const question = survey.questions.get(key.questionId) as QsfQuestion;
  switch (key.kind) {
    case 'choice': {
      const id = choiceWithRecode(question, question.ChoiceOrder, value as AnswerValue);
      return choiceLabel(question, id, String(value));
    }
    case 'scale': {
      const owner = scaleOwner(question, key);
      const id = choiceWithRecode(owner, owner.AnswerOrder, value as AnswerValue);
      return plainText(owner.Answers[id ?? '']?.Display ?? String(value));
    }
    case 'selected': {
      if (key.answerId !== undefined) {
        const owner = scaleOwner(question, key);
        return plainText(owner.Answers[key.answerId]?.Display ?? key.answerId);
      }
      if (question.QuestionType === 'HeatMap')
        return plainText(regionText(question, key.choiceId) ?? String(value));
      return choiceLabel(question, key.choiceId, String(value));
    }
    case 'npsGroup':
      return NPS_GROUP_LABELS[Number(value)] ?? String(value);
    case 'number':
      return codedNumberLabels(question, key)?.find((c) => c.value === Number(value))?.label ?? String(value);
    default:
      return String(value);
  }
}

const NPS_GROUP_LABELS: Record<number, string> = { 1: 'Detractor', 2: 'Passive', 3: 'Promoter' };

/** displayedValues: for each choice-like key present, the values it could have taken. */
export function displayedValuesOf(survey: Survey, answerKeys: string[]): Record<string, AnswerValue[]> {
  const out: Record<string, AnswerValue[]> = {};
  for (const name of answerKeys) {
    const key = survey.keys.get(name);
    if (!key) continue;
    const question = survey.questions.get(key.questionId) as QsfQuestion;
    if (key.kind === 'choice')
      out[name] = question.ChoiceOrder.map((id) => numberIfNumeric(recodeOf(question, id)));
    if (key.kind === 'scale') {
      const owner = scaleOwner(question, key);
      out[name] = owner.AnswerOrder.map((id) => numberIfNumeric(recodeOf(owner, id)));
    }
    if (key.kind === 'selected') out[name] = [1];
  }
  return out;
}
