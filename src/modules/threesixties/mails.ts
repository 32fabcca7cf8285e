/**
 * The 360's e-mails: an invitation to each nominated evaluator (with the evaluation link) and, where
 * subjects nominate their own evaluators, a request to each subject (with the nomination page's link).
 * A mail row is written in the transaction that makes it necessary, with its job: an outbox for mail, so
 * no commit means no mail and a commit means the mail goes out. While the program is inactive mails are
 * held; activating it queues them.
 */
import type { Scope } from '../../db/scope.js';
import type { Deps, Queryable } from '../../deps.js';
import { sealSecret } from '../../events/sealed-secret.js';
import { secretKeyOf } from '../../events/secret-key.js';
import { newId } from '../../http/ids.js';
import { enqueueJob } from '../../jobs/jobs.service.js';
import { insertMail, listMailIds, updateMail } from './mails.store.js';
import type { ThreeSixtyRow } from './threesixties.store.js';

export const THREESIXTY_MAIL_JOB = 'threesixty-mail';

export interface MailPayload {
  mailId: string;
}

export interface NewMail {
  subjectId: string;
  evaluatorId: string | null;
  kind: 'invitation' | 'nominate';
  toEmail: string;
  toName: string;
  link: string;
}

/** Writes the mail (held, or queued with its job when the program is active). */
export async function queueMail(
  deps: Deps,
  trx: Queryable,
  scope: Scope,
  program: ThreeSixtyRow,
  mail: NewMail,
) {
  const now = deps.clock.now();
  const id = newId('TSM');
  const active = program.status === 'Active';
  const domain = /@([A-Za-z0-9.-]+)$/.exec(program.from_email)?.[1] ?? 'fieldwork.invalid';
  await insertMail(trx, {
    id,
    organization_id: scope.organizationId,
    threesixty_id: program.id,
    subject_id: mail.subjectId,
    evaluator_id: mail.evaluatorId,
    kind: mail.kind,
    to_email: mail.toEmail,
    to_name: mail.toName,
    link_sealed: sealSecret(mail.link, secretKeyOf(deps.config)),
    status: active ? 'queued' : 'held',
    attempts: 0,
    reason: null,
    message_id: `<${id}@${domain}>`,
    created_at: now.toISOString(),
    sent_at: null,
  });
  if (active) await enqueueMailJob(trx, scope, id, now);
}

export async function enqueueMailJob(trx: Queryable, scope: Scope, mailId: string, now: Date, dueAt?: Date) {
  const payload: MailPayload = { mailId };
  // A retry is a job of its own: the first one's id is the mail's.
  const id = dueAt ? `${mailId}.${dueAt.getTime()}` : mailId;
  await enqueueJob(trx, scope, { id, kind: THREESIXTY_MAIL_JOB, payload, ...(dueAt ? { dueAt } : {}) }, now);
}

/** On activation: every held mail of the program is queued; answers how many. */
export async function releaseHeldMails(trx: Queryable, scope: Scope, programId: string, now: Date) {
  let queued = 0;
  for (const { id } of await listMailIds(trx, scope, programId, 'held'))
    if ((await updateMail(trx, scope, id, { status: 'queued' }, ['held'])) === 1) {
      await enqueueMailJob(trx, scope, id, now);
      queued += 1;
    }
  return queued;
}
