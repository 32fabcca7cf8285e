import { type Static, Type } from 'typebox';
import { fromJson } from '../../db/json.js';
import { Nullable, StringEnum } from '../../http/schema-types.js';
import type { DistributionRow } from './distributions.store.js';

const Id = Type.String({ minLength: 1, maxLength: 100 });
const Email = Type.String({ minLength: 3, maxLength: 320 });
/** A message's HTML, as given; 1 MB at most, like a library message. */
const MessageText = Type.String({ minLength: 1, maxLength: 1_000_000 });

export const LINK_TYPES = ['Individual', 'Multiple', 'Anonymous'] as const;
export const REQUEST_TYPES = ['Invite', 'Reminder', 'ThankYou'] as const;
export type RequestType = (typeof REQUEST_TYPES)[number];

export const MessageRefSchema = Type.Object({
  libraryId: Type.Optional(Id),
  messageId: Type.Optional(Id),
  messageText: Type.Optional(MessageText),
});
export type MessageRef = Static<typeof MessageRefSchema>;

export const HeaderSchema = Type.Object({
  fromEmail: Email,
  fromName: Type.Optional(Type.String({ maxLength: 200 })),
  replyToEmail: Type.Optional(Email),
  subject: Type.String({ minLength: 1, maxLength: 998 }),
});

/** COMPAT.md "Users and the rest": the create body of an e-mail distribution. */
export const CreateDistributionBodySchema = Type.Object({
  message: MessageRefSchema,
  recipients: Type.Object({
    mailingListId: Id,
    contactId: Type.Optional(Id),
    sampleId: Type.Optional(Id),
  }),
  header: HeaderSchema,
  surveyLink: Type.Object({
    surveyId: Id,
    expirationDate: Type.Optional(Type.String({ minLength: 1, maxLength: 40 })),
    type: Type.Optional(StringEnum(LINK_TYPES)),
  }),
  sendDate: Type.String({ minLength: 1, maxLength: 40 }),
  /** Only e-mail is sent here; anything else is refused (FW_DST_1). */
  channel: Type.Optional(Type.String({ maxLength: 20 })),
});
export type CreateDistributionBody = Static<typeof CreateDistributionBodySchema>;

/** A reminder, thank-you or new invitation following a distribution; the header defaults to its parent's. */
export const FollowUpBodySchema = Type.Object({
  message: MessageRefSchema,
  header: Type.Optional(Type.Partial(HeaderSchema)),
  sendDate: Type.String({ minLength: 1, maxLength: 40 }),
});
export type FollowUpBody = Static<typeof FollowUpBodySchema>;

/** Spec 4.6: `POST /v3/distributions/{id}` takes the kind of send in the body (v2's sendReminder, sendThankYou ...). */
export const SpecFollowUpBodySchema = Type.Object({
  ...FollowUpBodySchema.properties,
  requestType: StringEnum(REQUEST_TYPES, {
    description:
      'Reminder, ThankYou, or Invite (the same survey to the same recipients: "email to panel", "send survey")',
  }),
});
export type SpecFollowUpBody = Static<typeof SpecFollowUpBodySchema>;

export const DistributionIdParams = Type.Object({ distributionId: Id });

export const ListDistributionsQuery = Type.Object({
  surveyId: Id,
  distributionRequestType: Type.Optional(StringEnum(REQUEST_TYPES)),
  mailingListId: Type.Optional(Id),
  sendStartDate: Type.Optional(Type.String({ minLength: 1, maxLength: 40 })),
  sendEndDate: Type.Optional(Type.String({ minLength: 1, maxLength: 40 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, default: 0 })),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
});

export const ContactsPageQuery = Type.Object({
  surveyId: Type.Optional(Id),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, default: 0 })),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
});

export const StatsSchema = Type.Object({
  sent: Type.Integer(),
  failed: Type.Integer(),
  started: Type.Integer(),
  bounced: Type.Integer(),
  opened: Type.Integer(),
  skipped: Type.Integer(),
  finished: Type.Integer(),
  complaints: Type.Integer(),
  blocked: Type.Integer(),
});
export type Stats = Static<typeof StatsSchema>;

export const DistributionSchema = Type.Object({
  id: Type.String(),
  parentDistributionId: Nullable(Type.String()),
  ownerId: Type.String(),
  organizationId: Type.String(),
  requestType: Type.String(),
  requestStatus: Type.String(),
  sendDate: Type.String(),
  createdDate: Type.String(),
  modifiedDate: Type.String(),
  headers: Type.Object({
    fromEmail: Type.String(),
    fromName: Nullable(Type.String()),
    replyToEmail: Nullable(Type.String()),
    subject: Type.String(),
  }),
  recipients: Type.Object({
    mailingListId: Type.String(),
    contactId: Nullable(Type.String()),
    sampleId: Nullable(Type.String()),
  }),
  message: Type.Object({
    libraryId: Nullable(Type.String()),
    messageId: Nullable(Type.String()),
    messageText: Nullable(Type.String()),
  }),
  surveyLink: Type.Object({
    surveyId: Type.String(),
    expirationDate: Nullable(Type.String()),
    linkType: Type.String(),
  }),
  stats: StatsSchema,
});
export type Distribution = Static<typeof DistributionSchema>;

export const LinkSchema = Type.Object({
  contactId: Type.String(),
  link: Nullable(Type.String()),
  linkExpiration: Nullable(Type.String()),
  status: Type.String(),
  firstName: Nullable(Type.String()),
  lastName: Nullable(Type.String()),
  email: Nullable(Type.String()),
  externalDataReference: Nullable(Type.String()),
  unsubscribed: Type.Boolean(),
});

export const HistorySchema = Type.Object({
  contactId: Type.String(),
  contactLookupId: Nullable(Type.String()),
  distributionId: Type.String(),
  status: Type.String(),
  surveyLink: Nullable(Type.String()),
  sentAt: Nullable(Type.String()),
  emailOpened: Type.Boolean(),
  openedAt: Nullable(Type.String()),
  responseId: Nullable(Type.String()),
  responseStartedAt: Nullable(Type.String()),
  responseCompletedAt: Nullable(Type.String()),
  surveySessionId: Nullable(Type.String()),
  errorMessage: Nullable(Type.String()),
});

/** A follow-up answers with its id in both spellings clients read (`id`, and `distributionId` as today's API). */
export const FollowUpResultSchema = Type.Object({ id: Type.String(), distributionId: Type.String() });

export function toDistribution(row: DistributionRow, stats: Stats): Distribution {
  const messageText = row.message_text;
  return {
    id: row.id,
    parentDistributionId: row.parent_id,
    ownerId: row.owner_id,
    organizationId: row.organization_id,
    requestType: row.request_type,
    requestStatus: row.status,
    sendDate: row.send_date,
    createdDate: row.created_at,
    modifiedDate: row.updated_at,
    headers: {
      fromEmail: row.from_email,
      fromName: row.from_name,
      replyToEmail: row.reply_to_email,
      subject: row.subject,
    },
    recipients: { mailingListId: row.mailing_list_id, contactId: row.contact_id, sampleId: row.sample_id },
    message: {
      libraryId: row.library_id,
      messageId: row.message_id,
      messageText: messageText ?? (row.message_id === null ? firstMessage(row.message_body) : null),
    },
    surveyLink: { surveyId: row.survey_id, expirationDate: row.link_expires_at, linkType: row.link_type },
    stats,
  };
}

function firstMessage(body: string): string | null {
  return Object.values(fromJson<Record<string, string>>(body))[0] ?? null;
}
