import { type Static, Type } from 'typebox';
import { fromJson } from '../../db/json.js';
import { idPattern } from '../../http/ids.js';
import type { DivisionRow } from './divisions.store.js';

export const DivisionSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  status: Type.String(),
  divisionAdmins: Type.Array(Type.String()),
  permissions: Type.Record(Type.String(), Type.Unknown()),
  creationDate: Type.String(),
});
export type Division = Static<typeof DivisionSchema>;

export const DivisionIdParams = Type.Object({ divisionId: Type.String({ minLength: 1, maxLength: 100 }) });

export const CreateDivisionBodySchema = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200 }),
  divisionAdmins: Type.Optional(Type.Array(Type.String({ pattern: idPattern('UR') }), { maxItems: 100 })),
  permissions: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
});
export type CreateDivisionBody = Static<typeof CreateDivisionBodySchema>;

export function toDivision(row: DivisionRow): Division {
  return {
    id: row.id,
    name: row.name,
    status: row.status,
    divisionAdmins: fromJson<string[]>(row.division_admins),
    permissions: fromJson<Record<string, unknown>>(row.permissions),
    creationDate: row.created_at,
  };
}
