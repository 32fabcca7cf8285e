import type { Deps } from '../../deps.js';
import type { App } from '../../http/app-types.js';
import { done, Envelope, IdResultSchema, MetaOnlySchema, ok } from '../../http/envelope.js';
import { emptyBodyAsObject } from '../../http/optional-body.js';
import { PagedList, PagingQuery, pagedResult, pageOf } from '../../http/paging.js';
import {
  ContactFieldsSchema,
  ContactSearchBodySchema,
  DirectoryContactParams,
  DirectoryContactSchema,
  DirectoryParams,
  toDirectoryContact,
  UpdateContactBodySchema,
} from './contacts.schemas.js';
import * as service from './contacts.service.js';

const tags = ['Directory contacts'];

export function registerDirectoryContactRoutes(app: App, deps: Deps): void {
  app.post(
    '/directories/:directoryId/contacts',
    {
      schema: {
        tags,
        summary: 'Add a contact to a directory (or update the one with the same extRef, else email)',
        params: DirectoryParams,
        body: ContactFieldsSchema,
        response: { 200: IdResultSchema },
      },
    },
    async (request) => {
      const { principal, params, body } = request;
      return ok(request, {
        id: await service.createDirectoryContact(deps, principal, params.directoryId, body),
      });
    },
  );

  app.post(
    '/directories/:directoryId/contacts/search',
    {
      preValidation: emptyBodyAsObject,
      schema: {
        tags,
        summary: 'Search a directory: every filter given must match (paging in the query)',
        params: DirectoryParams,
        querystring: PagingQuery({ defaultSize: 100, maxSize: 1000 }),
        body: ContactSearchBodySchema,
        response: { 200: Envelope(PagedList(DirectoryContactSchema)) },
      },
    },
    async (request) => {
      const page = pageOf(request.query);
      const { principal, params, body } = request;
      const rows = await service.searchDirectoryContacts(deps, principal, params.directoryId, body, page);
      return ok(request, pagedResult(request, page, rows.map(toDirectoryContact)));
    },
  );

  app.get(
    '/directories/:directoryId/contacts/:contactId',
    {
      schema: {
        tags,
        summary: 'Get a directory contact',
        params: DirectoryContactParams,
        response: { 200: Envelope(DirectoryContactSchema) },
      },
    },
    async (request) => {
      const { directoryId, contactId } = request.params;
      const row = await service.getDirectoryContact(deps, request.principal, directoryId, contactId);
      return ok(request, toDirectoryContact(row));
    },
  );

  app.put(
    '/directories/:directoryId/contacts/:contactId',
    {
      schema: {
        tags,
        summary: 'Change a directory contact (unsubscribed here opts out of the whole directory)',
        params: DirectoryContactParams,
        body: UpdateContactBodySchema,
        response: { 200: MetaOnlySchema },
      },
    },
    async (request) => {
      const { directoryId, contactId } = request.params;
      await service.updateDirectoryContact(deps, request.principal, directoryId, contactId, request.body);
      return done(request);
    },
  );

  app.delete(
    '/directories/:directoryId/contacts/:contactId',
    {
      schema: {
        tags,
        summary: 'Delete a contact from the directory and all its lists',
        params: DirectoryContactParams,
        response: { 200: MetaOnlySchema },
      },
    },
    async (request) => {
      const { directoryId, contactId } = request.params;
      await service.deleteDirectoryContact(deps, request.principal, directoryId, contactId);
      return done(request);
    },
  );
}
