import { PassThrough } from 'node:stream';
import { fromJson } from '../../db/json.js';
import type { Scope } from '../../db/scope.js';
import type { Deps } from '../../deps.js';
import { jobBlobs } from '../../jobs/job-files.js';
import { type JobContext, JobFailure, type JobHandler, type RunningJob } from '../../jobs/job-runner.js';
import { countOpenSessions } from '../engine/sessions.service.js';
import {
  countResponsesForExport,
  type ExportResponseRow,
  type ResponseExportFilter,
  type ResponseExportParts,
  streamResponsesForExport,
} from '../responses/export-reads.service.js';
import type { QsfDocument } from '../surveys/definition/qsf.js';
import { findSurveyInScope } from '../surveys/surveys.service.js';
import { expiryTime, scheduleExportExpiry } from './export-expiry.job.js';
import { type ColumnSelection, selectColumns } from './export-selection.js';
import { writeExportArchive } from './formats/export-archive.js';
import type {
  ExportFormat,
  ExportLayout,
  ExportRow,
  ExportValue,
  FormatOptions,
} from './formats/export-layout.js';
import { storedJsonApplies, storedJsonLayout } from './formats/json-writer.js';
import { LEGACY_DEFAULTS } from './formats/metadata-columns.js';
import { inProgressRows } from './in-progress-rows.js';
import { type ColumnOptions, derivedValues, exportLayout } from './layout/export-columns.js';
import { fitStringWidths } from './string-widths.js';

export const RESPONSE_EXPORT_JOB = 'responseExport';

/**
 * How often (in rows) the job records its progress, unless told otherwise: each record is a write of the
 * job's row, committed on its own, that the rows wait for. Every 250 rows, a PostgreSQL json export of 200k
 * responses spent 0.83 s of its 10.2 s on 801 of them; every 5,000, a million responses make 200 (each
 * half a percent), and a client polling its progress still sees it move several times a second.
 */
const CHECKPOINT_ROWS = 5_000;

export interface ExportPayload {
  surveyId: string;
  format: ExportFormat;
  /** The BlobStore key of the file the job writes (`<orgId>/exports/<id>.zip`, job-files.ts). */
  file: string;
  compress: boolean;
  /** Recorded on or after / before (ISO seconds, UTC). */
  from?: string;
  to?: string;
  limit?: number;
  options: FormatOptions;
  /** Layout options: display-order columns, multi-answer breakout (export-columns.ts). */
  columns?: ColumnOptions;
  /** Only the selected columns (export-selection.ts). */
  selection?: ColumnSelection;
  /** The open sessions (responses in progress) instead of the recorded responses. */
  inProgress?: boolean;
  /** Only these responses (`responseIds`). */
  responseIds?: string[];
  /** Continuing an earlier export: only responses after this recorded-order position. */
  afterSeq?: number;
  /** Set when the export offers a continuation token (continuation.ts). */
  continuation?: { secret: string };
}

/** The job's progress while it runs, and its result once complete (with the file). */
export interface ExportProgress {
  rowsWritten: number;
  rowsTotal: number;
  fileName?: string;
  contentType?: string;
  truncatedValues?: number;
  /** Recorded-order position of the last response written (or where it started): the next token's start. */
  lastSeq?: number;
  /** When the file is deleted (ISO 8601); the export then answers "expired" (export-expiry.job.ts). */
  expiresAt?: string;
}

/**
 * The response export job: counts the responses first (so percentComplete is honest), then streams them
 * in recorded order through the format's writer into the job's file. A restarted job writes the file
 * again from the start (an export has nothing to resume into).
 */
export function responseExportJob(deps: Deps, options: { checkpointRows?: number } = {}): JobHandler {
  const every = options.checkpointRows ?? CHECKPOINT_ROWS;
  return { run: (job, context) => runExport(deps, job, context, every) };
}

