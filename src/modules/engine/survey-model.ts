/**
 * The survey as the engine runs it: a small, typed picture of a QSF definition (blocks, page breaks, flow,
 * questions with their choices and logic). Built once per survey version on a node, from the definition
 * the surveys module compiles (engine-survey.ts); real files are untidy (COMPAT.md,
 * fixtures/qsf/README.md), so every read here is tolerant.
 */

import type { Logic } from '../surveys/definition/logic.js';
import {
  blocksOf,
  flowOf,
  optionsOf,
  type QsfDocument,
  type QsfQuestion,
  questionsOf,
  quotasOf,
} from '../surveys/definition/qsf.js';
import { isSupportedQuestion } from '../surveys/definition/question-types.js';
import { type BlockLoop, toBlockLoop } from './loops.js';
import { hasOwnEnding, toBlockRandomization, toDefaults, toEnding } from './model-options.js';

export type QuestionKind =
  | 'mc-single'
  | 'mc-multi'
  | 'dropdown'
  | 'nps'
  | 'text'
  | 'essay'
  | 'form'
  | 'matrix-single'
  | 'matrix-multi'
  | 'slider'
  | 'rank'
  | 'sbs'
  | 'descriptive'
  | 'timing'
  | 'unsupported';

export interface Choice {
  id: string;
  text: string;
  /** What the response stores for the choice: its recode value, else its id. */
  recode: string;
  textEntry: boolean;
  exclusive: boolean;
  displayLogic?: Logic;
}

export interface SkipRule {
  /** `q://QID1/SelectableChoice/2`-style locator and the condition on it. */
  locator: string;
  condition: string;
  /** ENDOFSURVEY, ENDOFBLOCK or a question id of the same block. */
  destination: string;
}

export interface Question {
  id: string;
  kind: QuestionKind;
  /** QuestionType/Selector/SubSelector as the file has them, for the notice of unsupported ones. */
  type: string;
  text: string;
  /** Rows for matrices, items for sliders, rank order and forms. */
  choices: Choice[];
  /** Scale points of a matrix (columns). */
  answers: Choice[];
  /** The columns of a side-by-side question, each a small matrix over the same rows. */
  columns: Question[];
  horizontal: boolean;
  /** A matrix answered with one drop-down per row (side-by-side columns). */
  dropdown: boolean;
  forced: boolean;
  requested: boolean;
  displayLogic?: Logic;
  /** In-page display logic: shown on the same page as soon as its condition holds. */
  inPage?: boolean;
  skipLogic: SkipRule[];
  /** Choice randomisation: all, or a random subset of this size. */
  randomize?: { subset?: number };
  /** A matrix's scale points shown in random order (`AnswerRandomization`). */
  randomizeAnswers?: boolean;
  /** Choices carried forward from another question's selected (or not selected) choices. */
  carryForward?: { from: string; selected: boolean };
  slider?: { min: number; max: number; decimals: number };
  validation?: { numeric?: { min?: number; max?: number } };
  /** Default answers (`DefaultChoices`) as form fields, texts with piped text still in them. */
  defaults?: Record<string, string[]>;
}

export interface Block {
  id: string;
  description: string;
  /** Question ids, split into pages at each page break. */
  pages: string[][];
  /** Question randomisation within the block: shown this many per page (0: one page). */
  randomizeQuestions?: BlockRandomization;
  /** Loop & merge. */
  loop?: BlockLoop;
}

export interface BlockRandomization {
  perPage: number;
  /** `RandomWithOnlyX`: this many of the block's questions, at random. */
  subset?: number;
  /**
   * `Advanced`: the `FixedOrder` template (question ids, `{~Randomize~}` and `{~SubSet~}` slots), the
   * questions shuffled into the first slots, those a subset of `subsetCount` is drawn from for the others,
   * and the questions never shown.
   */
  advanced?: { fixed: string[]; random: string[]; subsetOf: string[]; subsetCount: number; hidden: string[] };
}

export interface EmbeddedField {
  name: string;
  /** Absent: taken from the URL parameter of the same name, when the link carries one. */
  value?: string;
}

