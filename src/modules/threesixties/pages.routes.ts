/**
 * The 360's pages, at the server root beside the survey pages (no token: a link is all a person has).
 * `/jfe/360/evaluate/l/{token}` starts or continues a nominated evaluation and hands over to the survey
 * engine (`/jfe/form/{SurveyID}`) with its session cookie; `/jfe/360/open/l/{token}` is a subject's open
 * link for unsolicited evaluations; `/jfe/360/nominate/l/{token}` a subject's nomination page;
 * `/jfe/360/report/l/{token}` a report (ReportURL). Errors are HTML pages with the right status.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.js';
import { html, parseForm, setCookie, visitorOf } from '../../web/engine.routes.js';
import { messagePage } from '../../web/survey-pages.js';
import type { FormFields } from '../engine/answers.js';
import { LINK_PREFIX } from './links.js';
import { nominationPage, openLinkPage, reportPage } from './pages.js';
import * as pages from './pages.service.js';
import { RELATIONSHIPS } from './workflow.js';

type Link = { Params: { token: string } };
type Posted = Link & { Body: FormFields };

const NOT_VALID = messagePage('This link is not valid', 'Please check the link you were sent.');
const CLOSED = messagePage(
  'This evaluation is closed',
  'This 360 evaluation is not taking responses at the moment.',
);
const FINISHED = messagePage(
  'Thank you',
  'You have already completed this evaluation. Your answers have been recorded.',
);
const NOMINATED = messagePage(
  'You were invited',
  'Your e-mail address was nominated for this evaluation: please use the link in your invitation.',
);

export async function registerThreeSixtyPages(app: FastifyInstance, deps: Deps): Promise<void> {
  await app.register(
    async (web) => {
      web.addContentTypeParser(
        'application/x-www-form-urlencoded',
        { parseAs: 'string', bodyLimit: 64 * 1024 },
        (_request, body, done) => done(null, parseForm(String(body))),
      );
      web.setNotFoundHandler((_request, reply) => html(reply, 404, NOT_VALID));
      const hide = { schema: { hide: true } };
      web.get<Link>('/evaluate/l/:token', hide, (request, reply) => evaluate(deps, request, reply));
      web.get<Link>('/open/l/:token', hide, (request, reply) => openLink(deps, request, reply));
      web.post<Posted>('/open/l/:token', hide, (request, reply) => openLink(deps, request, reply));
      web.get<Link>('/nominate/l/:token', hide, (request, reply) => nominations(deps, request, reply));
      web.post<Posted>('/nominate/l/:token', hide, (request, reply) => nominations(deps, request, reply));
      web.get<Link>('/report/l/:token', hide, async (request, reply) => {
        const report = await pages.reportByToken(deps, request.params.token);
        return report ? html(reply, 200, reportPage(report)) : html(reply, 404, NOT_VALID);
      });
    },
    { prefix: LINK_PREFIX },
  );
}

function handOver(
  request: FastifyRequest,
  reply: FastifyReply,
  opened: pages.Opened | { kind: 'nominated' },
) {
  switch (opened.kind) {
    case 'invalid':
      return html(reply, 404, NOT_VALID);
    case 'closed':
      return html(reply, 403, CLOSED);
    case 'finished':
      return html(reply, 200, FINISHED);
    case 'nominated':
      return html(reply, 409, NOMINATED);
    case 'session':
      setCookie(reply, request, opened.surveyId, opened.key);
      return reply.code(303).header('location', `/jfe/form/${opened.surveyId}`).send();
  }
}

async function evaluate(deps: Deps, request: FastifyRequest<Link>, reply: FastifyReply) {
  return handOver(request, reply, await pages.openEvaluation(deps, request.params.token, visitorOf(request)));
}

const first = (form: FormFields | undefined, name: string) => (form?.[name]?.[0] ?? '').trim();

async function openLink(
  deps: Deps,
  request: FastifyRequest<Link & { Body?: FormFields }>,
  reply: FastifyReply,
) {
  const target = await pages.openLinkTarget(deps, request.params.token);
  if ('kind' in target) return handOver(request, reply, target);
  const subjectName = `${target.subject.first_name} ${target.subject.last_name}`.trim();
  const relationships = RELATIONSHIPS.filter(
    (r) => r !== 'Self' && target.workflow.relationships.some((x) => x.name === r),
  );
  const action = request.url.split('?')[0] ?? '';
  if (request.method === 'GET') return html(reply, 200, openLinkPage({ subjectName, relationships, action }));
  const form = {
    firstName: first(request.body, 'firstName'),
    lastName: first(request.body, 'lastName'),
    email: first(request.body, 'email'),
    relationship: first(request.body, 'relationship'),
  };
  const problem = pages.formProblem(form, target.workflow);
  if (problem) return html(reply, 422, openLinkPage({ subjectName, relationships, action, problem }));
  return handOver(request, reply, await pages.startUnsolicited(deps, target, form, visitorOf(request)));
}

async function nominations(
  deps: Deps,
  request: FastifyRequest<Link & { Body?: FormFields }>,
  reply: FastifyReply,
) {
  const found = await pages.nominationTarget(deps, request.params.token);
  if (found.kind !== 'page') return handOver(request, reply, found);
  const action = request.url.split('?')[0] ?? '';
  const shown = {
    programName: found.program.name,
    relationships: found.workflow.relationships.map((r) => r.name),
    action,
  };
  if (request.method === 'GET')
    return html(reply, 200, nominationPage({ ...shown, nominated: found.nominated }));
  const relationship = first(request.body, 'relationship') as (typeof RELATIONSHIPS)[number];
  const body = {
    firstName: first(request.body, 'firstName'),
    lastName: first(request.body, 'lastName'),
    email: first(request.body, 'email'),
    relationship,
  };
  const problem = pages.personProblem(body) ?? (await pages.nominateFromPage(deps, found, body));
  const again = await pages.nominationTarget(deps, request.params.token);
  const nominated = again.kind === 'page' ? again.nominated : found.nominated;
  if (problem) return html(reply, 422, nominationPage({ ...shown, nominated, problem }));
  return html(reply, 200, nominationPage({ ...shown, nominated, message: `${body.email} was nominated.` }));
}
