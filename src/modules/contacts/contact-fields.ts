import type { Insertable, Selectable } from 'kysely';
import type { ContactsTable } from './contacts.tables.js';

/** The limits of a contact's fields (docs/contacts.md states them; the schemas and imports enforce them). */
export const CONTACT_LIMITS = {
  name: 200,
  email: 254,
  phone: 50,
  extRef: 200,
  embeddedFields: 100,
  embeddedKey: 100,
  embeddedValue: 1024,
} as const;

export type EmbeddedData = Record<string, string>;

/** A contact's fields as a caller gives them: absent leaves a field alone, null clears it. */
export interface ContactInput {
  firstName?: string | null;
  lastName?: string | null;
  email?: string | null;
  phone?: string | null;
  extRef?: string | null;
  language?: string | null;
  unsubscribed?: boolean;
  /** Merged into the contact's: a key with an empty value removes it; null removes them all. */
  embeddedData?: EmbeddedData | null;
}

export type ContactRow = Selectable<ContactsTable>;

export function emailKey(email: string | null | undefined): string | null {
  return email ? email.trim().toLowerCase() : null;
}

/** Merges embedded data; answers the merged object (null when empty) or the limit it breaks. */
export function mergeEmbeddedData(
  current: EmbeddedData | null,
  change: EmbeddedData | null | undefined,
): { value: EmbeddedData | null } | { problem: string } {
  if (change === undefined) return { value: current };
  if (change === null) return { value: null };
  const merged: EmbeddedData = { ...(current ?? {}) };
  for (const [key, value] of Object.entries(change)) {
    if (value === '') delete merged[key];
    else merged[key] = value;
  }
  const count = Object.keys(merged).length;
  if (count > CONTACT_LIMITS.embeddedFields) {
    return { problem: `embeddedData must not have more than ${CONTACT_LIMITS.embeddedFields} fields` };
  }
  return { value: count === 0 ? null : merged };
}

export function parseEmbeddedData(text: string | null): EmbeddedData | null {
  return text === null ? null : (JSON.parse(text) as EmbeddedData);
}

/** The row a new contact is stored as. */
export function newContactRow(
  base: { id: string; organizationId: string; directoryId: string; at: string },
  input: ContactInput,
  embeddedData: EmbeddedData | null,
): Insertable<ContactsTable> & ContactRow {
  return {
    id: base.id,
    organization_id: base.organizationId,
    directory_id: base.directoryId,
    first_name: input.firstName ?? null,
    last_name: input.lastName ?? null,
    email: input.email ?? null,
    email_key: emailKey(input.email),
    phone: input.phone ?? null,
    ext_ref: input.extRef ?? null,
    language: input.language ?? null,
    unsubscribed: input.unsubscribed ? 1 : 0,
    bounced_at: null,
    embedded_data: embeddedData === null ? null : JSON.stringify(embeddedData),
    created_at: base.at,
    updated_at: base.at,
  };
}

/** The stored row after a change: given fields replace, absent ones stay. */
export function changedContactRow(
  row: ContactRow,
  input: ContactInput,
  embeddedData: EmbeddedData | null,
  options: { at: string; withUnsubscribed: boolean },
): ContactRow {
  const pick = <T>(given: T | undefined, current: T) => (given === undefined ? current : given);
  const email = pick(input.email, row.email);
  return {
    ...row,
    first_name: pick(input.firstName, row.first_name),
    last_name: pick(input.lastName, row.last_name),
    email,
    email_key: emailKey(email),
    phone: pick(input.phone, row.phone),
    ext_ref: pick(input.extRef, row.ext_ref),
    language: pick(input.language, row.language),
    unsubscribed:
      options.withUnsubscribed && input.unsubscribed !== undefined
        ? input.unsubscribed
          ? 1
          : 0
        : row.unsubscribed,
    embedded_data: embeddedData === null ? null : JSON.stringify(embeddedData),
    updated_at: options.at,
  };
}
