/**
 * `/v3/surveys/{surveyId}/sessions`: taking a survey through the API (issue 15). Create answers 201 with
 * the first page, as the real service does (public clients check for 201); the others answer 200.
 */
import type { FastifyRequest } from 'fastify';
import type { App } from '../../http/app-types.js';
import { done, Envelope, MetaOnlySchema, meta, ok } from '../../http/envelope.js';
import type { EngineDeps } from './engine.service.js';
import { DEFAULT_UPLOAD_BYTES } from './question-model-input.js';
import type { Visitor } from './sessions.service.js';
import {
  CreateSessionSchema,
  SessionParamsSchema,
  SessionSchema,
  SurveyParamsSchema,
  UpdateSessionSchema,
} from './sessions-api.schemas.js';
import * as service from './sessions-api.service.js';

const tags = ['Survey sessions'];

/** A page's answers may carry a file of the largest size a question takes, in base64, and the rest. */
const ANSWERS_BODY_LIMIT = Math.ceil(DEFAULT_UPLOAD_BYTES / 3) * 4 + 1024 * 1024;

const visitorOf = (request: FastifyRequest): Visitor => ({
  ip: request.ip,
  userAgent: request.headers['user-agent'] ?? null,
});

export function registerSessionApiRoutes(app: App, deps: EngineDeps): void {
  app.post(
    '/surveys/:surveyId/sessions',
    {
      schema: {
        tags,
        summary: 'Start a survey session (its first page)',
        params: SurveyParamsSchema,
        body: CreateSessionSchema,
        response: { 201: Envelope(SessionSchema) },
      },
    },
    async (request, reply) => {
      const { surveyId } = request.params;
      const result = await service.createSession(
        deps,
        request.principal,
        surveyId,
        request.body ?? {},
        visitorOf(request),
      );
      return reply.code(201).send({ result, meta: meta(request, 201) });
    },
  );

  app.get(
    '/surveys/:surveyId/sessions/:sessionId',
    {
      schema: {
        tags,
        summary: 'Get a survey session (its current page, or how it ended)',
        params: SessionParamsSchema,
        response: { 200: Envelope(SessionSchema) },
      },
    },
    async (request) => {
      const { surveyId, sessionId } = request.params;
      return ok(request, await service.getSession(deps, request.principal, surveyId, sessionId));
    },
  );

  app.post(
    '/surveys/:surveyId/sessions/:sessionId',
    {
      bodyLimit: ANSWERS_BODY_LIMIT,
      schema: {
        tags,
        summary: 'Answer the current page (advance) or record the session as a response (close)',
        params: SessionParamsSchema,
        body: UpdateSessionSchema,
        response: { 200: Envelope(SessionSchema) },
      },
    },
    async (request) =>
      ok(
        request,
        await service.updateSession(
          deps,
          request.principal,
          request.params,
          request.body,
          visitorOf(request),
        ),
      ),
  );

  app.delete(
    '/surveys/:surveyId/sessions/:sessionId',
    {
      schema: {
        tags,
        summary: 'Discard an open survey session',
        params: SessionParamsSchema,
        response: { 200: MetaOnlySchema },
      },
    },
    async (request) => {
      const { surveyId, sessionId } = request.params;
      await service.deleteSession(deps, request.principal, surveyId, sessionId);
      return done(request);
    },
  );
}
