/**
 * What the responses module publishes for exports (issue 18 item 4): the recorded responses an export
 * takes, their count and the `.sav` pre-pass's string widths. The exports module reads the `responses`
 * table only through these; the SQL stays in this module's stores.
 */

import type { Scope } from '../../db/scope.js';
import type { Queryable } from '../../deps.js';
import { settleRecordings } from '../surveys/survey-responses.service.js';
import type { ExportResponseRow, ResponseExportFilter, ResponseExportParts } from './responses.store.js';
import * as store from './responses.store.js';
import { findStringWidths, type StringWidthQuery } from './string-widths.store.js';

export type { ExportResponseRow, ResponseExportFilter, ResponseExportParts, StringWidthQuery };

const ALL_PARTS: ResponseExportParts = { labels: true, displayedFields: true, displayedValues: true };

/** How many responses the export will write (before its `limit`): counted first, for an honest percentComplete. */
export function countResponsesForExport(
  db: Queryable,
  scope: Scope,
  filter: ResponseExportFilter,
): Promise<number> {
  return store.countFilteredResponses(db, scope, filter);
}

/**
 * The export's responses in recorded order, a batch at a time (keyset on seq, the same on both engines),
 * up to the last one settled when it starts: recordings draw their `seq` concurrently and may commit out
 * of order, so a response after that point could still be joined by one with a smaller `seq`. Stopping
 * there, an export's last `seq` misses nothing a continuation would then skip (decisions 0003, 0012).
 */
export async function* streamResponsesForExport(
  db: Queryable,
  scope: Scope,
  filter: ResponseExportFilter,
  batchSize = 500, // 1000 was not measurably faster and raised a json export's peak memory by ~80 MB
  parts: ResponseExportParts = ALL_PARTS,
): AsyncGenerator<ExportResponseRow> {
  const throughSeq = await settledSeq(db, scope, filter.surveyId);
  let afterSeq = filter.afterSeq ?? 0;
  for (;;) {
    const batch = await store.listFilteredResponsesAfter(db, scope, filter, {
      afterSeq,
      throughSeq,
      limit: batchSize,
      parts,
    });
    const last = batch.at(-1);
    const full = batch.length === batchSize;
    // Each row is let go as it is handed on: the batch no longer holds the rows already written, so they
    // die young. Held to the end of the batch, every row outlived the garbage its writing made and went
    // to the old generation (PostgreSQL, 200k rows as json: peak 370–397 MB, 239 MB let go).
    batch.reverse();
    for (let row = batch.pop(); row !== undefined; row = batch.pop()) yield row;
    if (!last || !full) return;
    afterSeq = last.seq;
  }
}

/** The survey's highest `seq` once every recording under way has ended (every lower one is committed). */
function settledSeq(db: Queryable, scope: Scope, surveyId: string): Promise<number> {
  return db.transaction().execute(async (trx) => {
    await settleRecordings(trx, surveyId);
    return store.highestSeq(trx, scope, surveyId);
  });
}

/** Value key → the longest value an export writes for it, in UTF-8 bytes (0 when no response has it). */
export function responseStringWidths(
  db: Queryable,
  scope: Scope,
  query: StringWidthQuery,
): Promise<Map<string, number>> {
  return findStringWidths(db, scope, query);
}
