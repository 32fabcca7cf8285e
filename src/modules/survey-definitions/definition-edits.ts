/**
 * Changes to a survey's working definition (a normalised QSF document, surveys/definition/qsf.ts), as the
 * questions and blocks calls of the definitions API make them. Pure: each edits the document it is given
 * in place, or refuses with an ApiError naming the field. What a change leaves behind is then read again
 * as an imported file is (surveys' changeWorkingDefinition), so these check only what is theirs to check.
 */
import { ApiError } from '../../http/errors.js';
import { newId } from '../../http/ids.js';
import { isObject } from '../surveys/definition/is-object.js';
import type { QsfBlock, QsfBlockElement, QsfDocument, QsfElement } from '../surveys/definition/qsf.js';
import { appendFlowNode, flowRoot, removeFlowNodes } from './flow-edits.js';
import { type Json, surveyElement } from './qsf-parts.js';

export const questionNotFound = (questionId: string) =>
  ApiError.of('FW_DEF_1', `Question ${questionId} not found in the survey definition.`);
export const blockNotFound = (blockId: string) =>
  ApiError.of('FW_DEF_2', `Block ${blockId} not found in the survey definition.`);

const questionElements = (document: QsfDocument) => document.SurveyElements.filter((e) => e.Element === 'SQ');
const questionIdOf = (element: QsfElement) => (element.Payload as { QuestionID: string }).QuestionID;

function findQuestionElement(document: QsfDocument, questionId: string): QsfElement {
  const element = questionElements(document).find((e) => questionIdOf(e) === questionId);
  if (!element) throw questionNotFound(questionId);
  return element;
}

/** The survey's blocks (the BL element's payload), made when the document has none. */
export function blockList(document: QsfDocument): QsfBlock[] {
  let element = document.SurveyElements.find((e) => e.Element === 'BL');
  if (!element) {
    element = surveyElement(document, 'BL', 'Survey Blocks', []);
    document.SurveyElements.unshift(element);
  }
  if (!Array.isArray(element.Payload)) element.Payload = [];
  return element.Payload as QsfBlock[];
}

export function findBlock(document: QsfDocument, blockId: string): QsfBlock {
  const block = blockList(document).find((b) => b.ID === blockId);
  if (!block) throw blockNotFound(blockId);
  return block;
}

/**
 * A question body as the real service takes it (QuestionText, QuestionType and Selector required), under
 * the question's id; its DataExportTag is kept, else the previous one, else `Q<n>` when no other has it.
 */
function questionPayload(document: QsfDocument, body: Json, questionId: string, previousTag?: string): Json {
  for (const field of ['QuestionType', 'Selector'] as const) {
    if (typeof body[field] !== 'string' || body[field] === '')
      throw ApiError.invalid(field, 'is required (a non-empty string)');
  }
  if (typeof body.QuestionText !== 'string') throw ApiError.invalid('QuestionText', 'is required (a string)');
  const given = typeof body.DataExportTag === 'string' && body.DataExportTag !== '' ? body.DataExportTag : '';
  return {
    ...body,
    QuestionID: questionId,
    DataExportTag: given || previousTag || freeTag(document, questionId),
  };
}

function freeTag(document: QsfDocument, questionId: string): string {
  const taken = new Set(questionElements(document).map((e) => (e.Payload as Json).DataExportTag));
  const tag = questionId.replace(/^QID/, 'Q');
  return taken.has(tag) ? questionId : tag;
}

/**
 * `POST …/questions[?blockId=]`: a new question at the end of the block (default: the default block).
 * Its id is the next `QID<n>`, as the real service gives; a body's own `QuestionID` (`QID<n>`, n up to 9
 * digits) is kept when the survey has no such question, so a definition kept as code keeps its ids.
 */
export function createQuestion(document: QsfDocument, body: Json, blockId?: string): string {
  const ids = questionElements(document).map(questionIdOf);
  const numbers = ids.map((id) => Number(id.slice(3)) || 0);
  const own = typeof body.QuestionID === 'string' ? body.QuestionID : '';
  const questionId =
    /^QID[1-9]\d{0,8}$/.test(own) && !ids.includes(own) ? own : `QID${Math.max(0, ...numbers) + 1}`;
  const payload = questionPayload(document, body, questionId);
  const blocks = blockList(document);
  const block = blockId
    ? blocks.find((b) => b.ID === blockId)
    : (blocks.find((b) => b.Type === 'Default') ?? blocks.find((b) => b.Type !== 'Trash'));
  if (!block)
    throw ApiError.invalid(
      'blockId',
      blockId ? 'is not a block of the survey' : 'is required: the survey has no block',
    );
  block.BlockElements.push({ Type: 'Question', QuestionID: questionId });
  const element = surveyElement(document, 'SQ', questionId, payload);
  element.SecondaryAttribute = String(payload.QuestionText).slice(0, 100);
  const last = questionElements(document).at(-1);
  const at = last ? document.SurveyElements.indexOf(last) + 1 : document.SurveyElements.length;
  document.SurveyElements.splice(at, 0, element);
  return questionId;
}

