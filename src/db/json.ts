/** JSON text columns: the same on both engines. */
export function toJson(value: unknown): string {
  return JSON.stringify(value);
}

export function fromJson<T>(text: string): T {
  return JSON.parse(text) as T;
}

/** Integer 0/1 columns (better-sqlite3 cannot bind booleans). */
export const flag = (value: boolean): number => (value ? 1 : 0);
