/**
 * The second step of a send: due recipients in batches. A batch is marked `sending` by this attempt in one
 * transaction (with its individual links and opt-out tokens, and the job's checkpoint); then each message
 * goes out, and is recorded `sent` just before its final dot (mail-sender.ts). Rows another attempt left
 * `sending` never had their dot sent, so they go back to `pending` first (decision 0009).
 */

import { fromJson } from '../../db/json.js';
import type { Scope } from '../../db/scope.js';
import type { Deps } from '../../deps.js';
import { openSecret, sealSecret } from '../../events/sealed-secret.js';
import { secretKeyOf } from '../../events/secret-key.js';
import { randomAlphanumeric } from '../../http/ids.js';
import type { JobContext } from '../../jobs/job-runner.js';
import { hashSecret } from '../../secret-hash.js';
import { markBounced } from '../contacts/contacts.service.js';
import { createIndividualLink } from '../engine/sessions.service.js';
import { verdictOf } from './delivery.js';
import type { DistributionRow } from './distributions.store.js';
import { composeMail } from './mail-message.js';
import type { MailSender, OutgoingMail } from './mail-sender.js';
import { listDue, type RecipientRow, releaseSending, updateRecipient } from './recipients.store.js';

export const SEND_BATCH = 100;

interface Prepared {
  row: RecipientRow;
  attempts: number;
  mail: OutgoingMail;
}

export interface SendRound {
  deps: Deps;
  scope: Scope;
  distribution: DistributionRow;
  context: JobContext;
  sender: MailSender;
  /** This attempt's mark on the rows it holds `sending`. */
  owner: string;
  /** Messages in flight at once. */
  concurrency: number;
}

/** Sends every recipient due now; answers how many messages went out. */
export async function sendDueRecipients(round: SendRound): Promise<number> {
  const { deps, scope, distribution, owner } = round;
  await releaseSending(deps.db, scope, distribution.id, owner);
  let sent = 0;
  for (;;) {
    if (round.context.signal.aborted) throw new Error('the distribution job is stopping');
    const prepared = await claimBatch(round);
    if (prepared.length === 0) return sent;
    const outcomes = await mapLimit(prepared, round.concurrency, (item) => sendOne(round, item));
    sent += outcomes.filter(Boolean).length;
  }
}

/** Marks a batch of due rows `sending` for this attempt and builds their messages. */
async function claimBatch(round: SendRound): Promise<Prepared[]> {
  const { deps, scope, distribution, context, owner } = round;
  const now = context.now();
  const rows = await listDue(deps.db, scope, distribution.id, now.toISOString(), SEND_BATCH);
  if (rows.length === 0) return [];
  const key = secretKeyOf(deps.config);
  return deps.db.transaction().execute(async (trx) => {
    const prepared: Prepared[] = [];
    for (const row of rows) {
      const token = randomAlphanumeric(32);
      let linkSealed = row.link_sealed;
      if (linkSealed === null && needsIndividualLink(distribution)) {
        const link = await createIndividualLink(trx, scope, {
          surveyId: distribution.survey_id,
          contactId: row.contact_id,
          distributionId: distribution.root_id,
          expiresAt: distribution.link_expires_at ? new Date(distribution.link_expires_at) : null,
          now,
        });
        linkSealed = sealSecret(link.token, key);
      }
      const attempts = row.attempts + 1;
      const claimed = await updateRecipient(
        trx,
        scope,
        { distributionId: distribution.id, contactId: row.contact_id },
        {
          state: 'sending',
          sending_owner: owner,
          attempts,
          token_hash: hashSecret(token),
          link_sealed: linkSealed,
        },
        { from: 'pending' },
      );
      if (claimed === 0) continue;
      const surveyUrl = surveyUrlOf(distribution, linkSealed && openSecret(linkSealed, key));
      prepared.push({ row, attempts, mail: outgoingMail(distribution, row, token, surveyUrl, now) });
    }
    await context.checkpoint(trx, 0, { collected: true });
    return prepared;
  });
}

