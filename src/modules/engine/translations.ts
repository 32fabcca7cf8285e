/**
 * A survey's translations (issue 14 part 3). QSF keeps them per question, in the payload's `Language`:
 * `{"DE": {"QuestionText": …, "Choices": {"1": {"Display": …}}, "Answers": …}, "EN-GB": …}`. The engine's
 * model keeps them beside each question (question-model.ts), and a session in another language than the
 * survey's runs the survey as `inLanguage` gives it: the same questions, logic and order, with the texts
 * of that language, each field falling back to the base text when the translation lacks it.
 */
import { normaliseLanguageCode } from './languages.js';
import { entries, type Json, str } from './qsf-reading.js';
import type { Choice, EngineSurvey, Question, QuestionTranslation } from './survey-model.js';

/** A QSF `Language` block as the model keeps it: by language code, only the texts it has. */
export function toTranslations(language: Json): Record<string, QuestionTranslation> | undefined {
  if (!language || typeof language !== 'object' || Array.isArray(language)) return undefined;
  const out: Record<string, QuestionTranslation> = {};
  for (const [code, texts] of Object.entries(language as Record<string, Json>)) {
    if (!texts || typeof texts !== 'object') continue;
    const translation: QuestionTranslation = {};
    const text = str(texts.QuestionText);
    if (text !== '') translation.text = text;
    const choices = displays(texts.Choices);
    if (choices) translation.choices = choices;
    const answers = displays(texts.Answers);
    if (answers) translation.answers = answers;
    const rowAnswers = rowDisplays(texts.Answers);
    if (rowAnswers) translation.rowAnswers = rowAnswers;
    if (Object.keys(translation).length > 0) out[normaliseLanguageCode(code)] = translation;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/**
 * Choice texts by choice id. Choices written as a list are keyed by position from 0, as the import keys
 * the question's own (NPS lists); an empty text is no translation.
 */
function displays(choices: Json): Record<string, string> | undefined {
  const pairs: [string, Json][] = Array.isArray(choices)
    ? choices.map((choice, i) => [String(i), choice])
    : entries(choices);
  const out: Record<string, string> = {};
  for (const [id, choice] of pairs) {
    const text = str(choice && typeof choice === 'object' ? choice.Display : choice);
    if (text !== '') out[id] = text;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/**
 * A profile matrix's per-row scale texts (`Answers: {"<row>": {"<point>": {"Display": …}}}`, as the
 * question's own `Answers`; matrix-scales.ts): rows are the entries that are objects without a `Display`
 * of their own, so a plain scale's points are never read as rows.
 */
function rowDisplays(answers: Json): Record<string, Record<string, string>> | undefined {
  const out: Record<string, Record<string, string>> = {};
  for (const [row, points] of entries(answers)) {
    if (!points || typeof points !== 'object' || Array.isArray(points) || 'Display' in points) continue;
    const texts = displays(points);
    if (texts) out[row] = texts;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** Every language code the survey's questions are translated to. */
export function translatedLanguages(questions: Iterable<Question>): string[] {
  const codes = new Set<string>();
  const visit = (question: Question) => {
    for (const code of Object.keys(question.translations ?? {})) codes.add(code);
    question.columns.forEach(visit);
  };
  for (const question of questions) visit(question);
  return [...codes];
}

// One picture per survey model and language: bounded by the survey's languages, and dropped with the model
// (engine-survey.ts keeps one model per definition object).
const translated = new WeakMap<EngineSurvey, Map<string, EngineSurvey>>();

/** The survey as a session in `language` runs it: the base survey itself when that is its language. */
export function inLanguage(survey: EngineSurvey, language: string): EngineSurvey {
  if (language === survey.language) return survey;
  const byLanguage = translated.get(survey) ?? new Map<string, EngineSurvey>();
  translated.set(survey, byLanguage);
  let model = byLanguage.get(language);
  if (!model) {
    const questions = new Map([...survey.questions].map(([id, q]) => [id, translateQuestion(q, language)]));
    model = { ...survey, questions };
    byLanguage.set(language, model);
  }
  return model;
}

/** The question with its texts in `language`, each field falling back to the base text. */
export function translateQuestion(question: Question, language: string): Question {
  const translation = question.translations?.[language] ?? {};
  const choices = withTexts(question.choices, translation.choices);
  // Side-by-side columns have their own texts and share the question's rows.
  const columns = question.columns.map((column) => ({ ...translateQuestion(column, language), choices }));
  return {
    ...question,
    text: translation.text ?? question.text,
    choices,
    answers: withTexts(question.answers, translation.answers),
    columns,
    ...(question.rowAnswers ? { rowAnswers: rowScales(question.rowAnswers, translation.rowAnswers) } : {}),
  };
}

/** A profile matrix's row scales with each point's text in the language (else the base text). */
const rowScales = (
  rows: Record<string, Choice[]>,
  texts: Record<string, Record<string, string>> | undefined,
): Record<string, Choice[]> =>
  Object.fromEntries(Object.entries(rows).map(([row, points]) => [row, withTexts(points, texts?.[row])]));

const withTexts = (choices: Choice[], texts: Record<string, string> | undefined): Choice[] =>
  texts
    ? choices.map((c) => (texts[c.id] === undefined ? c : { ...c, text: texts[c.id] as string }))
    : choices;
