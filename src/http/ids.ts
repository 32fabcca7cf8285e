import { randomBytes } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Uniformly random `[A-Za-z0-9]` characters (rejection sampling keeps every character equally likely). */
export function randomAlphanumeric(length: number): string {
  return randomAlphanumerics(length, 1)[0] as string;
}

/**
 * `count` strings of `randomAlphanumeric(length)`, drawn from one buffer of random bytes: an import of a
 * million contacts names them a batch at a time, and a draw per identifier cost more than its row's insert.
 */
export function randomAlphanumerics(length: number, count: number): string[] {
  const out: string[] = [];
  let bytes = Buffer.alloc(0);
  let at = 0;
  for (let made = 0; made < count; made++) {
    let text = '';
    while (text.length < length) {
      if (at === bytes.length) {
        // About 3% of bytes are rejected: a tenth more than needed rarely calls for a second draw.
        bytes = randomBytes(Math.ceil(1.1 * length * (count - made)) + 16);
        at = 0;
      }
      const byte = bytes[at++] as number;
      if (byte < 248) text += ALPHABET[byte % 62];
    }
    out.push(text);
  }
  return out;
}

/** The identifier prefixes of COMPAT.md "Identifiers". */
export type IdPrefix =
  | 'SV'
  | 'R'
  | 'UR'
  | 'POOL'
  | 'CG'
  | 'CID'
  | 'ML'
  | 'MLRP'
  | 'CGC'
  | 'EMD'
  | 'FS'
  | 'SUB'
  | 'ES'
  | 'PGRS'
  | 'BL'
  | 'MS'
  | 'GR'
  | 'DV'
  | 'IM'
  | 'BT'
  | 'SMP'
  // 360 evaluations (ours, docs/threesixties.md): program, subject (person), evaluator, mail.
  | 'TS'
  | 'TSP'
  | 'TSE'
  | 'TSM'
  // Events and their deliveries (ours: the event id is every delivery's webhook-id).
  | 'EV'
  | 'DL';

/** A v3 identifier: prefix, underscore, exactly 15 characters of `[A-Za-z0-9]`. */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomAlphanumeric(15)}`;
}

/** `count` identifiers of `newId(prefix)`, for a batch of rows. */
export function newIds(prefix: IdPrefix, count: number): string[] {
  return randomAlphanumerics(15, count).map((random) => `${prefix}_${random}`);
}

export function idPattern(prefix: IdPrefix): string {
  return `^${prefix}_[A-Za-z0-9]{15}$`;
}
