/**
 * The survey as the engine runs it: a small, typed picture of a QSF definition (blocks, page breaks, flow,
 * questions with their choices and logic). Built once per survey version on a node, from the definition
 * the surveys module compiles (engine-survey.ts); real files are untidy (COMPAT.md,
 * fixtures/qsf/README.md), so every read here is tolerant.
 */

import type { CarryMode } from '../surveys/definition/carry-forward.js';
import type { Logic } from '../surveys/definition/logic.js';
import {
  blocksOf,
  flowOf,
  optionsOf,
  type QsfDocument,
  questionsOf,
  quotasOf,
} from '../surveys/definition/qsf.js';
import type { MapSettings } from './answers-map.js';
import { normaliseLanguageCode } from './languages.js';
import { type BlockLoop, toBlockLoop } from './loops.js';
import { hasOwnEnding, toBlockRandomization, toEnding } from './model-options.js';
import { entries, type Json, num, str, truthy } from './qsf-reading.js';
import { toQuestion } from './question-model.js';
import type { TextValidation } from './text-validation.js';
import { translatedLanguages } from './translations.js';
import { carryAllChoices } from './type-options.js';

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
  | 'meta'
  | 'file'
  | 'signature'
  | 'matrix-text'
  | 'matrix-profile'
  | 'matrix-cs'
  | 'matrix-rank'
  | 'constant-sum'
  | 'pgr'
  | 'heatmap'
  | 'hotspot'
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
  /** Choices (matrix rows) carried forward from another question's choices (carry-forward.ts). */
  carryForward?: { from: string; mode: CarryMode };
  /** A matrix's scale points (columns) carried forward from another question's choices. */
  carryAnswers?: { from: string; mode: CarryMode };
  /** A profile matrix: each row's own scale points, by row id (matrix-scales.ts). */
  rowAnswers?: Record<string, Choice[]>;
  slider?: SliderSettings;
  validation?: { numeric?: { min?: number; max?: number }; text?: TextValidation };
  /** File upload: the largest file and the file name endings taken (none: any). */
  upload?: { maxBytes: number; extensions: string[] };
  /** Constant sum: the total the numbers must add up to (`ChoicesTotal`), when the author set one. */
  constantSum?: { total?: number };
  /** Heat map and hot spot: the image and its regions (answers-map.ts). */
  map?: MapSettings;
  /** Pick, group and rank: the group names, in order (their index is the group id). */
  groups?: string[];
  /** Matrix text entry: the size of each box (SubSelector Short, Medium or Long). */
  textSize?: 'short' | 'medium' | 'long';
  /** Default answers (`DefaultChoices`) as form fields, texts with piped text still in them. */
  defaults?: Record<string, string[]>;
  /** Its texts in other languages (QSF `Language`), by language code (translations.ts). */
  translations?: Record<string, QuestionTranslation>;
}

/** A slider (`HSLIDER`), bars (`HBAR`) or stars (`STAR`): its scale as the page draws and checks it. */
export interface SliderSettings {
  min: number;
  max: number;
  decimals: number;
  /** `HSLIDER` a track, `HBAR` a bar, `STAR` a row of stars (radio buttons, one per value). */
  style: 'slider' | 'bar' | 'star';
  /** The step between values: the grid's when `SnapToGrid`, else one unit of the last decimal. */
  step: number;
  /** Grid lines drawn across the track (`GridLines`), as tick marks. */
  gridLines: number;
  /** The scale's labels (`Labels`), spread over the track. */
  labels: string[];
  showValue: boolean;
  /** A "Not applicable" box per statement (`NotApplicable`). */
  notApplicable: boolean;
}

/** A question's texts in one language; a text it lacks is shown in the survey's base language. */
export interface QuestionTranslation {
  text?: string;
  /** Choice, row and item texts by choice id. */
  choices?: Record<string, string>;
  /** Scale point (matrix column) texts by answer id. */
  answers?: Record<string, string>;
  /** A profile matrix's scale point texts, by row id and answer id (translations.ts). */
  rowAnswers?: Record<string, Record<string, string>>;
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
  /** `Randomization.EvenPresentation`: the subset least presented so far (even-presentation.ts). */
  even?: boolean;
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
  /** `even`: `EvenPresentation`, the children least presented so far (even-presentation.ts). */
  | { type: 'randomizer'; id: string; subset: number; even: boolean; flow: FlowNode[] }
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
  /** The base language (`SurveyEntry.SurveyLanguage`): the questions' own texts. */
  language: string;
  /** Every language a session may run in: the base first, then the survey's translations. */
  languages: string[];
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

/** The engine's picture of a normalised QSF document (the surveys module's definition). */
export function toEngineSurvey(surveyId: string, doc: QsfDocument): EngineSurvey {
  const options = optionsOf(doc) as Json;
  const questions = new Map<string, Question>();
  for (const payload of questionsOf(doc)) {
    const question = toQuestion(payload);
    if (question) questions.set(question.id, question);
  }
  carryAllChoices(questionsOf(doc), questions);
  const blocks = new Map<string, Block>();
  for (const block of blocksOf(doc)) blocks.set(block.ID, toBlock(block));
  const language = normaliseLanguageCode(str(doc.SurveyEntry.SurveyLanguage) || 'EN');
  return {
    id: surveyId,
    name: str(doc.SurveyEntry.SurveyName, surveyId),
    language,
    languages: surveyLanguages(language, options.AvailableLanguages, questions.values()),
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

/**
 * The base language, the survey options' `AvailableLanguages` and every language a question is translated
 * to: real files list only some of their translations there (the customer-service template lists EN alone).
 */
function surveyLanguages(base: string, available: Json, questions: Iterable<Question>): string[] {
  const listed = entries(available).map(([code, value]) => (Array.isArray(available) ? str(value) : code));
  const codes = [...listed.filter(Boolean).map(normaliseLanguageCode), ...translatedLanguages(questions)];
  return [...new Set([base, ...codes])];
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
        out.push({
          type: 'randomizer',
          id,
          subset: num(node.SubSet, 0),
          even: truthy(node.EvenPresentation),
          flow: toFlow(node.Flow),
        });
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
