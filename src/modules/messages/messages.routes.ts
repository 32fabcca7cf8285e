import type { Deps } from '../../deps.js';
import type { App } from '../../http/app-types.js';
import { done, Envelope, IdResultSchema, MetaOnlySchema, ok } from '../../http/envelope.js';
import { emptyBodyAsObject } from '../../http/optional-body.js';
import { PagedList, pagedResult, pageOf } from '../../http/paging.js';
import {
  CreateMessageBodySchema,
  LibraryMessageParams,
  LibraryParams,
  LibraryQuery,
  ListMessagesQuery,
  MessageParams,
  MessageSchema,
  MessageSummarySchema,
  SpecCreateMessageBodySchema,
  SpecListMessagesQuery,
  SpecUpdateMessageBodySchema,
  toMessage,
  toMessageSummary,
  UpdateMessageBodySchema,
} from './messages.schemas.js';
import * as service from './messages.service.js';

const tags = ['Library messages'];
const ListSchema = Envelope(PagedList(MessageSummarySchema));

/** Both spellings: the spec's `/messages` (library in the query or body) and the current `/libraries/{id}/messages`. */
export function registerMessageRoutes(app: App, deps: Deps): void {
  registerSpecSpelling(app, deps);
  registerLibrarySpelling(app, deps);
}

function registerSpecSpelling(app: App, deps: Deps): void {
  app.get(
    '/messages',
    {
      schema: {
        tags,
        summary: "List a library's messages (the caller's own unless libraryId names another)",
        querystring: SpecListMessagesQuery,
        response: { 200: ListSchema },
      },
    },
    async (request) => {
      const { libraryId, category } = request.query;
      const page = pageOf(request.query);
      const rows = await service.listMessages(deps, request.principal, libraryId, { category }, page);
      return ok(request, pagedResult(request, page, rows.map(toMessageSummary)));
    },
  );

  app.post(
    '/messages',
    {
      schema: {
        tags,
        summary: 'Create a library message',
        querystring: LibraryQuery,
        body: SpecCreateMessageBodySchema,
        response: { 200: IdResultSchema },
      },
    },
    async (request) => {
      const { libraryId, ...body } = request.body;
      const library = service.libraryIdOf(request.query.libraryId, libraryId);
      return ok(request, { id: await service.createMessage(deps, request.principal, library, body) });
    },
  );

  app.get(
    '/messages/:messageId',
    {
      schema: {
        tags,
        summary: 'Get a library message',
        params: MessageParams,
        querystring: LibraryQuery,
        response: { 200: Envelope(MessageSchema) },
      },
    },
    async (request) => {
      const { messageId } = request.params;
      const row = await service.getMessage(deps, request.principal, messageId, request.query.libraryId);
      return ok(request, toMessage(row));
    },
  );

  app.put(
    '/messages/:messageId',
    {
      schema: {
        tags,
        summary: 'Change a library message',
        params: MessageParams,
        querystring: LibraryQuery,
        body: SpecUpdateMessageBodySchema,
        response: { 200: MetaOnlySchema },
      },
    },
    async (request) => {
      const { libraryId, ...body } = request.body;
      const library = service.libraryIdOf(request.query.libraryId, libraryId);
      await service.updateMessage(deps, request.principal, request.params.messageId, library, body);
      return done(request);
    },
  );

  app.delete(
    '/messages/:messageId',
    {
      preValidation: emptyBodyAsObject,
      schema: {
        tags,
        summary: 'Delete a library message',
        params: MessageParams,
        querystring: LibraryQuery,
        body: LibraryQuery,
        response: { 200: MetaOnlySchema },
      },
    },
    async (request) => {
      const library = service.libraryIdOf(request.query.libraryId, request.body.libraryId);
      await service.deleteMessage(deps, request.principal, request.params.messageId, library);
      return done(request);
    },
  );
}

function registerLibrarySpelling(app: App, deps: Deps): void {
  const base = '/libraries/:libraryId/messages';
  app.get(
    base,
    {
      schema: {
        tags,
        summary: "List a library's messages",
        params: LibraryParams,
        querystring: ListMessagesQuery,
        response: { 200: ListSchema },
      },
    },
    async (request) => {
      const page = pageOf(request.query);
      const filter = { category: request.query.category };
      const rows = await service.listMessages(
        deps,
        request.principal,
        request.params.libraryId,
        filter,
        page,
      );
      return ok(request, pagedResult(request, page, rows.map(toMessageSummary)));
    },
  );

  app.post(
    base,
    {
      schema: {
        tags,
        summary: 'Create a library message',
        params: LibraryParams,
        body: CreateMessageBodySchema,
        response: { 200: IdResultSchema },
      },
    },
    async (request) => {
      const { libraryId } = request.params;
      return ok(request, {
        id: await service.createMessage(deps, request.principal, libraryId, request.body),
      });
    },
  );

  app.get(
    `${base}/:messageId`,
    {
      schema: {
        tags,
        summary: 'Get a library message',
        params: LibraryMessageParams,
        response: { 200: Envelope(MessageSchema) },
      },
    },
    async (request) => {
      const { libraryId, messageId } = request.params;
      return ok(request, toMessage(await service.getMessage(deps, request.principal, messageId, libraryId)));
    },
  );

  app.put(
    `${base}/:messageId`,
    {
      schema: {
        tags,
        summary: 'Change a library message',
        params: LibraryMessageParams,
        body: UpdateMessageBodySchema,
        response: { 200: MetaOnlySchema },
      },
    },
    async (request) => {
      const { libraryId, messageId } = request.params;
      await service.updateMessage(deps, request.principal, messageId, libraryId, request.body);
      return done(request);
    },
  );

  app.delete(
    `${base}/:messageId`,
    {
      schema: {
        tags,
        summary: 'Delete a library message',
        params: LibraryMessageParams,
        response: { 200: MetaOnlySchema },
      },
    },
    async (request) => {
      const { libraryId, messageId } = request.params;
      await service.deleteMessage(deps, request.principal, messageId, libraryId);
      return done(request);
    },
  );
}
