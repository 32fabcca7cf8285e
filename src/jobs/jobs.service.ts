import { EventEmitter } from 'node:events';
import { fromJson, toJson } from '../db/json.js';
import type { Scope } from '../db/scope.js';
import type { Queryable } from '../deps.js';
import { findJob, insertJob, type JobRow } from './jobs.store.js';

/** Wakes this process's job workers when a job is queued, so they need not wait for their next poll. */
export const jobQueued = new EventEmitter();

export interface NewJob {
  /** The caller picks the id, with its own v3 prefix (`PGRS_` imports, `ES_` exports). */
  id: string;
  kind: string;
  payload: unknown;
  /** Written before the first run: what a status call shows until the job reports progress. */
  initialResult?: unknown;
  /** Not before this time (a job that must wait, such as deleting an export file once it expires). */
  dueAt?: Date;
}

/** Queues a job. Call it inside the transaction that makes the work necessary: no commit, no job. */
export async function enqueueJob(db: Queryable, scope: Scope, job: NewJob, now: Date): Promise<void> {
  const at = now.toISOString();
  await insertJob(db, {
    id: job.id,
    organization_id: scope.organizationId,
    kind: job.kind,
    status: 'pending',
    percent_complete: 0,
    payload: toJson(job.payload),
    result: job.initialResult === undefined ? null : toJson(job.initialResult),
    error: null,
    attempts: 0,
    due_at: job.dueAt?.toISOString() ?? at,
    lease_until: null,
    lease_owner: null,
    created_at: at,
    updated_at: at,
    finished_at: null,
  });
}

/** Tells the workers of this process; call it after the enqueuing transaction committed. */
export function notifyJobQueued(): void {
  jobQueued.emit('queued');
}

/** What a job looks like to its caller, whatever its kind. */
export interface JobView<Result> {
  id: string;
  /** `inProgress` until the job ends, then `complete` or `failed` (the v3 progress vocabulary). */
  status: 'inProgress' | 'complete' | 'failed';
  percentComplete: number;
  payload: unknown;
  result: Result | null;
  errorMessage: string | null;
  createdAt: string;
  finishedAt: string | null;
}

export async function getJob<Result>(
  db: Queryable,
  scope: Scope,
  kind: string,
  jobId: string,
): Promise<JobView<Result> | undefined> {
  const row = await findJob(db, scope, kind, jobId);
  return row ? toJobView<Result>(row) : undefined;
}

export function toJobView<Result>(row: JobRow): JobView<Result> {
  return {
    id: row.id,
    status: row.status === 'pending' ? 'inProgress' : (row.status as 'complete' | 'failed'),
    percentComplete: row.percent_complete,
    payload: fromJson(row.payload),
    result: row.result === null ? null : fromJson<Result>(row.result),
    // While pending, `error` holds the last failed attempt's reason, for the runner alone (job-runner.ts).
    errorMessage:
      row.status !== 'failed' || row.error === null ? null : fromJson<{ message: string }>(row.error).message,
    createdAt: row.created_at,
    finishedAt: row.finished_at,
  };
}
