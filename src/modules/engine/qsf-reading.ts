/** Tolerant reads of QSF values (real files are untidy: COMPAT.md, fixtures/qsf/README.md). */

// biome-ignore lint/suspicious/noExplicitAny: QSF payloads are loosely shaped JSON
export type Json = any;

export const str = (value: unknown, fallback = ''): string =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : fallback;
export const num = (value: unknown, fallback: number): number => {
  const n = typeof value === 'number' ? value : Number.parseFloat(str(value));
  return Number.isFinite(n) ? n : fallback;
};
export const truthy = (value: unknown): boolean =>
  value === true || value === 'true' || value === 1 || value === '1';

/** Objects keyed by id or plain lists, both as [key, value] pairs (keys of lists count from 1). */
export function entries(value: Json): [string, Json][] {
  if (Array.isArray(value)) return value.map((v, i) => [String(i + 1), v]);
  if (value && typeof value === 'object') return Object.entries(value);
  return [];
}
