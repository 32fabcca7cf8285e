import { text } from 'node:stream/consumers';
import type { Deps } from '../../deps.js';
import { ApiError } from '../../http/errors.js';
import { newId } from '../../http/ids.js';
import type { Principal } from '../../http/principal.js';
import { jobBlobKey, jobBlobs } from '../../jobs/job-files.js';
import { enqueueJob, getJob, type JobView, notifyJobQueued } from '../../jobs/jobs.service.js';
import {
  isMetadataKey,
  isQuestionKey,
  RESPONSE_EVENT_CONTEXT,
  RESPONSE_EVENT_CONTEXT_MAX,
} from '../surveys/definition/response-values.js';
import { accessibleSurvey } from '../surveys/surveys.service.js';

export const RESPONSE_UPDATE_JOB = 'responseUpdate';

/** The most updates one job takes (docs/surveys.md "Updating many responses"). */
export const MAX_UPDATES = 100_000;

/** How many failed updates a job keeps with their reasons; the count of failures is always exact. */
export const ERRORS_KEPT = 1000;

/** One response's change: embedded data fields to set (a null value removes the field). */
export interface EmbeddedDataUpdate {
  responseId: string;
  embeddedData: Record<string, string | null>;
}

/** What a caller sends: JSON `{updates, ignoreMissingResponses?}`, or the rows of a CSV file. */
export interface UpdateRequest {
  updates: { responseId: string; embeddedData: Record<string, string | number | null> }[];
  ignoreMissingResponses?: boolean | undefined;
}

export interface UpdatePayload {
  surveyId: string;
  /** The updates as JSON in the BlobStore (`<orgId>/uploads/<id>.json`); removed when the job ends. */
  file: string;
  ignoreMissingResponses: boolean;
}

/** The job's checkpoint and result: updates done so far (a restarted job skips them) and their outcomes. */
export interface UpdateProgress {
  done: number;
  total: number;
  updated: number;
  /** Updates of responses the survey does not have, when the caller said to ignore them. */
  skipped: number;
  failed: number;
  errors: { responseId: string; reason: string }[];
}

/**
 * `POST /v3/surveys/{surveyId}/update-responses`: checks the survey (404 GSI_2 outside the caller's reach)
 * and every field name and value (400 naming the first bad one, nothing queued), stores the updates in the
 * BlobStore and queues the job. Answers its progress id (`PGRS_`).
 */
export async function startResponseUpdate(
  deps: Deps,
  principal: Principal,
  surveyId: string,
  request: UpdateRequest,
): Promise<string> {
  await accessibleSurvey(deps.db, principal, surveyId, 'response.editSurveyResponses');
  if (request.updates.length === 0) throw ApiError.invalid('updates', 'must hold at least one update');
  if (request.updates.length > MAX_UPDATES)
    throw ApiError.invalid('updates', `must hold at most ${MAX_UPDATES} updates`);
  const updates = request.updates.map((update, i) => checkedUpdate(update, `updates[${i}]`));
  const id = newId('PGRS');
  const file = jobBlobKey(principal.organizationId, 'uploads', `${id}.json`);
  const blobs = jobBlobs(deps);
  await blobs.save(file, [Buffer.from(JSON.stringify(updates))]);
  try {
    const payload: UpdatePayload = {
      surveyId,
      file,
      ignoreMissingResponses: request.ignoreMissingResponses ?? false,
    };
    const total = updates.length;
    const initialResult: UpdateProgress = { done: 0, total, updated: 0, skipped: 0, failed: 0, errors: [] };
    const job = { id, kind: RESPONSE_UPDATE_JOB, payload, initialResult };
    await enqueueJob(deps.db, principal, job, deps.clock.now());
  } catch (error) {
    await blobs.remove(file);
    throw error;
  }
  notifyJobQueued();
  return id;
}

/** The rules of `PUT /v3/responses/{id}` for embedded data: a field name, never a question or metadata key. */
function checkedUpdate(update: UpdateRequest['updates'][number], field: string): EmbeddedDataUpdate {
  const embeddedData: Record<string, string | null> = {};
  for (const [name, value] of Object.entries(update.embeddedData)) {
    const at = `${field}.embeddedData.${name}`;
    if (isQuestionKey(name) || isMetadataKey(name))
      throw ApiError.invalid(at, 'is not an embedded data field name');
    const stored = value === null ? null : String(value);
    if (name === RESPONSE_EVENT_CONTEXT && stored !== null && [...stored].length > RESPONSE_EVENT_CONTEXT_MAX)
      throw ApiError.invalid(at, `must be at most ${RESPONSE_EVENT_CONTEXT_MAX} characters`);
    embeddedData[name] = stored;
  }
  return { responseId: update.responseId, embeddedData };
}

/** The updates a job stored. */
export async function readUpdates(deps: Deps, file: string): Promise<EmbeddedDataUpdate[]> {
  return JSON.parse(await text(await jobBlobs(deps).open(file))) as EmbeddedDataUpdate[];
}

/** The caller's update job of that survey; 404 FW_RSP_3 otherwise (another survey's, organisation's). */
export async function getResponseUpdate(
  deps: Deps,
  principal: Principal,
  surveyId: string,
  progressId: string,
): Promise<JobView<UpdateProgress>> {
  await accessibleSurvey(deps.db, principal, surveyId, 'response.editSurveyResponses');
  const job = await getJob<UpdateProgress>(deps.db, principal, RESPONSE_UPDATE_JOB, progressId);
  if (!job || (job.payload as UpdatePayload).surveyId !== surveyId)
    throw ApiError.of('FW_RSP_3', `Response update ${progressId} not found.`);
  return job;
}