export type FlowNode =
  | { type: 'block'; id: string; blockId: string }
  | { type: 'branch'; id: string; logic?: Logic; flow: FlowNode[] }
  | { type: 'embedded'; id: string; fields: EmbeddedField[] }
  | { type: 'randomizer'; id: string; subset: number; flow: FlowNode[] }
  | { type: 'group'; id: string; flow: FlowNode[] }
  /** `ending` undefined: the survey options' ending. */
  | { type: 'end'; id: string; ending?: Ending };

/** How a survey ends (survey options, or an EndSurvey element's own "advanced" options). */
export interface Ending {
  /** Inline message text (HTML), when the ending shows one. */
  message?: string;
  /** A library message (`MS_...`), resolved in the survey's organisation when the ending shows it. */
  messageId?: string;
  /** A URL (with piped text) the respondent is sent to once the response is recorded. */
  redirect?: string;
  /** `ResponseFlag: Screened`: recorded as screened out (Finished 0, Q_TerminateFlag), no completion event. */
  screened: boolean;
}

export interface Quota {
  id: string;
  name: string;
  limit: number;
  logic?: Logic;
}

export interface EngineSurvey {
  id: string;
  name: string;
  questions: Map<string, Question>;
  blocks: Map<string, Block>;
  flow: FlowNode[];
  backButton: boolean;
  progressBar: boolean;
  ending: Ending;
  /** Survey option "Anonymize responses": no IP address or location is kept. */
  anonymized: boolean;
  nextLabel: string;
  backLabel: string;
  quotas: Quota[];
}

// biome-ignore lint/suspicious/noExplicitAny: QSF payloads are loosely shaped JSON
type Json = any;

export const str = (value: unknown, fallback = ''): string =>
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

/** The engine's picture of a normalised QSF document (the surveys module's definition). */
export function toEngineSurvey(surveyId: string, doc: QsfDocument): EngineSurvey {
  const options = optionsOf(doc) as Json;
  const questions = new Map<string, Question>();
  for (const payload of questionsOf(doc)) {
    const question = toQuestion(payload);
    if (question) questions.set(question.id, question);
  }
  const blocks = new Map<string, Block>();
  for (const block of blocksOf(doc)) blocks.set(block.ID, toBlock(block));
  return {
    id: surveyId,
    name: str(doc.SurveyEntry.SurveyName, surveyId),
    questions,
    blocks,
    flow: toFlow(flowOf(doc)),
    backButton: truthy(options.BackButton),
    progressBar: str(options.ProgressBarDisplay, 'None') !== 'None',
    ending: toEnding(options),
    anonymized: /^(yes|true|1|on)$/i.test(str(options.AnonymizeResponse)),
    nextLabel: cleanLabel(options.NextButton, 'Next'),
    backLabel: cleanLabel(options.PreviousButton, 'Back'),
    quotas: quotasOf(doc).map(toQuota),
  };
}

function cleanLabel(value: unknown, fallback: string): string {
  const text = str(value).trim();
  return text && /[A-Za-z]/.test(text) ? text : fallback;
}

function toFlow(nodes: Json): FlowNode[] {
  const out: FlowNode[] = [];
  for (const [, node] of entries(nodes)) {
    const id = str(node?.FlowID);
    switch (node?.Type) {
      case 'Block':
      case 'Standard':
      case 'Default':
        out.push({ type: 'block', id, blockId: str(node.ID) });
        break;
      case 'Branch':
        out.push({ type: 'branch', id, logic: node.BranchLogic, flow: toFlow(node.Flow) });
        break;
      case 'EmbeddedData':
        out.push({ type: 'embedded', id, fields: entries(node.EmbeddedData).map(([, f]) => toField(f)) });
        break;
      case 'BlockRandomizer':
      case 'Randomizer':
        out.push({ type: 'randomizer', id, subset: num(node.SubSet, 0), flow: toFlow(node.Flow) });
        break;
      case 'Group':
        out.push({ type: 'group', id, flow: toFlow(node.Flow) });
        break;
      case 'EndSurvey':
        // Without its own ("advanced") options an EndSurvey element ends as the survey options say.
        out.push(
          hasOwnEnding(node.Options)
            ? { type: 'end', id, ending: toEnding(node.Options) }
            : { type: 'end', id },
        );
        break;
      // Authenticators, web services and other kinds the engine does not run are passed over.
    }
  }
  return out;
}

