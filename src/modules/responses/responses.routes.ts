import { type Static, Type } from 'typebox';
import { fromJson } from '../../db/json.js';
import type { Deps } from '../../deps.js';
import type { App } from '../../http/app-types.js';
import { done, Envelope, MetaOnlySchema, ok } from '../../http/envelope.js';
import { PERSONAL_DATA_KEYS, withoutPersonalData } from '../surveys/survey-permissions.js';
import * as service from './responses.service.js';
import type { ResponseRow } from './responses.store.js';
import { registerUpdateResponsesRoutes } from './update-responses.routes.js';

const tags = ['Responses'];
const Id = Type.String({ minLength: 1, maxLength: 100 });
const AnyObject = Type.Record(Type.String(), Type.Unknown());

const SurveyResponseParams = Type.Object({ surveyId: Id, responseId: Id });

/**
 * COMPAT.md "Responses": `{responseId, values, labels, displayedFields, displayedValues}`, and beside them
 * the published version the response was taken on (issue 15; not a value: exports keep the real columns).
 */
export const ResponseSchema = Type.Object({
  responseId: Type.String(),
  values: AnyObject,
  labels: AnyObject,
  displayedFields: Type.Array(Type.String()),
  displayedValues: AnyObject,
  surveyVersionId: Type.Union([Type.String(), Type.Null()], {
    description:
      'The published survey version (versionID) the response was taken on; null before the first version.',
  }),
});

const CreateResponseBodySchema = Type.Object({
  values: Type.Record(Type.String(), Type.Unknown(), {
    description: 'Answers under value keys (QID1, QID2_TEXT, QID3_1 …), metadata, and embedded data by name.',
  }),
});

const UpdateResponseBodySchema = Type.Object({
  surveyId: Type.Optional(Id),
  embeddedData: Type.Optional(AnyObject),
  values: Type.Optional(AnyObject),
  resetRecordedDate: Type.Optional(Type.Boolean()),
});

const DeleteResponseQuery = Type.Object({
  decrementQuotas: Type.Optional(Type.Boolean({ default: false })),
});

/** The legacy delete names the survey in the query: required, as the real service requires it. */
const LegacyDeleteResponseQuery = Type.Object({
  surveyId: Id,
  decrementQuotas: Type.Optional(Type.Boolean({ default: false })),
});

/** The response as read; without `personalData` (result.viewPersonalData) its personal values are left out. */
export function presentResponse(
  row: ResponseRow,
  surveyVersionId: string | null,
  personalData: boolean,
): Static<typeof ResponseSchema> {
  const shown = <T>(values: Record<string, T>) => (personalData ? values : withoutPersonalData(values));
  const displayedFields = fromJson<string[]>(row.displayed_fields);
  return {
    responseId: row.id,
    values: shown(fromJson(row.values)),
    labels: shown(fromJson(row.labels)),
    displayedFields: personalData
      ? displayedFields
      : displayedFields.filter((key) => !PERSONAL_DATA_KEYS.includes(key)),
    displayedValues: shown(fromJson(row.displayed_values)),
    surveyVersionId,
  };
}

/** `GET .../surveys/{surveyId}/responses/{responseId}`: registered under /API/v3 and at the spec's literal spelling. */
export function registerGetResponseRoute(app: App, deps: Deps): void {
  app.get(
    '/surveys/:surveyId/responses/:responseId',
    {
      schema: {
        tags,
        summary: 'Get a response',
        params: SurveyResponseParams,
        response: { 200: Envelope(ResponseSchema) },
      },
    },
    async (request) => {
      const { surveyId, responseId } = request.params;
      const { row, surveyVersionId, personalData } = await service.getResponse(
        deps,
        request.principal,
        surveyId,
        responseId,
      );
      return ok(request, presentResponse(row, surveyVersionId, personalData));
    },
  );
}

export function registerResponseRoutes(app: App, deps: Deps): void {
  app.post(
    '/surveys/:surveyId/responses',
    {
      schema: {
        tags,
        summary: 'Create a completed response (emits surveyengine.completedResponse)',
        params: Type.Object({ surveyId: Id }),
        body: CreateResponseBodySchema,
        response: { 200: Envelope(Type.Object({ responseId: Type.String() })) },
      },
    },
    async (request) => {
      const { surveyId } = request.params;
      const { responseId } = await service.createResponse(
        deps,
        request.principal,
        surveyId,
        request.body.values,
      );
      return ok(request, { responseId });
    },
  );

  registerGetResponseRoute(app, deps);

  app.put(
    '/responses/:responseId',
    {
      schema: {
        tags,
        summary: 'Update a response’s embedded data and values',
        params: Type.Object({ responseId: Id }),
        body: UpdateResponseBodySchema,
        response: { 200: MetaOnlySchema },
      },
    },
    async (request) => {
      await service.updateResponse(deps, request.principal, request.params.responseId, request.body);
      return done(request);
    },
  );

  app.delete(
    '/surveys/:surveyId/responses/:responseId',
    {
      schema: {
        tags,
        summary: 'Delete a response',
        params: SurveyResponseParams,
        querystring: DeleteResponseQuery,
        response: { 200: MetaOnlySchema },
      },
    },
    async (request) => {
      const { surveyId, responseId } = request.params;
      const decrement = request.query.decrementQuotas ?? false;
      await service.deleteResponse(deps, request.principal, surveyId, responseId, decrement);
      return done(request);
    },
  );

  app.delete(
    '/responses/:responseId',
    {
      schema: {
        tags,
        summary: 'Delete a response (the legacy spelling, naming the survey in the query)',
        params: Type.Object({ responseId: Id }),
        querystring: LegacyDeleteResponseQuery,
        response: { 200: MetaOnlySchema },
      },
    },
    async (request) => {
      const { surveyId, decrementQuotas } = request.query;
      const { responseId } = request.params;
      await service.deleteResponse(deps, request.principal, surveyId, responseId, decrementQuotas ?? false);
      return done(request);
    },
  );

  registerUpdateResponsesRoutes(app, deps);
}
