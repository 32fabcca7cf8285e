/**
 * The links in a message that need no token of the API: the opt-out link (a confirm page, then a POST,
 * or RFC 8058's one-click POST straight from the mail client) and the open-tracking image. Both carry the
 * recipient's token; only its SHA-256 is stored, so a copy of the database cannot opt anyone out.
 */
import type { Deps } from '../../deps.js';
import { hashSecret } from '../../secret-hash.js';
import { markUnsubscribed } from '../contacts/contacts.service.js';
import { findByTokenHash, type RecipientRow, setOpened, updateRecipient } from './recipients.store.js';

const TOKEN = /^[A-Za-z0-9]{32}$/;

/** The recipient a token names; undefined for a malformed or unknown one. */
export async function recipientForToken(deps: Deps, token: string): Promise<RecipientRow | undefined> {
  if (!TOKEN.test(token)) return undefined;
  return findByTokenHash(deps.db, hashSecret(token));
}

/**
 * Opts the recipient's contact out of its whole directory (it then shows `unsubscribed: true`, and in its
 * lists' optedOutContacts). Answers false for an unknown token. Doing it twice changes nothing.
 */
export async function optOut(deps: Deps, token: string): Promise<boolean> {
  const recipient = await recipientForToken(deps, token);
  if (!recipient) return false;
  const now = deps.clock.now();
  const scope = { organizationId: recipient.organization_id };
  await deps.db.transaction().execute(async (trx) => {
    await markUnsubscribed(trx, scope, recipient.contact_id, now);
    if (recipient.unsubscribed_at === null)
      await updateRecipient(
        trx,
        scope,
        { distributionId: recipient.distribution_id, contactId: recipient.contact_id },
        { unsubscribed_at: now.toISOString() },
      );
  });
  return true;
}

/** The message was opened (its image fetched): recorded the first time. */
export async function recordOpen(deps: Deps, token: string): Promise<void> {
  if (!TOKEN.test(token)) return;
  await setOpened(deps.db, hashSecret(token), deps.clock.now().toISOString());
}
