import { ApiError } from '../../http/errors.js';
import { newId } from '../../http/ids.js';
import { isObject } from './definition/is-object.js';
import type {
  QsfBlock,
  QsfBlockElement,
  QsfChoice,
  QsfChoices,
  QsfDocument,
  QsfElement,
  QsfEmbeddedField,
  QsfFlowNode,
  QsfQuestion,
  QsfQuota,
} from './definition/qsf.js';
import { describeQuestion, isSupportedQuestion } from './definition/question-types.js';
import { runNotices } from './definition/run-notices.js';
import { checkQsfCounts, checkQsfShape } from './qsf-limits.js';

export interface ImportedQsf {
  document: QsfDocument;
  /** What the caller should know: unsupported questions, dropped references. Joined into `meta.notice`. */
  notices: string[];
  /** QSF questions the engine cannot run, as `QID7 (TE/ESTB)`. */
  unsupported: string[];
}

type Json = Record<string, unknown>;

const str = (value: unknown, fallback = ''): string =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : fallback;
const strOrNull = (value: unknown): string | null => {
  const s = str(value);
  return s === '' ? null : s;
};
/** QSF writes flags as true, "true", 1, "1", "ON" or "Yes". */
const truthy = (value: unknown): boolean =>
  value === true || value === 1 || (typeof value === 'string' && /^(true|1|on|yes)$/i.test(value));

/**
 * Reads a QSF file (already JSON-parsed) into the normalised document. Tolerant of what real exports
 * contain (../shared/fixtures/qsf/README.md): element kinds in any order, unknown kinds (kept as they
 * are), Choices as objects or lists, numbers written as strings, missing SubSelector, a block payload
 * written as an object, the API's `{result: {...}}` wrapper. It refuses only what cannot be a survey,
 * with a 400 naming the field under `field` (e.g. `file.SurveyElements[3].Payload.QuestionID`).
 * The document gets the new survey id everywhere the QSF carries one. A survey past QSF_LIMITS is 400
 * FW_SUR_2 before anything else is read.
 */
export function importQsf(input: unknown, surveyId: string, field = 'file'): ImportedQsf {
  checkQsfShape(input, field);
  const root = isObject(input) && isObject(input.result) ? input.result : input;
  if (!isObject(root)) throw ApiError.invalid(field, 'must be a QSF document (a JSON object)');
  if (!Array.isArray(root.SurveyElements))
    throw ApiError.invalid(`${field}.SurveyElements`, 'must be an array');
  checkQsfCounts(root.SurveyElements, field);
  const entry = isObject(root.SurveyEntry) ? root.SurveyEntry : {};
  const notices: string[] = [];

  const elements = root.SurveyElements.map((raw, i) => {
    const where = `${field}.SurveyElements[${i}]`;
    if (!isObject(raw) || typeof raw.Element !== 'string' || raw.Element === '')
      throw ApiError.invalid(`${where}.Element`, 'must be a non-empty string');
    return normaliseElement(raw, surveyId, where);
  });
  const questions = elements.filter((e) => e.Element === 'SQ').map((e) => e.Payload as QsfQuestion);
  const questionIds = new Set<string>();
  for (const [i, q] of questions.entries()) {
    if (questionIds.has(q.QuestionID))
      throw ApiError.invalid(
        `${field}.SurveyElements`,
        `has question ${q.QuestionID} twice (question ${i + 1})`,
      );
    questionIds.add(q.QuestionID);
  }
  const quotaIds = elements.filter((e) => e.Element === 'QO').map((e) => (e.Payload as QsfQuota).ID);
  const twice = quotaIds.find((id, i) => quotaIds.indexOf(id) !== i);
  if (twice) throw ApiError.invalid(`${field}.SurveyElements`, `has quota ${twice} twice`);
  const blockIds = dropDanglingBlockElements(elements, questionIds, notices);
  dropDanglingFlowBlocks(elements, blockIds, notices);
  if (!elements.some((e) => e.Element === 'BL')) elements.push(defaultBlocks(surveyId, questions));
  if (!elements.some((e) => e.Element === 'FL')) elements.push(defaultFlow(surveyId, elements));

  const unsupported = questions.filter((q) => !isSupportedQuestion(q)).map(describeQuestion);
  if (unsupported.length > 0)
    notices.unshift(`Imported questions the survey engine cannot run: ${unsupported.join(', ')}.`);
  const document: QsfDocument = {
    SurveyEntry: {
      ...entry,
      SurveyID: surveyId,
      SurveyName: str(entry.SurveyName),
      SurveyLanguage: str(entry.SurveyLanguage, 'EN'),
    },
    SurveyElements: elements,
  };
  // Everything else the engine does not run as written, by element (issue 13 item 7).
  notices.push(...runNotices(document));
  return { document, notices, unsupported };
}

