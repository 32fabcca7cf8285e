import { isoSeconds } from '../../clock.js';
import { isUniqueViolation } from '../../db/database.js';
import { toJson } from '../../db/json.js';
import type { Page } from '../../db/page.js';
import type { Scope } from '../../db/scope.js';
import type { Deps, Queryable } from '../../deps.js';
import { ApiError } from '../../http/errors.js';
import { newId } from '../../http/ids.js';
import { type Principal, requireBrandAdmin } from '../../http/principal.js';
import type { CreateDivisionBody } from './divisions.schemas.js';
import * as store from './divisions.store.js';
import { allUsersInScope } from './users.service.js';

export async function getDivision(deps: Deps, principal: Principal, divisionId: string) {
  const row = await store.findDivision(deps.db, principal, divisionId);
  if (!row) throw ApiError.of('FW_DIV_1', `Division ${divisionId} not found.`);
  return row;
}

export function listDivisions(deps: Deps, principal: Principal, page: Page) {
  return store.listDivisions(deps.db, principal, page);
}

export async function createDivision(
  deps: Deps,
  principal: Principal,
  body: CreateDivisionBody,
): Promise<string> {
  requireBrandAdmin(principal);
  const admins = body.divisionAdmins ?? [];
  if (!(await allUsersInScope(deps.db, principal, admins))) {
    throw ApiError.invalid('divisionAdmins', 'names a user that is not in this organization');
  }
  const id = newId('DV');
  try {
    await store.insertDivision(deps.db, {
      id,
      organization_id: principal.organizationId,
      name: body.name,
      status: 'Active',
      division_admins: toJson(admins),
      permissions: toJson(body.permissions ?? {}),
      created_at: isoSeconds(deps.clock.now()),
    });
  } catch (error) {
    if (isUniqueViolation(error))
      throw ApiError.of('FW_DIV_2', `A division named ${body.name} already exists.`);
    throw error;
  }
  return id;
}

/** For other modules: a division id given by a caller must be one of the caller's organisation. */
export async function assertDivisionInScope(
  db: Queryable,
  scope: Scope,
  divisionId: string | null | undefined,
) {
  if (divisionId && !(await store.findDivision(db, scope, divisionId))) {
    throw ApiError.invalid('divisionId', `does not name a division of this organization (${divisionId})`);
  }
}
