import { Type } from 'typebox';
import type { DirectoryRow } from './directories.store.js';

/** COMPAT.md "Mailing lists and contacts": `{directoryId, name, contactCount, isDefault}`. */
export const DirectorySchema = Type.Object({
  directoryId: Type.String(),
  name: Type.String(),
  contactCount: Type.Integer(),
  isDefault: Type.Boolean(),
});

export function toDirectory(row: DirectoryRow, contactCount: number) {
  return { directoryId: row.id, name: row.name, contactCount, isDefault: row.is_default === 1 };
}
