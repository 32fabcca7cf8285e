import { isoSeconds } from '../../clock.js';
import type { Page } from '../../db/page.js';
import type { Scope } from '../../db/scope.js';
import type { Deps, Queryable } from '../../deps.js';
import { ApiError } from '../../http/errors.js';
import { type Principal, requireTargetAudience } from '../../http/principal.js';
import type { ContactFields, UpdateContactBody } from './contacts.schemas.js';
import { addContact, changeContact } from './contacts.service.js';
import { type ListRef, requireList } from './mailing-lists.service.js';
import * as members from './members.store.js';

/** Spec 4.3: the contacts of a directory's list, for target-audience organisations only. */
export async function listDirectoryListContacts(
  deps: Deps,
  principal: Principal,
  ref: ListRef,
  filter: members.MemberFilter,
  page: Page,
) {
  if (filter === 'all') requireTargetAudience(principal);
  await requireList(deps.db, principal, ref);
  return members.listMembers(deps.db, principal, ref.listId, filter, page);
}

/** The legacy list's members, every field. */
export async function listLegacyListContacts(deps: Deps, principal: Principal, listId: string, page: Page) {
  await requireList(deps.db, principal, { listId });
  return members.listMembersFull(deps.db, principal, listId, page);
}

/** Adds a contact to the list's directory (or updates the one it matches) and to the list. */
export async function addListContact(
  deps: Deps,
  principal: Principal,
  ref: ListRef,
  fields: ContactFields,
): Promise<{ id: string; contactLookupId: string }> {
  return deps.db.transaction().execute(async (trx) => {
    const list = await requireList(trx, principal, ref);
    const contactId = await addContact(
      trx,
      {
        scope: principal,
        directoryId: list.directory_id,
        listId: list.id,
        at: isoSeconds(deps.clock.now()),
        idPrefix: ref.directoryId === undefined ? 'MLRP' : 'CID',
      },
      fields,
    );
    const member = await requireMember(trx, principal, list.id, contactId);
    return { id: contactId, contactLookupId: member.contact_lookup_id };
  });
}

export async function getListContact(deps: Deps, principal: Principal, ref: ListRef, contactId: string) {
  await requireList(deps.db, principal, ref);
  return requireMember(deps.db, principal, ref.listId, contactId);
}

/** Contact fields change the directory contact; `unsubscribed` is the opt-out from this list (spec 9.5). */
export async function updateListContact(
  deps: Deps,
  principal: Principal,
  ref: ListRef,
  contactId: string,
  body: UpdateContactBody,
): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    await requireList(trx, principal, ref);
    const member = await requireMember(trx, principal, ref.listId, contactId);
    await changeContact(trx, principal, member, body, { at: deps.clock.now(), withUnsubscribed: false });
    if (body.unsubscribed !== undefined) {
      await members.setMemberUnsubscribed(trx, principal, ref.listId, contactId, body.unsubscribed);
    }
  });
}

export async function deleteListContact(deps: Deps, principal: Principal, ref: ListRef, contactId: string) {
  await deps.db.transaction().execute(async (trx) => {
    await requireList(trx, principal, ref);
    if ((await members.deleteMember(trx, principal, ref.listId, contactId)) === 0)
      throw contactNotFound(contactId);
  });
}

async function requireMember(db: Queryable, scope: Scope, listId: string, contactId: string) {
  const member = await members.findMember(db, scope, listId, contactId);
  if (!member) throw contactNotFound(contactId);
  return member;
}

function contactNotFound(contactId: string): ApiError {
  return ApiError.of('FW_CON_1', `Contact ${contactId} not found in the mailing list.`);
}
