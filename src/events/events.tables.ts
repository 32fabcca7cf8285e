import type { Generated } from 'kysely';

/**
 * The tables of event subscriptions and the transactional outbox (DESIGN.md "Events"). Portable column
 * choices as everywhere (docs/ARCHITECTURE.md): ISO 8601 text for times (scheduling columns hold `Date.toISOString()`, see
 * db/claim.ts), integers 0/1 for booleans, JSON text for payloads.
 */
export interface EventSubscriptionsTable {
  organization_id: string;
  id: string;
  topics: string;
  publication_url: string;
  encrypt: number;
  shared_key: string | null;
  successful_calls: Generated<number>;
  /** `active`, or `disabled` once a receiver answered 410 Gone. */
  status: string;
  disabled_reason: string | null;
  created_at: string;
}

/** One row per emitted event; its id is the `webhook-id` every delivery of it carries. */
export interface EventsTable {
  id: string;
  organization_id: string;
  topic: string;
  payload: string;
  created_at: string;
}

/** One row per (event, matching subscription): the unit the delivery worker claims. */
export interface EventDeliveriesTable {
  id: string;
  organization_id: string;
  subscription_id: string;
  event_id: string;
  /** `pending` (due or waiting for a retry), `delivered`, or `failed` (gave up, or the receiver said 410). */
  status: string;
  /** Every attempt ever made. */
  attempts: number;
  /** Attempts since the last manual retry or replay: the back-off schedule counts these. */
  round_attempts: number;
  due_at: string;
  lease_until: string | null;
  lease_owner: string | null;
  last_http_status: number | null;
  last_error: string | null;
  delivered_at: string | null;
  created_at: string;
}

/** The delivery log: one row per POST made. (delivery_id, attempt) is unique, so no attempt is made twice. */
export interface EventDeliveryAttemptsTable {
  delivery_id: string;
  attempt: number;
  organization_id: string;
  attempted_at: string;
  http_status: number | null;
  latency_ms: number;
  error: string | null;
  worker: string;
}

export interface EventTables {
  event_subscriptions: EventSubscriptionsTable;
  events: EventsTable;
  event_deliveries: EventDeliveriesTable;
  event_delivery_attempts: EventDeliveryAttemptsTable;
}
