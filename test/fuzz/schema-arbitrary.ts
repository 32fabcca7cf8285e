import fc, { type Arbitrary } from 'fast-check';
import type { JsonSchema } from './operations.js';

/** A better generator for a property, by its name (a seeded id, a known format name); may be absent. */
export type Hints = (property: string) => Arbitrary<unknown> | undefined;

const noHints: Hints = () => undefined;

// Valid values stay small: the fuzzer wants many calls, and hostile sizes come from hostile.ts.
const SMALL = 12;

/**
 * Values valid under `schema`, for the keywords the OpenAPI document uses: type (and nullable), properties,
 * required, additionalProperties, patternProperties, propertyNames, min/maxProperties, items, minItems/maxItems, enum,
 * minimum/maximum, minLength/maxLength, pattern, format (email, date-time), anyOf/oneOf. A schema with none of
 * them takes any JSON value. With `hints`, a named property takes its hint's values half of the time.
 */
export function arbitraryFor(schema: JsonSchema, hints: Hints = noHints): Arbitrary<unknown> {
  const base = withoutNull(schema, hints);
  return schema.nullable
    ? fc.oneof({ weight: 6, arbitrary: base }, { weight: 1, arbitrary: fc.constant(null) })
    : base;
}

function withoutNull(schema: JsonSchema, hints: Hints): Arbitrary<unknown> {
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const choices = schema.anyOf ?? schema.oneOf;
  if (choices) return fc.oneof(...choices.map((choice) => arbitraryFor(choice, hints)));
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      return stringFor(schema);
    case 'integer':
      return fc.integer(bounds(schema));
    case 'number':
      return fc.double({ ...bounds(schema), noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return arrayFor(schema, hints);
    case 'object':
      return objectFor(schema, hints);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** Integers within the schema's bounds, near its minimum when it has no maximum. */
function bounds(schema: JsonSchema): { min: number; max: number } {
  const min = schema.minimum ?? (schema.maximum === undefined ? -1000 : schema.maximum - 1000);
  return { min, max: schema.maximum ?? min + 1000 };
}

function stringFor(schema: JsonSchema): Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  const maxLength = schema.maxLength ?? Number.MAX_SAFE_INTEGER;
  const fits = (s: string) => s.length >= minLength && s.length <= maxLength;
  if (schema.format === 'date-time') return isoDate().filter(fits);
  if (schema.format === 'email') return email().filter(fits);
  if (schema.pattern)
    return fc.stringMatching(new RegExp(schema.pattern, 'u'), { size: 'xsmall' }).filter(fits);
  const text = fc.oneof(
    fc.string({ minLength, maxLength: Math.min(maxLength, Math.max(minLength, SMALL)) }),
    fc.string({ unit: 'grapheme', minLength, maxLength: Math.min(maxLength, Math.max(minLength, SMALL)) }),
  );
  // The longest string the schema takes, now and then: boundaries are where length checks go wrong.
  const longest = maxLength <= 100_000 ? fc.constant('x'.repeat(maxLength)) : text;
  return fc.oneof({ weight: 8, arbitrary: text }, { weight: 1, arbitrary: longest }).filter(fits);
}

export function isoDate(): Arbitrary<string> {
  return fc
    .date({
      min: new Date('2000-01-01T00:00:00Z'),
      max: new Date('2100-01-01T00:00:00Z'),
      noInvalidDate: true,
    })
    .map((d) => d.toISOString());
}

export function email(): Arbitrary<string> {
  return fc
    .tuple(fc.stringMatching(/^[a-z0-9]{1,12}$/), fc.stringMatching(/^[a-z]{1,10}$/))
    .map(([local, domain]) => `${local}@${domain}.example`);
}

function arrayFor(schema: JsonSchema, hints: Hints): Arbitrary<unknown[]> {
  const minLength = schema.minItems ?? 0;
  const maxLength = Math.min(schema.maxItems ?? 3, Math.max(minLength, 3));
  return fc.array(arbitraryFor(schema.items ?? {}, hints), { minLength, maxLength });
}

function objectFor(schema: JsonSchema, hints: Hints): Arbitrary<Record<string, unknown>> {
  const properties = schema.properties ?? {};
  const names = Object.keys(properties);
  // A map: additionalProperties, or one pattern of patternProperties (TypeBox's Record), at least
  // minProperties keys.
  const [pattern, patterned] = Object.entries(schema.patternProperties ?? {})[0] ?? [];
  const values = typeof schema.additionalProperties === 'object' ? schema.additionalProperties : patterned;
  if (names.length === 0 && values) {
    const keySchema = schema.propertyNames ?? (pattern && pattern !== '^.*$' ? { pattern } : undefined);
    const keys = keySchema ? stringFor(keySchema) : fc.string({ minLength: 1, maxLength: 8 });
    const minKeys = schema.minProperties ?? 0;
    const maxKeys = Math.max(minKeys, Math.min(schema.maxProperties ?? 3, 3));
    return fc.dictionary(keys, arbitraryFor(values, hints), { minKeys, maxKeys });
  }
  const model: Record<string, Arbitrary<unknown>> = {};
  for (const name of names) {
    const fromSchema = arbitraryFor(properties[name] as JsonSchema, hints);
    const hinted = hints(name);
    model[name] = hinted ? fc.oneof(hinted, fromSchema) : fromSchema;
  }
  return fc.record(model, { requiredKeys: schema.required ?? [] }) as Arbitrary<Record<string, unknown>>;
}
