/**
 * A distribution's send is a job (DESIGN.md "Jobs"): due at the send date, it collects the recipients,
 * then sends to every one due. Recipients a temporary refusal put off are sent by another round, a job
 * queued for when the first of them is due. The job holds no state of its own: the recipient rows do.
 */
import { randomUUID } from 'node:crypto';
import type { Scope } from '../../db/scope.js';
import type { Deps, Queryable } from '../../deps.js';
import { randomAlphanumeric } from '../../http/ids.js';
import { jobBlobs } from '../../jobs/job-files.js';
import type { JobContext, JobHandler, RunningJob } from '../../jobs/job-runner.js';
import { enqueueJob, notifyJobQueued } from '../../jobs/jobs.service.js';
import { type CollectCheckpoint, collectRecipients } from './collect-recipients.js';
import { findDistribution, updateDistribution } from './distributions.store.js';
import { createMailSender, type MailSender, POOL_SETTINGS } from './mail-sender.js';
import { nextDue } from './recipients.store.js';
import { sendDueRecipients } from './send-recipients.js';

export const DISTRIBUTION_JOB = 'distribution';

export interface DistributionPayload {
  distributionId: string;
}

/** The job's handler, and the mail sender it keeps open across jobs (closed with the app). */
export interface DistributionJobHandler extends JobHandler {
  readonly sender: MailSender;
  close(): void;
}

export function distributionJob(deps: Deps, sender?: MailSender): DistributionJobHandler {
  const mail = sender ?? createMailSender(deps.config.smtpUrl, jobBlobs(deps));
  return {
    sender: mail,
    run: (job, context) => runDistribution(deps, mail, job, context),
    close: () => mail.close(),
  };
}

/**
 * Queues a send round of the distribution, due at `dueAt`; call it in the transaction that makes it due.
 * The first round's job has the distribution's id; a later round's adds a suffix of its own.
 */
export async function enqueueDistributionRound(
  db: Queryable,
  scope: Scope,
  round: { distributionId: string; dueAt: Date; first: boolean },
  now: Date,
): Promise<void> {
  const payload: DistributionPayload = { distributionId: round.distributionId };
  const id = round.first ? round.distributionId : `${round.distributionId}.${randomAlphanumeric(8)}`;
  await enqueueJob(db, scope, { id, kind: DISTRIBUTION_JOB, payload, dueAt: round.dueAt }, now);
}

async function runDistribution(deps: Deps, sender: MailSender, job: RunningJob, context: JobContext) {
  const { distributionId } = job.payload as DistributionPayload;
  const scope = { organizationId: job.organizationId };
  const found = await findDistribution(deps.db, scope, distributionId);
  if (!found || found.status === 'Canceled' || found.status === 'Done') return { skipped: true };
  // A cancel and the start race through the status: whichever changes it first wins.
  const at = context.now().toISOString();
  if (
    found.status === 'Pending' &&
    (await updateDistribution(deps.db, scope, distributionId, { status: 'InProgress', updated_at: at }, [
      'Pending',
    ])) === 0
  )
    return { skipped: true };
  const distribution = { ...found, status: 'InProgress' };
  if (distribution.recipients_collected === 0) {
    await collectRecipients(deps, scope, distribution, context, (job.result ?? {}) as CollectCheckpoint);
    await updateDistribution(deps.db, scope, distributionId, { recipients_collected: 1, updated_at: at });
  }
  const owner = `${job.id}:${job.attempts}:${randomUUID()}`;
  const sent = await sendDueRecipients({
    deps,
    scope,
    distribution,
    context,
    sender,
    owner,
    concurrency: POOL_SETTINGS.maxConnections * 2,
  });
  await finishRound(deps, scope, distributionId, context.now());
  return { sent };
}

/** Done when nobody is left to send to; else another round when the first put-off recipient is due. */
async function finishRound(deps: Deps, scope: Scope, distributionId: string, now: Date) {
  await deps.db.transaction().execute(async (trx) => {
    const due = await nextDue(trx, scope, distributionId);
    if (due === undefined) {
      await updateDistribution(
        trx,
        scope,
        distributionId,
        { status: 'Done', updated_at: now.toISOString() },
        ['InProgress'],
      );
      return;
    }
    const dueAt = new Date(Math.max(new Date(due).getTime(), now.getTime() + 1000));
    await enqueueDistributionRound(trx, scope, { distributionId, dueAt, first: false }, now);
  });
  notifyJobQueued();
}
