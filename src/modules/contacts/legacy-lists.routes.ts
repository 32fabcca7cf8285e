import type { Static } from 'typebox';
import type { Deps } from '../../deps.js';
import type { App } from '../../http/app-types.js';
import { done, Envelope, IdResultSchema, MetaOnlySchema, ok } from '../../http/envelope.js';
import { PagedList, PagingQuery, pagedResult, pageOf } from '../../http/paging.js';
import { registerContactImportRoutes } from './contact-imports.routes.js';
import { ContactRecordSchema, toContactRecord } from './contacts.schemas.js';
import * as listContacts from './list-contacts.service.js';
import {
  CreateLegacyListBodySchema,
  CreateSampleBodySchema,
  LegacyContactBodySchema,
  LegacyListSchema,
  LegacyMemberSchema,
  ListContactParams,
  ListParams,
  SampleParams,
  SampleSchema,
  toLegacyList,
  toLegacyMember,
  toSample,
  UpdateLegacyContactBodySchema,
  UpdateLegacyListBodySchema,
} from './mailing-lists.schemas.js';
import * as lists from './mailing-lists.service.js';
import * as samples from './samples.service.js';

const tags = ['Mailing lists'];
const base = '/mailinglists/:mailingListId';
const ContactPaging = PagingQuery({ defaultSize: 100, maxSize: 10_000 });
const refOf = (params: { mailingListId: string }) => ({ listId: params.mailingListId });

/** The legacy body's `externalDataReference` is the contact's extRef. */
function fromLegacy<T extends Static<typeof LegacyContactBodySchema>>(body: T) {
  const { externalDataReference, ...fields } = body;
  return externalDataReference === undefined ? fields : { ...fields, extRef: externalDataReference };
}

export function registerLegacyListRoutes(app: App, deps: Deps): void {
  registerLists(app, deps);
  registerMembers(app, deps);
  registerSamples(app, deps);
  registerContactImportRoutes(app, deps, { base, params: ListParams, ref: (p) => refOf(p as never) });
}

function registerLists(app: App, deps: Deps): void {
  app.get(
    '/mailinglists',
    {
      schema: {
        tags,
        summary: "List the organization's mailing lists",
        querystring: PagingQuery(),
        response: { 200: Envelope(PagedList(LegacyListSchema)) },
      },
    },
    async (request) => {
      const page = pageOf(request.query);
      const rows = await lists.listLists(deps, request.principal, undefined, page);
      return ok(request, pagedResult(request, page, rows.map(toLegacyList)));
    },
  );

  app.post(
    '/mailinglists',
    {
      schema: {
        tags,
        summary: 'Create a mailing list (in the default directory)',
        body: CreateLegacyListBodySchema,
        response: { 200: IdResultSchema },
      },
    },
    async (request) => {
      const { libraryId, ...fields } = request.body;
      const id = await lists.createList(deps, request.principal, undefined, {
        ...fields,
        ownerId: libraryId,
      });
      return ok(request, { id });
    },
  );

  app.get(
    base,
    {
      schema: {
        tags,
        summary: 'Get a mailing list',
        params: ListParams,
        response: { 200: Envelope(LegacyListSchema) },
      },
    },
    async (request) =>
      ok(request, toLegacyList(await lists.getList(deps, request.principal, refOf(request.params)))),
  );

  app.put(
    base,
    {
      schema: {
        tags,
        summary: 'Change a mailing list',
        params: ListParams,
        body: UpdateLegacyListBodySchema,
        response: { 200: MetaOnlySchema },
      },
    },
    async (request) => {
      const { libraryId, ...fields } = request.body;
      await lists.updateList(deps, request.principal, refOf(request.params), {
        ...fields,
        ownerId: libraryId,
      });
      return done(request);
    },
  );

  app.delete(
    base,
    {
      schema: {
        tags,
        summary: 'Delete a mailing list',
        params: ListParams,
        response: { 200: MetaOnlySchema },
      },
    },
    async (request) => {
      await lists.deleteList(deps, request.principal, refOf(request.params));
      return done(request);
    },
  );
}

