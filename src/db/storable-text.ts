/**
 * Text both engines store as given. PostgreSQL refuses a NUL character in text (the whole statement
 * fails); SQLite takes a lone UTF-16 surrogate and writes invalid UTF-8, which PostgreSQL would have
 * replaced. The one test of it: requests are refused at the boundary (http/hostile-input.ts) and rows of
 * imported files one by one (here).
 */

// String.prototype.isWellFormed (ES2024, in Node 20) is false exactly when a surrogate is unpaired,
// and ten times faster than a regular expression; the project's lib is ES2022, hence the cast.
const isWellFormed = (text: string) => (text as string & { isWellFormed(): boolean }).isWellFormed();

// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** What in `text` cannot be stored: a NUL, or the first unpaired surrogate's code unit; undefined when all can. */
export function unstorableCharacter(text: string): { nul: true } | { surrogate: number } | undefined {
  if (text.includes('\0')) return { nul: true };
  if (isWellFormed(text)) return undefined;
  return { surrogate: LONE_SURROGATE.exec(text)?.[0]?.charCodeAt(0) ?? 0xfffd };
}

/** Why `text` cannot be stored as it is, e.g. `holds a NUL character (U+0000)`; undefined when it can. */
export function unstorableText(text: string): string | undefined {
  const found = unstorableCharacter(text);
  if (!found) return undefined;
  if ('nul' in found) return 'holds a NUL character (U+0000), which cannot be stored';
  const code = found.surrogate.toString(16).toUpperCase();
  return `holds an unpaired surrogate (U+${code}), which is not valid Unicode text`;
}
