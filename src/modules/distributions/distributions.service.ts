import { join } from 'node:path';
import { isoSeconds } from '../../clock.js';
import type { Config } from '../../config.js';
import { toJson } from '../../db/json.js';
import type { Page } from '../../db/page.js';
import type { Deps } from '../../deps.js';
import { blobDirectory } from '../../files/create-blob-store.js';
import { ApiError } from '../../http/errors.js';
import { newId } from '../../http/ids.js';
import { isBrandAdmin, type Principal } from '../../http/principal.js';
import { notifyJobQueued } from '../../jobs/jobs.service.js';
import { getListContact } from '../contacts/list-contacts.service.js';
import { requireList } from '../contacts/mailing-lists.service.js';
import { getSample } from '../contacts/samples.service.js';
import { findReachableMessage } from '../messages/messages.service.js';
import { accessibleSurvey } from '../surveys/surveys.service.js';
import { enqueueDistributionRound } from './distribution.job.js';
import type {
  CreateDistributionBody,
  FollowUpBody,
  MessageRef,
  RequestType,
} from './distributions.schemas.js';
import * as store from './distributions.store.js';
import { describeSmtpUrl } from './mail-sender.js';

export type { DistributionRow } from './distributions.store.js';

export function distributionNotFound(distributionId: string): ApiError {
  return ApiError.of('GED_3', `Distribution ${distributionId} not found.`);
}

export function smsRefused(): ApiError {
  return ApiError.of(
    'FW_DST_1',
    'SMS distributions are not available: this server has no SMS transport and sends e-mail only.',
  );
}

/** Creates an e-mail invitation and queues its send for `sendDate`; answers its id (`EMD_`). */
export async function createDistribution(
  deps: Deps,
  principal: Principal,
  body: CreateDistributionBody,
  linkBaseUrl: string,
): Promise<string> {
  if (body.channel !== undefined && body.channel.toLowerCase() !== 'email') throw smsRefused();
  const sendDate = checkDate('sendDate', body.sendDate);
  const expiration = body.surveyLink.expirationDate;
  const linkExpiresAt = expiration === undefined ? null : checkDate('surveyLink.expirationDate', expiration);
  checkHeader(body.header);
  const { recipients } = body;
  await accessibleSurvey(deps.db, principal, body.surveyLink.surveyId, 'surveyManagement.distributeSurveys');
  await requireList(deps.db, principal, { listId: recipients.mailingListId });
  if (recipients.contactId !== undefined)
    await getListContact(deps, principal, { listId: recipients.mailingListId }, recipients.contactId);
  if (recipients.sampleId !== undefined)
    await getSample(deps, principal, recipients.mailingListId, recipients.sampleId);
  const message = await resolveMessage(deps, principal, body.message);
  const id = newId('EMD');
  const at = isoSeconds(deps.clock.now());
  const row: store.DistributionRow = {
    id,
    organization_id: principal.organizationId,
    owner_id: principal.userId,
    survey_id: body.surveyLink.surveyId,
    request_type: 'Invite',
    parent_id: null,
    root_id: id,
    link_type: body.surveyLink.type ?? 'Individual',
    link_expires_at: linkExpiresAt && isoSeconds(linkExpiresAt),
    ...message,
    from_email: body.header.fromEmail,
    from_name: body.header.fromName ?? null,
    reply_to_email: body.header.replyToEmail ?? null,
    subject: body.header.subject,
    mailing_list_id: recipients.mailingListId,
    contact_id: recipients.contactId ?? null,
    sample_id: recipients.sampleId ?? null,
    send_date: isoSeconds(sendDate),
    status: 'Pending',
    recipients_collected: 0,
    link_base_url: linkBaseUrl,
    created_at: at,
    updated_at: at,
  };
  await insertAndQueue(deps, principal, row, sendDate);
  return id;
}

/**
 * A reminder (to the parent's recipients who have not finished), a thank-you (to those who have), or a
 * new invitation of the same survey to the same recipients; answers its id.
 */
export async function createFollowUp(
  deps: Deps,
  principal: Principal,
  parentId: string,
  requestType: RequestType,
  body: FollowUpBody,
): Promise<string> {
  const parent = await requireDistribution(deps, principal, parentId);
  const sendDate = checkDate('sendDate', body.sendDate);
  const header = {
    fromEmail: body.header?.fromEmail ?? parent.from_email,
    fromName: body.header?.fromName ?? parent.from_name,
    replyToEmail: body.header?.replyToEmail ?? parent.reply_to_email,
    subject: body.header?.subject ?? parent.subject,
  };
  checkHeader(header);
  const message = await resolveMessage(deps, principal, body.message);
  const id = newId('EMD');
  const at = isoSeconds(deps.clock.now());
  const invite = requestType === 'Invite';
  const row: store.DistributionRow = {
    ...parent,
    id,
    owner_id: principal.userId,
    request_type: requestType,
    parent_id: invite ? null : parent.id,
    root_id: invite ? id : parent.root_id,
    ...message,
    from_email: header.fromEmail,
    from_name: header.fromName,
    reply_to_email: header.replyToEmail,
    subject: header.subject,
    send_date: isoSeconds(sendDate),
    status: 'Pending',
    recipients_collected: 0,
    created_at: at,
    updated_at: at,
  };
  await insertAndQueue(deps, principal, row, sendDate);
  return id;
}

