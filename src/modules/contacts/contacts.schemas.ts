import { type Static, type TSchema, Type } from 'typebox';
import { Nullable } from '../../http/schema-types.js';
import { CONTACT_LIMITS, type ContactRow, parseEmbeddedData } from './contact-fields.js';

const limits = CONTACT_LIMITS;
const Name = Type.String({ maxLength: limits.name });
export const Email = Type.String({ format: 'email', maxLength: limits.email });
const Phone = Type.String({ maxLength: limits.phone, pattern: '^[0-9+() .\\-]*$' });
const ExtRef = Type.String({ minLength: 1, maxLength: limits.extRef });
export const Language = Type.String({ pattern: '^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8})*$' });
/** An object of strings (COMPAT.md), limits in docs/contacts.md; keys free of quotes and backslashes. */
/** Embedded data keys: no quotes, backslashes or control characters (they name JSON paths in search). */
export const EMBEDDED_KEY_PATTERN = '^[^"\\\\\\u0000-\\u001f]+$';
const EmbeddedKey = { minLength: 1, maxLength: limits.embeddedKey, pattern: EMBEDDED_KEY_PATTERN };
export const EmbeddedDataSchema = Type.Record(
  Type.String(),
  Type.String({ maxLength: limits.embeddedValue }),
  {
    maxProperties: limits.embeddedFields,
    propertyNames: EmbeddedKey,
  },
);

/** An input field that null clears (JSON bodies are not type-coerced: src/http/validation.ts). */
const Clearable = <T extends TSchema>(schema: T) => Type.Optional(Nullable(schema));

/** The fields of a contact a caller may set; every one optional, null clears. */
export const ContactFieldsSchema = Type.Object({
  firstName: Clearable(Name),
  lastName: Clearable(Name),
  email: Clearable(Email),
  phone: Clearable(Phone),
  extRef: Clearable(ExtRef),
  language: Clearable(Language),
  unsubscribed: Type.Optional(Type.Boolean()),
  embeddedData: Clearable(EmbeddedDataSchema),
});
export type ContactFields = Static<typeof ContactFieldsSchema>;

/** An update may also record or clear a bounce (the distribution issue sets it when mail bounces). */
export const UpdateContactBodySchema = Type.Object({
  ...ContactFieldsSchema.properties,
  bounced: Type.Optional(Type.Boolean()),
});
export type UpdateContactBody = Static<typeof UpdateContactBodySchema>;

const Id = Type.String({ minLength: 1, maxLength: 100 });
export const DirectoryParams = Type.Object({ directoryId: Id });
export const DirectoryContactParams = Type.Object({ directoryId: Id, contactId: Id });

/** Spec 2.4, every field, null where empty. */
export const ContactRecordSchema = Type.Object({
  contactId: Type.String(),
  firstName: Nullable(Type.String()),
  lastName: Nullable(Type.String()),
  email: Nullable(Type.String()),
  phone: Nullable(Type.String()),
  extRef: Nullable(Type.String()),
  language: Nullable(Type.String()),
  unsubscribed: Type.Boolean(),
});
export type ContactRecord = Static<typeof ContactRecordSchema>;

/**
 * A directory contact: spec 2.4 plus embedded data, the bounce flag and its dates, which the real service
 * gives as epoch milliseconds under these names (clients convert them so: issue 15).
 */
export const DirectoryContactSchema = Type.Object({
  ...ContactRecordSchema.properties,
  embeddedData: Nullable(Type.Record(Type.String(), Type.String())),
  bounced: Type.Boolean(),
  creationDate: Type.Integer({ description: 'Epoch milliseconds.' }),
  lastModified: Type.Integer({ description: 'Epoch milliseconds.' }),
});
export type DirectoryContact = Static<typeof DirectoryContactSchema>;

/** Search filters (all optional, combined with AND); paging is in the query. */
export const ContactSearchBodySchema = Type.Object({
  email: Type.Optional(Type.String({ minLength: 1, maxLength: limits.email })),
  name: Type.Optional(Type.String({ minLength: 1, maxLength: limits.name })),
  extRef: Type.Optional(ExtRef),
  language: Type.Optional(Language),
  unsubscribed: Type.Optional(Type.Boolean()),
  embeddedData: Type.Optional(
    Type.Record(Type.String(), Type.String({ maxLength: limits.embeddedValue }), {
      maxProperties: 10,
      propertyNames: EmbeddedKey,
    }),
  ),
});
export type ContactSearch = Static<typeof ContactSearchBodySchema>;

/** A contact row with its list-level opt-out folded in (null outside a list). */
export type ContactWithMembership = Pick<
  ContactRow,
  'id' | 'first_name' | 'last_name' | 'email' | 'phone' | 'ext_ref' | 'language' | 'unsubscribed'
> & { member_unsubscribed?: number | null };

/** Spec 9.5: opted out of the list, or of the whole directory. */
export function toContactRecord(row: ContactWithMembership): ContactRecord {
  return {
    contactId: row.id,
    firstName: row.first_name,
    lastName: row.last_name,
    email: row.email,
    phone: row.phone,
    extRef: row.ext_ref,
    language: row.language,
    unsubscribed: row.unsubscribed === 1 || row.member_unsubscribed === 1,
  };
}

export function toDirectoryContact(
  row: ContactRow & { member_unsubscribed?: number | null },
): DirectoryContact {
  return {
    ...toContactRecord(row),
    embeddedData: parseEmbeddedData(row.embedded_data),
    bounced: row.bounced_at !== null,
    creationDate: Date.parse(row.created_at),
    lastModified: Date.parse(row.updated_at),
  };
}
