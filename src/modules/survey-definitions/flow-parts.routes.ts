/** `/v3/survey-definitions/{surveyId}/…`: the survey flow, embedded data fields and quotas. */
import type { Deps } from '../../deps.js';
import type { App } from '../../http/app-types.js';
import { Envelope, MetaOnlySchema, ok } from '../../http/envelope.js';
import { presentQuotas } from './definition.presenter.js';
import * as flows from './flow-edits.js';
import { answerChange, answerCreated, base, List, tags, working } from './route-parts.js';
import {
  AnyObject,
  EmbeddedDataBodySchema,
  FlowBodySchema,
  FlowElementBodySchema,
  FlowParams,
  QuotaBodySchema,
  QuotaCreatedSchema,
  SurveyParams,
} from './survey-definitions.schemas.js';

export function registerFlowRoutes(app: App, deps: Deps): void {
  app.get(
    `${base}/flow`,
    {
      schema: {
        tags,
        summary: 'Get the survey flow',
        params: SurveyParams,
        response: { 200: Envelope(AnyObject) },
      },
    },
    async (request) => {
      const { document } = await working(deps, request);
      return ok(request, flows.flowRoot(document));
    },
  );

  app.put(
    `${base}/flow`,
    {
      schema: {
        tags,
        summary: 'Replace the survey flow',
        params: SurveyParams,
        body: FlowBodySchema,
        response: { 200: MetaOnlySchema },
      },
    },
    async (request) => {
      const { body } = request;
      return answerChange(deps, request, 'surveyDefinitionManipulation.editSurveyFlow', body, (d) =>
        flows.replaceFlow(d, body),
      );
    },
  );

  app.put(
    `${base}/flow/:flowId`,
    {
      schema: {
        tags,
        summary: 'Replace one flow element (an object), or its child elements (an array)',
        params: FlowParams,
        body: FlowElementBodySchema,
        response: { 200: MetaOnlySchema },
      },
    },
    async (request) => {
      const { body, params } = request;
      return answerChange(deps, request, 'surveyDefinitionManipulation.editSurveyFlow', body, (d) =>
        flows.replaceFlowElement(d, params.flowId, body),
      );
    },
  );

  app.post(
    `${base}/embeddeddatafields`,
    {
      schema: {
        tags,
        summary: 'Declare embedded data fields (at the start of the survey flow)',
        params: SurveyParams,
        body: EmbeddedDataBodySchema,
        response: { 200: MetaOnlySchema },
      },
    },
    async (request) => {
      const { body } = request;
      return answerChange(deps, request, 'surveyDefinitionManipulation.editSurveyFlow', body, (d) =>
        flows.addEmbeddedDataFields(d, body),
      );
    },
  );

  app.get(
    `${base}/quotas`,
    {
      schema: {
        tags,
        summary: 'List the quotas of the definition',
        params: SurveyParams,
        response: { 200: List },
      },
    },
    async (request) => {
      const { document } = await working(deps, request);
      return ok(request, { elements: presentQuotas(document), nextPage: null });
    },
  );

  app.post(
    `${base}/quotas`,
    {
      schema: {
        tags,
        summary: 'Add a quota (counted once published)',
        params: SurveyParams,
        body: QuotaBodySchema,
        response: { 200: Envelope(QuotaCreatedSchema) },
      },
    },
    async (request) => {
      const { body } = request;
      return answerCreated(deps, request, 'surveyDefinitionManipulation.useQuotas', body, (d) => ({
        QuotaID: flows.createQuota(d, body),
      }));
    },
  );
}
