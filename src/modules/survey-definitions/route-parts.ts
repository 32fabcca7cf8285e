/** What the definitions routes share: their OpenAPI tag and the answer of a change. */
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../deps.js';
import { Envelope, meta, ok } from '../../http/envelope.js';
import type { Principal } from '../../http/principal.js';
import type { QsfDocument } from '../surveys/definition/qsf.js';
import type { SurveyPermission } from '../surveys/survey-permissions.js';
import { AnyObject } from './survey-definitions.schemas.js';
import { changeDefinition, readWorkingDefinition } from './survey-definitions.service.js';

export const tags = ['Survey definitions'];
export const base = '/survey-definitions/:surveyId';

/** The answer of a change: meta only, with the import's notices (unsupported questions, …) when it has any. */
export const changed = (request: FastifyRequest, notices: string[]) => ({
  meta: meta(request, 200, notices.join(' ') || undefined),
});

/** The notices of a change that answers a result, for `ok`. */
export const noticeOf = (notices: string[]) => notices.join(' ') || undefined;

/** A list of QSF parts, all on one page. */
export const List = Envelope(Type.Object({ elements: Type.Array(AnyObject), nextPage: Type.Null() }));

/** The working definition of the survey a request names. */
export const working = (deps: Deps, request: { principal: Principal; params: { surveyId: string } }) =>
  readWorkingDefinition(deps.db, request.principal, request.params.surveyId);

/**
 * A change of the working definition of the survey the request names (the body checked as an import
 * checks a file), answered with meta only and the change's notices.
 */
export async function answerChange(
  deps: Deps,
  request: FastifyRequest & { principal: Principal; params: { surveyId: string } },
  need: SurveyPermission,
  body: unknown,
  edit: (document: QsfDocument) => unknown,
) {
  const { notices } = await changeDefinition(
    deps,
    request.principal,
    request.params.surveyId,
    need,
    body,
    edit,
  );
  return changed(request, notices);
}

/** A change that creates a part (a question, a block, a quota): answered with what `edit` returns. */
export async function answerCreated<T>(
  deps: Deps,
  request: FastifyRequest & { principal: Principal; params: { surveyId: string } },
  need: SurveyPermission,
  body: unknown,
  edit: (document: QsfDocument) => T,
) {
  const { result, notices } = await changeDefinition(
    deps,
    request.principal,
    request.params.surveyId,
    need,
    body,
    edit,
  );
  return ok(request, result, noticeOf(notices));
}
