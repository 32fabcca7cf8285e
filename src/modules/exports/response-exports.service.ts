import { join } from 'node:path';
import { isoSeconds } from '../../clock.js';
import type { Deps } from '../../deps.js';
import { ApiError } from '../../http/errors.js';
import { newId } from '../../http/ids.js';
import type { Principal } from '../../http/principal.js';
import { jobFilesDirectory } from '../../jobs/job-files.js';
import { enqueueJob, getJob, type JobView, notifyJobQueued } from '../../jobs/jobs.service.js';
import {
  accessibleSurvey,
  findSurveyHeaderInScope,
  requireSurveyAccess,
} from '../surveys/surveys.service.js';
import { exportFileName } from './formats/export-archive.js';
import { EXPORT_FORMATS, type ExportFormat, type FormatOptions } from './formats/export-layout.js';
import { type ExportPayload, type ExportProgress, RESPONSE_EXPORT_JOB } from './response-export.job.js';

/** What a caller may ask of an export (both spellings of the API take the same options). */
export interface ExportRequest {
  format: string;
  useLabels?: boolean;
  startDate?: string;
  endDate?: string;
  limit?: number;
  compress?: boolean;
  timeZone?: string;
  seenUnansweredRecode?: number | string;
  formatDecimalAsComma?: boolean;
  newlineReplacement?: string;
}

function checkFormat(format: string): ExportFormat {
  if (!(EXPORT_FORMATS as readonly string[]).includes(format))
    throw ApiError.invalid('format', `must be one of ${EXPORT_FORMATS.join(', ')}`);
  return format as ExportFormat;
}

function checkDate(field: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw ApiError.invalid(field, 'must be an ISO 8601 date and time');
  return isoSeconds(date);
}

function checkTimeZone(timeZone: string | undefined): string | undefined {
  if (timeZone === undefined) return undefined;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
  } catch {
    throw ApiError.invalid('timeZone', 'must be an IANA time zone (America/Denver)');
  }
  return timeZone;
}

/** Checks the request, then queues the export job; answers the export id (`ES_`). */
export async function startExport(
  deps: Deps,
  principal: Principal,
  surveyId: string,
  request: ExportRequest,
): Promise<string> {
  const format = checkFormat(request.format);
  const from = checkDate('startDate', request.startDate);
  const to = checkDate('endDate', request.endDate);
  const timeZone = checkTimeZone(request.timeZone);
  await accessibleSurvey(deps.db, principal, surveyId);
  const id = newId('ES');
  const compress = request.compress !== false;
  const dir = await jobFilesDirectory(deps.config.dataDir);
  const options: FormatOptions = {
    ...(request.useLabels !== undefined ? { useLabels: request.useLabels } : {}),
    ...(timeZone !== undefined ? { timeZone } : {}),
    ...(request.seenUnansweredRecode !== undefined
      ? { seenUnansweredRecode: request.seenUnansweredRecode }
      : {}),
    ...(request.formatDecimalAsComma !== undefined
      ? { formatDecimalAsComma: request.formatDecimalAsComma }
      : {}),
    ...(request.newlineReplacement !== undefined ? { newlineReplacement: request.newlineReplacement } : {}),
  };
  const payload: ExportPayload = {
    surveyId,
    format,
    file: join(dir, compress ? `${id}.zip` : exportFileName(id, format)),
    compress,
    ...(from !== undefined ? { from } : {}),
    ...(to !== undefined ? { to } : {}),
    ...(request.limit !== undefined ? { limit: request.limit } : {}),
    options,
  };
  const initialResult: ExportProgress = { rowsWritten: 0, rowsTotal: 0 };
  await enqueueJob(
    deps.db,
    principal,
    { id, kind: RESPONSE_EXPORT_JOB, payload, initialResult },
    deps.clock.now(),
  );
  notifyJobQueued();
  return id;
}

/** The export of the caller's organisation (of that survey, when given); 404 otherwise. */
export async function getExport(
  deps: Deps,
  principal: Principal,
  exportId: string,
  surveyId?: string,
): Promise<JobView<ExportProgress>> {
  if (surveyId !== undefined) await accessibleSurvey(deps.db, principal, surveyId);
  const job = await getJob<ExportProgress>(deps.db, principal, RESPONSE_EXPORT_JOB, exportId);
  if (!job || (surveyId !== undefined && (job.payload as ExportPayload).surveyId !== surveyId))
    throw ApiError.of('FW_EXP_1', `Response export ${exportId} not found.`);
  if (surveyId === undefined) {
    // The legacy spelling names no survey: the caller must be allowed its survey, if it still exists
    // (an export of a since-deleted survey still reports how it ended).
    const survey = await findSurveyHeaderInScope(deps.db, principal, (job.payload as ExportPayload).surveyId);
    if (survey) requireSurveyAccess(principal, survey);
  }
  return job;
}

export interface ExportFile {
  path: string;
  fileName: string;
  contentType: string;
}

/** The finished export's file; 409 while it is still being written or when it failed. */
export async function exportFile(
  deps: Deps,
  principal: Principal,
  exportId: string,
  surveyId?: string,
): Promise<ExportFile> {
  const job = await getExport(deps, principal, exportId, surveyId);
  if (job.status !== 'complete' || !job.result?.fileName || !job.result.contentType) {
    const why = job.status === 'failed' ? `failed: ${job.errorMessage}` : 'is not complete yet';
    throw ApiError.of('FW_EXP_2', `Response export ${exportId} ${why}`);
  }
  return {
    path: (job.payload as ExportPayload).file,
    fileName: job.result.fileName,
    contentType: job.result.contentType,
  };
}
