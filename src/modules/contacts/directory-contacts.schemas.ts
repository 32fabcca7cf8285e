import { type Static, Type } from 'typebox';
import { PagingQuery } from '../../http/paging.js';
import { Nullable } from '../../http/schema-types.js';
import type { RecipientResponse } from '../responses/recipient-responses.service.js';
import { DirectoryContactSchema, toDirectoryContact } from './contacts.schemas.js';
import { type DirectoryContactRecord, HISTORY_TYPES } from './directory-contacts.service.js';

/** docs/contacts.md "Paging a directory": pageSize 1–1000 (default 100), and offset or skipToken. */
export const DirectoryContactsQuerySchema = Type.Object({
  ...PagingQuery({ defaultSize: 100, maxSize: 1000 }).properties,
  skipToken: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      description: 'Where the previous page ended (from its nextPage); not with offset.',
    }),
  ),
  useNewPaginationScheme: Type.Optional(
    Type.Boolean({ description: 'true: nextPage carries a skipToken instead of an offset.' }),
  ),
});

/** The contact in one of its mailing lists, under the list's id. */
const MembershipSchema = Type.Object({
  name: Type.String(),
  ownerId: Type.String(),
  contactLookupId: Type.String(),
  unsubscribed: Type.Boolean(),
});

/** A directory contact read alone: the record plus its lists and stats, as the real service gives it. */
export const DirectoryContactRecordSchema = Type.Object({
  ...DirectoryContactSchema.properties,
  mailingListMembership: Type.Record(Type.String(), MembershipSchema),
  stats: Type.Object({
    responseCount: Type.Integer(),
    lastResponseDate: Nullable(Type.Integer({ description: 'Epoch milliseconds.' })),
  }),
});

export function toDirectoryContactRecord(
  record: DirectoryContactRecord,
): Static<typeof DirectoryContactRecordSchema> {
  const { row, memberships, stats } = record;
  return {
    ...toDirectoryContact(row),
    mailingListMembership: Object.fromEntries(
      memberships.map((m) => [
        m.mailing_list_id,
        {
          name: m.name,
          ownerId: m.owner_id,
          contactLookupId: m.contact_lookup_id,
          unsubscribed: m.unsubscribed === 1 || row.unsubscribed === 1,
        },
      ]),
    ),
    stats: {
      responseCount: stats.responseCount,
      lastResponseDate: stats.lastResponseDate === null ? null : Date.parse(stats.lastResponseDate),
    },
  };
}

export const ContactHistoryQuerySchema = Type.Object({
  ...PagingQuery({ defaultSize: 100, maxSize: 1000 }).properties,
  type: Type.Optional(
    Type.Union(
      HISTORY_TYPES.map((t) => Type.Literal(t)),
      { description: 'The kind of history: response (the responses the contact gave).' },
    ),
  ),
});

/** One response in a contact's history. */
export const ContactHistoryEntrySchema = Type.Object({
  type: Type.Literal('response'),
  responseId: Type.String(),
  surveyId: Type.String(),
  distributionId: Nullable(Type.String()),
  date: Type.String({ description: 'When the response was recorded, ISO 8601 UTC.' }),
  finished: Type.Boolean(),
});

export function toHistoryEntry(response: RecipientResponse): Static<typeof ContactHistoryEntrySchema> {
  return {
    type: 'response',
    responseId: response.responseId,
    surveyId: response.surveyId,
    distributionId: response.distributionId,
    date: response.recordedDate,
    finished: response.finished,
  };
}