/**
 * The notice of the images a survey names that the organisation has no graphic of yet (`missing`, from
 * the graphics service): they show as links to the other platform until uploaded under their own id.
 */
export function missingGraphicsNotices(missing: string[]): string[] {
  if (missing.length === 0) return [];
  const [count, them] =
    missing.length === 1 ? ['1 image is', 'it'] : [`${missing.length} images are`, 'them'];
  return [
    `${count} not in this organisation's graphics: ${missing.join(', ')} (upload ${them} with POST /v3/graphics and graphicId).`,
  ];
}

function normaliseElement(raw: Json, surveyId: string, where: string): QsfElement {
  const element: QsfElement = {
    SurveyID: surveyId,
    Element: raw.Element as string,
    PrimaryAttribute: strOrNull(raw.PrimaryAttribute),
    SecondaryAttribute: strOrNull(raw.SecondaryAttribute),
    TertiaryAttribute: strOrNull(raw.TertiaryAttribute),
    Payload: raw.Payload ?? null,
  };
  switch (element.Element) {
    case 'SQ':
      element.Payload = normaliseQuestion(raw.Payload, element.PrimaryAttribute, `${where}.Payload`);
      element.PrimaryAttribute = (element.Payload as QsfQuestion).QuestionID;
      break;
    case 'BL':
      element.Payload = normaliseBlocks(raw.Payload, `${where}.Payload`);
      break;
    case 'FL':
      element.Payload = normaliseFlowRoot(raw.Payload);
      break;
    case 'QO':
      element.Payload = normaliseQuota(raw.Payload, element.PrimaryAttribute, `${where}.Payload`);
      break;
  }
  return element;
}

/** Choices as an object keyed by id, or as a list (keyed by position from 0, as NPS lists are). */
function normaliseChoices(value: unknown): QsfChoices {
  const entries: [string, unknown][] = Array.isArray(value)
    ? value.map((choice, i) => [String(i), choice])
    : isObject(value)
      ? Object.entries(value)
      : [];
  const choices: QsfChoices = {};
  for (const [id, raw] of entries) {
    const choice = isObject(raw) ? raw : { Display: str(raw) };
    choices[id] = {
      ...choice,
      Display: str(choice.Display),
      TextEntry: truthy(choice.TextEntry),
      ExclusiveAnswer: truthy(choice.ExclusiveAnswer),
    } satisfies QsfChoice;
  }
  return choices;
}

/** An order list of ids that exist, each once; ids it leaves out are appended in their own order. */
function normaliseOrder(value: unknown, choices: QsfChoices): string[] {
  const listed = Array.isArray(value)
    ? value.map((id) => str(isObject(id) ? (id.ChoiceID ?? id.ID) : id))
    : [];
  const order = [...new Set(listed.filter((id) => id in choices))];
  for (const id of Object.keys(choices)) if (!order.includes(id)) order.push(id);
  return order;
}

