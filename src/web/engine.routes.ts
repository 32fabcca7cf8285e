/**
 * The survey-taking pages, at the server root beside the v3 API (no token: a link is all a respondent
 * has). `GET /jfe/form/{SurveyID}` is the anonymous link, `GET /jfe/form/{SurveyID}/l/{token}` an
 * individual link, and every page posts back to `/jfe/form/{SurveyID}`; after a page is taken the
 * browser is sent to the link again (POST, redirect, GET), so a reload shows the current page and never
 * posts twice. Errors here are HTML pages with the right status, not the API's JSON envelope.
 */
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../deps.js';
import type { FormFields } from '../modules/engine/answers.js';
import { currentScreen, type EngineDeps, type Screen, takePage } from '../modules/engine/engine.service.js';
import { loadRunnableSurvey, type RunnableSurvey } from '../modules/engine/engine-survey.js';
import { DEFAULT_UPLOAD_BYTES } from '../modules/engine/question-model-input.js';
import {
  findSession,
  formatSessionKey,
  givenFromQuery,
  newSession,
  parseSessionKey,
  type SessionKey,
  type SessionRow,
  sessionCookieName,
  sessionForLink,
  type Visitor,
} from '../modules/engine/sessions.service.js';
import { SCRIPT, STYLESHEET } from './assets.js';
import { FAVICON } from './favicon.js';
import { pageMedia } from './page-media.js';
import { readMultipartPage, withUploads } from './page-uploads.js';
import { endPage, messagePage, surveyPage } from './survey-pages.js';

const SECURITY_HEADERS = {
  // Everything a page needs is served by Fieldwork: nothing else may load, and forms post only here.
  'content-security-policy':
    "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  // Individual links carry a token: never hand it to another site.
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

const CLOSED: Record<string, [number, string, string]> = {
  inactive: [
    403,
    'This survey is not currently active',
    'This survey is not taking responses at the moment.',
  ],
  notStarted: [
    403,
    'This survey is not open yet',
    'This survey does not take responses yet. Please come back later.',
  ],
  expired: [410, 'This survey has closed', 'This survey is no longer taking responses.'],
  linkExpired: [410, 'This link has expired', 'The link you followed is no longer valid.'],
};

type Params = { surveyId: string; token?: string };

export async function registerEngineRoutes(app: FastifyInstance, deps: EngineDeps): Promise<void> {
  // The pages' icon, at the root, where browsers also look for it unasked.
  app.get('/favicon.ico', { schema: { hide: true } }, (_request, reply) =>
    asset(reply, 'image/x-icon', FAVICON),
  );
  await app.register(
    async (web) => {
      web.addContentTypeParser(
        'application/x-www-form-urlencoded',
        { parseAs: 'string', bodyLimit: 1024 * 1024 },
        (_request, body, done) => done(null, parseForm(String(body))),
      );
      // Pages with a file question post multipart/form-data (page-uploads.ts sets each file's own limit).
      await web.register(multipart, {
        limits: { fileSize: DEFAULT_UPLOAD_BYTES + 1, files: 20, fields: 2000, fieldSize: 1024 * 1024 },
      });
      web.setErrorHandler((error, request, reply) => {
        const status = (error as { statusCode?: number }).statusCode ?? 500;
        if (status >= 500) request.log.error({ err: error }, 'survey page failed');
        const known = status < 500;
        return html(
          reply,
          known ? status : 500,
          messagePage(
            known ? 'This page could not be used' : 'Something went wrong',
            known
              ? 'The form could not be read. Please open the survey link again.'
              : `Please try again in a moment. (Reference: ${request.id})`,
          ),
        );
      });
      web.setNotFoundHandler((_request, reply) =>
        html(reply, 404, messagePage('Page not found', 'There is no survey page at this address.')),
      );

      web.get('/static/fieldwork.css', { schema: { hide: true } }, (_request, reply) =>
        asset(reply, 'text/css; charset=utf-8', STYLESHEET),
      );
      web.get('/static/fieldwork.js', { schema: { hide: true } }, (_request, reply) =>
        asset(reply, 'text/javascript; charset=utf-8', SCRIPT),
      );
      web.get<{ Params: Params }>('/form/:surveyId', { schema: { hide: true } }, (request, reply) =>
        showSurvey(deps, request, reply),
      );
      web.get<{ Params: Params }>('/form/:surveyId/l/:token', { schema: { hide: true } }, (request, reply) =>
        openIndividualLink(deps, request, reply),
      );
      web.post<{ Params: Params; Body: FormFields }>(
        '/form/:surveyId',
        { schema: { hide: true } },
        (request, reply) => submit(deps, request, reply),
      );
    },
    { prefix: '/jfe' },
  );
}

export function parseForm(body: string): FormFields {
  const fields: FormFields = {};
  for (const [name, value] of new URLSearchParams(body)) {
    const values = fields[name] ?? [];
    values.push(value);
    fields[name] = values;
  }
  return fields;
}

/** An HTML page with the survey pages' security headers (other pages of links use it too). */
export function html(reply: FastifyReply, status: number, body: string): FastifyReply {
  return reply.code(status).headers(SECURITY_HEADERS).type('text/html; charset=utf-8').send(body);
}

function asset(reply: FastifyReply, type: string, body: string | Buffer): FastifyReply {
  return reply
    .headers({ 'x-content-type-options': 'nosniff', 'cache-control': 'public, max-age=3600' })
    .type(type)
    .send(body);
}

export const visitorOf = (request: FastifyRequest): Visitor => ({
  ip: request.ip,
  userAgent: request.headers['user-agent'] ?? null,
  acceptLanguage: request.headers['accept-language'] ?? null,
});

function cookieKey(request: FastifyRequest, surveyId: string): SessionKey | undefined {
  const name = sessionCookieName(surveyId);
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return parseSessionKey(decodedOrEmpty(value.join('=')));
  }
  return undefined;
}

