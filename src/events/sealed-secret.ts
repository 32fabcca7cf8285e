import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Secrets kept at rest sealed with the node's secret key (secret-key.ts): a subscription's sharedKey is
 * the HMAC and AES key of its deliveries, so a copy of the database must not carry it in clear
 * (docs/events.md "The sharedKey at rest"). A stored value says its own format by its prefix:
 * - `v1:` + Base64(IV ‖ tag ‖ ciphertext): AES-256-GCM, a random 96-bit IV per value;
 * - `v0:` + the clear text: a value stored before sealing existed, tagged by migration 0007 so that a
 *   clear key which happens to start with `v1:` is never taken for a sealed one; sealed at start;
 * - anything else: clear text written directly (tests, tools), read as it is and sealed at the next start.
 */
const SEALED = 'v1:';
const CLEAR = 'v0:';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A sealed value this key cannot open: sealed with another node's key, or altered. */
export class UnreadableSecretError extends Error {}

export function isSealed(stored: string): boolean {
  return stored.startsWith(SEALED);
}

export function sealSecret(plain: string, key: Buffer): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return SEALED + Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64');
}

/** The clear text of a stored value in any of the formats above; throws UnreadableSecretError. */
export function openSecret(stored: string, key: Buffer): string {
  if (stored.startsWith(CLEAR)) return stored.slice(CLEAR.length);
  if (!isSealed(stored)) return stored;
  let cache = opened.get(key);
  if (!cache) {
    cache = new Map();
    opened.set(key, cache);
  }
  let plain = cache.get(stored);
  if (plain === undefined) {
    plain = decrypt(stored, key);
    // Keys of deleted subscriptions must not pile up: past the bound, start afresh.
    if (cache.size >= MAX_CACHED) cache.clear();
    cache.set(stored, plain);
  }
  return plain;
}

/**
 * Opened values by key, then by stored text: the delivery worker opens a subscription's key for every
 * message, thousands a second with a handful of subscriptions (message.ts keeps what it derives the same way).
 */
const opened = new WeakMap<Buffer, Map<string, string>>();
const MAX_CACHED = 1024;

function decrypt(stored: string, key: Buffer): string {
  const bytes = Buffer.from(stored.slice(SEALED.length), 'base64');
  if (bytes.length < IV_BYTES + TAG_BYTES) throw new UnreadableSecretError('the sealed value is truncated');
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES));
    decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString(
      'utf8',
    );
  } catch {
    throw new UnreadableSecretError(
      'it was sealed with another secret key (every node must have the same FIELDWORK_SECRET_KEY)',
    );
  }
}
