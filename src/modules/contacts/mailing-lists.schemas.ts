import { type Static, Type } from 'typebox';
import { isoSeconds } from '../../clock.js';
import { Nullable } from '../../http/schema-types.js';
import type { JobView } from '../../jobs/jobs.service.js';
import { parseEmbeddedData } from './contact-fields.js';
import type { ImportProgress } from './contact-imports.service.js';
import { ContactFieldsSchema, DirectoryContactSchema, toDirectoryContact } from './contacts.schemas.js';
import type { MailingListRow, MailingListWithCount } from './mailing-lists.store.js';
import type { MemberRow } from './members.store.js';
import type { SampleRow } from './samples.store.js';

const Id = Type.String({ minLength: 1, maxLength: 100 });
const ListName = Type.String({ minLength: 1, maxLength: 200 });
export const DirectoryListParams = Type.Object({ directoryId: Id, mailingListId: Id });
export const DirectoryListContactParams = Type.Object({ directoryId: Id, mailingListId: Id, contactId: Id });
export const ListParams = Type.Object({ mailingListId: Id });
export const ListContactParams = Type.Object({ mailingListId: Id, contactId: Id });
export const SampleParams = Type.Object({ mailingListId: Id, sampleId: Id });

/** COMPAT.md: a directory's mailing list; its dates are epoch milliseconds. */
export const DirectoryListSchema = Type.Object({
  mailingListId: Type.String(),
  name: Type.String(),
  ownerId: Type.String(),
  creationDate: Type.Integer(),
  lastModifiedDate: Type.Integer(),
  contactCount: Type.Integer(),
});

export const CreateDirectoryListBodySchema = Type.Object({ name: ListName, ownerId: Type.Optional(Id) });
export const UpdateDirectoryListBodySchema = Type.Object({
  name: Type.Optional(ListName),
  ownerId: Type.Optional(Id),
});

/** COMPAT.md: a legacy list; `libraryId` is its owner. */
export const LegacyListSchema = Type.Object({
  libraryId: Type.String(),
  id: Type.String(),
  name: Type.String(),
  category: Nullable(Type.String()),
  folder: Nullable(Type.String()),
});
const Category = Type.String({ maxLength: 200 });
export const CreateLegacyListBodySchema = Type.Object({
  name: ListName,
  libraryId: Type.Optional(Id),
  category: Type.Optional(Type.Union([Type.Null(), Category])),
  folder: Type.Optional(Type.Union([Type.Null(), Category])),
});
export const UpdateLegacyListBodySchema = Type.Object({
  name: Type.Optional(ListName),
  libraryId: Type.Optional(Id),
  category: Type.Optional(Type.Union([Type.Null(), Category])),
  folder: Type.Optional(Type.Union([Type.Null(), Category])),
});

/** A contact of a directory's list, read alone: the directory contact plus its recipient id in the list. */
export const ListContactSchema = Type.Object({
  ...DirectoryContactSchema.properties,
  contactLookupId: Type.String(),
});
export const CreatedListContactSchema = Type.Object({ id: Type.String(), contactLookupId: Type.String() });

/** COMPAT.md: a legacy list member. */
export const LegacyMemberSchema = Type.Object({
  id: Type.String(),
  firstName: Nullable(Type.String()),
  lastName: Nullable(Type.String()),
  email: Nullable(Type.String()),
  externalDataReference: Nullable(Type.String()),
  embeddedData: Nullable(Type.Record(Type.String(), Type.String())),
  language: Nullable(Type.String()),
  unsubscribed: Type.Boolean(),
});
/** The legacy body names the external reference `externalDataReference`; `extRef` is taken too. */
export const LegacyContactBodySchema = Type.Object({
  ...ContactFieldsSchema.properties,
  externalDataReference: ContactFieldsSchema.properties.extRef,
});
export const UpdateLegacyContactBodySchema = Type.Object({
  ...LegacyContactBodySchema.properties,
  bounced: Type.Optional(Type.Boolean()),
});

export const SampleSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  mailingListId: Type.String(),
  size: Type.Integer(),
  creationDate: Type.String(),
});
export const CreateSampleBodySchema = Type.Object({
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  size: Type.Integer({ minimum: 1, maximum: 1_000_000 }),
});

export const ContactImportSchema = Type.Object({
  id: Type.String(),
  percentComplete: Type.Number(),
  status: Type.String(),
  contacts: Type.Object({
    count: Type.Object({ added: Type.Integer(), updated: Type.Integer(), failed: Type.Integer() }),
    failures: Type.Array(Type.Object({ row: Type.Integer(), reason: Type.String() })),
  }),
  errorMessage: Nullable(Type.String()),
});
export type ContactImport = Static<typeof ContactImportSchema>;

export function toDirectoryList(row: MailingListWithCount) {
  return {
    mailingListId: row.id,
    name: row.name,
    ownerId: row.owner_id,
    creationDate: Date.parse(row.created_at),
    lastModifiedDate: Date.parse(row.updated_at),
    contactCount: Number(row.contact_count),
  };
}

export function toLegacyList(row: MailingListRow) {
  return { libraryId: row.owner_id, id: row.id, name: row.name, category: row.category, folder: row.folder };
}

export function toListContact(row: MemberRow) {
  return { ...toDirectoryContact(row), contactLookupId: row.contact_lookup_id };
}

export function toLegacyMember(row: MemberRow) {
  return {
    id: row.id,
    firstName: row.first_name,
    lastName: row.last_name,
    email: row.email,
    externalDataReference: row.ext_ref,
    embeddedData: parseEmbeddedData(row.embedded_data),
    language: row.language,
    unsubscribed: row.unsubscribed === 1 || row.member_unsubscribed === 1,
  };
}

export function toSample(row: SampleRow) {
  return {
    id: row.id,
    name: row.name,
    mailingListId: row.mailing_list_id,
    size: row.size,
    creationDate: isoSeconds(new Date(row.created_at)),
  };
}

export function toContactImport(view: JobView<ImportProgress>): ContactImport {
  const progress = view.result ?? { added: 0, updated: 0, failed: 0, failures: [] };
  return {
    id: view.id,
    percentComplete: view.percentComplete,
    status: view.status,
    contacts: {
      count: { added: progress.added, updated: progress.updated, failed: progress.failed },
      failures: [...progress.failures].sort((a, b) => a.row - b.row),
    },
    errorMessage: view.errorMessage,
  };
}
