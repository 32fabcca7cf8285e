import { type TSchema, Type } from 'typebox';

/** A field that is always present and `null` where empty (COMPAT.md "Paging": clients line fields up as columns). */
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const Timestamp = Type.String({ format: 'date-time' });

/** A string that must be one of `values`: one `enum` keyword, so the error lists the allowed values. */
export const StringEnum = <const T extends readonly string[]>(
  values: T,
  options: { description?: string } = {},
) => Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
