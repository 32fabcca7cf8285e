import { type Static, Type } from 'typebox';
import type { AttemptRow, DeliveryLogRow } from '../../events/delivery-log.store.js';
import { Nullable, StringEnum, Timestamp } from '../../http/schema-types.js';
import type { SubscriptionRow } from './eventsubscriptions.store.js';

/** Spec 2.3 and COMPAT.md: the sharedKey is never part of it. `status` is ours (a 410 disables). */
export const EventSubscriptionSchema = Type.Object({
  id: Type.String(),
  scope: Type.String(),
  topics: Type.String(),
  publicationUrl: Type.String(),
  encrypted: Type.Boolean(),
  successfulCalls: Type.Integer(),
  status: StringEnum(['active', 'disabled']),
});
export type EventSubscription = Static<typeof EventSubscriptionSchema>;

/** Spec 4.1. Cross-field rules (URL form, topics, key length, id taken) are checked in the service. */
export const CreateSubscriptionBodySchema = Type.Object({
  subscriptionId: Type.Optional(
    Type.String({ pattern: '^[A-Za-z0-9_.:-]{1,100}$', description: 'Generated (SUB_...) when absent.' }),
  ),
  publicationUrl: Type.String({ minLength: 1, maxLength: 2000 }),
  topics: Type.String({ minLength: 1, maxLength: 200 }),
  encrypt: Type.Optional(Type.Boolean({ default: false })),
  sharedKey: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
});
export type CreateSubscriptionBody = Static<typeof CreateSubscriptionBodySchema>;

export const SubscriptionIdParams = Type.Object({
  eventSubscriptionId: Type.String({ minLength: 1, maxLength: 100 }),
});
export const DeliveryIdParams = Type.Object({
  eventSubscriptionId: Type.String({ minLength: 1, maxLength: 100 }),
  deliveryId: Type.String({ minLength: 1, maxLength: 100 }),
});

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export const DeliveryQuerySchema = Type.Object({
  offset: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
  status: Type.Optional(StringEnum(DELIVERY_STATUSES, { description: 'Only deliveries in this state.' })),
});

export const ReplayBodySchema = Type.Object({
  since: Type.String({ format: 'date-time', description: 'Failed deliveries of events since this time.' }),
  until: Type.Optional(Type.String({ format: 'date-time' })),
});
export type ReplayBody = Static<typeof ReplayBodySchema>;

export const AttemptSchema = Type.Object({
  attempt: Type.Integer(),
  attemptedAt: Timestamp,
  httpStatus: Nullable(Type.Integer()),
  latencyMs: Type.Integer(),
  error: Nullable(Type.String()),
});

/** One entry of the delivery log (ours: issue 4). */
export const DeliverySchema = Type.Object({
  id: Type.String(),
  eventId: Type.String(),
  topic: Type.String(),
  status: StringEnum(DELIVERY_STATUSES),
  attemptCount: Type.Integer(),
  attempts: Type.Array(AttemptSchema),
  createdAt: Timestamp,
  deliveredAt: Nullable(Timestamp),
  nextAttemptAt: Nullable(Timestamp),
  lastError: Nullable(Type.String()),
});
export type Delivery = Static<typeof DeliverySchema>;

export const ReplayResultSchema = Type.Object({ requeued: Type.Integer() });

export function toEventSubscription(row: SubscriptionRow): EventSubscription {
  return {
    id: row.id,
    scope: row.organization_id,
    topics: row.topics,
    publicationUrl: row.publication_url,
    encrypted: row.encrypt === 1,
    successfulCalls: row.successful_calls,
    status: row.status === 'disabled' ? 'disabled' : 'active',
  };
}

export function toDelivery(row: DeliveryLogRow, attempts: AttemptRow[]): Delivery {
  return {
    id: row.id,
    eventId: row.event_id,
    topic: row.topic,
    status: row.status as Delivery['status'],
    attemptCount: row.attempts,
    attempts: attempts.map((a) => ({
      attempt: a.attempt,
      attemptedAt: a.attempted_at,
      httpStatus: a.http_status,
      latencyMs: a.latency_ms,
      error: a.error,
    })),
    createdAt: row.created_at,
    deliveredAt: row.delivered_at,
    nextAttemptAt: row.status === 'pending' ? row.due_at : null,
    lastError: row.last_error,
  };
}
