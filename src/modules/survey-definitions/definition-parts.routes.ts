/** `/v3/survey-definitions/{surveyId}/…`: questions and blocks (flow-parts.routes.ts: flow, embedded data, quotas). */
import type { Deps } from '../../deps.js';
import type { App } from '../../http/app-types.js';
import { Envelope, MetaOnlySchema, ok } from '../../http/envelope.js';
import { blocksOf, questionsOf } from '../surveys/definition/qsf.js';
import * as edits from './definition-edits.js';
import { registerFlowRoutes } from './flow-parts.routes.js';
import { answerChange, answerCreated, base, List, tags, working } from './route-parts.js';
import {
  AnyObject,
  BlockBodySchema,
  BlockCreatedSchema,
  BlockParams,
  BlockQuery,
  QuestionBodySchema,
  QuestionCreatedSchema,
  QuestionParams,
  SurveyParams,
} from './survey-definitions.schemas.js';

export function registerDefinitionPartRoutes(app: App, deps: Deps): void {
  registerQuestionRoutes(app, deps);
  registerBlockRoutes(app, deps);
  registerFlowRoutes(app, deps);
}

function registerQuestionRoutes(app: App, deps: Deps): void {
  app.get(
    `${base}/questions`,
    { schema: { tags, summary: 'List the questions', params: SurveyParams, response: { 200: List } } },
    async (request) => {
      const { document } = await working(deps, request);
      return ok(request, { elements: questionsOf(document), nextPage: null });
    },
  );

  app.post(
    `${base}/questions`,
    {
      schema: {
        tags,
        summary: 'Add a question to a block (default: the default block)',
        params: SurveyParams,
        querystring: BlockQuery,
        body: QuestionBodySchema,
        response: { 200: Envelope(QuestionCreatedSchema) },
      },
    },
    async (request) => {
      const { body } = request;
      return answerCreated(deps, request, 'surveyDefinitionManipulation.editQuestions', body, (d) => ({
        QuestionID: edits.createQuestion(d, body, request.query.blockId),
      }));
    },
  );

  app.get(
    `${base}/questions/:questionId`,
    {
      schema: {
        tags,
        summary: 'Get a question',
        params: QuestionParams,
        response: { 200: Envelope(AnyObject) },
      },
    },
    async (request) => {
      const { document } = await working(deps, request);
      const question = questionsOf(document).find((q) => q.QuestionID === request.params.questionId);
      if (!question) throw edits.questionNotFound(request.params.questionId);
      return ok(request, question);
    },
  );

  app.put(
    `${base}/questions/:questionId`,
    {
      schema: {
        tags,
        summary: 'Replace a question',
        params: QuestionParams,
        body: QuestionBodySchema,
        response: { 200: MetaOnlySchema },
      },
    },
    async (request) => {
      const { body, params } = request;
      return answerChange(deps, request, 'surveyDefinitionManipulation.editQuestions', body, (d) =>
        edits.updateQuestion(d, params.questionId, body),
      );
    },
  );

  app.delete(
    `${base}/questions/:questionId`,
    {
      schema: {
        tags,
        summary: 'Delete a question',
        params: QuestionParams,
        response: { 200: MetaOnlySchema },
      },
    },
    async (request) => {
      const { params } = request;
      return answerChange(deps, request, 'surveyDefinitionManipulation.deleteSurveyQuestions', null, (d) =>
        edits.deleteQuestion(d, params.questionId),
      );
    },
  );
}

function registerBlockRoutes(app: App, deps: Deps): void {
  app.get(
    `${base}/blocks`,
    { schema: { tags, summary: 'List the blocks', params: SurveyParams, response: { 200: List } } },
    async (request) => {
      const { document } = await working(deps, request);
      return ok(request, { elements: blocksOf(document), nextPage: null });
    },
  );

  app.post(
    `${base}/blocks`,
    {
      schema: {
        tags,
        summary: 'Add a standard block (at the end of the survey flow)',
        params: SurveyParams,
        body: BlockBodySchema,
        response: { 200: Envelope(BlockCreatedSchema) },
      },
    },
    async (request) => {
      const { body } = request;
      return answerCreated(deps, request, 'surveyDefinitionManipulation.useBlocks', body, (d) =>
        edits.createBlock(d, body),
      );
    },
  );

  app.get(
    `${base}/blocks/:blockId`,
    { schema: { tags, summary: 'Get a block', params: BlockParams, response: { 200: Envelope(AnyObject) } } },
    async (request) => {
      const { document } = await working(deps, request);
      return ok(request, edits.findBlock(document, request.params.blockId));
    },
  );

  app.put(
    `${base}/blocks/:blockId`,
    {
      schema: {
        tags,
        summary: 'Change a block: description, elements (questions and page breaks), options',
        params: BlockParams,
        body: BlockBodySchema,
        response: { 200: MetaOnlySchema },
      },
    },
    async (request) => {
      const { body, params } = request;
      return answerChange(deps, request, 'surveyDefinitionManipulation.useBlocks', body, (d) =>
        edits.updateBlock(d, params.blockId, body),
      );
    },
  );

  app.delete(
    `${base}/blocks/:blockId`,
    {
      schema: {
        tags,
        summary: 'Delete a block with its questions',
        params: BlockParams,
        response: { 200: MetaOnlySchema },
      },
    },
    async (request) => {
      const { params } = request;
      return answerChange(deps, request, 'surveyDefinitionManipulation.useBlocks', null, (d) =>
        edits.deleteBlock(d, params.blockId),
      );
    },
  );
}
