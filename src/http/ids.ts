import { randomBytes } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Uniformly random `[A-Za-z0-9]` characters (rejection sampling keeps every character equally likely). */
export function randomAlphanumeric(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62];
    }
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
  | 'TSM';

/** A v3 identifier: prefix, underscore, exactly 15 characters of `[A-Za-z0-9]`. */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomAlphanumeric(15)}`;
}

export function idPattern(prefix: IdPrefix): string {
  return `^${prefix}_[A-Za-z0-9]{15}$`;
}
