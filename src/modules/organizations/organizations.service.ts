import { flag } from '../../db/json.js';
import type { Deps } from '../../deps.js';
import { ApiError } from '../../http/errors.js';
import { type Principal, requireBrandAdmin } from '../../http/principal.js';
import { countOrganizationUsers } from '../users/users.service.js';
import type { UpdateOrganizationBody } from './organizations.schemas.js';
import * as store from './organizations.store.js';

/** Another organisation's id answers exactly like an unknown one: its existence is not disclosed. */
export async function getOrganization(deps: Deps, principal: Principal, organizationId: string) {
  const row =
    organizationId === principal.organizationId
      ? await store.findOrganization(deps.db, organizationId)
      : undefined;
  if (!row) throw ApiError.of('FW_ORG_1', `Organization ${organizationId} not found.`);
  return { row, userCount: await countOrganizationUsers(deps.db, principal) };
}

export async function updateOrganization(
  deps: Deps,
  principal: Principal,
  organizationId: string,
  body: UpdateOrganizationBody,
): Promise<void> {
  await getOrganization(deps, principal, organizationId);
  requireBrandAdmin(principal);
  if (body.targetAudience !== undefined) {
    await store.updateTargetAudience(deps.db, organizationId, flag(body.targetAudience));
  }
}
