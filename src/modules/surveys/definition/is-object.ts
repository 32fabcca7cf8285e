/** A JSON object: not null, not an array (what a QSF file or a request body holds under a key). */
export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
