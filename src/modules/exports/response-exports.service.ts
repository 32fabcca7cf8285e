import { isoSeconds } from '../../clock.js';
import { fromJson } from '../../db/json.js';
import type { Deps } from '../../deps.js';
import { ApiError } from '../../http/errors.js';
import { newId } from '../../http/ids.js';
import type { Principal } from '../../http/principal.js';
import { jobBlobKey } from '../../jobs/job-files.js';
import { enqueueJob, getJob, type JobView, notifyJobQueued } from '../../jobs/jobs.service.js';
import type { QsfDocument } from '../surveys/definition/qsf.js';
import { grants, PERSONAL_DATA_KEYS } from '../surveys/survey-permissions.js';
import {
  accessibleSurvey,
  findSurveyHeaderInScope,
  findSurveyInScope,
  requireSurveyAccess,
  surveyNotFound,
} from '../surveys/surveys.service.js';
import { newContinuationSecret, resumePoint, tokenOf } from './continuation.js';
import { isExpired } from './export-expiry.job.js';
import { checkExportRequest, type ExportOptionsRequest } from './export-request.js';
import { checkColumnSelection, SURVEY_METADATA_IDS } from './export-selection.js';
import { exportFileName } from './formats/export-archive.js';
import { columnOptionsOf } from './layout/export-columns.js';
import { type ExportPayload, type ExportProgress, RESPONSE_EXPORT_JOB } from './response-export.job.js';

/** What a caller may ask of an export (both spellings of the API take the same options). */
export interface ExportRequest extends ExportOptionsRequest {
  includeDisplayOrder?: boolean;
  breakoutSets?: boolean;
}

/** Checks the request, then queues the export job; answers the export id (`ES_`). */
export async function startExport(
  deps: Deps,
  principal: Principal,
  surveyId: string,
  request: ExportRequest,
): Promise<string> {
  const { format, from, to, options } = checkExportRequest(request);
  const survey = await findSurveyInScope(deps.db, principal, surveyId);
  if (!survey) throw surveyNotFound(surveyId);
  const access = await requireSurveyAccess(deps.db, principal, survey, 'result.downloadSurveyResults');
  const asked = checkColumnSelection(fromJson<QsfDocument>(survey.definition), request);
  // A collaborator without result.viewPersonalData exports without the personal-data columns.
  const selection = grants(access, 'result.viewPersonalData')
    ? asked
    : { ...asked, surveyMetadataIds: notPersonal(asked.surveyMetadataIds) };
  const token = request.continuationToken;
  const afterSeq = token === undefined ? undefined : await resumePoint(deps, principal, surveyId, token);
  // A continued export offers the next token unless told not to.
  const continues = request.allowContinuation ?? token !== undefined;
  const id = newId('ES');
  const compress = request.compress !== false;
  const name = compress ? `${id}.zip` : exportFileName(id, format);
  const payload: ExportPayload = {
    surveyId,
    format,
    file: jobBlobKey(principal.organizationId, 'exports', name),
    compress,
    ...(from !== undefined ? { from } : {}),
    ...(to !== undefined ? { to } : {}),
    ...(request.limit !== undefined ? { limit: request.limit } : {}),
    options,
    columns: columnOptionsOf(request),
    selection,
    ...(request.exportResponsesInProgress ? { inProgress: true } : {}),
    ...(request.responseIds !== undefined ? { responseIds: [...new Set(request.responseIds)] } : {}),
    ...(afterSeq !== undefined ? { afterSeq } : {}),
    ...(continues ? { continuation: { secret: newContinuationSecret() } } : {}),
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
  if (surveyId !== undefined)
    await accessibleSurvey(deps.db, principal, surveyId, 'result.downloadSurveyResults');
  const job = await getJob<ExportProgress>(deps.db, principal, RESPONSE_EXPORT_JOB, exportId);
  if (!job || (surveyId !== undefined && (job.payload as ExportPayload).surveyId !== surveyId))
    throw ApiError.of('FW_EXP_1', `Response export ${exportId} not found.`);
  if (surveyId === undefined) {
    // The legacy spelling names no survey: the caller must be allowed its survey, if it still exists
    // (an export of a since-deleted survey still reports how it ended).
    const survey = await findSurveyHeaderInScope(deps.db, principal, (job.payload as ExportPayload).surveyId);
    if (survey) await requireSurveyAccess(deps.db, principal, survey, 'result.downloadSurveyResults');
  }
  return job;
}

/** What both spellings' progress answers share; each adds its own `file` / `fileId`. */
export interface ExportStatus {
  percentComplete: number;
  status: JobView<ExportProgress>['status'];
  continuationToken?: string;
  expiresAt?: string;
  expired?: boolean;
}

/**
 * A complete export stays `complete` once its file has expired (clients poll for that word), and says
 * `expired: true`; its file then answers 404 FW_EXP_1.
 */
export function presentExportStatus(job: JobView<ExportProgress>, now: Date): ExportStatus {
  const status: ExportStatus = { percentComplete: job.percentComplete, status: job.status };
  if (job.status !== 'complete') return status;
  const token = tokenOf(job.id, job.payload as ExportPayload, job.result);
  if (token) status.continuationToken = token;
  if (job.result?.expiresAt) {
    status.expiresAt = isoSeconds(new Date(job.result.expiresAt));
    status.expired = isExpired(job.result, now);
  }
  return status;
}

export interface ExportFile {
  /** The BlobStore key: any node reads it (job-files.ts). */
  key: string;
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
  if (isExpired(job.result, deps.clock.now()))
    throw ApiError.of('FW_EXP_1', `Response export ${exportId} expired; export again.`);
  return {
    key: (job.payload as ExportPayload).file,
    fileName: job.result.fileName,
    contentType: job.result.contentType,
  };
}

const notPersonal = (ids: readonly string[] = SURVEY_METADATA_IDS) =>
  ids.filter((id) => !PERSONAL_DATA_KEYS.includes(id));
