/**
 * What a distribution reads as: its stats, and per contact its link and history. Delivery state comes from
 * the recipient rows; survey state from the engine's sessions of the invite's individual links (through
 * the engine's service), so `started` and `finished` stay true as people take the survey.
 */

import type { Page } from '../../db/page.js';
import type { Scope } from '../../db/scope.js';
import type { Deps, Queryable } from '../../deps.js';
import { openSecret } from '../../events/sealed-secret.js';
import { secretKeyOf } from '../../events/secret-key.js';
import { ApiError } from '../../http/errors.js';
import type { Principal } from '../../http/principal.js';
import { countLinkSessions, type LinkSessionState, linkSessionStates } from '../engine/sessions.service.js';
import { OPTED_OUT } from './collect-recipients.js';
import type { Stats } from './distributions.schemas.js';
import { type DistributionRow, requireDistribution } from './distributions.service.js';
import { countStates, listContactIds, listRecipients, type RecipientRow } from './recipients.store.js';

export async function getDistribution(deps: Deps, principal: Principal, distributionId: string) {
  const row = await requireDistribution(deps, principal, distributionId);
  return { row, stats: await statsOf(deps.db, principal, row) };
}

export async function statsOf(db: Queryable, scope: Scope, row: DistributionRow): Promise<Stats> {
  const { byState, opened } = await countStates(db, scope, row.id);
  const count = (state: string) => byState.get(state) ?? 0;
  const sessions =
    row.parent_id === null
      ? await countLinkSessions(db, scope, row.id)
      : await followUpSessions(db, scope, row);
  return {
    sent: count('sent'),
    failed: count('failed'),
    started: sessions.started,
    bounced: count('bounced'),
    opened,
    skipped: count('skipped'),
    finished: sessions.finished,
    complaints: 0,
    blocked: 0,
  };
}

/** A follow-up's recipients have the invite's links: their sessions are counted, a batch of contacts at a time. */
async function followUpSessions(db: Queryable, scope: Scope, row: DistributionRow) {
  const total = { started: 0, finished: 0 };
  let after: string | undefined;
  for (;;) {
    const ids = await listContactIds(db, scope, row.id, after, 500);
    const counts = await countLinkSessions(db, scope, row.root_id, ids);
    total.started += counts.started;
    total.finished += counts.finished;
    if (ids.length < 500) return total;
    after = ids.at(-1);
  }
}

export interface ContactView {
  recipient: RecipientRow;
  session: LinkSessionState | undefined;
  link: string | null;
}

/** One page of the distribution's recipients with their links and survey sessions. */
export async function listRecipientViews(
  deps: Deps,
  principal: Principal,
  distributionId: string,
  page: Page,
  surveyId?: string,
): Promise<{ row: DistributionRow; views: ContactView[] }> {
  const row = await requireDistribution(deps, principal, distributionId);
  if (surveyId !== undefined && surveyId !== row.survey_id)
    throw ApiError.invalid('surveyId', `is not the survey of distribution ${distributionId}`);
  const recipients = await listRecipients(deps.db, principal, distributionId, page);
  const sessions = await linkSessionStates(
    deps.db,
    principal,
    row.root_id,
    recipients.map((r) => r.contact_id),
  );
  const key = secretKeyOf(deps.config);
  const views = recipients.map((recipient) => ({
    recipient,
    session: sessions.get(recipient.contact_id),
    link: linkOf(row, recipient, key),
  }));
  return { row, views };
}

function linkOf(row: DistributionRow, recipient: RecipientRow, key: Buffer): string | null {
  const base = `${row.link_base_url}/jfe/form/${row.survey_id}`;
  if (row.link_type !== 'Individual') return base;
  return recipient.link_sealed ? `${base}/l/${openSecret(recipient.link_sealed, key)}` : null;
}

/** The links call's status: how far the contact got, survey first, then e-mail. */
export function linkStatus(view: ContactView): string {
  const survey = surveyStatus(view.session);
  if (survey) return survey;
  const { recipient } = view;
  switch (recipient.state) {
    case 'sent':
      return recipient.opened_at ? 'Email Opened' : 'Email Sent';
    case 'bounced':
      return 'Email Bounced';
    case 'failed':
      return 'Email Failed';
    case 'skipped':
      return recipient.reason === OPTED_OUT ? 'Email Skipped (Opted Out)' : 'Email Skipped';
    case 'canceled':
      return 'Email Canceled';
    default:
      return recipient.attempts > 0 ? 'Email Soft Bounced' : 'Email Not Sent';
  }
}

function surveyStatus(session: LinkSessionState | undefined): string | undefined {
  if (!session) return undefined;
  if (session.status === 'complete') return 'Survey Finished';
  if (session.status === 'quota') return 'Survey Screened Out';
  return 'Survey Started';
}

/** The history call's status (the platform's words: Success, Opened, SurveyFinished, HardBounce ...). */
export function historyStatus(view: ContactView): string {
  const { session, recipient } = view;
  if (session?.status === 'complete') return 'SurveyFinished';
  if (session?.status === 'quota') return 'SurveyScreenedOut';
  if (session) return 'SurveyStarted';
  switch (recipient.state) {
    case 'sent':
      return recipient.opened_at ? 'Opened' : 'Success';
    case 'bounced':
      return 'HardBounce';
    case 'failed':
      return 'Failure';
    case 'skipped':
      return 'Skipped';
    case 'canceled':
      return 'Cancelled';
    default:
      return recipient.attempts > 0 ? 'SoftBounce' : 'Pending';
  }
}

export const isUnsubscribed = (recipient: RecipientRow) =>
  recipient.unsubscribed_at !== null || (recipient.state === 'skipped' && recipient.reason === OPTED_OUT);
