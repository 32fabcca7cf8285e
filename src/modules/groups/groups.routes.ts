import type { Deps } from '../../deps.js';
import type { App } from '../../http/app-types.js';
import { done, Envelope, IdResultSchema, MetaOnlySchema, ok } from '../../http/envelope.js';
import { emptyBodyAsObject } from '../../http/optional-body.js';
import { PagedList, PagingQuery, pagedResult, pageOf } from '../../http/paging.js';
import {
  CreateGroupBodySchema,
  GroupIdParams,
  GroupMemberParams,
  GroupSchema,
  GroupWithMembersSchema,
  MemberBodySchema,
  MemberQuerySchema,
  toGroup,
} from './groups.schemas.js';
import * as service from './groups.service.js';

const tags = ['Groups'];

export function registerGroupRoutes(app: App, deps: Deps): void {
  app.get(
    '/groups',
    {
      schema: {
        tags,
        summary: 'List groups',
        querystring: PagingQuery(),
        response: { 200: Envelope(PagedList(GroupSchema)) },
      },
    },
    async (request) => {
      const page = pageOf(request.query);
      const rows = await service.listGroups(deps, request.principal, page);
      return ok(request, pagedResult(request, page, rows.map(toGroup)));
    },
  );

  app.post(
    '/groups',
    {
      schema: {
        tags,
        summary: 'Create a group',
        body: CreateGroupBodySchema,
        response: { 200: IdResultSchema },
      },
    },
    async (request) => ok(request, { id: await service.createGroup(deps, request.principal, request.body) }),
  );

  app.get(
    '/groups/:groupId',
    {
      schema: {
        tags,
        summary: 'Get a group and its members',
        params: GroupIdParams,
        response: { 200: Envelope(GroupWithMembersSchema) },
      },
    },
    async (request) => {
      const { row, memberIds } = await service.getGroup(deps, request.principal, request.params.groupId);
      return ok(request, { ...toGroup(row), members: memberIds.map((userId) => ({ userId })) });
    },
  );

  app.delete(
    '/groups/:groupId',
    { schema: { tags, summary: 'Delete a group', params: GroupIdParams, response: { 200: MetaOnlySchema } } },
    async (request) => {
      await service.deleteGroup(deps, request.principal, request.params.groupId);
      return done(request);
    },
  );

  app.post(
    '/groups/:groupId/members',
    {
      schema: {
        tags,
        summary: 'Add a user to a group',
        params: GroupIdParams,
        body: MemberBodySchema,
        response: { 200: MetaOnlySchema },
      },
    },
    async (request) => {
      await service.addMember(deps, request.principal, request.params.groupId, request.body.userId);
      return done(request);
    },
  );

  // The spec path has no user id: it comes in the body or the query. The current v3 path carries it.
  app.delete(
    '/groups/:groupId/members',
    {
      preValidation: emptyBodyAsObject,
      schema: {
        tags,
        summary: 'Remove a user from a group (userId in the body or the query)',
        params: GroupIdParams,
        querystring: MemberQuerySchema,
        body: MemberQuerySchema,
        response: { 200: MetaOnlySchema },
      },
    },
    async (request) => {
      const userId = request.body.userId ?? request.query.userId;
      await service.removeMember(deps, request.principal, request.params.groupId, userId);
      return done(request);
    },
  );

  app.delete(
    '/groups/:groupId/members/:userId',
    {
      schema: {
        tags,
        summary: 'Remove a user from a group',
        params: GroupMemberParams,
        response: { 200: MetaOnlySchema },
      },
    },
    async (request) => {
      await service.removeMember(deps, request.principal, request.params.groupId, request.params.userId);
      return done(request);
    },
  );
}
