import type { Insertable, Selectable } from 'kysely';
import { claimDue } from '../db/claim.js';
import type { Scope } from '../db/scope.js';
import type { Queryable } from '../deps.js';
import type { JobsTable } from './jobs.tables.js';

export type JobRow = Selectable<JobsTable>;

export async function insertJob(db: Queryable, row: Insertable<JobsTable>): Promise<void> {
  await db.insertInto('jobs').values(row).execute();
}

export function findJob(
  db: Queryable,
  scope: Scope,
  kind: string,
  jobId: string,
): Promise<JobRow | undefined> {
  return db
    .selectFrom('jobs')
    .selectAll()
    .where('organization_id', '=', scope.organizationId)
    .where('kind', '=', kind)
    .where('id', '=', jobId)
    .executeTakeFirst();
}

/** Leases due pending jobs to `owner` (src/db/claim.ts) and counts the attempt. */
export async function claimJobs(
  db: Queryable,
  options: { owner: string; now: Date; leaseMs: number; limit: number },
): Promise<JobRow[]> {
  const rows = await claimDue<JobRow>(db, { table: 'jobs', ...options });
  for (const row of rows) {
    row.attempts += 1;
    await db
      .updateTable('jobs')
      .set({ attempts: row.attempts })
      .where('id', '=', row.id)
      .where('lease_owner', '=', options.owner)
      .execute();
  }
  return rows;
}

export interface JobProgress {
  percent_complete: number;
  result: string | null;
  updated_at: string;
  lease_until: string;
}

/** Renews the lease of a running job (the heartbeat); 0 when the lease was lost to another worker. */
export async function renewLease(
  db: Queryable,
  jobId: string,
  owner: string,
  leaseUntil: string,
): Promise<number> {
  const result = await db
    .updateTable('jobs')
    .set({ lease_until: leaseUntil })
    .where('id', '=', jobId)
    .where('lease_owner', '=', owner)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Records progress and renews the lease; 0 when the lease was lost to another worker. */
export async function updateProgress(
  db: Queryable,
  jobId: string,
  owner: string,
  progress: JobProgress,
): Promise<number> {
  const result = await db
    .updateTable('jobs')
    .set(progress)
    .where('id', '=', jobId)
    .where('lease_owner', '=', owner)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function finishJob(
  db: Queryable,
  jobId: string,
  owner: string,
  end: {
    status: 'complete' | 'failed';
    percent_complete?: number;
    result?: string | null;
    error: string | null;
    at: string;
  },
): Promise<number> {
  // Guarded by the lease: a worker that lost it cannot end (or overwrite) the job of the one that holds it.
  const ended = await db
    .updateTable('jobs')
    .set({
      status: end.status,
      ...(end.percent_complete === undefined ? {} : { percent_complete: end.percent_complete }),
      ...(end.result === undefined ? {} : { result: end.result }),
      error: end.error,
      updated_at: end.at,
      finished_at: end.at,
      lease_until: null,
      lease_owner: null,
    })
    .where('id', '=', jobId)
    .where('lease_owner', '=', owner)
    .executeTakeFirst();
  return Number(ended.numUpdatedRows);
}

/** Gives the job back: claimable again from `dueAt` (a retry later, or at once after a stop). */
export async function releaseJob(
  db: Queryable,
  jobId: string,
  owner: string,
  release: {
    dueAt: string;
    /** JSON `{message, attempt}`: why the attempt failed (shown only once the job has failed). */
    error?: string;
    /** A stop is not the job's fault: it gives the attempt back. */
    refundAttempt?: boolean;
  },
): Promise<void> {
  await db
    .updateTable('jobs')
    .set((eb) => ({
      due_at: release.dueAt,
      lease_until: null,
      lease_owner: null,
      ...(release.error === undefined ? {} : { error: release.error }),
      ...(release.refundAttempt ? { attempts: eb('attempts', '-', 1) } : {}),
    }))
    .where('id', '=', jobId)
    .where('lease_owner', '=', owner)
    .execute();
}
