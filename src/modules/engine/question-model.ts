/** A QSF question as the engine runs it: its kind, choices, logic and settings (survey-model.ts). */

import { carryForwardOf } from '../surveys/definition/carry-forward.js';
import type { QsfQuestion } from '../surveys/definition/qsf.js';
import { isSupportedQuestion } from '../surveys/definition/question-types.js';
import { toMap } from './answers-map.js';
import { toDefaults } from './model-options.js';
import { entries, type Json, num, str, truthy } from './qsf-reading.js';
import { toSlider, toUpload } from './question-model-input.js';
import type { Choice, Question, QuestionKind } from './survey-model.js';
import { toTextValidation } from './text-validation.js';
import { toTranslations } from './translations.js';
import { typeOptions } from './type-options.js';

export function toChoices(choices: Json, order: Json, recodes: Json): Choice[] {
  const byId = new Map(entries(choices));
  const ids = Array.isArray(order) && order.length > 0 ? order.map((id) => str(id)) : [...byId.keys()];
  const out: Choice[] = [];
  for (const id of ids) {
    const choice = byId.get(id);
    if (!choice) continue;
    out.push({
      id,
      text: str(choice.Display, id),
      recode: str(recodes?.[id], id),
      textEntry: truthy(choice.TextEntry),
      exclusive: truthy(choice.ExclusiveAnswer),
      ...(choice.DisplayLogic ? { displayLogic: choice.DisplayLogic } : {}),
    });
  }
  return out;
}

function kindOf(type: string, selector: string, subSelector: string): QuestionKind {
  switch (type) {
    case 'MC':
      if (selector === 'SAVR' || selector === 'SAHR' || selector === 'SACOL') return 'mc-single';
      if (selector === 'MAVR' || selector === 'MAHR' || selector === 'MACOL') return 'mc-multi';
      if (selector === 'DL' || selector === 'SB') return 'dropdown';
      if (selector === 'MSB') return 'mc-multi';
      if (selector === 'NPS') return 'nps';
      return 'unsupported';
    case 'TE':
      if (selector === 'SL' || selector === 'PW') return 'text';
      if (selector === 'ML' || selector === 'ESTB') return 'essay';
      if (selector === 'FORM') return 'form';
      return 'unsupported';
    case 'Matrix':
      if (selector === 'TE') return 'matrix-text';
      if (selector === 'Profile') return 'matrix-profile';
      if (selector === 'CS') return 'matrix-cs';
      if (selector === 'RO') return 'matrix-rank';
      if (selector !== 'Likert' && selector !== 'Bipolar') return 'unsupported';
      return subSelector === 'MultipleAnswer' ? 'matrix-multi' : 'matrix-single';
    case 'Slider':
      return 'slider';
    case 'RO':
      return 'rank';
    case 'SBS':
      return 'sbs';
    case 'DB':
      return 'descriptive';
    case 'Timing':
      return 'timing';
    case 'CS':
      return 'constant-sum';
    case 'PGR':
      return 'pgr';
    case 'Meta':
      return 'meta';
    case 'FileUpload':
      return 'file';
    case 'Draw':
      return 'signature';
    case 'HeatMap':
      return 'heatmap';
    case 'HotSpot':
      return 'hotspot';
    default:
      return 'unsupported';
  }
}

