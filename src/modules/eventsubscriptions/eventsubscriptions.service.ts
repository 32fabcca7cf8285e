import { isIP } from 'node:net';
import { isUniqueViolation } from '../../db/database.js';
import { flag } from '../../db/json.js';
import type { Page } from '../../db/page.js';
import type { Deps } from '../../deps.js';
import * as deliveryLog from '../../events/delivery-log.store.js';
import { isEncryptionKey } from '../../events/message.js';
import { openSecret, sealSecret } from '../../events/sealed-secret.js';
import { secretKeyOf } from '../../events/secret-key.js';
import { isPrivateAddress, urlHost } from '../../events/ssrf.js';
import { topicPatternProblem } from '../../events/topics.js';
import { ApiError } from '../../http/errors.js';
import { newId } from '../../http/ids.js';
import { type Principal, requireBrandAdmin } from '../../http/principal.js';
import { type CreateSubscriptionBody, type ReplayBody, toDelivery } from './eventsubscriptions.schemas.js';
import * as store from './eventsubscriptions.store.js';

/** Every call here is for brand administrators only (spec 4.2, 5.7). */
export async function createSubscription(
  deps: Deps,
  principal: Principal,
  body: CreateSubscriptionBody,
): Promise<string> {
  requireBrandAdmin(principal);
  const publicationUrl = checkPublicationUrl(body.publicationUrl, deps.config.allowPrivateTargets);
  const problem = topicPatternProblem(body.topics);
  if (problem) throw ApiError.invalid('topics', problem);
  const encrypt = body.encrypt ?? false;
  // Spec 4.1 rule 1, part 8: the key is the AES key, so its length picks AES-128 or AES-256.
  if (encrypt && !body.sharedKey) throw ApiError.invalid('sharedKey', 'is required when encrypt is true');
  if (encrypt && body.sharedKey && !isEncryptionKey(body.sharedKey))
    throw ApiError.invalid(
      'sharedKey',
      'must be 16 or 32 bytes long (AES-128 or AES-256) when encrypt is true',
    );
  const id = body.subscriptionId ?? newId('SUB');
  try {
    await store.insertSubscription(deps.db, {
      organization_id: principal.organizationId,
      id,
      topics: body.topics,
      publication_url: publicationUrl,
      encrypt: flag(encrypt),
      // Sealed at rest (docs/events.md "The sharedKey at rest"); the delivery worker opens it to sign.
      shared_key: body.sharedKey === undefined ? null : sealSecret(body.sharedKey, secretKeyOf(deps.config)),
      status: 'active',
      disabled_reason: null,
      created_at: deps.clock.now().toISOString(),
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw ApiError.invalid('subscriptionId', `${id} is already in use`);
    throw error;
  }
  return id;
}

/**
 * At start: resolves the secret key (a first start makes its key file) and seals the sharedKeys still in
 * clear (stored before migration 0007, or written directly). Answers how many this node sealed.
 */
export async function sealStoredSharedKeys(deps: Deps): Promise<number> {
  const key = secretKeyOf(deps.config);
  let sealed = 0;
  for (const row of await store.listUnsealedSharedKeys(deps.db)) {
    const clear = openSecret(row.shared_key, key);
    sealed += await store.replaceSharedKey(deps.db, row, row.shared_key, sealSecret(clear, key));
  }
  return sealed;
}

/**
 * An absolute http(s) URL. A host that is a private or loopback address literal is refused here already
 * (unless allowed); names are checked on every delivery, against what they resolve to then.
 */
function checkPublicationUrl(value: string, allowPrivateTargets: boolean): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw ApiError.invalid('publicationUrl', 'must be an absolute http or https URL');
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname)
    throw ApiError.invalid('publicationUrl', 'must be an absolute http or https URL');
  if (url.username || url.password)
    throw ApiError.invalid('publicationUrl', 'must not carry a user name or password');
  const host = urlHost(url);
  const local = (isIP(host) && isPrivateAddress(host)) || host === 'localhost' || host.endsWith('.localhost');
  if (local && !allowPrivateTargets)
    throw ApiError.invalid(
      'publicationUrl',
      'is a private or loopback address, which this server does not deliver to (--allow-private-targets)',
    );
  return url.toString();
}