async function insertAndQueue(deps: Deps, principal: Principal, row: store.DistributionRow, sendDate: Date) {
  await deps.db.transaction().execute(async (trx) => {
    await store.insertDistribution(trx, row);
    await enqueueDistributionRound(
      trx,
      principal,
      { distributionId: row.id, dueAt: sendDate, first: true },
      deps.clock.now(),
    );
  });
  notifyJobQueued();
}

/** The distribution, when the caller's organisation has it and the caller made it or administers the brand. */
export async function requireDistribution(
  deps: Deps,
  principal: Principal,
  distributionId: string,
): Promise<store.DistributionRow> {
  const row = await store.findDistribution(deps.db, principal, distributionId);
  if (!row || !(isBrandAdmin(principal) || row.owner_id === principal.userId))
    throw distributionNotFound(distributionId);
  return row;
}

export interface ListFilter {
  surveyId: string;
  requestType?: RequestType;
  mailingListId?: string;
  sendStartDate?: string;
  sendEndDate?: string;
}

export async function listDistributions(deps: Deps, principal: Principal, filter: ListFilter, page: Page) {
  await accessibleSurvey(deps.db, principal, filter.surveyId, 'surveyManagement.distributeSurveys');
  return store.listDistributions(
    deps.db,
    principal,
    {
      surveyId: filter.surveyId,
      ...(isBrandAdmin(principal) ? {} : { ownerId: principal.userId }),
      ...(filter.requestType ? { requestType: filter.requestType } : {}),
      ...(filter.mailingListId ? { mailingListId: filter.mailingListId } : {}),
      ...(filter.sendStartDate
        ? { sendFrom: isoSeconds(checkDate('sendStartDate', filter.sendStartDate)) }
        : {}),
      ...(filter.sendEndDate ? { sendTo: isoSeconds(checkDate('sendEndDate', filter.sendEndDate)) } : {}),
    },
    page,
  );
}

/** Cancels a distribution whose send has not started; one being sent or sent answers 409. */
export async function cancelDistribution(deps: Deps, principal: Principal, distributionId: string) {
  const row = await requireDistribution(deps, principal, distributionId);
  const at = isoSeconds(deps.clock.now());
  const changed = await store.updateDistribution(
    deps.db,
    principal,
    distributionId,
    { status: 'Canceled', updated_at: at },
    ['Pending'],
  );
  if (changed === 0) {
    const now = (await store.findDistribution(deps.db, principal, distributionId))?.status ?? row.status;
    const why = now === 'Canceled' ? 'was canceled already' : now === 'Done' ? 'was sent' : 'is being sent';
    throw ApiError.of('FW_DST_2', `Distribution ${distributionId} ${why}; it cannot be canceled.`);
  }
}

/** The message columns of a distribution: a library message as it is now, or the inline text. */
async function resolveMessage(deps: Deps, principal: Principal, ref: MessageRef) {
  if (ref.messageText !== undefined && ref.messageId !== undefined)
    throw ApiError.invalid('message', 'takes messageId (with libraryId) or messageText, not both');
  if (ref.messageText !== undefined)
    return {
      library_id: null,
      message_id: null,
      message_text: ref.messageText,
      message_body: toJson({ en: ref.messageText }),
    };
  if (ref.messageId === undefined)
    throw ApiError.invalid('message', 'needs messageId (with libraryId) or messageText');
  const found = await findReachableMessage(deps.db, principal, ref.messageId, ref.libraryId);
  if (!found) throw ApiError.of('FW_MSG_1', `Library message ${ref.messageId} not found.`);
  if (found.category === 'smsInvite') throw smsRefused();
  return {
    library_id: found.libraryId,
    message_id: found.id,
    message_text: null,
    message_body: toJson(found.messages),
  };
}

function checkDate(field: string, text: string): Date {
  const date = new Date(text);
  if (Number.isNaN(date.getTime()) || !/^\d{4}-\d{2}-\d{2}/.test(text))
    throw ApiError.invalid(field, `must be an ISO 8601 date and time, got "${text.slice(0, 40)}"`);
  return date;
}

const EMAIL = /^[^\s@<>"(),;:]+@[^\s@<>"(),;:]+\.[^\s@<>"(),;:]+$/;

function checkHeader(header: { fromEmail: string; replyToEmail?: string | null; subject: string }): void {
  if (!EMAIL.test(header.fromEmail)) throw ApiError.invalid('header.fromEmail', 'must be an e-mail address');
  if (header.replyToEmail && !EMAIL.test(header.replyToEmail))
    throw ApiError.invalid('header.replyToEmail', 'must be an e-mail address');
  if (!header.subject.trim()) throw ApiError.invalid('header.subject', 'must not be empty');
}

/** For the start-up line: where this node's distributions send their mail. */
export function mailDestination(config: Pick<Config, 'smtpUrl' | 'blobStore' | 'dataDir'>): string {
  if (config.smtpUrl) return `Mail: distributions send through SMTP to ${describeSmtpUrl(config.smtpUrl)}.`;
  const where =
    config.blobStore === 'database'
      ? 'the database blob store'
      : join(blobDirectory(config.dataDir), '<organization>', 'mail', '<distribution>');
  return `Mail: no --smtp-url (SMTP_URL), so distributions write each message as an .eml file to ${where}.`;
}
