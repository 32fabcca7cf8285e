/**
 * Parts of the engine's picture of a QSF definition read from options (survey-model.ts): how the survey
 * ends, a block's question randomisation, a question's default answers.
 */
import type { BlockRandomization, Ending, QuestionKind } from './survey-model.js';

// biome-ignore lint/suspicious/noExplicitAny: QSF payloads are loosely shaped JSON
type Json = any;

const str = (value: unknown, fallback = ''): string =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : fallback;
const num = (value: unknown, fallback: number): number => {
  const n = typeof value === 'number' ? value : Number.parseFloat(str(value));
  return Number.isFinite(n) ? n : fallback;
};
const truthy = (value: unknown): boolean =>
  value === true || value === 'true' || value === 1 || value === '1';
/** Objects keyed by id or plain lists, both as [key, value] pairs (keys of lists count from 1). */
function entries(value: Json): [string, Json][] {
  if (Array.isArray(value)) return value.map((v, i) => [String(i + 1), v]);
  if (value && typeof value === 'object') return Object.entries(value);
  return [];
}

/**
 * `SurveyTermination`: `DefaultMessage`, `DisplayMessage` (an `EOSMessage`: a library message id `MS_...`
 * or the text itself) or `Redirect` (`EOSRedirectURL`); `ResponseFlag: Screened` marks a screen-out.
 */
export function toEnding(options: Json): Ending {
  const termination = str(options?.SurveyTermination);
  const text = str(options?.EOSMessage).trim();
  const url = str(options?.EOSRedirectURL).trim();
  const screened = /^screen/i.test(str(options?.ResponseFlag));
  const shows = termination === 'DisplayMessage' || (termination === '' && text !== '');
  if (termination === 'Redirect' && /^https?:\/\/[^/\s]+/i.test(url)) return { redirect: url, screened };
  if (shows && /^MS_[A-Za-z0-9]+$/.test(text)) return { messageId: text, screened };
  if (shows && text) return { message: text, screened };
  return { screened };
}

export const hasOwnEnding = (options: Json): boolean =>
  Boolean(
    options &&
      (truthy(options.Advanced) ||
        options.SurveyTermination ||
        options.EOSMessage ||
        options.EOSRedirectURL ||
        options.ResponseFlag),
  );

const ids = (value: Json): string[] => (Array.isArray(value) ? value.map((v) => str(v)).filter(Boolean) : []);

export function toBlockRandomization(kind: string, settings: Json): BlockRandomization | undefined {
  const advanced = settings.Advanced;
  const perPage = num(advanced?.QuestionsPerPage ?? settings.QuestionsPerPage, 0);
  switch (kind) {
    case 'true':
    case 'RandomWithXPerPage':
      return { perPage };
    case 'RandomWithOnlyX':
      return {
        perPage,
        subset: num(settings.TotalRandSubset, 0),
        ...(truthy(settings.EvenPresentation) ? { even: true } : {}),
      };
    case 'Advanced':
      if (!advanced || typeof advanced !== 'object') return { perPage };
      return {
        perPage,
        advanced: {
          fixed: ids(advanced.FixedOrder),
          random: ids(advanced.RandomizeAll),
          subsetOf: ids(advanced.RandomSubSet),
          subsetCount: num(advanced.TotalRandSubset, 0),
          hidden: ids(advanced.Undisplayed),
        },
      };
    default:
      return undefined;
  }
}

/**
 * `DefaultChoices`: `{TEXT: {Text}}` for a text entry, `{<choice>: {Selected: true}}` for choices,
 * `{<choice>: {Text}}` for a form field, a slider or a choice's text box. As the page's form fields.
 */
export function toDefaults(id: string, kind: QuestionKind, raw: Json): Record<string, string[]> | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const out: Record<string, string[]> = {};
  const itemFields = kind === 'form' || kind === 'slider';
  for (const [key, value] of entries(raw)) {
    const text = typeof value === 'string' ? value : str(value?.Text);
    if (key === 'TEXT') {
      if (text) out[`${id}_TEXT`] = [text];
      continue;
    }
    if (value === true || truthy(value?.Selected)) {
      const chosen = out[id] ?? [];
      if (kind !== 'mc-single' && kind !== 'dropdown' && kind !== 'nps') chosen.push(key);
      else if (chosen.length === 0) chosen.push(key);
      out[id] = chosen;
    }
    if (text && typeof value === 'object') out[itemFields ? `${id}_${key}` : `${id}_${key}_TEXT`] = [text];
  }
  return Object.keys(out).length > 0 ? out : undefined;
}