function toField(field: Json): EmbeddedField {
  const name = str(field?.Field ?? field?.Description);
  const hasValue = field && field.Value !== undefined && field.Value !== null && field.Type !== 'Recipient';
  return hasValue ? { name, value: str(field.Value) } : { name };
}

function toBlock(block: Json): Block {
  const pages: string[][] = [[]];
  for (const [, element] of entries(block.BlockElements)) {
    if (element?.Type === 'Page Break') pages.push([]);
    else if (element?.Type === 'Question' && element.QuestionID) pages.at(-1)?.push(str(element.QuestionID));
  }
  const options = block.Options ?? {};
  const loop = toBlockLoop(options);
  const randomization = toBlockRandomization(str(options.RandomizeQuestions), options.Randomization ?? {});
  return {
    id: str(block.ID),
    description: str(block.Description),
    pages: pages.filter((p) => p.length > 0),
    ...(randomization ? { randomizeQuestions: randomization } : {}),
    ...(loop ? { loop } : {}),
  };
}

function toQuota(quota: Json): Quota {
  return {
    id: str(quota?.ID),
    name: str(quota?.Name),
    limit: num(quota?.Occurrences ?? quota?.Quota, 0),
    logic: quota?.Logic && typeof quota.Logic === 'object' ? quota.Logic : undefined,
  };
}

function toChoices(choices: Json, order: Json, recodes: Json): Choice[] {
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
    dropdown: type === 'Matrix' && subSelector === 'DL',
    forced: force === 'ON',
    requested: force === 'RequestResponse',
    skipLogic: entries(payload.SkipLogic).map(([, rule]) => ({
      locator: str(rule?.ChoiceLocator),
      condition: str(rule?.Condition),
      destination: str(rule?.SkipToDestination),
    })),
  };
  // Matrix answers are recoded by the answer's own recodes; choices keep their ids.
  if (kind === 'matrix-single' || kind === 'matrix-multi') {
    question.choices = toChoices(payload.Choices, payload.ChoiceOrder, undefined);
  }
  if (payload.DisplayLogic) question.displayLogic = payload.DisplayLogic;
  const logic = payload.DisplayLogic as Json;
  if (logic && (truthy(logic.inPage) || truthy(logic.InPage))) question.inPage = true;
  const dynamic = /^q:\/\/(QID\d+)\/ChoiceGroup\/(SelectedChoices|NotSelectedChoices)$/.exec(
    str((payload.DynamicChoices as Json)?.Locator),
  );
  if (dynamic?.[1]) question.carryForward = { from: dynamic[1], selected: dynamic[2] === 'SelectedChoices' };
  const randomization = payload.Randomization as Json;
  if (randomization?.Type === 'All') question.randomize = {};
  const answerRandomization = str((payload.AnswerRandomization as Json)?.Type);
  if (type === 'Matrix' && answerRandomization !== '' && answerRandomization !== 'None')
    question.randomizeAnswers = true;
  if (randomization?.Type === 'RandomSubset')
    question.randomize = { subset: num(randomization.TotalRandSubset, 0) };
  if (kind === 'slider') {
    const min = num(config.CSSliderMin, 0);
    question.slider = { min, max: num(config.CSSliderMax, min + 100), decimals: num(config.NumDecimals, 0) };
  }
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
  if (kind === 'sbs') question.columns = sbsColumns(id, payload, question.choices);
  const defaults = toDefaults(id, kind, payload.DefaultChoices);
  if (defaults) question.defaults = defaults;
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
    if (sub.kind !== 'matrix-single' && sub.kind !== 'matrix-multi') sub.kind = 'unsupported';
    sub.choices = rows;
    columns.push(sub);
  }
  return columns;
}
