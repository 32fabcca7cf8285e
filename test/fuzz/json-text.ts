/**
 * Request bodies are built as values holding two kinds of placeholders, written out by `toJsonText`:
 * `Raw` is JSON text put in verbatim (numbers JavaScript cannot hold, 5000-deep nesting, duplicate keys),
 * and `Ref` names a seeded id, resolved when the request is sent, so a generated request stays valid after
 * the fuzzer reseeds its organisation (and replays the same way from a seed).
 */
export class Raw {
  constructor(readonly text: string) {}
  toString(): string {
    return `Raw(${preview(this.text, 40)})`;
  }
}

export class Ref {
  constructor(readonly kind: string) {}
  toString(): string {
    return `Ref(${this.kind})`;
  }
}

export type ResolveRef = (ref: Ref) => string;

/** JSON text of `value`, with `Raw` written verbatim and each `Ref` replaced by its id. */
export function toJsonText(value: unknown, resolve: ResolveRef): string {
  if (value instanceof Raw) return value.text;
  if (value instanceof Ref) return JSON.stringify(resolve(value));
  if (Array.isArray(value)) return `[${value.map((item) => toJsonText(item, resolve)).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const members = Object.entries(value)
      .filter(([, item]) => item !== undefined)
      .map(([key, item]) => `${JSON.stringify(key)}:${toJsonText(item, resolve)}`);
    return `{${members.join(',')}}`;
  }
  // undefined (an absent optional field) is written as null only inside arrays, as JSON.stringify does.
  return JSON.stringify(value) ?? 'null';
}

/** `value` with every `Ref` resolved and every `Raw` parsed when it can be (for multipart text fields). */
export function resolveRefs(value: unknown, resolve: ResolveRef): unknown {
  if (value instanceof Ref) return resolve(value);
  if (value instanceof Raw) return value.text;
  if (Array.isArray(value)) return value.map((item) => resolveRefs(item, resolve));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveRefs(v, resolve)]));
  return value;
}

/** The start of a long text, with its length: for failure messages that must stay readable. */
export function preview(text: string, max = 300): string {
  if (text.length <= max) return JSON.stringify(text);
  return `${JSON.stringify(text.slice(0, max))}… (${text.length} chars)`;
}
