/**
 * Sessions and individual links. A browser holds its session in a cookie `<FS_ id>.<secret>`; only the
 * secret's SHA-256 is stored, so reading the table does not let anyone take over a session. An individual
 * link carries a token that ties its one session to a contact and a distribution.
 */

import type { Scope } from '../../db/scope.js';
import type { Deps, Queryable } from '../../deps.js';
import { newId, randomAlphanumeric } from '../../http/ids.js';
import { hashSecret, sameHash } from '../../secret-hash.js';
import { embeddedFieldsOf } from '../surveys/definition/qsf.js';
import { initialState } from './engine.service.js';
import type { RunnableSurvey } from './engine-survey.js';
import { evenAssignment } from './even-presentation.js';
import { chooseLanguage } from './languages.js';
import { serializeState } from './session-state.js';
import type { LinkTokenRow, OpenSessionFilter, SessionRow } from './sessions.store.js';
import * as store from './sessions.store.js';

export type { OpenSessionFilter, SessionRow };

export interface Visitor {
  ip: string;
  userAgent: string | null;
  /** The browser's `Accept-Language` header: a new session's language when the link names none. */
  acceptLanguage?: string | null;
}

export interface SessionKey {
  sessionId: string;
  secret: string;
}

const MAX_URL_VALUE = 1000;

export const sessionCookieName = (surveyId: string) => `fw_${surveyId}`;
export const formatSessionKey = (key: SessionKey) => `${key.sessionId}.${key.secret}`;

export function parseSessionKey(value: string | undefined): SessionKey | undefined {
  const match = /^(FS_[A-Za-z0-9]{15})\.([A-Za-z0-9]{32})$/.exec(value ?? '');
  return match?.[1] && match[2] ? { sessionId: match[1], secret: match[2] } : undefined;
}

/** The session a cookie names, when it belongs to this survey and its secret matches. */
export async function findSession(
  db: Queryable,
  surveyId: string,
  key: SessionKey | undefined,
): Promise<SessionRow | undefined> {
  if (!key) return undefined;
  const row = await store.findSessionById(db, key.sessionId);
  if (!row || row.survey_id !== surveyId) return undefined;
  return sameHash(row.secret_hash, hashSecret(key.secret)) ? row : undefined;
}

/** Embedded data from the link's URL parameters: only fields the survey's flow declares. */
export function givenFromQuery(run: RunnableSurvey, query: Record<string, string>): Record<string, string> {
  const declared = new Set(embeddedFieldsOf(run.taking.definition).map((f) => f.Field));
  const given: Record<string, string> = {};
  for (const [name, value] of Object.entries(query)) {
    if (declared.has(name)) given[name] = value.slice(0, MAX_URL_VALUE);
  }
  return given;
}

export async function newSession(
  deps: Deps,
  run: RunnableSurvey,
  options: {
    given: Record<string, string>;
    visitor: Visitor;
    link?: LinkTokenRow;
    recipientId?: string;
    /** The language asked for (`Q_Language`, the sessions API's `language`); unknown: the survey's. */
    language?: string | undefined;
    /** What the session is started for, told to the completion hook when it completes (a 360 evaluator). */
    startedFor?: string;
  },
): Promise<{ row: SessionRow; key: SessionKey }> {
  const now = deps.clock.now();
  const key = { sessionId: newId('FS'), secret: randomAlphanumeric(32) };
  const scope = { organizationId: run.taking.organizationId };
  const evenly = await evenAssignment(deps.db, scope, run.engine, run.taking.surveyId);
  const row: SessionRow = {
    id: key.sessionId,
    organization_id: run.taking.organizationId,
    survey_id: run.taking.surveyId,
    secret_hash: hashSecret(key.secret),
    status: 'open',
    state: serializeState({
      ...initialState(run, options.given, now, evenly),
      language: languageOf(run, options),
    }),
    link_token_hash: options.link?.token_hash ?? null,
    recipient_id: options.link?.contact_id ?? options.recipientId ?? null,
    distribution_id: options.link?.distribution_id ?? null,
    response_id: null,
    survey_version: run.taking.definitionVersion,
    started_for: options.startedFor ?? null,
    ip_address: run.engine.anonymized ? null : options.visitor.ip,
    user_agent: options.visitor.userAgent?.slice(0, 500) ?? null,
    started_at: now.toISOString(),
    updated_at: now.toISOString(),
    finished_at: null,
  };
  await store.insertSession(deps.db, row);
  return { row, key };
}

/** The language a new session runs in (languages.ts): asked for, else the browser's best, else the survey's. */
const languageOf = (run: RunnableSurvey, options: { visitor: Visitor; language?: string | undefined }) =>
  chooseLanguage(run.engine, { requested: options.language, acceptLanguage: options.visitor.acceptLanguage });

