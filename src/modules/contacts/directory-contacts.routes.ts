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
import {
  ContactHistoryEntrySchema,
  ContactHistoryQuerySchema,
  DirectoryContactRecordSchema,
  DirectoryContactsQuerySchema,
  toDirectoryContactRecord,
  toHistoryEntry,
} from './directory-contacts.schemas.js';
import * as directory from './directory-contacts.service.js';
import { directoryPage } from './directory-page.js';

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

  app.get(
    '/directories/:directoryId/contacts',
    {
      schema: {
        tags,
        summary: "List a directory's contacts in the order they were added (skipToken or offset paging)",
        params: DirectoryParams,
        querystring: DirectoryContactsQuerySchema,
        response: { 200: Envelope(PagedList(DirectoryContactSchema)) },
      },
    },
    async (request) => {
      const paging = directory.directoryPaging(request.query);
      const { principal, params } = request;
      const rows = await directory.listContactsOfDirectory(deps, principal, params.directoryId, paging);
      return ok(request, directoryPage(request, paging, rows));
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
        summary: 'Get a directory contact with its mailing lists and stats',
        params: DirectoryContactParams,
        response: { 200: Envelope(DirectoryContactRecordSchema) },
      },
    },
    async (request) => {
      const { directoryId, contactId } = request.params;
      const record = await directory.getDirectoryContactRecord(
        deps,
        request.principal,
        directoryId,
        contactId,
      );
      return ok(request, toDirectoryContactRecord(record));
    },
  );

  app.get(
    '/directories/:directoryId/contacts/:contactId/history',
    {
      schema: {
        tags,
        summary: "A directory contact's history: the responses it gave, newest first",
        params: DirectoryContactParams,
        querystring: ContactHistoryQuerySchema,
        response: { 200: Envelope(PagedList(ContactHistoryEntrySchema)) },
      },
    },
    async (request) => {
      const page = pageOf(request.query);
      const { directoryId, contactId } = request.params;
      const entries = await directory.listContactHistory(
        deps,
        request.principal,
        directoryId,
        contactId,
        page,
      );
      return ok(request, pagedResult(request, page, entries.map(toHistoryEntry)));
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
