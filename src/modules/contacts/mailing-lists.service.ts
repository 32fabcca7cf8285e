import type { Page } from '../../db/page.js';
import type { Scope } from '../../db/scope.js';
import type { Deps, Queryable } from '../../deps.js';
import { ApiError } from '../../http/errors.js';
import { type IdPrefix, newId } from '../../http/ids.js';
import type { Principal } from '../../http/principal.js';
import { allUsersInScope } from '../users/users.service.js';
import { defaultDirectoryId, requireDirectory } from './directories.service.js';
import * as store from './mailing-lists.store.js';

/**
 * A list as a path names it: `/directories/{directoryId}/mailinglists/{listId}` (both checked), or the
 * legacy `/mailinglists/{listId}` (any list of the organisation).
 */
export interface ListRef {
  directoryId?: string;
  listId: string;
}

export interface ListFields {
  name: string;
  ownerId?: string;
  category?: string | null;
  folder?: string | null;
}

export async function requireList(db: Queryable, scope: Scope, ref: ListRef): Promise<store.MailingListRow> {
  if (ref.directoryId !== undefined) await requireDirectory(db, scope, ref.directoryId);
  const row = await store.findList(db, scope, ref.listId, ref.directoryId);
  if (!row) throw ApiError.of('PACC_6', 'Mailing List not found');
  return row;
}

/** Lists of one directory, or (legacy paths) of the whole organisation. */
export async function listLists(
  deps: Deps,
  principal: Principal,
  directoryId: string | undefined,
  page: Page,
) {
  if (directoryId !== undefined) await requireDirectory(deps.db, principal, directoryId);
  return store.listLists(deps.db, principal, directoryId, page);
}

export async function getList(deps: Deps, principal: Principal, ref: ListRef) {
  const row = await requireList(deps.db, principal, ref);
  return { ...row, contact_count: await store.countMembers(deps.db, principal, row.id) };
}

/** Creates a list in the directory given, or in the default directory (legacy paths, `ML_` ids). */
export async function createList(
  deps: Deps,
  principal: Principal,
  directoryId: string | undefined,
  fields: ListFields,
): Promise<string> {
  return deps.db.transaction().execute(async (trx) => {
    const directory = directoryId ?? (await defaultDirectoryId(trx, principal));
    if (directoryId !== undefined) await requireDirectory(trx, principal, directoryId);
    await requireOwner(trx, principal, fields.ownerId);
    const prefix: IdPrefix = directoryId === undefined ? 'ML' : 'CG';
    const id = newId(prefix);
    const at = deps.clock.now().toISOString();
    await store.insertList(trx, {
      id,
      organization_id: principal.organizationId,
      directory_id: directory,
      name: fields.name,
      owner_id: fields.ownerId ?? principal.userId,
      category: fields.category ?? null,
      folder: fields.folder ?? null,
      created_at: at,
      updated_at: at,
    });
    return id;
  });
}

export async function updateList(
  deps: Deps,
  principal: Principal,
  ref: ListRef,
  fields: Partial<ListFields>,
): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    await requireList(trx, principal, ref);
    await requireOwner(trx, principal, fields.ownerId);
    await store.updateList(trx, principal, ref.listId, {
      name: fields.name,
      owner_id: fields.ownerId,
      category: fields.category,
      folder: fields.folder,
      updated_at: deps.clock.now().toISOString(),
    });
  });
}

export async function deleteList(deps: Deps, principal: Principal, ref: ListRef): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    await requireList(trx, principal, ref);
    await store.deleteList(trx, principal, ref.listId);
  });
}

async function requireOwner(db: Queryable, scope: Scope, ownerId: string | undefined): Promise<void> {
  if (ownerId !== undefined && !(await allUsersInScope(db, scope, [ownerId]))) {
    throw ApiError.invalid('ownerId', `names no user of the organization (${ownerId})`);
  }
}
