/**
 * The display order of a block whose questions are randomized (issue 13 item 3), as the real export writes
 * it with `includeDisplayOrder`, after the block's question columns: with `breakoutSets` (the default) one
 * column a question, `<block description without spaces>_DO_<export tag>` →
 * `{"ImportId":"BL_x_DO","choiceId":"<export tag>"}`, text `<block description> - Display Order - <tag>`,
 * holding the position the question was shown at; without, one column `<description>_DO` holding the tags
 * shown, joined by `|`. The response records the order once, as `BL_x_DO` (question ids joined by `|`,
 * engine/response.ts); the export derives both layouts from it.
 */
import { blocksOf, type QsfBlock, type QsfDocument, type QsfQuestion } from '../../surveys/definition/qsf.js';
import type { ColumnOptions } from '../../surveys/definition/question-columns.js';
import type { ExportColumn, ExportRow } from '../formats/export-layout.js';
import { type DisplayOrder, displayOrderColumns, displayOrderValues } from './display-order.js';

const tagOf = (question: QsfQuestion) => question.DataExportTag || question.QuestionID;
const orderKey = (blockId: string) => `${blockId}_DO`;

/**
 * Blocks whose questions are shown in random order (`RandomizeQuestions` other than false), loops aside,
 * and not `RandomWithXPerPage`: the real export of a block randomized that way has no display-order
 * columns (the qualtRics API TEST PROJECT export in ../shared/fixtures/exports, with includeDisplayOrder;
 * test/conformance/export-layout.test.ts).
 */
export function randomizedBlocks(doc: QsfDocument): QsfBlock[] {
  return blocksOf(doc).filter((block) => {
    const options = (block.Options ?? {}) as { RandomizeQuestions?: unknown; Looping?: unknown };
    const randomize = options.RandomizeQuestions;
    const loops = options.Looping === 'Static' || options.Looping === 'Question';
    const ordered =
      randomize === true ||
      (typeof randomize === 'string' && !/^(|false|none|RandomWithXPerPage)$/i.test(randomize));
    return !loops && ordered;
  });
}

const questionIdsOf = (block: QsfBlock) =>
  block.BlockElements.flatMap((e) => (e.Type === 'Question' && e.QuestionID ? [e.QuestionID] : []));

/** A randomized block's display order, over `questions` (its questions, in order). */
function blockOrder(block: QsfBlock, questions: QsfQuestion[]): DisplayOrder {
  const description = block.Description?.trim() || block.ID;
  const name = description.replace(/\s+/g, '') || block.ID;
  return {
    key: orderKey(block.ID),
    name: `${name}_DO`,
    text: `${description} - Display Order`,
    items: questions.map((q) => ({ recorded: q.QuestionID, name: tagOf(q) })),
  };
}

/** The display-order columns of one randomized block; `questions` are its exported questions, in order. */
export function blockOrderColumns(
  block: QsfBlock,
  questions: QsfQuestion[],
  options: ColumnOptions,
): ExportColumn[] {
  return displayOrderColumns(blockOrder(block, questions), options);
}

/** The block id of each randomized block's last question: its display-order columns follow that question. */
export function blockOrderAfter(doc: QsfDocument, exported: ReadonlySet<string>): Map<string, QsfBlock> {
  const out = new Map<string, QsfBlock>();
  for (const block of randomizedBlocks(doc)) {
    const last = questionIdsOf(block)
      .filter((id) => exported.has(id))
      .at(-1);
    if (last) out.set(last, block);
  }
  return out;
}

/**
 * With `includeDisplayOrder`, fills each randomized block's display-order columns from the recorded
 * `BL_x_DO`: a question's position, or the export tags joined by `|`.
 */
export function blockOrderValues(
  doc: QsfDocument,
  questions: ReadonlyMap<string, QsfQuestion>,
  options: ColumnOptions,
): ((row: ExportRow) => ExportRow) | undefined {
  const orders = randomizedBlocks(doc).map((block) =>
    blockOrder(
      block,
      questionIdsOf(block).flatMap((id) => questions.get(id) ?? []),
    ),
  );
  return displayOrderValues(orders, options);
}

/** Block display-order column key → the block's question ids (export-selection.ts keeps them with those). */
export function blockOrderQuestions(doc: QsfDocument): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const block of randomizedBlocks(doc)) {
    const ids = questionIdsOf(block);
    out.set(orderKey(block.ID), ids);
    for (const id of ids) out.set(`${orderKey(block.ID)}_${id}`, ids);
  }
  return out;
}
