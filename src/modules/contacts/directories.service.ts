import { isoSeconds } from '../../clock.js';
import type { Page } from '../../db/page.js';
import type { Scope } from '../../db/scope.js';
import type { Queryable } from '../../deps.js';
import { ApiError } from '../../http/errors.js';
import { newId } from '../../http/ids.js';
import * as store from './directories.store.js';

/** Every organisation has one default directory (pool), made with it. */
export async function createDefaultDirectory(db: Queryable, scope: Scope, now: Date): Promise<string> {
  const id = newId('POOL');
  await store.insertDirectory(db, {
    id,
    organization_id: scope.organizationId,
    name: 'Default Directory',
    is_default: 1,
    created_at: isoSeconds(now),
  });
  return id;
}

export function listDirectories(db: Queryable, scope: Scope, page: Page) {
  return store.listDirectories(db, scope, page);
}

/** The directory, when it is the caller's; a 404 otherwise (another organisation's looks the same). */
export async function requireDirectory(db: Queryable, scope: Scope, directoryId: string) {
  const row = await store.findDirectory(db, scope, directoryId);
  if (!row) throw ApiError.of('FW_DIR_1', `Directory ${directoryId} not found.`);
  return row;
}

/** Where the legacy `/v3/mailinglists` calls keep their lists (they predate directories). */
export async function defaultDirectoryId(db: Queryable, scope: Scope): Promise<string> {
  const row = await store.findDefaultDirectory(db, scope);
  if (!row) throw ApiError.of('FW_DIR_1', 'The organization has no default directory.');
  return row.id;
}
