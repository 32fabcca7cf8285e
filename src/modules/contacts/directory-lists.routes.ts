import type { Deps } from '../../deps.js';
import type { App } from '../../http/app-types.js';
import { done, Envelope, IdResultSchema, MetaOnlySchema, ok } from '../../http/envelope.js';
import { PagedList, PagingQuery, pagedResult, pageOf } from '../../http/paging.js';
import { registerContactImportRoutes } from './contact-imports.routes.js';
import {
  ContactFieldsSchema,
  ContactRecordSchema,
  DirectoryParams,
  toContactRecord,
  UpdateContactBodySchema,
} from './contacts.schemas.js';
import * as listContacts from './list-contacts.service.js';
import {
  CreateDirectoryListBodySchema,
  CreatedListContactSchema,
  DirectoryListContactParams,
  DirectoryListParams,
  DirectoryListSchema,
  ListContactSchema,
  toDirectoryList,
  toListContact,
  UpdateDirectoryListBodySchema,
} from './mailing-lists.schemas.js';
import * as lists from './mailing-lists.service.js';
import type { MemberFilter } from './members.store.js';

const tags = ['Directory mailing lists'];
const base = '/directories/:directoryId/mailinglists/:mailingListId';
/** Spec 4.3 and 8: pageSize 1..10000, default 100. */
const ContactPaging = PagingQuery({ defaultSize: 100, maxSize: 10_000 });
const refOf = (params: { directoryId: string; mailingListId: string }) => ({
  directoryId: params.directoryId,
  listId: params.mailingListId,
});

export function registerDirectoryListRoutes(app: App, deps: Deps): void {
  app.get(
    '/directories/:directoryId/mailinglists',
    {
      schema: {
        tags,
        summary: "List a directory's mailing lists",
        params: DirectoryParams,
        querystring: PagingQuery(),
        response: { 200: Envelope(PagedList(DirectoryListSchema)) },
      },
    },
    async (request) => {
      const page = pageOf(request.query);
      const rows = await lists.listLists(deps, request.principal, request.params.directoryId, page);
      return ok(request, pagedResult(request, page, rows.map(toDirectoryList)));
    },
  );

  app.post(
    '/directories/:directoryId/mailinglists',
    {
      schema: {
        tags,
        summary: 'Create a mailing list in a directory',
        params: DirectoryParams,
        body: CreateDirectoryListBodySchema,
        response: { 200: IdResultSchema },
      },
    },
    async (request) => {
      const id = await lists.createList(deps, request.principal, request.params.directoryId, request.body);
      return ok(request, { id });
    },
  );

  app.get(
    base,
    {
      schema: {
        tags,
        summary: 'Get a mailing list of a directory',
        params: DirectoryListParams,
        response: { 200: Envelope(DirectoryListSchema) },
      },
    },
    async (request) =>
      ok(request, toDirectoryList(await lists.getList(deps, request.principal, refOf(request.params)))),
  );

  app.put(
    base,
    {
      schema: {
        tags,
        summary: 'Rename a mailing list or change its owner',
        params: DirectoryListParams,
        body: UpdateDirectoryListBodySchema,
        response: { 200: MetaOnlySchema },
      },
    },
    async (request) => {
      await lists.updateList(deps, request.principal, refOf(request.params), request.body);
      return done(request);
    },
  );

  app.delete(
    base,
    {
      schema: {
        tags,
        summary: 'Delete a mailing list (its contacts stay in the directory)',
        params: DirectoryListParams,
        response: { 200: MetaOnlySchema },
      },
    },
    async (request) => {
      await lists.deleteList(deps, request.principal, refOf(request.params));
      return done(request);
    },
  );

  registerMemberListings(app, deps);
  registerListContactRoutes(app, deps);
  registerContactImportRoutes(app, deps, {
    base,
    params: DirectoryListParams,
    ref: (p) => refOf(p as never),
  });
}

/** Spec 4.3 (target-audience organisations only) and 4.6's opted-out and bounced listings. */
function registerMemberListings(app: App, deps: Deps): void {
  const listings: [string, MemberFilter, string][] = [
    ['contacts', 'all', 'List the contacts in a mailing list (target-audience variant only)'],
    ['optedOutContacts', 'optedOut', 'List the contacts opted out of the list or of the directory'],
    ['bouncedContacts', 'bounced', 'List the contacts of the list whose mail bounced'],
  ];
  for (const [path, filter, summary] of listings) {
    app.get(
      `${base}/${path}`,
      {
        schema: {
          tags,
          summary,
          params: DirectoryListParams,
          querystring: ContactPaging,
          response: { 200: Envelope(PagedList(ContactRecordSchema)) },
        },
      },
      async (request) => {
        const page = pageOf(request.query);
        const ref = refOf(request.params);
        const rows = await listContacts.listDirectoryListContacts(deps, request.principal, ref, filter, page);
        return ok(request, pagedResult(request, page, rows.map(toContactRecord)));
      },
    );
  }
}

function registerListContactRoutes(app: App, deps: Deps): void {
  app.post(
    `${base}/contacts`,
    {
      schema: {
        tags,
        summary: 'Add a contact to the directory and the list',
        params: DirectoryListParams,
        body: ContactFieldsSchema,
        response: { 200: Envelope(CreatedListContactSchema) },
      },
    },
    async (request) => {
      const ref = refOf(request.params);
      return ok(request, await listContacts.addListContact(deps, request.principal, ref, request.body));
    },
  );

  app.get(
    `${base}/contacts/:contactId`,
    {
      schema: {
        tags,
        summary: 'Get a contact of the list',
        params: DirectoryListContactParams,
        response: { 200: Envelope(ListContactSchema) },
      },
    },
    async (request) => {
      const ref = refOf(request.params);
      const row = await listContacts.getListContact(deps, request.principal, ref, request.params.contactId);
      return ok(request, toListContact(row));
    },
  );

  app.put(
    `${base}/contacts/:contactId`,
    {
      schema: {
        tags,
        summary: 'Change a contact of the list (unsubscribed here opts out of this list)',
        params: DirectoryListContactParams,
        body: UpdateContactBodySchema,
        response: { 200: MetaOnlySchema },
      },
    },
    async (request) => {
      const { contactId } = request.params;
      await listContacts.updateListContact(
        deps,
        request.principal,
        refOf(request.params),
        contactId,
        request.body,
      );
      return done(request);
    },
  );

  app.delete(
    `${base}/contacts/:contactId`,
    {
      schema: {
        tags,
        summary: 'Remove a contact from the list (it stays in the directory)',
        params: DirectoryListContactParams,
        response: { 200: MetaOnlySchema },
      },
    },
    async (request) => {
      const { contactId } = request.params;
      await listContacts.deleteListContact(deps, request.principal, refOf(request.params), contactId);
      return done(request);
    },
  );
}
