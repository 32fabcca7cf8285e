import { isoSeconds } from '../../clock.js';
import { fromJson, toJson } from '../../db/json.js';
import type { Deps } from '../../deps.js';
import { ApiError } from '../../http/errors.js';
import type { Principal } from '../../http/principal.js';
import { groupExists } from '../groups/groups.service.js';
import { allUsersInScope } from '../users/users.service.js';
import { type PermissionSet, readPermissions } from './survey-permissions.js';
import * as store from './survey-sharing.store.js';
import { accessibleSurvey } from './surveys.service.js';

/**
 * `POST /v3/surveys/{surveyId}/permissions/collaborations`: shares the survey with a user or a group of
 * the organisation, with the permissions named (sharing again replaces them). Only the survey's owner and
 * brand administrators share. Answers the flags it ignored, for the notice.
 */
export async function shareSurvey(
  deps: Deps,
  principal: Principal,
  surveyId: string,
  body: { recipientId: string; permissions: object },
): Promise<{ ignored: string[] }> {
  const { permissions, ignored } = readPermissions(body.permissions);
  const now = isoSeconds(deps.clock.now());
  await deps.db.transaction().execute(async (trx) => {
    const survey = await accessibleSurvey(trx, principal, surveyId, 'own');
    const recipient = body.recipientId;
    if (recipient === survey.owner_id) throw ApiError.invalid('recipientId', "is the survey's owner");
    const known = recipient.startsWith('GR_')
      ? await groupExists(trx, principal, recipient)
      : await allUsersInScope(trx, principal, [recipient]);
    if (!known) throw ApiError.invalid('recipientId', 'is not a user or group of the organization');
    await store.upsertCollaboration(trx, {
      organization_id: principal.organizationId,
      survey_id: surveyId,
      recipient_id: recipient,
      permissions: toJson(permissions),
      shared_by: principal.userId,
      created_at: now,
      updated_at: now,
    });
  });
  return { ignored };
}

/** Who the survey is shared with (its owner and brand administrators ask). */
export async function listCollaborations(deps: Deps, principal: Principal, surveyId: string) {
  await accessibleSurvey(deps.db, principal, surveyId, 'own');
  const rows = await store.listCollaborations(deps.db, principal, surveyId);
  return rows.map((row) => ({
    recipientId: row.recipient_id,
    recipientType: row.recipient_id.startsWith('GR_') ? ('group' as const) : ('user' as const),
    permissions: fromJson<PermissionSet>(row.permissions),
    sharedBy: row.shared_by,
    creationDate: row.created_at,
    lastModified: row.updated_at,
  }));
}

/** Ends a share: the recipient no longer sees the survey (404 on its routes). */
export async function unshareSurvey(deps: Deps, principal: Principal, surveyId: string, recipientId: string) {
  await deps.db.transaction().execute(async (trx) => {
    await accessibleSurvey(trx, principal, surveyId, 'own');
    if (!(await store.deleteCollaboration(trx, principal, surveyId, recipientId)))
      throw ApiError.of('FW_SHR_1', `Survey ${surveyId} is not shared with ${recipientId}.`);
  });
}
