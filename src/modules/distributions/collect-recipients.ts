/**
 * The first step of a send: one row per recipient, written in batches with the job's checkpoint (the
 * contact id reached), so a crash resumes the collection where it stopped. An invite takes the list's
 * members (one contact, or a sample's); a reminder takes its parent's recipients who have not finished
 * the survey, a thank-you those who have. Opted-out contacts and contacts without an e-mail address get a
 * row marked `skipped` (counted in stats.skipped).
 */
import { toJson } from '../../db/json.js';
import type { Scope } from '../../db/scope.js';
import type { Deps, Queryable } from '../../deps.js';
import type { JobContext } from '../../jobs/job-runner.js';
import { listMailContacts, type MailContact } from '../contacts/contacts.service.js';
import { linkSessionStates } from '../engine/sessions.service.js';
import type { DistributionRow } from './distributions.store.js';
import type { DistributionRecipientsTable } from './distributions.tables.js';
import { insertRecipients, listRecipientsAfter } from './recipients.store.js';

export const COLLECT_BATCH = 500;

export interface CollectCheckpoint {
  /** The last contact id (of the list, or of the parent's recipients) already collected. */
  after?: string;
}

export async function collectRecipients(
  deps: Deps,
  scope: Scope,
  distribution: DistributionRow,
  context: JobContext,
  from: CollectCheckpoint,
): Promise<void> {
  let after = from.after;
  for (;;) {
    const batch =
      distribution.parent_id === null
        ? await inviteBatch(deps.db, scope, distribution, after)
        : await followUpBatch(deps.db, scope, distribution, distribution.parent_id, after);
    const now = context.now().toISOString();
    const rows = batch.contacts.map((contact) =>
      recipientRow(distribution, contact, batch.links.get(contact.contactId) ?? null, now),
    );
    after = batch.last;
    const checkpoint: CollectCheckpoint = after === undefined ? {} : { after };
    await deps.db.transaction().execute(async (trx) => {
      await insertRecipients(trx, rows);
      await context.checkpoint(trx, 0, checkpoint);
    });
    if (batch.done) return;
  }
}

interface Batch {
  contacts: MailContact[];
  /** Follow-ups: the parent's sealed link for each contact. */
  links: Map<string, string | null>;
  last: string | undefined;
  done: boolean;
}

async function inviteBatch(
  db: Queryable,
  scope: Scope,
  distribution: DistributionRow,
  after: string | undefined,
): Promise<Batch> {
  const contacts = await listMailContacts(db, scope, {
    listId: distribution.mailing_list_id,
    ...(distribution.contact_id === null ? {} : { contactIds: [distribution.contact_id] }),
    ...(distribution.sample_id === null ? {} : { sampleId: distribution.sample_id }),
    ...(after === undefined ? {} : { after }),
    limit: COLLECT_BATCH,
  });
  return {
    contacts,
    links: new Map(),
    last: contacts.at(-1)?.contactId ?? after,
    done: contacts.length < COLLECT_BATCH,
  };
}

/** A batch of the parent's recipients whose message went out, kept when their survey state fits the follow-up. */
async function followUpBatch(
  db: Queryable,
  scope: Scope,
  distribution: DistributionRow,
  parentId: string,
  after: string | undefined,
): Promise<Batch> {
  const parents = await listRecipientsAfter(db, scope, parentId, ['sent'], after, COLLECT_BATCH);
  const ids = parents.map((row) => row.contact_id);
  const sessions = await linkSessionStates(db, scope, distribution.root_id, ids);
  const wantFinished = distribution.request_type === 'ThankYou';
  const chosen = ids.filter((id) => (sessions.get(id)?.status === 'complete') === wantFinished);
  const contacts =
    chosen.length === 0
      ? []
      : await listMailContacts(db, scope, {
          listId: distribution.mailing_list_id,
          contactIds: chosen,
          limit: chosen.length,
        });
  return {
    contacts,
    links: new Map(parents.map((row) => [row.contact_id, row.link_sealed])),
    last: parents.at(-1)?.contact_id ?? after,
    done: parents.length < COLLECT_BATCH,
  };
}

export const OPTED_OUT = 'The contact opted out of the mailing list or directory.';

/** Why a contact gets no message, or undefined. */
function skipReason(contact: MailContact): string | undefined {
  if (contact.optedOut) return OPTED_OUT;
  if (!contact.email) return 'The contact has no e-mail address.';
  return undefined;
}

function recipientRow(
  distribution: DistributionRow,
  contact: MailContact,
  linkSealed: string | null,
  now: string,
): DistributionRecipientsTable {
  const skipped = skipReason(contact);
  return {
    organization_id: distribution.organization_id,
    distribution_id: distribution.id,
    contact_id: contact.contactId,
    contact_lookup_id: contact.contactLookupId,
    email: contact.email,
    first_name: contact.firstName,
    last_name: contact.lastName,
    ext_ref: contact.extRef,
    language: contact.language,
    embedded_data: Object.keys(contact.embeddedData).length === 0 ? null : toJson(contact.embeddedData),
    state: skipped ? 'skipped' : 'pending',
    reason: skipped ?? null,
    attempts: 0,
    next_attempt_at: now,
    sending_owner: null,
    message_id: messageIdOf(distribution, contact.contactId),
    link_sealed: linkSealed,
    token_hash: null,
    sent_at: null,
    opened_at: null,
    unsubscribed_at: null,
  };
}

/** The Message-ID header, the same on every try: `<EMD_….CID_…@sender's domain>`. */
function messageIdOf(distribution: DistributionRow, contactId: string): string {
  const domain = /@([A-Za-z0-9.-]+)$/.exec(distribution.from_email)?.[1] ?? 'fieldwork.invalid';
  return `<${distribution.id}.${contactId}@${domain}>`;
}
