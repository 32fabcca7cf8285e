import { isoSeconds } from '../../clock.js';
import { fromJson, toJson } from '../../db/json.js';
import type { Page } from '../../db/page.js';
import type { Scope } from '../../db/scope.js';
import type { Deps, Queryable } from '../../deps.js';
import { recordEvent } from '../../events/record-event.js';
import { ApiError } from '../../http/errors.js';
import { newId } from '../../http/ids.js';
import { isBrandAdmin, type Principal } from '../../http/principal.js';
import { listMissingGraphics } from '../graphics/graphics.service.js';
import { groupIdsOfUser } from '../groups/groups.service.js';
import { addOwnerResponseCounts, allUsersInScope } from '../users/users.service.js';
import { graphicIdsInJson } from './definition/graphic-ids.js';
import { type QsfDocument, quotasOf } from './definition/qsf.js';
import { type ImportedQsf, importQsf, missingGraphicsNotices } from './qsf-import.js';
import { checkQsfShape } from './qsf-limits.js';
import { qsfFromV3Record } from './survey-from-v3.js';
import {
  grants,
  type PermissionSet,
  type SurveyAccess,
  type SurveyNeed,
  unionOf,
} from './survey-permissions.js';
import { responseCountsOf, settleRecordings } from './survey-responses.service.js';
import * as sharing from './survey-sharing.store.js';
import * as store from './surveys.store.js';

export interface Expiration {
  startDate: string | null;
  endDate: string | null;
}

export interface NewSurveyInput {
  name?: string | undefined;
  ownerId?: string | undefined;
  isActive?: boolean | undefined;
  expiration?: Partial<Expiration> | undefined;
}

export function surveyNotFound(surveyId: string): ApiError {
  return ApiError.of('GSI_2', `Survey ${surveyId} not found.`);
}

/**
 * May the caller do what `need` names with this survey? Brand administrators and the survey's owner may do
 * everything. Another user may act on a survey shared with them or one of their groups (survey-sharing):
 * `see` needs any share, a named permission that flag in any of them; `own` (sharing it, giving it to
 * another owner) is the owner's and the administrators' alone. A survey not shared with the caller is not
 * found (404, as one of another organisation); a share without the flag is 403 naming it.
 * Answers what it found, for what a permission trims rather than refuses (`result.viewPersonalData`:
 * responses and exports without the personal data), so the shares are read once: `grants(access, …)`.
 */
export async function requireSurveyAccess(
  db: Queryable,
  principal: Principal,
  row: { id: string; owner_id: string },
  need: Need | readonly Need[],
): Promise<SurveyAccess> {
  const granted = await accessOf(db, principal, row);
  if (granted === 'all') return granted;
  if (granted === undefined) throw surveyNotFound(row.id);
  for (const one of typeof need === 'string' ? [need] : need) {
    if (one === 'own') throw ApiError.forbidden();
    if (!grants(granted, one))
      throw ApiError.of('QMST_2.1', `Survey ${row.id} is shared with you without the permission ${one}.`);
  }
  return granted;
}

type Need = SurveyNeed | 'own';

/** Everything (an administrator, the owner), the permissions of the caller's shares, or nothing. */
async function accessOf(
  db: Queryable,
  principal: Principal,
  row: { id: string; owner_id: string },
): Promise<SurveyAccess | undefined> {
  if (isBrandAdmin(principal) || row.owner_id === principal.userId) return 'all';
  const shares = await sharing.sharesWith(db, principal, row.id, await recipientIdsOf(db, principal));
  if (shares.length === 0) return undefined;
  return unionOf(shares.map((share) => fromJson<PermissionSet>(share.permissions)));
}

/** The ids a survey may be shared with to reach this user: the user's and the user's groups'. */
export async function recipientIdsOf(db: Queryable, principal: Principal): Promise<string[]> {
  return [principal.userId, ...(await groupIdsOfUser(db, principal, principal.userId))];
}