export function listSubscriptions(deps: Deps, principal: Principal, page: Page) {
  requireBrandAdmin(principal);
  return store.listSubscriptions(deps.db, principal, page);
}

export async function getSubscription(deps: Deps, principal: Principal, id: string) {
  requireBrandAdmin(principal);
  const row = await store.findSubscription(deps.db, principal, id);
  if (!row) throw subscriptionNotFound(id);
  return row;
}

export async function deleteSubscription(deps: Deps, principal: Principal, id: string): Promise<void> {
  requireBrandAdmin(principal);
  await deps.db.transaction().execute(async (trx) => {
    await deliveryLog.deleteDeliveriesOf(trx, principal, id);
    if ((await store.deleteSubscriptions(trx, principal, id)) === 0) throw subscriptionNotFound(id);
  });
}

export async function deleteAllSubscriptions(deps: Deps, principal: Principal): Promise<void> {
  requireBrandAdmin(principal);
  await deps.db.transaction().execute(async (trx) => {
    await deliveryLog.deleteDeliveriesOf(trx, principal);
    await store.deleteSubscriptions(trx, principal);
  });
}

export async function listDeliveries(
  deps: Deps,
  principal: Principal,
  subscriptionId: string,
  page: Page,
  status?: string,
) {
  await getSubscription(deps, principal, subscriptionId);
  const rows = await deliveryLog.listDeliveries(deps.db, principal, subscriptionId, page, status);
  const attempts = await deliveryLog.listAttempts(
    deps.db,
    principal,
    rows.map((row) => row.id),
  );
  return rows.map((row) =>
    toDelivery(
      row,
      attempts.filter((a) => a.delivery_id === row.id),
    ),
  );
}

/** Sends one delivery again now, whatever its state, with a fresh retry budget. */
export async function retryDelivery(
  deps: Deps,
  principal: Principal,
  subscriptionId: string,
  deliveryId: string,
) {
  const subscription = await getSubscription(deps, principal, subscriptionId);
  assertActive(subscription);
  const found = await deliveryLog.findDelivery(deps.db, principal, subscriptionId, deliveryId);
  if (!found) throw ApiError.of('FW_EVT_1', `Delivery ${deliveryId} not found.`);
  const requeued = await deliveryLog.requeueDeliveries(deps.db, principal, subscriptionId, deps.clock.now(), {
    deliveryId,
  });
  if (requeued === 0) throw ApiError.of('FW_EVT_2', `Delivery ${deliveryId} is being attempted right now.`);
  const row = await deliveryLog.findDelivery(deps.db, principal, subscriptionId, deliveryId);
  const attempts = await deliveryLog.listAttempts(deps.db, principal, [deliveryId]);
  return toDelivery(row ?? found, attempts);
}

/** Requeues every failed delivery of events recorded from since to until (default: now), both included. */
export async function replayFailed(
  deps: Deps,
  principal: Principal,
  subscriptionId: string,
  body: ReplayBody,
) {
  const subscription = await getSubscription(deps, principal, subscriptionId);
  assertActive(subscription);
  const now = deps.clock.now();
  const since = new Date(body.since);
  const until = body.until ? new Date(body.until) : now;
  if (until.getTime() < since.getTime()) throw ApiError.invalid('until', 'must not be earlier than since');
  return deliveryLog.requeueDeliveries(deps.db, principal, subscriptionId, now, {
    failedSince: since.toISOString(),
    failedUntil: until.toISOString(),
  });
}

function assertActive(subscription: store.SubscriptionRow): void {
  if (subscription.status !== 'active')
    throw ApiError.of(
      'FW_EVT_3',
      `Subscription ${subscription.id} is disabled (${subscription.disabled_reason ?? 'by its receiver'}); create a new one.`,
    );
}

/** COMPAT.md "Envelope": the real service's code and message. */
function subscriptionNotFound(id: string): ApiError {
  return ApiError.of('ESSG_2', `${id} not found`);
}