/** A cookie value a browser did not write (bad percent-encoding) reads as no session, never a crash. */
function decodedOrEmpty(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return '';
  }
}

export function setCookie(
  reply: FastifyReply,
  request: FastifyRequest,
  surveyId: string,
  key: SessionKey,
): void {
  const secure = request.protocol === 'https' ? '; Secure' : '';
  reply.header(
    'set-cookie',
    `${sessionCookieName(surveyId)}=${formatSessionKey(key)}; Path=/jfe/form/${surveyId}; HttpOnly; SameSite=Lax${secure}`,
  );
}

/** The survey a link names, ready to run; undefined when the address names none. */
async function linkSurvey(deps: Deps, surveyId: string): Promise<RunnableSurvey | undefined> {
  return /^SV_[A-Za-z0-9]{15}$/.test(surveyId)
    ? loadRunnableSurvey(deps.db, surveyId, deps.clock.now())
    : undefined;
}

/** `run` when it may be taken; otherwise the reply (not found, closed) is sent and nothing answered. */
function takeable(run: RunnableSurvey | undefined, reply: FastifyReply): RunnableSurvey | undefined {
  if (!run) {
    html(
      reply,
      404,
      messagePage('Survey not found', 'There is no survey at this address. Please check the link.'),
    );
    return undefined;
  }
  const closed = CLOSED[run.availability];
  if (closed) {
    html(reply, closed[0], messagePage(closed[1], closed[2]));
    return undefined;
  }
  return run;
}

/**
 * The survey of the link (linkSurvey, takeable) and the session the request's cookie names, read side by side:
 * on PostgreSQL the two reads wait on the database together instead of one after the other. Nothing is
 * sent before both have answered, so a failed read is the request's one error reply.
 */