/** The survey of the caller's organisation, if the caller may do what `need` names with it; else 404/403. */
export async function accessibleSurvey(
  db: Queryable,
  principal: Principal,
  surveyId: string,
  need: Need | readonly Need[],
) {
  const row = await store.findSurvey(db, principal, surveyId);
  if (!row) throw surveyNotFound(surveyId);
  await requireSurveyAccess(db, principal, row, need);
  return row;
}

/**
 * Reads an uploaded QSF file (bytes or text, or a JSON body's object): not JSON → FW_SUR_1, a bad
 * structure → 400 naming the field.
 */
export function parseQsfFile(file: Buffer | string | object, surveyId: string): ImportedQsf {
  if (!Buffer.isBuffer(file) && typeof file === 'object') return importQsf(file, surveyId, 'file');
  let parsed: unknown;
  try {
    const text = typeof file === 'string' ? file : file.toString('utf8');
    parsed = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw ApiError.of('FW_SUR_1', `The file is not a QSF document: ${(error as Error).message}`);
  }
  return importQsf(parsed, surveyId, 'file');
}

/** `POST /v3/surveys` with a QSF upload. All or nothing: a bad file stores no part of a survey. */
export async function importSurveyFile(
  deps: Deps,
  principal: Principal,
  file: Buffer | string | object,
  input: NewSurveyInput,
): Promise<{ id: string; notices: string[] }> {
  const id = newId('SV');
  const imported = parseQsfFile(file, id);
  return { id, notices: await storeNewSurvey(deps, principal, imported, input) };
}

/** `POST /v3/surveys` with a JSON body in the shape of `GET /v3/surveys/{id}`. */
export async function createSurveyFromRecord(
  deps: Deps,
  principal: Principal,
  body: Record<string, unknown>,
): Promise<{ id: string; notices: string[] }> {
  const id = newId('SV');
  const name = typeof body.name === 'string' ? body.name : '';
  // Before the record's reader, which recurses through the flow.
  checkQsfShape(body, 'body');
  const imported = importQsf(qsfFromV3Record(body, name), id, 'body');
  const input: NewSurveyInput = {
    name,
    ownerId: body.ownerId as string | undefined,
    isActive: body.isActive as boolean | undefined,
    expiration: body.expiration as Partial<Expiration> | undefined,
  };
  return { id, notices: await storeNewSurvey(deps, principal, imported, input) };
}

async function storeNewSurvey(
  deps: Deps,
  principal: Principal,
  imported: ImportedQsf,
  input: NewSurveyInput,
): Promise<string[]> {
  const { document } = imported;
  const name = (input.name ?? '').trim() || document.SurveyEntry.SurveyName.trim();
  if (!name) throw ApiError.invalid('name', 'is required (the file has no SurveyName)');
  if (name.length > 500) throw ApiError.invalid('name', 'must be at most 500 characters');
  document.SurveyEntry.SurveyName = name;
  const ownerId = input.ownerId ?? principal.userId;
  const expiration = checkExpiration(input.expiration ?? {});
  const now = deps.clock.now();
  const definition = toJson(document);
  await deps.db.transaction().execute(async (trx) => {
    if (ownerId !== principal.userId) {
      if (!isBrandAdmin(principal)) throw ApiError.forbidden();
      if (!(await allUsersInScope(trx, principal, [ownerId])))
        throw ApiError.invalid('ownerId', 'is not a user of the organization');
    }
    await store.insertSurvey(trx, {
      id: document.SurveyEntry.SurveyID,
      organization_id: principal.organizationId,
      name,
      owner_id: ownerId,
      is_active: input.isActive ? 1 : 0,
      start_date: expiration.startDate ?? null,
      end_date: expiration.endDate ?? null,
      definition,
      created_at: isoSeconds(now),
      updated_at: isoSeconds(now),
    });
    await store.insertQuotas(trx, quotaRows(principal, document));
    if (input.isActive) await emitActivation(trx, principal, document.SurveyEntry.SurveyID, true, now);
  });
  return [...imported.notices, ...(await graphicNotices(deps, principal, definition))];
}

