import type { Deps } from '../../deps.js';
import type { App } from '../../http/app-types.js';
import { done, Envelope, IdResultSchema, MetaOnlySchema, ok } from '../../http/envelope.js';
import { PagedList, PagingQuery, pagedResult, pageOf } from '../../http/paging.js';
import {
  ApiTokenResultSchema,
  CreateUserBodySchema,
  toUserRecord,
  toUserSummary,
  UpdateUserBodySchema,
  UserIdParams,
  UserRecordSchema,
  UserSummarySchema,
  WhoAmISchema,
} from './users.schemas.js';
import * as service from './users.service.js';

const tags = ['Users'];

export function registerUserRoutes(app: App, deps: Deps): void {
  app.get(
    '/whoami',
    { schema: { tags, summary: 'Who the token belongs to', response: { 200: Envelope(WhoAmISchema) } } },
    async (request) => ok(request, await service.whoAmI(deps, request.principal)),
  );

  app.get(
    '/users',
    {
      schema: {
        tags,
        summary: 'List users (spec 4.4): the subset of fields of spec 2.5',
        querystring: PagingQuery(),
        response: { 200: Envelope(PagedList(UserSummarySchema)) },
      },
    },
    async (request) => {
      const page = pageOf(request.query);
      const rows = await service.listUsers(deps, request.principal, page);
      return ok(request, pagedResult(request, page, rows.map(toUserSummary)));
    },
  );

  app.post(
    '/users',
    {
      schema: {
        tags,
        summary: 'Create a user',
        body: CreateUserBodySchema,
        response: { 200: IdResultSchema },
      },
    },
    async (request) => ok(request, { id: await service.createUser(deps, request.principal, request.body) }),
  );

  app.get(
    '/users/:userId',
    {
      schema: {
        tags,
        summary: 'Get a user (spec 2.5, 4.4)',
        params: UserIdParams,
        response: { 200: Envelope(UserRecordSchema) },
      },
    },
    async (request) =>
      ok(request, toUserRecord(await service.getUser(deps, request.principal, request.params.userId))),
  );

  app.put(
    '/users/:userId',
    {
      schema: {
        tags,
        summary: 'Update a user',
        params: UserIdParams,
        body: UpdateUserBodySchema,
        response: { 200: MetaOnlySchema },
      },
    },
    async (request) => {
      await service.updateUser(deps, request.principal, request.params.userId, request.body);
      return done(request);
    },
  );

  app.delete(
    '/users/:userId',
    { schema: { tags, summary: 'Delete a user', params: UserIdParams, response: { 200: MetaOnlySchema } } },
    async (request) => {
      await service.deleteUser(deps, request.principal, request.params.userId);
      return done(request);
    },
  );

  app.post(
    '/users/:userId/apitoken',
    {
      schema: {
        tags,
        summary: 'Generate a new API token; the old one stops working at once (spec 5.3)',
        params: UserIdParams,
        response: { 200: Envelope(ApiTokenResultSchema) },
      },
    },
    async (request) =>
      ok(request, {
        apiToken: await service.regenerateApiToken(deps, request.principal, request.params.userId),
      }),
  );
}
