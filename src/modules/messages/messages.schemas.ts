import { type Static, Type } from 'typebox';
import { fromJson } from '../../db/json.js';
import { PagingQuery } from '../../http/paging.js';
import { StringEnum } from '../../http/schema-types.js';
import type { MessageRow, MessageSummaryRow } from './messages.store.js';
import { unknownPipedFields } from './piped-text.js';

/** COMPAT.md "Users and the rest": the library message categories, exactly. */
export const MESSAGE_CATEGORIES = [
  'invite',
  'reminder',
  'thankYou',
  'endOfSurvey',
  'inactiveSurvey',
  'general',
  'validation',
  'lookAndFeel',
  'emailSubject',
  'smsInvite',
] as const;
export type MessageCategory = (typeof MESSAGE_CATEGORIES)[number];

const Id = Type.String({ minLength: 1, maxLength: 100 });
const Category = StringEnum(MESSAGE_CATEGORIES, { description: 'The message category.' });
const Description = Type.String({ minLength: 1, maxLength: 1000 });
const LibraryId = Type.String({
  minLength: 1,
  maxLength: 100,
  description: "A user's library (UR_…) or a group's (GR_…); the caller's own user library when absent.",
});
/** Language codes and sizes are checked in the service, where the error can name the key. */
const Texts = Type.Record(Type.String(), Type.String(), {
  minProperties: 1,
  maxProperties: 200,
  description: 'The message HTML by language code (EN, en, pt-BR, ZH-S …); at most 1 MB per language.',
});

export const LibraryParams = Type.Object({ libraryId: Id });
export const MessageParams = Type.Object({ messageId: Id });
export const LibraryMessageParams = Type.Object({ libraryId: Id, messageId: Id });

export const ListMessagesQuery = Type.Object({
  ...PagingQuery().properties,
  category: Type.Optional(Category),
});
/** The spec's spelling names the library in the query (or nowhere: the caller's own). */
export const SpecListMessagesQuery = Type.Object({
  ...ListMessagesQuery.properties,
  libraryId: Type.Optional(LibraryId),
});
export const LibraryQuery = Type.Object({ libraryId: Type.Optional(LibraryId) });

export const CreateMessageBodySchema = Type.Object({
  description: Description,
  category: Category,
  messages: Texts,
});
export type CreateMessageBody = Static<typeof CreateMessageBodySchema>;
export const SpecCreateMessageBodySchema = Type.Object({
  ...CreateMessageBodySchema.properties,
  libraryId: Type.Optional(LibraryId),
});

/** Every field optional, at least one given; `messages` replaces all the languages. */
export const UpdateMessageBodySchema = Type.Object({
  description: Type.Optional(Description),
  category: Type.Optional(Category),
  messages: Type.Optional(Texts),
});
export type UpdateMessageBody = Static<typeof UpdateMessageBodySchema>;
export const SpecUpdateMessageBodySchema = Type.Object({
  ...UpdateMessageBodySchema.properties,
  libraryId: Type.Optional(LibraryId),
});

/** A list element: the message without its HTML (a page of 1 MB messages would be a huge answer). */
export const MessageSummarySchema = Type.Object({
  id: Type.String(),
  description: Type.String(),
  category: Type.String(),
});

/** COMPAT.md `{id, description, category, messages}`, plus the piped fields that will render empty. */
export const MessageSchema = Type.Object({
  ...MessageSummarySchema.properties,
  messages: Type.Record(Type.String(), Type.String()),
  warnings: Type.Array(Type.String(), {
    description:
      'The piped text fields of the message this service does not fill (a q:// answer, say), as written; they render as empty text.',
  }),
});
export type Message = Static<typeof MessageSchema>;

export function toMessageSummary(row: MessageSummaryRow): Static<typeof MessageSummarySchema> {
  return { id: row.id, description: row.description, category: row.category };
}

export function toMessage(row: MessageRow): Message {
  const messages = fromJson<Record<string, string>>(row.messages);
  const warnings = new Set(Object.values(messages).flatMap(unknownPipedFields));
  return { ...toMessageSummary(row), messages, warnings: [...warnings] };
}