/**
 * The images a definition (its stored JSON text) names that are not graphics of the organisation yet
 * (qsf-import.ts): its Qualtrics graphic URLs and `IM_…` values, such as a heat map's `GraphicID`.
 */
export async function graphicNotices(deps: Deps, scope: Scope, definition: string): Promise<string[]> {
  return missingGraphicsNotices(await listMissingGraphics(deps, scope, graphicIdsInJson(definition)));
}

/** The survey_quotas rows of a definition's quotas (counts start at 0). */
export function quotaRows(scope: Scope, document: QsfDocument) {
  return quotasOf(document).map((quota, position) => ({
    organization_id: scope.organizationId,
    survey_id: document.SurveyEntry.SurveyID,
    id: quota.ID,
    name: quota.Name,
    quota_limit: quota.Occurrences,
    logic: quota.Logic === null ? null : toJson(quota.Logic),
    action: quota.QuotaAction,
    position,
  }));
}

/** Dates must be ISO 8601; stored and answered in UTC with `Z`. The end may not come before the start. */
function checkExpiration(expiration: Partial<Expiration>): Partial<Expiration> {
  const out: Partial<Expiration> = {};
  for (const field of ['startDate', 'endDate'] as const) {
    const value = expiration[field];
    if (value === undefined) continue;
    // JSON null (which schema coercion may have turned into '') clears the date.
    if (value === null || value === '') {
      out[field] = null;
      continue;
    }
    const date = new Date(value);
    if (typeof value !== 'string' || Number.isNaN(date.getTime()))
      throw ApiError.invalid(`expiration.${field}`, 'must be an ISO 8601 date-time or null');
    out[field] = isoSeconds(date);
  }
  if (out.startDate && out.endDate && out.endDate < out.startDate)
    throw ApiError.invalid('expiration.endDate', 'must not be before expiration.startDate');
  return out;
}

async function emitActivation(trx: Queryable, scope: Scope, surveyId: string, active: boolean, now: Date) {
  // Spec 6: controlpanel.activateSurvey / deactivateSurvey with Status Active / Inactive and SurveyID.
  const topic = active ? 'controlpanel.activateSurvey' : 'controlpanel.deactivateSurvey';
  await recordEvent(trx, scope, topic, { Status: active ? 'Active' : 'Inactive', SurveyID: surveyId }, now);
}

export async function getSurvey(deps: Deps, principal: Principal, surveyId: string) {
  const row = await accessibleSurvey(deps.db, principal, surveyId, 'see');
  const counts = await responseCountsOf(deps.db, principal, row);
  return { row, document: fromJson<QsfDocument>(row.definition), counts };
}

/** Brand administrators list every survey of the organisation; other users the ones they own or share. */
export async function listSurveys(deps: Deps, principal: Principal, page: Page) {
  if (isBrandAdmin(principal)) return store.listSurveys(deps.db, principal, page);
  const recipientIds = await recipientIdsOf(deps.db, principal);
  return store.listSurveys(deps.db, principal, page, { userId: principal.userId, recipientIds });
}

export interface SurveyUpdate {
  name?: string | undefined;
  isActive?: boolean | undefined;
  expiration?: Partial<Expiration> | undefined;
  ownerId?: string | undefined;
}

/**
 * `PUT /v3/surveys/{id}` (spec 9.5: activation, options and owner in one call). Activation and
 * deactivation emit their event in the same transaction, once per actual change: setting isActive to
 * what it already is emits nothing. A new owner takes the survey's responseCounts with it.
 */
