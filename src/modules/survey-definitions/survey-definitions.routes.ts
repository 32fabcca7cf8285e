/**
 * `/v3/survey-definitions`: a survey's definition as code (issue 15, docs/survey-definitions.md). This
 * file: the survey, its options, metadata and versions; definition-parts.routes.ts: questions, blocks,
 * flow, embedded data and quotas.
 */
import { Type } from 'typebox';
import type { Deps } from '../../deps.js';
import type { App } from '../../http/app-types.js';
import { Envelope, MetaOnlySchema, ok } from '../../http/envelope.js';
import { originOf } from '../../http/origin.js';
import { optionsOf } from '../surveys/definition/qsf.js';
import { presentDefinition, presentMetadata, presentQsf } from './definition.presenter.js';
import { registerDefinitionPartRoutes } from './definition-parts.routes.js';
import { replaceOptions } from './flow-edits.js';
import { answerChange, base, changed, tags } from './route-parts.js';
import {
  AnyObject,
  CreateDefinitionBodySchema,
  CreatedDefinitionSchema,
  DefinitionSchema,
  FormatQuery,
  MetadataBodySchema,
  MetadataSchema,
  SurveyParams,
  VersionBodySchema,
  VersionParams,
  VersionSchema,
} from './survey-definitions.schemas.js';
import * as service from './survey-definitions.service.js';

export function registerSurveyDefinitionRoutes(app: App, deps: Deps): void {
  app.post(
    '/survey-definitions',
    {
      schema: {
        tags,
        summary: 'Create an empty survey (not active) with its default block',
        body: CreateDefinitionBodySchema,
        response: { 200: Envelope(CreatedDefinitionSchema) },
      },
    },
    async (request) =>
      ok(request, await service.createSurveyDefinition(deps, request.principal, request.body)),
  );

  app.get(
    base,
    {
      schema: {
        tags,
        summary: 'Get the working definition: JSON, or with format=qsf a QSF file',
        params: SurveyParams,
        querystring: FormatQuery,
        response: { 200: Envelope(DefinitionSchema) },
      },
    },
    async (request) => {
      const { survey, document } = await service.readWorkingDefinition(
        deps.db,
        request.principal,
        request.params.surveyId,
      );
      if (request.query.format === 'qsf') return ok(request, presentQsf(survey, document));
      return ok(request, presentDefinition(survey, document, originOf(request)));
    },
  );

  app.get(
    `${base}/options`,
    {
      schema: {
        tags,
        summary: 'Get the survey options',
        params: SurveyParams,
        response: { 200: Envelope(AnyObject) },
      },
    },
    async (request) => {
      const working = await service.readWorkingDefinition(
        deps.db,
        request.principal,
        request.params.surveyId,
      );
      return ok(request, optionsOf(working.document));
    },
  );

  app.put(
    `${base}/options`,
    {
      schema: {
        tags,
        summary: 'Replace the survey options (takes effect when published)',
        params: SurveyParams,
        body: AnyObject,
        response: { 200: MetaOnlySchema },
      },
    },
    async (request) => {
      const { body } = request;
      return answerChange(deps, request, 'surveyDefinitionManipulation.setSurveyOptions', body, (d) =>
        replaceOptions(d, body),
      );
    },
  );

  app.get(
    `${base}/metadata`,
    {
      schema: {
        tags,
        summary: 'Get the survey metadata',
        params: SurveyParams,
        response: { 200: Envelope(MetadataSchema) },
      },
    },
    async (request) => {
      const working = await service.readWorkingDefinition(
        deps.db,
        request.principal,
        request.params.surveyId,
      );
      return ok(request, presentMetadata(working.survey, working.document));
    },
  );

  app.put(
    `${base}/metadata`,
    {
      schema: {
        tags,
        summary: 'Change the name, description, status or dates',
        params: SurveyParams,
        body: MetadataBodySchema,
        response: { 200: MetaOnlySchema },
      },
    },
    async (request) => {
      await service.updateMetadata(deps, request.principal, request.params.surveyId, request.body);
      return changed(request, []);
    },
  );

  registerVersionRoutes(app, deps);
  registerDefinitionPartRoutes(app, deps);
}

function registerVersionRoutes(app: App, deps: Deps): void {
  app.get(
    `${base}/versions`,
    {
      schema: {
        tags,
        summary: 'List the versions of the survey',
        params: SurveyParams,
        response: {
          200: Envelope(Type.Object({ elements: Type.Array(VersionSchema), nextPage: Type.Null() })),
        },
      },
    },
    async (request) => {
      const elements = await service.listVersions(deps, request.principal, request.params.surveyId);
      return ok(request, { elements, nextPage: null });
    },
  );

  app.post(
    `${base}/versions`,
    {
      schema: {
        tags,
        summary: 'Publish the working definition as a new version (Published: false keeps a snapshot only)',
        params: SurveyParams,
        body: VersionBodySchema,
        response: { 200: Envelope(Type.Object({ metadata: VersionSchema })) },
      },
    },
    async (request) => {
      const metadata = await service.createVersion(
        deps,
        request.principal,
        request.params.surveyId,
        request.body,
      );
      return ok(request, { metadata });
    },
  );

  app.get(
    `${base}/versions/:versionId`,
    {
      schema: {
        tags,
        summary: 'Get a version: its definition as JSON (with its metadata), or with format=qsf a QSF file',
        params: VersionParams,
        querystring: FormatQuery,
        response: { 200: Envelope(DefinitionSchema) },
      },
    },
    async (request) => {
      const { surveyId, versionId } = request.params;
      const { survey, document, metadata } = await service.getVersion(
        deps,
        request.principal,
        surveyId,
        versionId,
      );
      if (request.query.format === 'qsf') return ok(request, presentQsf(survey, document));
      return ok(request, { ...presentDefinition(survey, document, originOf(request)), metadata });
    },
  );
}