function normaliseQuestion(
  raw: unknown,
  primary: string | null,
  where: string,
  idRequired = true,
): QsfQuestion {
  const payload = isObject(raw) ? raw : {};
  const questionId = str(payload.QuestionID) || (primary ?? '');
  if (idRequired && !/^QID\d+$/.test(questionId))
    throw ApiError.invalid(`${where}.QuestionID`, 'must be QID<n>');
  const choices = normaliseChoices(payload.Choices);
  const answers = normaliseChoices(payload.Answers);
  const recodes: Record<string, string> = {};
  if (isObject(payload.RecodeValues))
    for (const [id, value] of Object.entries(payload.RecodeValues)) recodes[id] = str(value, id);
  const validation = isObject(payload.Validation) ? payload.Validation : {};
  const question: QsfQuestion = {
    ...payload,
    QuestionID: questionId,
    DataExportTag: str(payload.DataExportTag) || questionId,
    QuestionType: str(payload.QuestionType, 'Unknown'),
    Selector: str(payload.Selector),
    SubSelector: strOrNull(payload.SubSelector),
    QuestionText: str(payload.QuestionText),
    QuestionDescription: str(payload.QuestionDescription),
    Choices: choices,
    ChoiceOrder: normaliseOrder(payload.ChoiceOrder, choices),
    Answers: answers,
    AnswerOrder: normaliseOrder(payload.AnswerOrder, answers),
    RecodeValues: recodes,
    Validation: { ...validation, Settings: isObject(validation.Settings) ? validation.Settings : {} },
    DisplayLogic: payload.DisplayLogic ?? null,
    Configuration: isObject(payload.Configuration) ? payload.Configuration : {},
  };
  if (question.QuestionType === 'SBS') {
    const columns = isObject(payload.AdditionalQuestions) ? payload.AdditionalQuestions : {};
    question.AdditionalQuestions = {};
    for (const [column, sub] of Object.entries(columns)) {
      const normalised = normaliseQuestion(sub, null, `${where}.AdditionalQuestions.${column}`, false);
      // A column without its own rows shares the question's.
      if (normalised.ChoiceOrder.length === 0) {
        normalised.Choices = choices;
        normalised.ChoiceOrder = question.ChoiceOrder;
      }
      question.AdditionalQuestions[column] = normalised;
    }
  }
  return question;
}

function normaliseBlocks(raw: unknown, where: string): QsfBlock[] {
  const list = Array.isArray(raw) ? raw : isObject(raw) ? Object.values(raw) : [];
  return list.filter(isObject).map((block, i) => {
    const id = str(block.ID);
    if (!id) throw ApiError.invalid(`${where}[${i}].ID`, 'must be a block id');
    const elements = Array.isArray(block.BlockElements) ? block.BlockElements.filter(isObject) : [];
    return {
      ...block,
      ID: id,
      Type: str(block.Type, 'Standard'),
      Description: str(block.Description),
      BlockElements: elements.map(
        (e): QsfBlockElement => ({
          ...e,
          Type: str(e.Type, 'Question'),
          ...(e.QuestionID !== undefined ? { QuestionID: str(e.QuestionID) } : {}),
        }),
      ),
    };
  });
}

function normaliseFlowRoot(raw: unknown): Json {
  const root = isObject(raw) ? raw : {};
  let counter = 0;
  const flowIds = new Set<string>();
  const node = (value: Json): QsfFlowNode => {
    let flowId = str(value.FlowID);
    while (!flowId || flowIds.has(flowId)) flowId = `FL_fw${++counter}`;
    flowIds.add(flowId);
    const out: QsfFlowNode = { ...value, Type: str(value.Type, 'Block'), FlowID: flowId };
    if (value.ID !== undefined) out.ID = str(value.ID);
    if (value.Flow !== undefined)
      out.Flow = Array.isArray(value.Flow) ? value.Flow.filter(isObject).map(node) : [];
    if (value.EmbeddedData !== undefined) out.EmbeddedData = normaliseEmbedded(value.EmbeddedData);
    return out;
  };
  const flow = Array.isArray(root.Flow) ? root.Flow.filter(isObject).map(node) : [];
  return { ...root, Type: 'Root', FlowID: str(root.FlowID, 'FL_1'), Flow: flow };
}