function withLegacyDefaults(values: Record<string, ExportValue>, format: ExportFormat) {
  if (format === 'csv2013') {
    values.responseSet ??= LEGACY_DEFAULTS.responseSet;
    values.recipientName ??= LEGACY_DEFAULTS.recipientName;
  }
  return values;
}

/**
 * The JSON columns a format reads besides `values`: reading and parsing them all was a third of a csv
 * export. A json export whose values nothing but the layout shapes (no option that changes them, no
 * derived values) reads the json members stored on its layout (`storedJson`, decision 0022).
 */
function rowParts(
  format: ExportFormat,
  options: FormatOptions,
  layout: ExportLayout,
  derived: boolean,
): ResponseExportParts {
  const json = format === 'json' || format === 'ndjson';
  return {
    labels: json || (options.useLabels === true && format !== 'spss'),
    displayedFields: json || options.seenUnansweredRecode !== undefined,
    displayedValues: json,
    ...(json && !derived && storedJsonApplies(options)
      ? { storedJson: storedJsonLayout(layout.columns).key }
      : {}),
  };
}

/** Parses what was read (see rowParts); json copies the displayed fields and values as stored. */
function toExportRow(row: ExportResponseRow, format: ExportFormat, options: FormatOptions): ExportRow {
  const values = withLegacyDefaults(fromJson<Record<string, ExportValue>>(row.values), format);
  const parsed = <T>(text: string | undefined) => (text === undefined ? undefined : fromJson<T>(text));
  const { displayed_fields: fields, displayed_values: shown } = row;
  const raw = (format === 'json' || format === 'ndjson') && fields !== undefined && shown !== undefined;
  return {
    responseId: row.id,
    values,
    labels: parsed<Record<string, string>>(row.labels),
    displayedFields: raw && options.seenUnansweredRecode === undefined ? undefined : parsed<string[]>(fields),
    displayedValues: raw ? undefined : parsed<Record<string, unknown>>(shown),
    displayedJson: raw ? { fields, values: shown } : undefined,
    storedJson: row.export_json ?? undefined,
  };
}

async function runExport(
  deps: Deps,
  job: RunningJob,
  context: JobContext,
  checkpointRows: number,
): Promise<ExportProgress> {
  const payload = job.payload as ExportPayload;
  const scope = { organizationId: job.organizationId };
  const survey = await findSurveyInScope(deps.db, scope, payload.surveyId);
  if (!survey) throw new JobFailure('The survey was deleted.');
  const doc = fromJson<QsfDocument>(survey.definition);
  const layout = selectColumns(
    exportLayout(doc, payload.format, payload.columns),
    doc,
    payload.selection ?? {},
  );
  const join = derivedValues(doc, payload.columns ?? {});
  const { from, to, afterSeq, responseIds } = payload;
  const filter = { surveyId: payload.surveyId, from, to, afterSeq, responseIds };
  // The pre-pass measures recorded responses; sessions in progress keep the default width.
  if (payload.format === 'spss' && !payload.inProgress)
    await fitStringWidths(deps.db, scope, layout, { filter, ...payload });
  const parts = rowParts(payload.format, payload.options, layout, join !== undefined);
  const source = await openSource(deps, scope, filter, payload, parts, context.now());
  const rowsTotal = payload.limit === undefined ? source.total : Math.min(source.total, payload.limit);
  let rowsWritten = 0;
  let lastSeq = afterSeq ?? 0;
  await context.checkpoint(deps.db, 0, { rowsWritten, rowsTotal } satisfies ExportProgress);

  async function* rows(): AsyncGenerator<ExportRow> {
    for await (const { row, seq } of source.rows) {
      if (rowsWritten >= rowsTotal) return;
      yield join ? join(row) : row;
      rowsWritten++;
      lastSeq = seq ?? lastSeq;
      if (rowsWritten % checkpointRows === 0) {
        const percent = Math.min(99, Math.floor((100 * rowsWritten) / Math.max(rowsTotal, 1)));
        await context.checkpoint(deps.db, percent, { rowsWritten, rowsTotal } satisfies ExportProgress);
      }
    }
  }

  const blobs = jobBlobs(deps);
  // The attempt's own blob, renamed to payload.file once it completes holding the lease (job-attempt.ts).
  const destination = new PassThrough();
  // Its failure reaches us through `saving` and the writer; the database store may not be reading it yet,
  // and an 'error' event nobody listens to would end the process.
  destination.on('error', () => {});
  const saving = blobs.save(context.outputKey?.(blobs, payload.file) ?? payload.file, destination);
  // A store that fails (a directory it cannot create) must stop the writer, which waits on the stream.
  saving.catch((error: Error) => destination.destroy(error));
  try {
    const result = await writeExportArchive({
      format: payload.format,
      layout,
      rows: rows(),
      options: payload.options,
      surveyName: survey.name,
      compress: payload.compress,
      destination,
      modified: context.now(),
    });
    await saving;
    const expiresAt = expiryTime(deps, context.now());
    await scheduleExportExpiry(deps.db, scope, job.id, expiresAt, context.now());
    return {
      rowsWritten,
      rowsTotal,
      fileName: result.fileName,
      contentType: result.contentType,
      ...(result.truncatedValues ? { truncatedValues: result.truncatedValues } : {}),
      ...(payload.continuation ? { lastSeq } : {}),
      expiresAt: expiresAt.toISOString(),
    };
  } catch (error) {
    // A writer that failed before taking the stream has not ended it: the save would wait for ever.
    destination.destroy(error instanceof Error ? error : new Error(String(error)));
    // The store's own failure, when it failed, says more than the writer's "closed" that followed it.
    const stored = await saving.then(
      () => undefined,
      (failure: unknown) => failure,
    );
    throw exportFailure(error, stored);
  }
}