export function toQuestion(payload: QsfQuestion): Question | undefined {
  const id = str(payload?.QuestionID);
  if (!id) return undefined;
  const type = str(payload.QuestionType);
  const selector = str(payload.Selector);
  const subSelector = str(payload.SubSelector);
  // The surveys module decides what the engine runs (and lists the rest in the import notice).
  const kind = isSupportedQuestion(payload) ? kindOf(type, selector, subSelector) : 'unsupported';
  const settings = payload.Validation?.Settings ?? {};
  const force = str(settings.ForceResponse);
  const config = payload.Configuration ?? {};
  const question: Question = {
    id,
    kind,
    type: [type, selector, subSelector].filter(Boolean).join('/'),
    text: str(payload.QuestionText),
    choices: toChoices(payload.Choices, payload.ChoiceOrder, payload.RecodeValues),
    answers: toChoices(payload.Answers, payload.AnswerOrder, payload.RecodeValues),
    columns: [],
    horizontal: selector === 'SAHR' || selector === 'MAHR' || selector === 'SACOL' || selector === 'MACOL',
    // A drag-and-drop matrix is answered like a drop-down one: a scale point per row, by keyboard too.
    dropdown: type === 'Matrix' && ['DL', 'DND', 'DragAndDrop'].includes(subSelector),
    forced: force === 'ON',
    requested: force === 'RequestResponse',
    skipLogic: entries(payload.SkipLogic).map(([, rule]) => ({
      locator: str(rule?.ChoiceLocator),
      condition: str(rule?.Condition),
      destination: str(rule?.SkipToDestination),
    })),
  };
  // Matrix answers are recoded by the answer's own recodes; choices keep their ids.
  if (kind.startsWith('matrix-')) {
    question.choices = toChoices(payload.Choices, payload.ChoiceOrder, undefined);
  }
  if (payload.DisplayLogic) question.displayLogic = payload.DisplayLogic;
  const logic = payload.DisplayLogic as Json;
  if (logic && (truthy(logic.inPage) || truthy(logic.InPage))) question.inPage = true;
  const carry = carryForwardOf(payload);
  if (carry) question.carryForward = carry;
  const carryAnswers = kind.startsWith('matrix-') ? carryForwardOf(payload, 'DynamicAnswers') : undefined;
  if (carryAnswers) question.carryAnswers = carryAnswers;
  const randomization = payload.Randomization as Json;
  if (randomization?.Type === 'All') question.randomize = {};
  const answerRandomization = str((payload.AnswerRandomization as Json)?.Type);
  if (type === 'Matrix' && answerRandomization !== '' && answerRandomization !== 'None')
    question.randomizeAnswers = true;
  if (randomization?.Type === 'RandomSubset')
    question.randomize = { subset: num(randomization.TotalRandSubset, 0) };
  if (kind === 'slider') question.slider = toSlider(selector, config, payload.Labels);
  if (kind === 'file') question.upload = toUpload(config);
  if (kind === 'heatmap' || kind === 'hotspot')
    Object.assign(question, toMap(payload, question.text, question.choices));
  if (kind === 'nps' && question.choices.length === 0) {
    question.choices = Array.from({ length: 11 }, (_, n) => plainChoice(String(n)));
  }
  if (settings.ContentType === 'ValidNumber') {
    const bounds = (settings.ValidNumber ?? {}) as Json;
    const min = num(bounds.Min, Number.NaN);
    const max = num(bounds.Max, Number.NaN);
    question.validation = {
      numeric: { ...(Number.isNaN(min) ? {} : { min }), ...(Number.isNaN(max) ? {} : { max }) },
    };
  }
  Object.assign(question, typeOptions(kind, payload));
  const text = toTextValidation(settings);
  if (text) question.validation = { ...question.validation, text };
  if (kind === 'sbs') question.columns = sbsColumns(id, payload, question.choices);
  const defaults = toDefaults(id, kind, payload.DefaultChoices);
  if (defaults) question.defaults = defaults;
  const translations = toTranslations(payload.Language);
  if (translations) question.translations = translations;
  return question;
}

const plainChoice = (id: string): Choice => ({
  id,
  text: id,
  recode: id,
  textEntry: false,
  exclusive: false,
});

function sbsColumns(id: string, payload: Json, rows: Choice[]): Question[] {
  const columns: Question[] = [];
  for (const [key, column] of entries(payload.AdditionalQuestions)) {
    const sub = toQuestion({ ...column, QuestionID: `${id}#${key}`, Choices: payload.Choices });
    if (!sub) continue;
    if (!['matrix-single', 'matrix-multi', 'matrix-text'].includes(sub.kind)) sub.kind = 'unsupported';
    sub.choices = rows;
    columns.push(sub);
  }
  return columns;
}
