import { rm, stat } from 'node:fs/promises';
import { fromJson } from '../../db/json.js';
import type { Deps } from '../../deps.js';
import { ApiError } from '../../http/errors.js';
import { newId } from '../../http/ids.js';
import type { Principal } from '../../http/principal.js';
import { jobBlobKey, jobBlobs, saveLocalFile } from '../../jobs/job-files.js';
import { enqueueJob, getJob, type JobView, notifyJobQueued } from '../../jobs/jobs.service.js';
import type { QsfDocument } from '../surveys/definition/qsf.js';
import {
  accessibleSurvey,
  findSurveyHeaderInScope,
  requireSurveyAccess,
} from '../surveys/surveys.service.js';
import { ImportHeaderError } from './import-columns.js';
import { type ImportFormat, readHeaderRows, UnreadableFileError } from './import-file.js';
import { matchFileHeader } from './import-header.js';

export const RESPONSE_IMPORT_JOB = 'responseImport';

/** How many failed rows an import keeps with their reasons; the count of failures is always exact. */
export const ERRORS_KEPT = 1000;

export interface ImportPayload {
  surveyId: string;
  /** The upload's BlobStore key (`<orgId>/uploads/<id>.upload`); removed when the job ends. */
  file: string;
  format: ImportFormat;
  decimalSeparator: '.' | ',';
}

/** The job's checkpoint and result: rows done so far (a restarted job skips them) and the counts. */
export interface ImportProgress {
  rowsDone: number;
  rowsTotal: number;
  added: number;
  failed: number;
  errors: { row: number; message: string }[];
  /** Row-1 names of the file's columns that the survey has no column for; they are not imported. */
  ignoredColumns: string[];
}

/** What the caller sent besides the file (multipart text fields). */
export interface ImportRequest {
  surveyId?: string | undefined;
  format?: string | undefined;
  charset?: string | undefined;
  decimalSeparator?: string | undefined;
  fileUrl?: string | undefined;
  /** Where the upload was saved; undefined when the request had no file part. */
  file?: string | undefined;
}

interface CheckedFields {
  surveyId: string;
  format: ImportFormat;
  decimalSeparator: '.' | ',';
}

function checkFields(request: ImportRequest): CheckedFields {
  if (request.fileUrl !== undefined)
    throw ApiError.invalid('fileUrl', 'is not supported: upload the file (multipart part `file`)');
  if (!request.surveyId) throw ApiError.invalid('surveyId', 'is required');
  const format = request.format ?? 'csv';
  if (format !== 'csv' && format !== 'tsv' && format !== 'csv2013')
    throw ApiError.invalid('format', 'must be csv, tsv or csv2013');
  if (request.charset !== undefined && !/^utf-?8$/i.test(request.charset))
    throw ApiError.invalid('charset', 'must be UTF-8 (the only character set taken)');
  const decimalSeparator = request.decimalSeparator ?? '.';
  if (decimalSeparator !== '.' && decimalSeparator !== ',')
    throw ApiError.invalid('decimalSeparator', 'must be . or ,');
  return { surveyId: request.surveyId, format, decimalSeparator };
}

async function checkFile(file: string | undefined): Promise<string> {
  const size = file ? (await stat(file)).size : 0;
  if (!file || size === 0) throw ApiError.invalid('file', 'is required and must not be empty');
  return file;
}

/**
 * `POST /v3/responseimports`: checks the fields, the survey (404 GSI_2 outside the caller's reach) and the
 * file's header rows against the survey's export layout, stores it in the BlobStore (where the job reads
 * it, on whichever node), then queues the job. The local upload is removed in any case, the stored one
 * when anything is refused. Answers the import id (`PGRS_`).
 */
export async function startImport(deps: Deps, principal: Principal, request: ImportRequest): Promise<string> {
  const blobs = jobBlobs(deps);
  let key: string | undefined;
  try {
    const checked = checkFields(request);
    const survey = await accessibleSurvey(
      deps.db,
      principal,
      checked.surveyId,
      'response.editSurveyResponses',
    );
    const file = await checkFile(request.file);
    const rows = await readHeaderRows(file, checked.format);
    const doc = fromJson<QsfDocument>(survey.definition);
    const { ignored } = matchFileHeader(doc, rows, checked.format, checked.surveyId);
    const id = newId('PGRS');
    key = jobBlobKey(principal.organizationId, 'uploads', `${id}.upload`);
    await saveLocalFile(blobs, key, file);
    const payload: ImportPayload = {
      surveyId: checked.surveyId,
      file: key,
      format: checked.format,
      decimalSeparator: checked.decimalSeparator,
    };
    const initialResult: ImportProgress = {
      rowsDone: 0,
      rowsTotal: 0,
      added: 0,
      failed: 0,
      errors: [],
      ignoredColumns: ignored,
    };
    await enqueueJob(
      deps.db,
      principal,
      { id, kind: RESPONSE_IMPORT_JOB, payload, initialResult },
      deps.clock.now(),
    );
    notifyJobQueued();
    return id;
  } catch (error) {
    if (key) await blobs.remove(key);
    if (error instanceof ImportHeaderError || error instanceof UnreadableFileError)
      throw ApiError.of('FW_IMP_2', error.message);
    throw error;
  } finally {
    if (request.file) await rm(request.file, { force: true });
  }
}

/** The import of the caller's organisation (of that survey, when given); 404 otherwise. */
export async function getImport(
  deps: Deps,
  principal: Principal,
  importId: string,
  surveyId?: string,
): Promise<JobView<ImportProgress>> {
  if (surveyId !== undefined)
    await accessibleSurvey(deps.db, principal, surveyId, 'response.editSurveyResponses');
  const job = await getJob<ImportProgress>(deps.db, principal, RESPONSE_IMPORT_JOB, importId);
  const payload = job?.payload as ImportPayload | undefined;
  if (!job || !payload || (surveyId !== undefined && payload.surveyId !== surveyId))
    throw ApiError.of('FW_IMP_1', `Response import ${importId} not found.`);
  if (surveyId === undefined) {
    // The legacy spelling names no survey: the caller must be allowed its survey while it exists.
    const survey = await findSurveyHeaderInScope(deps.db, principal, payload.surveyId);
    if (survey) await requireSurveyAccess(deps.db, principal, survey, 'response.editSurveyResponses');
  }
  return job;
}
