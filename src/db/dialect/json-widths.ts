import { type RawBuilder, sql } from 'kysely';

/** What both engines' width queries share: String({}) is "[object Object]", 15 bytes. */
export const OBJECT_TEXT_BYTES = sql.lit(15);

/** `text` with CRLF, CR and LF replaced in that order (exact when the replacement has no newline, else longer). */
export function replaced(text: RawBuilder<unknown>, replacement: string | undefined): RawBuilder<unknown> {
  if (replacement === undefined) return text;
  return sql`replace(replace(replace(${text}, ${'\r\n'}, ${replacement}), ${'\r'}, ${replacement}), ${'\n'}, ${replacement})`;
}

/** The single row of an aggregate over `w0 … wN`, as numbers in key order. */
export function widthsOf(row: Record<string, unknown> | undefined, count: number): number[] {
  return Array.from({ length: count }, (_, i) => Math.max(0, Number(row?.[`w${i}`] ?? 0)));
}
