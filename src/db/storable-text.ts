/**
 * Text both engines store as given. PostgreSQL refuses a NUL character in text (the whole statement
 * fails); SQLite takes a lone UTF-16 surrogate and writes invalid UTF-8, which PostgreSQL would have
 * replaced. Code that stores text from a file checks it here first and refuses only what holds either.
 */

// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const UNSTORABLE = /\0|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why `text` cannot be stored as it is, e.g. `holds a NUL character (U+0000)`; undefined when it can. */
export function unstorableText(text: string): string | undefined {
  const found = UNSTORABLE.exec(text)?.[0];
  if (found === undefined) return undefined;
  if (found === '\0') return 'holds a NUL character (U+0000), which cannot be stored';
  const code = found.charCodeAt(0).toString(16).toUpperCase();
  return `holds an unpaired surrogate (U+${code}), which is not valid Unicode text`;
}
