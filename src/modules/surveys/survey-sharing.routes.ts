import { Type } from 'typebox';
import type { Deps } from '../../deps.js';
import type { App } from '../../http/app-types.js';
import { done, Envelope, MetaOnlySchema, meta, ok } from '../../http/envelope.js';
import { CollaborationParams, CollaborationSchema, ShareBodySchema } from './survey-sharing.schemas.js';
import * as service from './survey-sharing.service.js';
import { SurveyIdParams } from './surveys.schemas.js';

const tags = ['Surveys'];

/** Survey sharing (docs/surveys.md "Sharing a survey"): the real service's POST, and list/unshare. */
export function registerSurveySharingRoutes(app: App, deps: Deps): void {
  app.post(
    '/surveys/:surveyId/permissions/collaborations',
    {
      schema: {
        tags,
        summary: 'Share a survey with a user or group, with named permissions',
        params: SurveyIdParams,
        body: ShareBodySchema,
        response: { 200: MetaOnlySchema },
      },
    },
    async (request) => {
      const { ignored } = await service.shareSurvey(
        deps,
        request.principal,
        request.params.surveyId,
        request.body,
      );
      const notice = ignored.length > 0 ? `Ignored unknown permissions: ${ignored.join(', ')}.` : undefined;
      return { meta: meta(request, 200, notice) };
    },
  );

  app.get(
    '/surveys/:surveyId/permissions/collaborations',
    {
      schema: {
        tags,
        summary: 'List who a survey is shared with (Fieldwork)',
        params: SurveyIdParams,
        response: {
          200: Envelope(Type.Object({ elements: Type.Array(CollaborationSchema), nextPage: Type.Null() })),
        },
      },
    },
    async (request) => {
      const elements = await service.listCollaborations(deps, request.principal, request.params.surveyId);
      return ok(request, { elements, nextPage: null });
    },
  );

  app.delete(
    '/surveys/:surveyId/permissions/collaborations/:recipientId',
    {
      schema: {
        tags,
        summary: 'Stop sharing a survey with a user or group (Fieldwork)',
        params: CollaborationParams,
        response: { 200: MetaOnlySchema },
      },
    },
    async (request) => {
      const { surveyId, recipientId } = request.params;
      await service.unshareSurvey(deps, request.principal, surveyId, recipientId);
      return done(request);
    },
  );
}
