/**
 * String widths that fit the data (issue 6): an spss export measures its string columns before writing
 * (the responses module's `responseStringWidths`) and sets each column's `maxBytes`, so the `.sav` declares
 * `A3` for a 3-byte answer and a very long string for a 40,000-byte one instead of cutting every value
 * at 2000 bytes.
 */

import type { Scope } from '../../db/scope.js';
import type { Queryable } from '../../deps.js';
import { type ResponseExportFilter, responseStringWidths } from '../responses/export-reads.service.js';
import type { ExportLayout, FormatOptions } from './formats/export-layout.js';

/**
 * Sets `maxBytes` of every string column of `layout` (a fresh layout, built for this export) from the
 * measured widths: a key no response has gets 0 (the writer's narrowest, 1 byte). A question or embedded
 * column keeps a larger width the layout already knows (a joined multi-answer set is derived from other
 * keys, so no response has its key); the metadata columns' preset widths are only for exports without
 * this pre-pass. A question column may also hold the seen-but-unanswered recode.
 */
export function applyStringWidths(
  layout: ExportLayout,
  measured: ReadonlyMap<string, number>,
  options: FormatOptions,
): void {
  const recode = options.seenUnansweredRecode;
  const recodeBytes = recode === undefined ? 0 : Buffer.byteLength(String(recode), 'utf8');
  for (const column of layout.columns) {
    if (column.type !== 'string') continue;
    const known = column.kind === 'metadata' ? 0 : (column.maxBytes ?? 0);
    const seen = column.kind === 'question' ? recodeBytes : 0;
    column.maxBytes = Math.max(measured.get(column.key) ?? 0, known, seen);
  }
}

/** The pre-pass of an spss export: one aggregate over the export's responses, then `applyStringWidths`. */
export async function fitStringWidths(
  db: Queryable,
  scope: Scope,
  layout: ExportLayout,
  of: { filter: ResponseExportFilter; limit?: number; options: FormatOptions },
): Promise<void> {
  const keys = layout.columns.filter((column) => column.type === 'string').map((column) => column.key);
  const measured = await responseStringWidths(db, scope, {
    filter: of.filter,
    keys,
    limit: of.limit,
    newlineReplacement: of.options.newlineReplacement,
  });
  applyStringWidths(layout, measured, of.options);
}