export async function updateSurvey(deps: Deps, principal: Principal, surveyId: string, body: SurveyUpdate) {
  const expiration = body.expiration ? checkExpiration(body.expiration) : undefined;
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    // The counts a new owner takes are those of every response recorded to the old one (decision 0012).
    if (body.ownerId !== undefined) await settleRecordings(trx, surveyId);
    const row = await store.findSurveyHeader(trx, principal, surveyId);
    if (!row) throw surveyNotFound(surveyId);
    await requireSurveyAccess(trx, principal, row, needsOfUpdate(body, row));
    if (body.ownerId !== undefined && body.ownerId !== row.owner_id) {
      if (!isBrandAdmin(principal)) throw ApiError.forbidden();
      if (!(await allUsersInScope(trx, principal, [body.ownerId])))
        throw ApiError.invalid('ownerId', 'is not a user of the organization');
      const counts = await responseCountsOf(trx, principal, row);
      await addOwnerResponseCounts(trx, principal, row.owner_id, negate(counts));
      await addOwnerResponseCounts(trx, principal, body.ownerId, counts);
    }
    const start = expiration?.startDate === undefined ? row.start_date : expiration.startDate;
    const end = expiration?.endDate === undefined ? row.end_date : expiration.endDate;
    if (start && end && end < start)
      throw ApiError.invalid('expiration.endDate', 'must not be before expiration.startDate');
    const activeChanged = body.isActive !== undefined && body.isActive !== (row.is_active === 1);
    await store.updateSurvey(trx, principal, surveyId, {
      name: body.name,
      owner_id: body.ownerId,
      is_active: body.isActive === undefined ? undefined : body.isActive ? 1 : 0,
      start_date: start,
      end_date: end,
      updated_at: isoSeconds(now),
    });
    if (activeChanged) await emitActivation(trx, principal, surveyId, body.isActive === true, now);
  });
}

/** A collaborator's PUT: each change needs its permission (a new owner is the owner's to give). */
function needsOfUpdate(body: SurveyUpdate, row: { owner_id: string; is_active: number }): Need[] {
  const needs: Need[] = [];
  if (body.name !== undefined || body.expiration !== undefined) needs.push('surveyManagement.editSurveys');
  if (body.isActive !== undefined && body.isActive !== (row.is_active === 1))
    needs.push(body.isActive ? 'surveyManagement.activateSurveys' : 'surveyManagement.deactivateSurveys');
  if (body.ownerId !== undefined && body.ownerId !== row.owner_id) needs.push('own');
  return needs.length > 0 ? needs : ['see'];
}

const negate = (counts: Record<string, number>) =>
  Object.fromEntries(Object.entries(counts).map(([k, v]) => [k, -v]));

/**
 * Deletes the survey with its quotas and responses. Its responses leave the owner's auditable and
 * generated counts and join the deleted count, so the user record's responseCounts stay true.
 */
export async function deleteSurvey(deps: Deps, principal: Principal, surveyId: string): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    await settleRecordings(trx, surveyId);
    const row = await store.findSurveyHeader(trx, principal, surveyId);
    if (!row) throw surveyNotFound(surveyId);
    await requireSurveyAccess(trx, principal, row, 'surveyManagement.deleteSurveys');
    const { auditable, generated } = await responseCountsOf(trx, principal, row);
    if (auditable + generated > 0) {
      await addOwnerResponseCounts(trx, principal, row.owner_id, {
        auditable: -auditable,
        generated: -generated,
        deleted: auditable + generated,
      });
    }
    await store.deleteSurvey(trx, principal, surveyId);
  });
}

export async function listQuotas(deps: Deps, principal: Principal, surveyId: string) {
  await accessibleSurvey(deps.db, principal, surveyId, 'see');
  return store.listQuotas(deps.db, principal, surveyId);
}

/** For other modules (exports): a survey of the scope's organisation with its stored definition, or none. */
export function findSurveyInScope(db: Queryable, scope: Scope, surveyId: string) {
  return store.findSurvey(db, scope, surveyId);
}

/** For other modules: a survey's list fields (name, owner, dates), or none. */
export function findSurveyHeaderInScope(db: Queryable, scope: Scope, surveyId: string) {
  return store.findSurveyHeader(db, scope, surveyId);
}
