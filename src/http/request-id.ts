import { randomUUID } from 'node:crypto';

/** COMPAT.md: meta.requestId is a lowercase UUID v4, new for every request. */
export function randomRequestId(): string {
  return randomUUID();
}