function normaliseEmbedded(raw: unknown): QsfEmbeddedField[] {
  const list = Array.isArray(raw) ? raw.filter(isObject) : [];
  return list
    .map((f) => ({
      ...f,
      Field: str(f.Field ?? f.Description),
      Type: str(f.Type, 'Custom'),
      ...(f.Value !== undefined ? { Value: str(f.Value) } : {}),
    }))
    .filter((f) => f.Field !== '');
}

function normaliseQuota(raw: unknown, primary: string | null, where: string): QsfQuota {
  const payload = isObject(raw) ? raw : {};
  const id = str(payload.ID) || (primary ?? '');
  if (!id) throw ApiError.invalid(`${where}.ID`, 'must be a quota id');
  const occurrences = Number(str(payload.Occurrences, '0'));
  return {
    ...payload,
    ID: id,
    Name: str(payload.Name, id),
    Occurrences: Number.isFinite(occurrences) && occurrences >= 0 ? Math.floor(occurrences) : 0,
    Logic: payload.Logic ?? null,
    QuotaAction: str(payload.QuotaAction, 'EndCurrentSurvey'),
  };
}

/** Block elements naming a question the file does not define are dropped (and said so). */
function dropDanglingBlockElements(elements: QsfElement[], questionIds: Set<string>, notices: string[]) {
  const blockIds = new Set<string>();
  for (const element of elements.filter((e) => e.Element === 'BL')) {
    for (const block of element.Payload as QsfBlock[]) {
      blockIds.add(block.ID);
      const kept = block.BlockElements.filter(
        (e) => e.Type !== 'Question' || questionIds.has(e.QuestionID ?? ''),
      );
      if (kept.length !== block.BlockElements.length)
        notices.push(`Block ${block.ID} named questions the file does not define; they were left out.`);
      block.BlockElements = kept;
    }
  }
  return blockIds;
}

function dropDanglingFlowBlocks(elements: QsfElement[], blockIds: Set<string>, notices: string[]) {
  const isBlockNode = (n: QsfFlowNode) => n.Type === 'Block' || n.Type === 'Standard';
  const prune = (nodes: QsfFlowNode[]): QsfFlowNode[] =>
    nodes
      .filter((n) => {
        if (!isBlockNode(n) || blockIds.has(n.ID ?? '')) return true;
        notices.push(
          `The flow named block ${n.ID ?? '(none)'}, which the file does not define; it was left out.`,
        );
        return false;
      })
      .map((n) => (n.Flow ? { ...n, Flow: prune(n.Flow) } : n));
  for (const element of elements.filter((e) => e.Element === 'FL')) {
    const root = element.Payload as { Flow: QsfFlowNode[] };
    root.Flow = prune(root.Flow);
  }
}

function defaultBlocks(surveyId: string, questions: QsfQuestion[]): QsfElement {
  const block: QsfBlock = {
    ID: newId('BL'),
    Type: 'Default',
    Description: 'Default Question Block',
    BlockElements: questions.map((q) => ({ Type: 'Question', QuestionID: q.QuestionID })),
  };
  return element(surveyId, 'BL', 'Survey Blocks', [block]);
}

function defaultFlow(surveyId: string, elements: QsfElement[]): QsfElement {
  const blocks = elements.filter((e) => e.Element === 'BL').flatMap((e) => e.Payload as QsfBlock[]);
  const flow = blocks
    .filter((b) => b.Type !== 'Trash')
    .map((b, i): QsfFlowNode => ({ Type: 'Block', ID: b.ID, FlowID: `FL_${i + 2}` }));
  return element(surveyId, 'FL', 'Survey Flow', { Type: 'Root', FlowID: 'FL_1', Flow: flow });
}

function element(surveyId: string, kind: string, primary: string, payload: unknown): QsfElement {
  return {
    SurveyID: surveyId,
    Element: kind,
    PrimaryAttribute: primary,
    SecondaryAttribute: null,
    TertiaryAttribute: null,
    Payload: payload,
  };
}