const needsIndividualLink = (d: DistributionRow) => d.parent_id === null && d.link_type === 'Individual';

/** The survey link of the message: the recipient's individual link, the survey's open link, or none (thank-yous). */
function surveyUrlOf(distribution: DistributionRow, linkToken: string | null): string | undefined {
  if (distribution.request_type === 'ThankYou') return undefined;
  const base = `${distribution.link_base_url}/jfe/form/${distribution.survey_id}`;
  if (distribution.link_type !== 'Individual') return base;
  return linkToken ? `${base}/l/${linkToken}` : undefined;
}

function outgoingMail(
  distribution: DistributionRow,
  row: RecipientRow,
  token: string,
  surveyUrl: string | undefined,
  now: Date,
): OutgoingMail {
  const optOutUrl = `${distribution.link_base_url}/mail/optout/${token}`;
  const content = composeMail(
    { body: fromJson<Record<string, string>>(distribution.message_body), subject: distribution.subject },
    {
      firstName: row.first_name,
      lastName: row.last_name,
      email: row.email,
      extRef: row.ext_ref,
      language: row.language,
      embeddedData: row.embedded_data === null ? {} : fromJson<Record<string, string>>(row.embedded_data),
    },
    {
      ...(surveyUrl ? { surveyUrl } : {}),
      optOutUrl,
      openUrl: `${distribution.link_base_url}/mail/open/${token}`,
    },
  );
  const name = [row.first_name, row.last_name].filter(Boolean).join(' ');
  return {
    fileKey: `${distribution.organization_id}/mail/${distribution.id}/${row.contact_id}.eml`,
    message: {
      messageId: row.message_id,
      date: now,
      from: { name: distribution.from_name ?? '', address: distribution.from_email },
      to: { name, address: row.email ?? '' },
      ...(distribution.reply_to_email ? { replyTo: distribution.reply_to_email } : {}),
      subject: content.subject,
      html: content.html,
      text: content.text,
      // RFC 8058: one-click unsubscribe by a POST to the same link.
      headers: {
        'List-Unsubscribe': `<${optOutUrl}>`,
        'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      },
    },
  };
}

/** Sends one message and records what became of it; answers whether it went out. */
async function sendOne(round: SendRound, item: Prepared): Promise<boolean> {
  const { deps, scope, distribution, owner, context } = round;
  const key = { distributionId: distribution.id, contactId: item.row.contact_id };
  const commit = async () =>
    (await updateRecipient(
      deps.db,
      scope,
      key,
      { state: 'sent', sent_at: context.now().toISOString(), reason: null },
      { from: 'sending', owner },
    )) === 1;
  const outcome = await round.sender.send(item.mail, commit);
  const verdict = verdictOf(outcome, item.attempts, context.now());
  switch (verdict.state) {
    case 'none':
      return false;
    case 'sent':
      if (outcome.kind !== 'sent')
        await updateRecipient(
          deps.db,
          scope,
          key,
          { reason: verdict.reason, sending_owner: null },
          { owner },
        );
      return true;
    case 'bounced':
      await deps.db.transaction().execute(async (trx) => {
        const changed = await updateRecipient(
          trx,
          scope,
          key,
          { state: 'bounced', reason: verdict.reason, sending_owner: null, sent_at: null },
          { owner },
        );
        if (changed === 1) await markBounced(trx, scope, item.row.contact_id, context.now());
      });
      return false;
    case 'failed':
      await updateRecipient(
        deps.db,
        scope,
        key,
        { state: 'failed', reason: verdict.reason, sending_owner: null, sent_at: null },
        { owner },
      );
      return false;
    case 'pending':
      await updateRecipient(
        deps.db,
        scope,
        key,
        {
          state: 'pending',
          reason: verdict.reason,
          sending_owner: null,
          sent_at: null,
          next_attempt_at: verdict.retryAt.toISOString(),
        },
        { owner },
      );
      return false;
  }
}

/** Runs `work` over `items`, at most `limit` at a time, in order of start. */
async function mapLimit<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
}