/** `PUT …/questions/{id}`: the body replaces the question (the real service's PUT takes the whole question). */
export function updateQuestion(document: QsfDocument, questionId: string, body: Json): void {
  const element = findQuestionElement(document, questionId);
  const previousTag = (element.Payload as Json).DataExportTag as string | undefined;
  element.Payload = questionPayload(document, body, questionId, previousTag);
  element.SecondaryAttribute = String(body.QuestionText).slice(0, 100);
}

/** `DELETE …/questions/{id}`: the question, and its place in every block. */
export function deleteQuestion(document: QsfDocument, questionId: string): void {
  const element = findQuestionElement(document, questionId);
  document.SurveyElements.splice(document.SurveyElements.indexOf(element), 1);
  for (const block of blockList(document))
    block.BlockElements = block.BlockElements.filter((e) => e.QuestionID !== questionId);
}

/**
 * A block's elements: questions of the survey (moved here from any other block) and page breaks. A
 * question named twice, or one the survey does not have, is refused.
 */
function blockElements(document: QsfDocument, value: unknown, blockId: string): QsfBlockElement[] {
  if (!Array.isArray(value)) throw ApiError.invalid('BlockElements', 'must be an array');
  const known = new Set(questionElements(document).map(questionIdOf));
  const seen = new Set<string>();
  const elements = value.map((raw, i): QsfBlockElement => {
    if (!isObject(raw) || typeof raw.Type !== 'string')
      throw ApiError.invalid(`BlockElements[${i}].Type`, 'is required (Question or Page Break)');
    if (raw.Type !== 'Question') return { ...raw, Type: raw.Type };
    const questionId = String(raw.QuestionID ?? '');
    if (!known.has(questionId) || seen.has(questionId))
      throw ApiError.invalid(
        `BlockElements[${i}].QuestionID`,
        `${questionId || '(none)'} is not a question of the survey, or is named twice`,
      );
    seen.add(questionId);
    return { ...raw, Type: 'Question', QuestionID: questionId };
  });
  for (const block of blockList(document)) {
    if (block.ID !== blockId)
      block.BlockElements = block.BlockElements.filter((e) => !seen.has(e.QuestionID ?? ''));
  }
  return elements;
}

function description(body: Json, fallback?: string): string {
  if (body.Description === undefined && fallback !== undefined) return fallback;
  if (typeof body.Description !== 'string') throw ApiError.invalid('Description', 'is required (a string)');
  return body.Description;
}

/** `POST …/blocks`: a standard block, added to the end of the survey flow as the real service does. */
export function createBlock(document: QsfDocument, body: Json): { BlockID: string; FlowID: string } {
  if (body.Type !== undefined && body.Type !== 'Standard')
    throw ApiError.invalid('Type', 'must be Standard (a survey has one Default and one Trash block)');
  const blockId = newId('BL');
  const block: QsfBlock = {
    ...body,
    Type: 'Standard',
    Description: description(body),
    ID: blockId,
    BlockElements:
      body.BlockElements === undefined ? [] : blockElements(document, body.BlockElements, blockId),
  };
  blockList(document).push(block);
  const flowId = appendFlowNode(flowRoot(document), { Type: 'Standard', ID: blockId, Autofill: [] });
  return { BlockID: blockId, FlowID: flowId };
}

/** `PUT …/blocks/{id}`: its description, elements and options (a block keeps its id and type). */
export function updateBlock(document: QsfDocument, blockId: string, body: Json): void {
  const block = findBlock(document, blockId);
  if (body.Type !== undefined && body.Type !== block.Type)
    throw ApiError.invalid('Type', `cannot change (the block is ${block.Type})`);
  const elements =
    body.BlockElements === undefined
      ? block.BlockElements
      : blockElements(document, body.BlockElements, blockId);
  Object.assign(block, body, {
    ID: blockId,
    Type: block.Type,
    Description: description(body, block.Description),
  });
  block.BlockElements = elements;
}

/** `DELETE …/blocks/{id}`: the block, its places in the flow, and its questions. The default block stays. */
export function deleteBlock(document: QsfDocument, blockId: string): void {
  const block = findBlock(document, blockId);
  if (block.Type === 'Default')
    throw ApiError.invalid('blockId', 'is the default block, which cannot be deleted');
  const blocks = blockList(document);
  blocks.splice(blocks.indexOf(block), 1);
  removeFlowNodes(
    flowRoot(document),
    (node) => node.ID === blockId && ['Block', 'Standard'].includes(node.Type),
  );
  const elsewhere = new Set(blocks.flatMap((b) => b.BlockElements.map((e) => e.QuestionID)));
  for (const element of block.BlockElements) {
    if (element.Type === 'Question' && element.QuestionID && !elsewhere.has(element.QuestionID))
      deleteQuestion(document, element.QuestionID);
  }
}
