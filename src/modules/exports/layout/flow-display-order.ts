/**
 * The display order of a block randomizer of the survey flow (issue 13), with `includeDisplayOrder`, after
 * the question columns and before the embedded data: with `breakoutSets` (the default) one column a child,
 * `FL_n_DO_<child>` → `{"ImportId":"FL_n_DO","choiceId":"<child>"}`, holding the position the child was
 * presented at (empty when a subset left it out); without, one column `FL_n_DO` holding the children
 * presented, joined by `|`. `<child>` is a block child's description without spaces, any other child's
 * FlowID. The response records the order once, as `FL_n_DO` (`BL_x` or FlowID joined by `|`,
 * engine/response.ts); the export derives both layouts from it, as block-display-order.ts does for blocks.
 */
import { blocksOf, flowOf, type QsfDocument, type QsfFlowNode } from '../../surveys/definition/qsf.js';
import type { ColumnOptions } from '../../surveys/definition/question-columns.js';
import type { ExportColumn, ExportRow } from '../formats/export-layout.js';
import { type DisplayOrder, displayOrderColumns, displayOrderValues } from './display-order.js';

const RANDOMIZER = new Set(['BlockRandomizer', 'Randomizer']);
const BLOCK = new Set(['Block', 'Standard', 'Default']);
const orderKey = (flowId: string) => `${flowId}_DO`;

interface RandomizerChild {
  /** What the response records for the child: its block id, else its FlowID. */
  recorded: string;
  /** Its name in the export: the block description without spaces, else its FlowID. */
  name: string;
}

interface Randomizer {
  flowId: string;
  children: RandomizerChild[];
}

/** Every block randomizer of the flow (at any depth), in flow order, with its children. */
export function flowRandomizers(doc: QsfDocument): Randomizer[] {
  const descriptions = new Map(blocksOf(doc).map((b) => [b.ID, b.Description?.trim() ?? '']));
  const childOf = (node: QsfFlowNode): RandomizerChild => {
    if (!BLOCK.has(node.Type) || !node.ID) return { recorded: node.FlowID, name: node.FlowID };
    const name = (descriptions.get(node.ID) ?? '').replace(/\s+/g, '');
    return { recorded: node.ID, name: name || node.ID };
  };
  const out: Randomizer[] = [];
  const visit = (nodes: QsfFlowNode[]) => {
    for (const node of nodes) {
      if (RANDOMIZER.has(node.Type) && node.FlowID)
        out.push({ flowId: node.FlowID, children: (node.Flow ?? []).map(childOf) });
      if (node.Flow) visit(node.Flow);
    }
  };
  visit(flowOf(doc));
  return out;
}

/** A randomizer's display order. The header text is a guess: the evidence (public analysis code) has the names and ImportIds only. */
const flowOrder = ({ flowId, children }: Randomizer): DisplayOrder => ({
  key: orderKey(flowId),
  name: orderKey(flowId),
  text: `${flowId} - Block Randomizer - Display Order`,
  items: children,
});

/** The display-order columns of the flow's randomizers (none without `includeDisplayOrder`). */
export function flowOrderColumns(doc: QsfDocument, options: ColumnOptions): ExportColumn[] {
  if (!options.includeDisplayOrder) return [];
  return flowRandomizers(doc).flatMap((randomizer) => displayOrderColumns(flowOrder(randomizer), options));
}

/**
 * With `includeDisplayOrder`, fills each randomizer's display-order columns from the recorded `FL_n_DO`:
 * a child's position, or the children's names joined by `|`.
 */
export function flowOrderValues(
  doc: QsfDocument,
  options: ColumnOptions,
): ((row: ExportRow) => ExportRow) | undefined {
  return displayOrderValues(flowRandomizers(doc).map(flowOrder), options);
}
