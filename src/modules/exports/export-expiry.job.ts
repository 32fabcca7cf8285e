/**
 * Export files expire (issue 6): a complete export's file is kept `--export-retention-hours` and then
 * deleted. Each complete export queues one delayed job on the one job runner, due when its file
 * expires; whichever worker claims it first deletes the file, a worker that was down deletes it when it
 * comes back, and the manual clock of the tests moves the due time instead of waiting. Whether an
 * export has expired is read from its `expiresAt` (so the API says "expired" from that moment, even
 * before the job has run).
 */

import type { Scope } from '../../db/scope.js';
import type { Deps, Queryable } from '../../deps.js';
import { newId } from '../../http/ids.js';
import { jobBlobs } from '../../jobs/job-files.js';
import type { JobHandler } from '../../jobs/job-runner.js';
import { enqueueJob, getJob } from '../../jobs/jobs.service.js';
import { type ExportPayload, type ExportProgress, RESPONSE_EXPORT_JOB } from './response-export.job.js';

export const RESPONSE_EXPORT_EXPIRY_JOB = 'responseExportExpiry';

interface ExpiryPayload {
  exportId: string;
}

/** When an export finishing at `now` expires, with the configured retention. */
export const expiryTime = (deps: Deps, now: Date) =>
  new Date(now.getTime() + deps.config.exportRetentionHours * 3_600_000);

export const isExpired = (result: ExportProgress | null, now: Date) =>
  result?.expiresAt !== undefined && now >= new Date(result.expiresAt);

export async function scheduleExportExpiry(
  db: Queryable,
  scope: Scope,
  exportId: string,
  expiresAt: Date,
  now: Date,
): Promise<void> {
  const payload: ExpiryPayload = { exportId };
  await enqueueJob(
    db,
    scope,
    { id: newId('ES'), kind: RESPONSE_EXPORT_EXPIRY_JOB, payload, dueAt: expiresAt },
    now,
  );
}

/** Deletes the export's file once it has expired; an export that was run again keeps its newer file. */
export function responseExportExpiryJob(deps: Deps): JobHandler {
  return {
    run: async (job, context) => {
      const { exportId } = job.payload as ExpiryPayload;
      const scope = { organizationId: job.organizationId };
      const exported = await getJob<ExportProgress>(deps.db, scope, RESPONSE_EXPORT_JOB, exportId);
      if (exported?.status !== 'complete' || !isExpired(exported.result, context.now()))
        return { deleted: false };
      await jobBlobs(deps).remove((exported.payload as ExportPayload).file);
      return { deleted: true };
    },
  };
}
