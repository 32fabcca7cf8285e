import { hash, timingSafeEqual } from 'node:crypto';

/**
 * How every random secret Fieldwork hands out is kept (decision 0002): API tokens, OAuth client secrets
 * and access tokens, individual-link and opt-out tokens, session cookies. Each carries well over 200
 * random bits, so SHA-256 makes a stolen table useless and a slow hash would cost every request for
 * nothing. The one-shot `hash` (Node 20.12+) costs a third of `createHash`.
 */
export function hashSecret(secret: string): string {
  return hash('sha256', secret, 'hex');
}

/** A stored hash compared with a computed one in constant time (both hex). */
export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}
