import { createCipheriv, createHmac } from 'node:crypto';

/**
 * The wire form of one delivery (COMPAT.md "Event subscriptions and deliveries", docs/events.md): a form
 * body `Topic`, `MSG`, `HMAC`, plus the Standard Webhooks headers so receivers can de-duplicate (webhook-id
 * is the event's id, the same on every attempt) and reject replays (webhook-timestamp, webhook-signature).
 */
export interface MessageInput {
  eventId: string;
  brandId: string;
  topic: string;
  payload: Record<string, unknown>;
  sharedKey: string | null;
  encrypt: boolean;
  /** When this attempt is made: the webhook-timestamp. */
  sentAt: Date;
}

export interface WebhookMessage {
  body: string;
  headers: Record<string, string>;
}

/** Spec 4.1 rule 1 and part 8: AES-128 for a 16-byte key, AES-256 for 32 bytes. */
export const ENCRYPTION_KEY_BYTES = [16, 32] as const;

export function isEncryptionKey(sharedKey: string): boolean {
  return (ENCRYPTION_KEY_BYTES as readonly number[]).includes(Buffer.byteLength(sharedKey, 'utf8'));
}

/** `MSG` in clear: the payload with PascalCase keys plus `BrandID`, as a JSON string. */
export function plainMessage(brandId: string, payload: Record<string, unknown>): string {
  return JSON.stringify({ ...payload, BrandID: brandId });
}

/** AES-ECB with PKCS#7 padding (docs/decisions/0001-event-encryption.md), Base64 for transport (spec 4.1 rule 3). */
export function encryptMessage(plain: string, sharedKey: string): string {
  const key = Buffer.from(sharedKey, 'utf8');
  if (!isEncryptionKey(sharedKey)) throw new Error(`an AES key is 16 or 32 bytes, not ${key.length}`);
  const cipher = createCipheriv(key.length === 16 ? 'aes-128-ecb' : 'aes-256-ecb', key, null);
  return Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]).toString('base64');
}

/** Lowercase hex HMAC-SHA512 of the exact MSG sent, keyed with the sharedKey's UTF-8 bytes (COMPAT.md). */
export function messageHmac(msg: string, sharedKey: string): string {
  return createHmac('sha512', Buffer.from(sharedKey, 'utf8')).update(msg, 'utf8').digest('hex');
}

/** Standard Webhooks: `v1,` + Base64 HMAC-SHA256 of `id.timestamp.body`. */
export function webhookSignature(id: string, timestamp: number, body: string, sharedKey: string): string {
  const mac = createHmac('sha256', Buffer.from(sharedKey, 'utf8'));
  return `v1,${mac.update(`${id}.${timestamp}.${body}`, 'utf8').digest('base64')}`;
}

export function buildMessage(input: MessageInput): WebhookMessage {
  const { sharedKey } = input;
  const plain = plainMessage(input.brandId, input.payload);
  const msg = input.encrypt && sharedKey ? encryptMessage(plain, sharedKey) : plain;
  const form = new URLSearchParams({ Topic: `${input.brandId}.${input.topic}`, MSG: msg });
  if (sharedKey) form.set('HMAC', messageHmac(msg, sharedKey));
  const body = form.toString();
  const timestamp = Math.floor(input.sentAt.getTime() / 1000);
  const headers: Record<string, string> = {
    'content-type': 'application/x-www-form-urlencoded',
    'webhook-id': input.eventId,
    'webhook-timestamp': String(timestamp),
  };
  if (sharedKey) headers['webhook-signature'] = webhookSignature(input.eventId, timestamp, body, sharedKey);
  return { body, headers };
}
