import { isoSeconds } from '../../clock.js';
import { isUniqueViolation } from '../../db/database.js';
import type { Page } from '../../db/page.js';
import type { Scope } from '../../db/scope.js';
import type { Deps, Queryable } from '../../deps.js';
import { ApiError } from '../../http/errors.js';
import type { Principal } from '../../http/principal.js';
import {
  type ContactRow,
  changedContactRow,
  mergeEmbeddedData,
  parseEmbeddedData,
} from './contact-fields.js';
import { type UpsertTarget, upsertContacts } from './contact-upsert.js';
import type { ContactFields, ContactSearch, UpdateContactBody } from './contacts.schemas.js';
import * as store from './contacts.store.js';
import { requireDirectory } from './directories.service.js';
import { listMailMembers, type MailMemberQuery } from './members.store.js';

export type { MailMemberQuery };

/** Contact counts per directory id, for the directories listing. */
export function countContactsByDirectory(deps: Deps, principal: Principal): Promise<Map<string, number>> {
  return store.countByDirectory(deps.db, principal);
}

/** Adds one contact, or updates the one it matches (same extRef, else same email): answers its id. */
export async function addContact(
  db: Queryable,
  target: UpsertTarget,
  fields: ContactFields,
): Promise<string> {
  const outcome = await upsertContacts(db, target, [fields]);
  const [result] = outcome.results;
  if (!result || 'reason' in result) throw ApiError.invalid('embeddedData', result?.reason ?? 'is invalid');
  return result.contactId;
}

export async function createDirectoryContact(
  deps: Deps,
  principal: Principal,
  directoryId: string,
  fields: ContactFields,
): Promise<string> {
  return deps.db.transaction().execute(async (trx) => {
    await requireDirectory(trx, principal, directoryId);
    const at = isoSeconds(deps.clock.now());
    return addContact(trx, { scope: principal, directoryId, at, idPrefix: 'CID' }, fields);
  });
}

export async function getDirectoryContact(
  deps: Deps,
  principal: Principal,
  directoryId: string,
  contactId: string,
): Promise<ContactRow> {
  await requireDirectory(deps.db, principal, directoryId);
  return requireContact(deps.db, principal, directoryId, contactId);
}

export async function updateDirectoryContact(
  deps: Deps,
  principal: Principal,
  directoryId: string,
  contactId: string,
  body: UpdateContactBody,
): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    await requireDirectory(trx, principal, directoryId);
    const row = await requireContact(trx, principal, directoryId, contactId);
    await changeContact(trx, principal, row, body, { at: deps.clock.now(), withUnsubscribed: true });
  });
}

/**
 * Applies a change to a stored contact. `withUnsubscribed` is false when the change comes through a list:
 * there `unsubscribed` is the list's opt-out, which the caller writes on the membership.
 */
export async function changeContact(
  db: Queryable,
  scope: Scope,
  row: ContactRow,
  body: UpdateContactBody,
  options: { at: Date; withUnsubscribed: boolean },
): Promise<void> {
  const embedded = mergeEmbeddedData(parseEmbeddedData(row.embedded_data), body.embeddedData);
  if ('problem' in embedded)
    throw ApiError.invalid('embeddedData', embedded.problem.replace(/^embeddedData /, ''));
  const at = isoSeconds(options.at);
  const next = changedContactRow(row, body, embedded.value, {
    at,
    withUnsubscribed: options.withUnsubscribed,
  });
  if (body.bounced !== undefined) next.bounced_at = body.bounced ? (row.bounced_at ?? at) : null;
  try {
    await store.updateContact(db, scope, row.id, {
      first_name: next.first_name,
      last_name: next.last_name,
      email: next.email,
      email_key: next.email_key,
      phone: next.phone,
      ext_ref: next.ext_ref,
      language: next.language,
      unsubscribed: next.unsubscribed,
      bounced_at: next.bounced_at,
      embedded_data: next.embedded_data,
      updated_at: next.updated_at,
    });
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw ApiError.of('FW_CON_2', `Another contact of the directory already has extRef ${body.extRef}.`);
    }
    throw error;
  }
}

export async function deleteDirectoryContact(
  deps: Deps,
  principal: Principal,
  directoryId: string,
  contactId: string,
): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    await requireDirectory(trx, principal, directoryId);
    await requireContact(trx, principal, directoryId, contactId);
    await store.deleteContact(trx, principal, contactId);
  });
}

export async function searchDirectoryContacts(
  deps: Deps,
  principal: Principal,
  directoryId: string,
  filter: ContactSearch,
  page: Page,
): Promise<ContactRow[]> {
  await requireDirectory(deps.db, principal, directoryId);
  return store.searchContacts(deps.db, principal, directoryId, filter, page);
}

/** Records a bounce on the contact (the distribution issue calls it when mail to it bounces). */
export async function markBounced(db: Queryable, scope: Scope, contactId: string, at: Date): Promise<void> {
  await store.updateContact(db, scope, contactId, { bounced_at: isoSeconds(at) });
}

/** Opts the contact out of its whole directory (a distribution's opt-out link; spec 9.5 `unsubscribed`). */
export async function markUnsubscribed(
  db: Queryable,
  scope: Scope,
  contactId: string,
  at: Date,
): Promise<void> {
  await store.updateContact(db, scope, contactId, { unsubscribed: 1, updated_at: isoSeconds(at) });
}

/** A list member as a distribution mails it: its fields, and whether it opted out of the list or directory. */
export interface MailContact {
  contactId: string;
  contactLookupId: string;
  email: string | null;
  firstName: string | null;
  lastName: string | null;
  extRef: string | null;
  language: string | null;
  embeddedData: Record<string, string>;
  optedOut: boolean;
}

/** One batch of the list's members (or some of them, or a sample's) in contact id order, after `query.after`. */
export async function listMailContacts(
  db: Queryable,
  scope: Scope,
  query: MailMemberQuery,
): Promise<MailContact[]> {
  const rows = await listMailMembers(db, scope, query);
  return rows.map((row) => ({
    contactId: row.id,
    contactLookupId: row.contact_lookup_id,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    extRef: row.ext_ref,
    language: row.language,
    embeddedData: parseEmbeddedData(row.embedded_data) ?? {},
    optedOut: row.unsubscribed === 1 || row.member_unsubscribed === 1,
  }));
}

/**
 * What a response taken through a contact's individual link records of the contact (the export metadata
 * columns RecipientFirstName, RecipientLastName, RecipientEmail, ExternalReference): the fields it has.
 */
export async function recipientFieldsOf(
  db: Queryable,
  scope: Scope,
  contactId: string,
): Promise<Record<string, string> | undefined> {
  const row = await store.findContact(db, scope, undefined, contactId);
  if (!row) return undefined;
  const fields: Record<string, string | null> = {
    recipientFirstName: row.first_name,
    recipientLastName: row.last_name,
    recipientEmail: row.email,
    externalDataReference: row.ext_ref,
  };
  return Object.fromEntries(
    Object.entries(fields).filter((entry): entry is [string, string] => entry[1] !== null),
  );
}

async function requireContact(db: Queryable, scope: Scope, directoryId: string, contactId: string) {
  const row = await store.findContact(db, scope, directoryId, contactId);
  if (!row) throw ApiError.of('FW_CON_1', `Contact ${contactId} not found.`);
  return row;
}