function registerMembers(app: App, deps: Deps): void {
  app.get(
    `${base}/contacts`,
    {
      schema: {
        tags,
        summary: 'List the contacts of a mailing list',
        params: ListParams,
        querystring: ContactPaging,
        response: { 200: Envelope(PagedList(LegacyMemberSchema)) },
      },
    },
    async (request) => {
      const page = pageOf(request.query);
      const rows = await listContacts.listLegacyListContacts(
        deps,
        request.principal,
        request.params.mailingListId,
        page,
      );
      return ok(request, pagedResult(request, page, rows.map(toLegacyMember)));
    },
  );

  app.post(
    `${base}/contacts`,
    {
      schema: {
        tags,
        summary: 'Add a contact to the mailing list',
        params: ListParams,
        body: LegacyContactBodySchema,
        response: { 200: IdResultSchema },
      },
    },
    async (request) => {
      const created = await listContacts.addListContact(
        deps,
        request.principal,
        refOf(request.params),
        fromLegacy(request.body),
      );
      return ok(request, { id: created.id });
    },
  );

  app.get(
    `${base}/contacts/:contactId`,
    {
      schema: {
        tags,
        summary: 'Get a contact of the mailing list',
        params: ListContactParams,
        response: { 200: Envelope(LegacyMemberSchema) },
      },
    },
    async (request) => {
      const { contactId } = request.params;
      const row = await listContacts.getListContact(
        deps,
        request.principal,
        refOf(request.params),
        contactId,
      );
      return ok(request, toLegacyMember(row));
    },
  );

  app.put(
    `${base}/contacts/:contactId`,
    {
      schema: {
        tags,
        summary: 'Change a contact of the mailing list (unsubscribed here opts out of this list)',
        params: ListContactParams,
        body: UpdateLegacyContactBodySchema,
        response: { 200: MetaOnlySchema },
      },
    },
    async (request) => {
      const ref = refOf(request.params);
      const { contactId } = request.params;
      await listContacts.updateListContact(deps, request.principal, ref, contactId, fromLegacy(request.body));
      return done(request);
    },
  );

  app.delete(
    `${base}/contacts/:contactId`,
    {
      schema: {
        tags,
        summary: 'Remove a contact from the mailing list',
        params: ListContactParams,
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

function registerSamples(app: App, deps: Deps): void {
  app.get(
    `${base}/samples`,
    {
      schema: {
        tags,
        summary: 'List the samples drawn from a mailing list',
        params: ListParams,
        querystring: PagingQuery(),
        response: { 200: Envelope(PagedList(SampleSchema)) },
      },
    },
    async (request) => {
      const page = pageOf(request.query);
      const rows = await samples.listSamples(deps, request.principal, request.params.mailingListId, page);
      return ok(request, pagedResult(request, page, rows.map(toSample)));
    },
  );

  app.post(
    `${base}/samples`,
    {
      schema: {
        tags,
        summary: 'Draw a sample: `size` contacts of the list at random (opted-out ones never), stored',
        params: ListParams,
        body: CreateSampleBodySchema,
        response: { 200: IdResultSchema },
      },
    },
    async (request) => {
      const id = await samples.createSample(
        deps,
        request.principal,
        request.params.mailingListId,
        request.body,
      );
      return ok(request, { id });
    },
  );

  app.get(
    `${base}/samples/:sampleId`,
    {
      schema: {
        tags,
        summary: 'Get a sample',
        params: SampleParams,
        response: { 200: Envelope(SampleSchema) },
      },
    },
    async (request) => {
      const { mailingListId, sampleId } = request.params;
      return ok(request, toSample(await samples.getSample(deps, request.principal, mailingListId, sampleId)));
    },
  );

  app.get(
    `${base}/samples/:sampleId/contacts`,
    {
      schema: {
        tags,
        summary: 'List the contacts drawn into a sample',
        params: SampleParams,
        querystring: ContactPaging,
        response: { 200: Envelope(PagedList(ContactRecordSchema)) },
      },
    },
    async (request) => {
      const page = pageOf(request.query);
      const { mailingListId, sampleId } = request.params;
      const rows = await samples.listSampleContacts(deps, request.principal, mailingListId, sampleId, page);
      return ok(request, pagedResult(request, page, rows.map(toContactRecord)));
    },
  );
}