async function surveyAndSession(
  deps: Deps,
  request: FastifyRequest<{ Params: Params }>,
  reply: FastifyReply,
): Promise<[RunnableSurvey | undefined, SessionRow | undefined]> {
  const { surveyId } = request.params;
  const [run, session] = await Promise.all([
    linkSurvey(deps, surveyId),
    findSession(deps.db, surveyId, cookieKey(request, surveyId)),
  ]);
  return [takeable(run, reply), session];
}

async function showSurvey(deps: Deps, request: FastifyRequest<{ Params: Params }>, reply: FastifyReply) {
  const { surveyId } = request.params;
  const [run, existing] = await surveyAndSession(deps, request, reply);
  if (!run) return reply;
  // An open session continues; a finished anonymous one leaves room for a new response.
  if (existing && (existing.status === 'open' || existing.link_token_hash))
    return render(deps, request, reply, run, await currentScreen(deps, run, existing));
  const query = Object.fromEntries(
    Object.entries(request.query as Record<string, unknown>).map(([k, v]) => [
      k,
      String([v].flat()[0] ?? ''),
    ]),
  );
  const { row, key } = await newSession(deps, run, {
    given: givenFromQuery(run, query),
    visitor: visitorOf(request),
    language: query.Q_Language,
  });
  setCookie(reply, request, surveyId, key);
  return render(deps, request, reply, run, await currentScreen(deps, run, row));
}

async function openIndividualLink(
  deps: Deps,
  request: FastifyRequest<{ Params: Params }>,
  reply: FastifyReply,
) {
  const { surveyId, token = '' } = request.params;
  const run = takeable(await linkSurvey(deps, surveyId), reply);
  if (!run) return reply;
  const outcome = await sessionForLink(deps, run, token, visitorOf(request));
  if (outcome.kind === 'invalid')
    return html(reply, 404, messagePage('This link is not valid', 'Please check the link you were sent.'));
  if (outcome.kind === 'expired') {
    const [status, heading, message] = CLOSED.linkExpired as [number, string, string];
    return html(reply, status, messagePage(heading, message));
  }
  setCookie(reply, request, surveyId, outcome.key);
  return reply.code(303).header('location', `/jfe/form/${surveyId}`).send();
}

async function submit(
  deps: Deps,
  request: FastifyRequest<{ Params: Params; Body: FormFields }>,
  reply: FastifyReply,
) {
  const [run, session] = await surveyAndSession(deps, request, reply);
  if (!run) return reply;
  const place = { organizationId: run.taking.organizationId, sessionId: session?.id ?? '' };
  const questions = run.engine.questions;
  // A page with a file question posts multipart: its files are stored as they arrive (page-uploads.ts).
  const { form: posted, uploads } =
    session && request.isMultipart()
      ? await readMultipartPage(deps, request, place, questions)
      : { form: request.body && typeof request.body === 'object' ? request.body : {}, uploads: undefined };
  if (!session || posted._fw_session?.[0] !== session.id) {
    return html(
      reply,
      400,
      messagePage(
        'Your session could not be found',
        'Your answers on this page could not be saved because the survey session has ended or cookies are off. Please open the survey link again.',
      ),
    );
  }
  const form = await withUploads(deps, place, questions, posted, uploads);
  const screen = await takePage(deps, run, session, form, visitorOf(request));
  return render(deps, request, reply, run, screen);
}

async function render(
  deps: Deps,
  request: FastifyRequest,
  reply: FastifyReply,
  run: RunnableSurvey,
  screen: Screen,
): Promise<FastifyReply> {
  switch (screen.kind) {
    case 'redirect':
      return reply
        .code(303)
        .headers(SECURITY_HEADERS)
        .header('location', `/jfe/form/${run.taking.surveyId}`)
        .send();
    case 'end': {
      const media = await pageMedia(deps, request, run.taking.organizationId, screen);
      return html(
        reply,
        200,
        endPage(screen.title, screen.message ?? '', screen.language, screen.redirect, media),
      );
    }
    case 'page': {
      const media = await pageMedia(deps, request, run.taking.organizationId, screen);
      return html(reply, screen.status, surveyPage(screen.view, media));
    }
  }
}