export interface IndividualLink {
  token: string;
  /** The link's path on this server: `/jfe/form/{SurveyID}/l/{token}`. */
  path: string;
}

/**
 * An individual link for a contact (and the distribution that sends it). The token is shown once, in the
 * link; only its hash is kept. For the distributions work: call it in the transaction that sends.
 */
export async function createIndividualLink(
  db: Queryable,
  scope: Scope,
  input: {
    surveyId: string;
    contactId: string;
    distributionId?: string | null;
    expiresAt?: Date | null;
    now: Date;
  },
): Promise<IndividualLink> {
  const token = randomAlphanumeric(40);
  await store.insertLinkToken(db, {
    token_hash: hashSecret(token),
    organization_id: scope.organizationId,
    survey_id: input.surveyId,
    contact_id: input.contactId,
    distribution_id: input.distributionId ?? null,
    created_at: input.now.toISOString(),
    expires_at: input.expiresAt?.toISOString() ?? null,
  });
  return { token, path: `/jfe/form/${input.surveyId}/l/${token}` };
}

export type LinkOutcome =
  | { kind: 'session'; row: SessionRow; key: SessionKey }
  | { kind: 'invalid' }
  | { kind: 'expired' };

/**
 * The one session of an individual link: made on first use, resumed afterwards. Opening the link again
 * (another browser, a lost cookie) hands out a new cookie secret; the old cookie stops working.
 */
export async function sessionForLink(
  deps: Deps,
  run: RunnableSurvey,
  token: string,
  visitor: Visitor,
): Promise<LinkOutcome> {
  if (!/^[A-Za-z0-9]{40}$/.test(token)) return { kind: 'invalid' };
  const link = await store.findLinkToken(deps.db, hashSecret(token));
  if (!link || link.survey_id !== run.taking.surveyId) return { kind: 'invalid' };
  const now = deps.clock.now();
  if (link.expires_at && now >= new Date(link.expires_at)) return { kind: 'expired' };
  const existing = await store.findSessionByLink(deps.db, link.token_hash);
  if (!existing) return { kind: 'session', ...(await newSession(deps, run, { given: {}, visitor, link })) };
  return { kind: 'session', row: existing, key: await renewSessionKey(deps, existing) };
}

/**
 * A new cookie secret for a session opened again from its link (another browser, a lost cookie): the old
 * cookie stops working.
 */
export async function renewSessionKey(
  deps: Deps,
  session: Pick<SessionRow, 'id' | 'organization_id'>,
): Promise<SessionKey> {
  const key = { sessionId: session.id, secret: randomAlphanumeric(32) };
  await store.updateSession(deps.db, { organizationId: session.organization_id }, session.id, {
    secret_hash: hashSecret(key.secret),
    updated_at: deps.clock.now().toISOString(),
  });
  return key;
}

/**
 * Responses in progress, for exports: the survey's open sessions (their answers live in the session state
 * until the last page records a response), counted, and streamed in the order they started.
 */
export function countOpenSessions(db: Queryable, scope: Scope, filter: OpenSessionFilter): Promise<number> {
  return store.countOpenSessions(db, scope, filter);
}

export async function* streamOpenSessions(
  db: Queryable,
  scope: Scope,
  filter: OpenSessionFilter,
  batchSize = 500,
): AsyncGenerator<SessionRow> {
  let after: SessionRow | undefined;
  for (;;) {
    const batch = await store.listOpenSessionsAfter(db, scope, filter, after, batchSize);
    yield* batch;
    after = batch.at(-1);
    if (!after || batch.length < batchSize) return;
  }
}

/** Where a recipient of a distribution is with its individual link (the distributions module's links and stats). */
export interface LinkSessionState {
  sessionId: string;
  /** open, complete or quota. */
  status: string;
  responseId: string | null;
  startedAt: string;
  finishedAt: string | null;
}

/** The link sessions of these contacts in the distribution (at most one each), by contact id. */
export async function linkSessionStates(
  db: Queryable,
  scope: Scope,
  distributionId: string,
  contactIds: readonly string[],
): Promise<Map<string, LinkSessionState>> {
  if (contactIds.length === 0) return new Map();
  const rows = await store.listLinkSessions(db, scope, distributionId, contactIds);
  return new Map(
    rows.map((row) => [
      row.recipient_id ?? '',
      {
        sessionId: row.id,
        status: row.status,
        responseId: row.response_id,
        startedAt: row.started_at,
        finishedAt: row.finished_at,
      },
    ]),
  );
}

/** Started and finished link sessions of a distribution (of these contacts only, when given). */
export function countLinkSessions(
  db: Queryable,
  scope: Scope,
  distributionId: string,
  contactIds?: readonly string[],
): Promise<{ started: number; finished: number }> {
  if (contactIds?.length === 0) return Promise.resolve({ started: 0, finished: 0 });
  return store.countLinkSessions(db, scope, distributionId, contactIds);
}
