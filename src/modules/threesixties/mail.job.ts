// biome-ignore-all lint/suspicious/noTemplateCurlyInString: piped text is written ${…}, in plain strings.
/**
 * The job that sends one 360 mail through the distributions' mail sender (SMTP, or `.eml` files without
 * one), with their rules (decision 0009): the mail is recorded sent just before the final dot, so it is
 * never sent twice; a temporary refusal is tried again by a later job, up to the same number of tries.
 */
import type { Scope } from '../../db/scope.js';
import type { Deps } from '../../deps.js';
import { openSecret } from '../../events/sealed-secret.js';
import { secretKeyOf } from '../../events/secret-key.js';
import type { JobContext, JobHandler, RunningJob } from '../../jobs/job-runner.js';
import { notifyJobQueued } from '../../jobs/jobs.service.js';
import { verdictOf } from '../distributions/delivery.js';
import { htmlToText } from '../distributions/html-text.js';
import type { MailSender, OutgoingMail } from '../distributions/mail-sender.js';
import { renderPipedText } from '../messages/messages.service.js';
import { type EvaluatorRow, findEvaluator } from './evaluators.store.js';
import { enqueueMailJob, type MailPayload } from './mails.js';
import { findMail, type MailRow, updateMail } from './mails.store.js';
import { findSubject, findThreeSixty, type SubjectRow, type ThreeSixtyRow } from './threesixties.store.js';

export function threeSixtyMailJob(deps: Deps, sender: MailSender): JobHandler {
  return { run: (job, context) => sendMail(deps, sender, job, context) };
}

async function sendMail(deps: Deps, sender: MailSender, job: RunningJob, context: JobContext) {
  const { mailId } = job.payload as MailPayload;
  const scope = { organizationId: job.organizationId };
  const mail = await findMail(deps.db, scope, mailId);
  if (mail?.status !== 'queued') return { skipped: true };
  const program = await findThreeSixty(deps.db, scope, mail.threesixty_id);
  const subject = program && (await findSubject(deps.db, scope, program.id, mail.subject_id));
  const evaluator = mail.evaluator_id
    ? await findEvaluator(deps.db, scope, mail.subject_id, mail.evaluator_id)
    : null;
  if (!program || !subject || evaluator === undefined) return { skipped: true };
  // Deactivated since it was queued: held again until the program is activated.
  if (program.status !== 'Active') {
    await updateMail(deps.db, scope, mailId, { status: 'held' }, ['queued']);
    return { held: true };
  }
  const attempts = mail.attempts + 1;
  if ((await updateMail(deps.db, scope, mailId, { attempts }, ['queued'])) === 0) return { skipped: true };
  const link = openSecret(mail.link_sealed, secretKeyOf(deps.config));
  const commit = async () =>
    (await updateMail(
      deps.db,
      scope,
      mailId,
      { status: 'sent', sent_at: context.now().toISOString(), reason: null },
      ['queued'],
    )) === 1;
  const outcome = await sender.send(
    outgoingMail({ program, subject, mail, evaluator }, link, context.now()),
    commit,
  );
  return recordOutcome(deps, scope, mail, verdictOf(outcome, attempts, context.now()), outcome.kind);
}

async function recordOutcome(
  deps: Deps,
  scope: Scope,
  mail: MailRow,
  verdict: ReturnType<typeof verdictOf>,
  outcome: string,
) {
  switch (verdict.state) {
    case 'none':
      return { skipped: true };
    case 'sent':
      if (outcome !== 'sent') await updateMail(deps.db, scope, mail.id, { reason: verdict.reason }, ['sent']);
      return { sent: true };
    case 'bounced':
    case 'failed':
      await updateMail(deps.db, scope, mail.id, { status: verdict.state, reason: verdict.reason }, [
        'queued',
      ]);
      return { sent: false };
    case 'pending': {
      const now = deps.clock.now();
      await deps.db.transaction().execute(async (trx) => {
        await updateMail(trx, scope, mail.id, { reason: verdict.reason }, ['queued']);
        await enqueueMailJob(trx, scope, mail.id, now, verdict.retryAt);
      });
      notifyJobQueued();
      return { retryAt: verdict.retryAt.toISOString() };
    }
  }
}

const INVITATION =
  '<p>Dear ${m://FirstName},</p><p>${e://Field/Request}</p><p>${l://SurveyLink?d=Start the evaluation}</p>' +
  '<p>This link is yours alone: please do not forward it.</p>';
const NOMINATION =
  '<p>Dear ${m://FirstName},</p><p>${e://Field/Request}</p><p>${l://SurveyLink?d=Choose your evaluators}</p>';

interface MailParts {
  program: ThreeSixtyRow;
  subject: SubjectRow;
  mail: MailRow;
  /** The nomination an invitation is for; null for a subject's nomination request. */
  evaluator: EvaluatorRow | null;
}

function outgoingMail(
  { program, subject, mail, evaluator }: MailParts,
  link: string,
  now: Date,
): OutgoingMail {
  const subjectName = `${subject.first_name} ${subject.last_name}`.trim();
  const invitation = evaluator !== null;
  const self = evaluator?.relationship === 'Self';
  const request = !invitation
    ? `${program.name} asks you to choose who gives you feedback.`
    : self
      ? `${program.name} asks you to evaluate yourself.`
      : `${program.name} asks for your feedback on ${subjectName}.`;
  const html = renderPipedText(
    invitation ? INVITATION : NOMINATION,
    {
      firstName: evaluator?.first_name ?? subject.first_name,
      lastName: evaluator?.last_name ?? subject.last_name,
      email: mail.to_email,
      externalDataReference: null,
      embeddedData: { Request: request },
    },
    { surveyUrl: link },
  );
  return {
    fileKey: `${mail.organization_id}/mail/${program.id}/${mail.id}.eml`,
    message: {
      messageId: mail.message_id,
      date: now,
      from: { name: program.from_name ?? program.name, address: program.from_email },
      to: { name: mail.to_name, address: mail.to_email },
      subject: (invitation
        ? `Feedback for ${subjectName}`
        : `${program.name}: choose your evaluators`
      ).replace(/[\r\n]+/g, ' '),
      html,
      text: htmlToText(html),
    },
  };
}
