/**
 * Piped text, evaluated when a page is drawn (or an embedded field set, or a redirect made), with what the
 * session knows at that point of the flow: `${e://Field/name}` (embedded data as set so far),
 * `${rand://int/a:b}` (seeded per session and place, so a reload shows the same number),
 * `${date://CurrentDate/…}` and `${date://CurrentTime/…}`, `${q://QIDn/…}` (answers given), and
 * `${lm://Field/n}`, `${lm://CurrentLoopNumber}` (loop & merge). Anything else renders empty: it is never
 * printed raw, and the import lists it (surveys/definition/pipes.ts).
 */
import type { LogicFacts } from '../surveys/definition/logic.js';
import { isKnownPipe, replacePipes } from '../surveys/definition/pipes.js';
import { randomFor } from './random.js';
import type { Question } from './survey-model.js';

export interface LoopContext {
  /** 1-based position among the loops presented. */
  number: number;
  /** The loop's merge fields (`${lm://Field/1}` is fields[0]). */
  fields: string[];
}

export interface PipeContext {
  facts: LogicFacts;
  /** The question a `${q://…}` pipe names. */
  question: (id: string) => Question | undefined;
  seed: number;
  /** Where the text is (a question id, a flow element): keys its random numbers. */
  place: string;
  now: Date;
  loop?: LoopContext;
  /** The response's id, once recorded (redirect URLs). */
  responseId?: string;
  /** Encode every piped value (URLs: encodeURIComponent; HTML: escaped). */
  encode?: (value: string) => string;
}

/** Replaces every pipe of `text`; unknown ones become empty. */
export function pipeText(text: string, context: PipeContext): string {
  let count = 0;
  return replacePipes(text, (scheme, path) => {
    const value = pipeValue(scheme, path, context, count++) ?? '';
    return context.encode ? context.encode(value) : value;
  });
}

function pipeValue(scheme: string, path: string, context: PipeContext, index: number): string | undefined {
  if (!isKnownPipe(scheme, path)) return undefined;
  switch (scheme) {
    case 'e': {
      const name = decodeName(path.slice('Field/'.length));
      if (name === 'ResponseID' && context.responseId) return context.responseId;
      return context.facts.embedded(name);
    }
    case 'rand':
      return randomInt(path, context, index);
    case 'date':
      return formatDate(path, context.now);
    case 'q':
      return questionPipe(path, context);
    case 'lm':
      if (!context.loop) return undefined;
      if (path === 'CurrentLoopNumber') return String(context.loop.number);
      return context.loop.fields[Number(path.slice('Field/'.length)) - 1];
  }
  return undefined;
}

function decodeName(name: string): string {
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}

/** `int/a:b`: a whole number from a to b, the same for this session and place on every walk. */
function randomInt(path: string, context: PipeContext, index: number): string {
  const [a = 0, b = 0] = path
    .slice('int/'.length)
    .split(':')
    .map((n) => Number.parseInt(n, 10));
  const low = Math.min(a, b);
  const high = Math.max(a, b);
  const draw = randomFor(context.seed, `rand:${context.place}:${index}`)();
  return String(low + Math.floor(draw * (high - low + 1)));
}

function questionPipe(path: string, context: PipeContext): string | undefined {
  const [qid = '', what = '', arg] = path.split('/');
  const question = context.question(qid);
  if (!question) return undefined;
  const facts = context.facts;
  const text = (id: string) => question.choices.find((c) => c.id === id)?.text ?? id;
  const chosen = facts.chosenChoices(qid);
  switch (what) {
    case 'ChoiceGroup':
      if (arg === 'SelectedChoices') return chosen.map(text).join(', ');
      if (arg === 'SelectedChoicesRecode')
        return chosen.map((id) => facts.recode(qid, id, 'choice')).join(', ');
      if (arg === 'NotSelectedChoices')
        return question.choices
          .filter((c) => !chosen.includes(c.id))
          .map((c) => c.text)
          .join(', ');
      if (arg === 'DisplayedChoices')
        return question.choices
          .filter((c) => facts.isChoiceDisplayed(qid, c.id))
          .map((c) => c.text)
          .join(', ');
      return chosen.map((id) => facts.choiceText(qid, id) ?? '').join(', ');
    case 'SelectedChoicesRecode':
      return chosen.map((id) => facts.recode(qid, id, 'choice')).join(', ');
    case 'ChoiceTextEntryValue':
      return arg === undefined
        ? facts.choiceText(qid)
        : (facts.choiceText(qid, arg) ?? facts.itemValue(qid, arg));
    case 'ChoiceNumericEntryValue':
      return facts.itemValue(qid, arg ?? '');
    case 'QuestionText':
      return question.text.replace(/<[^>]*>/g, '');
  }
  return undefined;
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const two = (n: number) => String(n).padStart(2, '0');

/**
 * `CurrentDate/SL` 07/26/2018, `/FL` Thursday, July 26, 2018, `/DS` 2018-07-26, `/c` ISO 8601;
 * `CurrentTime/ST` 14:05:09, `/TS` 2:05 PM; otherwise a PHP-style format (`m%2Fd%2FY`). In UTC.
 */
export function formatDate(path: string, now: Date): string {
  const format = decodeName(path.slice(path.indexOf('/') + 1));
  const named: Record<string, string> = {
    SL: 'm/d/Y',
    FL: 'l, F j, Y',
    DS: 'Y-m-d',
    ST: 'H:i:s',
    TS: 'g:i A',
  };
  if (format === 'c') return now.toISOString().slice(0, 19).concat('Z');
  const pattern = named[format] ?? format;
  const h = now.getUTCHours();
  const letters: Record<string, () => string> = {
    d: () => two(now.getUTCDate()),
    j: () => String(now.getUTCDate()),
    m: () => two(now.getUTCMonth() + 1),
    n: () => String(now.getUTCMonth() + 1),
    Y: () => String(now.getUTCFullYear()),
    y: () => two(now.getUTCFullYear() % 100),
    F: () => MONTHS[now.getUTCMonth()] ?? '',
    M: () => (MONTHS[now.getUTCMonth()] ?? '').slice(0, 3),
    l: () => DAYS[now.getUTCDay()] ?? '',
    D: () => (DAYS[now.getUTCDay()] ?? '').slice(0, 3),
    H: () => two(h),
    G: () => String(h),
    g: () => String(h % 12 || 12),
    h: () => two(h % 12 || 12),
    i: () => two(now.getUTCMinutes()),
    s: () => two(now.getUTCSeconds()),
    A: () => (h < 12 ? 'AM' : 'PM'),
    a: () => (h < 12 ? 'am' : 'pm'),
  };
  return [...pattern].map((c) => letters[c]?.() ?? c).join('');
}