/** What a failed write becomes: a JobFailure naming the cause when a retry would meet it again. */
function exportFailure(error: unknown, stored: unknown): unknown {
  if (error instanceof RangeError) return new JobFailure(`The export could not be written: ${error.message}`);
  if (isFileSystemError(stored))
    return new JobFailure(
      `The export file could not be created (${stored.code}): the node that ran the export cannot write ` +
        'to its blob store.',
      { cause: stored },
    );
  if (isFileSystemError(error))
    return new JobFailure(`The export file could not be written (${error.code}).`, { cause: error });
  return error;
}

/** An error of the file system (ENOENT, ENOSPC, EACCES ...): it says which, and a retry would meet it again. */
function isFileSystemError(error: unknown): error is NodeJS.ErrnoException & { code: string } {
  if (typeof error !== 'object' || error === null) return false;
  const { code, syscall } = error as NodeJS.ErrnoException;
  return typeof code === 'string' && typeof syscall === 'string';
}

interface SourceRow {
  row: ExportRow;
  /** Recorded-order position (recorded responses only). */
  seq?: number;
}

/** What the export writes: the recorded responses in recorded order, or the sessions in progress. */
async function openSource(
  deps: Deps,
  scope: Scope,
  filter: ResponseExportFilter,
  payload: ExportPayload,
  parts: ResponseExportParts,
  now: Date,
): Promise<{ total: number; rows: AsyncIterable<SourceRow> }> {
  if (payload.inProgress) {
    const sessions = await inProgressRows(deps.db, scope, filter, now);
    if (!sessions) throw new JobFailure('The survey was deleted.');
    const rows = async function* () {
      for await (const row of sessions) {
        withLegacyDefaults(row.values as Record<string, ExportValue>, payload.format);
        yield { row };
      }
    };
    return { total: await countOpenSessions(deps.db, scope, filter), rows: rows() };
  }
  const rows = async function* () {
    for await (const row of streamResponsesForExport(deps.db, scope, filter, undefined, parts))
      yield { row: toExportRow(row, payload.format, payload.options), seq: row.seq };
  };
  return { total: await countResponsesForExport(deps.db, scope, filter), rows: rows() };
}
