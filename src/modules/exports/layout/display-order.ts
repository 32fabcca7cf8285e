/**
 * The one layout of a display order in the exports, with `includeDisplayOrder` (block-display-order.ts:
 * a randomized block's questions; flow-display-order.ts: a flow randomizer's children). The response
 * records the order once, under `key`, as the recorded ids of what was shown joined by `|`
 * (engine/response.ts). With `breakoutSets` (the default) the export has one numeric column an item,
 * `<name>_<item>` → `{"ImportId":"<key>","choiceId":"<item>"}`, holding the position it was shown at
 * (empty when it was not shown); without, one column `<name>` holding the items' names joined by `|`.
 */
import type { ColumnOptions } from '../../surveys/definition/question-columns.js';
import type { ExportColumn, ExportRow } from '../formats/export-layout.js';

export interface DisplayOrder {
  /** Where the response records it, and its ImportId. */
  key: string;
  /** The export's column name (without breakoutSets), and the stem of the per-item names. */
  name: string;
  /** The header text. */
  text: string;
  /** What was ordered: the id the response records, and its name in the export. */
  items: readonly { recorded: string; name: string }[];
}

export function displayOrderColumns(order: DisplayOrder, options: ColumnOptions): ExportColumn[] {
  const { key, name, text, items } = order;
  if (options.breakoutSets === false) {
    const bytes = items.reduce((sum, item) => sum + Buffer.byteLength(item.name) + 1, 0);
    return [
      {
        kind: 'question',
        key,
        name,
        text,
        importId: { ImportId: key },
        type: 'string',
        maxBytes: Math.max(1, bytes - 1),
      },
    ];
  }
  return items.map((item) => ({
    kind: 'question',
    key: `${key}_${item.recorded}`,
    name: `${name}_${item.name}`,
    text: `${text} - ${item.name}`,
    importId: { ImportId: key, choiceId: item.name },
    type: 'numeric',
    decimals: 0,
  }));
}

/**
 * The row's values with the recorded orders laid out as displayOrderColumns has them (undefined: nothing
 * to fill, without `includeDisplayOrder` or without orders).
 */
export function displayOrderValues(
  orders: readonly Pick<DisplayOrder, 'key' | 'items'>[],
  options: ColumnOptions,
): ((row: ExportRow) => ExportRow) | undefined {
  if (!options.includeDisplayOrder || orders.length === 0) return undefined;
  return (row) => {
    const values = { ...row.values };
    for (const { key, items } of orders) {
      const recorded = values[key];
      if (typeof recorded !== 'string' || recorded === '') continue;
      const shown = recorded.split('|');
      if (options.breakoutSets === false)
        values[key] = shown.map((id) => items.find((item) => item.recorded === id)?.name ?? id).join('|');
      else
        shown.forEach((id, i) => {
          values[`${key}_${id}`] = i + 1;
        });
    }
    return { ...row, values };
  };
}
