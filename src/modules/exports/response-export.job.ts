import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { fromJson } from '../../db/json.js';
import type { Deps } from '../../deps.js';
import { type JobContext, JobFailure, type JobHandler, type RunningJob } from '../../jobs/job-runner.js';
import type { ResponseRow } from '../responses/responses.store.js';
import type { QsfDocument } from '../surveys/qsf.js';
import { findSurveyInScope } from '../surveys/surveys.service.js';
import { exportLayout } from './export-columns.js';
import { writeExportArchive } from './formats/export-archive.js';
import type { ExportFormat, ExportRow, ExportValue, FormatOptions } from './formats/export-layout.js';
import { countExportResponses, streamExportResponses } from './response-exports.store.js';

export const RESPONSE_EXPORT_JOB = 'responseExport';

/** How often (in rows) the job records its progress, unless told otherwise. */
const CHECKPOINT_ROWS = 250;

export interface ExportPayload {
  surveyId: string;
  format: ExportFormat;
  /** Absolute path of the file the job writes (under the job files directory). */
  file: string;
  compress: boolean;
  /** Recorded on or after / before (ISO seconds, UTC). */
  from?: string;
  to?: string;
  limit?: number;
  options: FormatOptions;
}

/** The job's progress while it runs, and its result once complete (with the file). */
export interface ExportProgress {
  rowsWritten: number;
  rowsTotal: number;
  fileName?: string;
  contentType?: string;
  truncatedValues?: number;
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

function toExportRow(row: ResponseRow, format: ExportFormat): ExportRow {
  const values = fromJson<Record<string, ExportValue>>(row.values);
  if (format === 'csv2013') {
    values.responseSet ??= 'Default Response Set';
    values.recipientName ??= 'Anonymous';
  }
  return {
    responseId: row.id,
    values,
    labels: fromJson<Record<string, string>>(row.labels),
    displayedFields: fromJson<string[]>(row.displayed_fields),
    displayedValues: fromJson<Record<string, unknown>>(row.displayed_values),
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
  const layout = exportLayout(fromJson<QsfDocument>(survey.definition), payload.format);
  const filter = { surveyId: payload.surveyId, from: payload.from, to: payload.to };
  const counted = await countExportResponses(deps.db, scope, filter);
  const rowsTotal = payload.limit === undefined ? counted : Math.min(counted, payload.limit);
  let rowsWritten = 0;
  await context.checkpoint(deps.db, 0, { rowsWritten, rowsTotal } satisfies ExportProgress);

  async function* rows(): AsyncGenerator<ExportRow> {
    for await (const row of streamExportResponses(deps.db, scope, filter)) {
      if (rowsWritten >= rowsTotal) return;
      yield toExportRow(row, payload.format);
      rowsWritten++;
      if (rowsWritten % checkpointRows === 0) {
        const percent = Math.min(99, Math.floor((100 * rowsWritten) / Math.max(rowsTotal, 1)));
        await context.checkpoint(deps.db, percent, { rowsWritten, rowsTotal } satisfies ExportProgress);
      }
    }
  }

  try {
    const result = await writeExportArchive({
      format: payload.format,
      layout,
      rows: rows(),
      options: payload.options,
      surveyName: survey.name,
      compress: payload.compress,
      destination: createWriteStream(payload.file),
      modified: context.now(),
    });
    return {
      rowsWritten,
      rowsTotal,
      fileName: result.fileName,
      contentType: result.contentType,
      ...(result.truncatedValues ? { truncatedValues: result.truncatedValues } : {}),
    };
  } catch (error) {
    await rm(payload.file, { force: true });
    if (error instanceof RangeError)
      throw new JobFailure(`The export could not be written: ${error.message}`);
    throw error;
  }
}
