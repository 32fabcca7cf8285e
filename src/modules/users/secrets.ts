import { hash, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { randomAlphanumeric } from '../../http/ids.js';

const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, keylen: number) => Promise<Buffer>;

/** COMPAT.md: API tokens are 40 characters of [A-Za-z0-9]; clients check the length. */
export function newApiToken(): string {
  return randomAlphanumeric(40);
}

/**
 * Tokens carry 238 bits of randomness, so a fast hash is enough to make a stolen table useless;
 * a slow one would cost every request. The one-shot `hash` (Node 20.12+) costs a third of `createHash`.
 */
export function hashApiToken(token: string): string {
  return hash('sha256', token, 'hex');
}

/** Decision 0002: the stored hash is compared again, in constant time. */
export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Passwords are low-entropy: scrypt with a per-user salt. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(password, salt, 32);
  return `scrypt$${salt.toString('base64')}$${key.toString('base64')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64');
  const actual = await scryptAsync(password, Buffer.from(salt, 'base64'), expected.length);
  return timingSafeEqual(actual, expected);
}
