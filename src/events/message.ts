import { type Cipher, createCipheriv, createHmac, createSecretKey, type KeyObject } from 'node:crypto';

/**
 * The wire form of one delivery (COMPAT.md "Event subscriptions and deliveries", docs/events.md): a form
 * body `Topic`, `MSG`, `HMAC`, plus the Standard Webhooks headers so receivers can de-duplicate (webhook-id
 * is the event's id, the same on every attempt) and reject replays (webhook-timestamp, webhook-signature).
 */
export interface MessageInput {
  eventId: string;
  brandId: string;
  topic: string;
  /** The attributes, or their JSON text as stored. */
  payload: Record<string, unknown> | string;
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

/**
 * `MSG` in clear: the payload with PascalCase keys plus `BrandID`, as a JSON string. The worker passes
 * the payload as stored (the JSON text recordEvent wrote with JSON.stringify: compact, keys in order);
 * appending BrandID to that text gives what parsing, spreading and stringifying would, for much less.
 */
export function plainMessage(brandId: string, payload: Record<string, unknown> | string): string {
  if (
    typeof payload === 'string' &&
    payload.charCodeAt(0) === 0x7b && // {
    payload.charCodeAt(payload.length - 1) === 0x7d && // }
    !payload.includes('"BrandID"')
  ) {
    const brand = JSON.stringify(brandId);
    return payload === '{}' ? `{"BrandID":${brand}}` : `${payload.slice(0, -1)},"BrandID":${brand}}`;
  }
  const object = typeof payload === 'string' ? (JSON.parse(payload) as Record<string, unknown>) : payload;
  return JSON.stringify({ ...object, BrandID: brandId });
}

/**
 * What a sharedKey derives, made once per key rather than per message (the worker signs thousands a
 * second with a handful of keys): the HMAC key object, and for AES a cipher kept open. ECB encrypts each
 * 16-byte block on its own with no chaining state, so with padding done here (whole blocks in, whole
 * blocks out, `final()` never called) one cipher serves every message under that key.
 */
interface DerivedKey {
  hmacKey: KeyObject;
  ecb: Cipher | undefined;
}
const MAX_CACHED_KEYS = 1024;
const derivedKeys = new Map<string, DerivedKey>();

function derive(sharedKey: string): DerivedKey {
  let derived = derivedKeys.get(sharedKey);
  if (!derived) {
    const key = Buffer.from(sharedKey, 'utf8');
    let ecb: Cipher | undefined;
    if (isEncryptionKey(sharedKey)) {
      ecb = createCipheriv(key.length === 16 ? 'aes-128-ecb' : 'aes-256-ecb', key, null);
      ecb.setAutoPadding(false);
    }
    derived = { hmacKey: createSecretKey(key), ecb };
    // Keys of deleted subscriptions must not pile up: past the bound, start afresh.
    if (derivedKeys.size >= MAX_CACHED_KEYS) derivedKeys.clear();
    derivedKeys.set(sharedKey, derived);
  }
  return derived;
}

/** AES-ECB with PKCS#7 padding (docs/decisions/0001-event-encryption.md), Base64 for transport (spec 4.1 rule 3). */
export function encryptMessage(plain: string, sharedKey: string): string {
  const { ecb } = derive(sharedKey);
  if (!ecb) throw new Error(`an AES key is 16 or 32 bytes, not ${Buffer.byteLength(sharedKey, 'utf8')}`);
  const length = Buffer.byteLength(plain, 'utf8');
  const pad = 16 - (length % 16);
  const padded = Buffer.alloc(length + pad, pad);
  padded.write(plain, 0, 'utf8');
  return ecb.update(padded).toString('base64');
}

/** Lowercase hex HMAC-SHA512 of the exact MSG sent, keyed with the sharedKey's UTF-8 bytes (COMPAT.md). */
export function messageHmac(msg: string, sharedKey: string): string {
  return createHmac('sha512', derive(sharedKey).hmacKey).update(msg, 'utf8').digest('hex');
}

/** Standard Webhooks: `v1,` + Base64 HMAC-SHA256 of `id.timestamp.body`. */
export function webhookSignature(id: string, timestamp: number, body: string, sharedKey: string): string {
  const mac = createHmac('sha256', derive(sharedKey).hmacKey);
  return `v1,${mac.update(`${id}.${timestamp}.${body}`, 'utf8').digest('base64')}`;
}

export function buildMessage(input: MessageInput): WebhookMessage {
  const { sharedKey } = input;
  const plain = plainMessage(input.brandId, input.payload);
  const msg = input.encrypt && sharedKey ? encryptMessage(plain, sharedKey) : plain;
  let body = `Topic=${formValue(`${input.brandId}.${input.topic}`)}&MSG=${formValue(msg)}`;
  if (sharedKey) body += `&HMAC=${messageHmac(msg, sharedKey)}`; // hex: nothing to encode
  const timestamp = Math.floor(input.sentAt.getTime() / 1000);
  const headers: Record<string, string> = {
    'content-type': 'application/x-www-form-urlencoded',
    'webhook-id': input.eventId,
    'webhook-timestamp': String(timestamp),
  };
  if (sharedKey) headers['webhook-signature'] = webhookSignature(input.eventId, timestamp, body, sharedKey);
  return { body, headers };
}

/**
 * A value as `URLSearchParams` serialises it (application/x-www-form-urlencoded, UTF-8), for a fraction of
 * its cost on the long Base64 `MSG`: encodeURIComponent differs only in leaving `!'()~` as they are and
 * writing a space as `%20`. A lone surrogate, which encodeURIComponent refuses, goes to URLSearchParams.
 */
export function formValue(value: string): string {
  let encoded: string;
  try {
    encoded = encodeURIComponent(value);
  } catch {
    return new URLSearchParams({ v: value }).toString().slice(2);
  }
  return /[!'()~ ]/.test(value) ? encoded.replace(/[!'()~]|%20/g, formEscape) : encoded;
}

const formEscape = (c: string) => (c === '%20' ? '+' : `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
