import { type Static, Type } from 'typebox';
import { idPattern } from '../../http/ids.js';
import { Nullable } from '../../http/schema-types.js';
import type { GroupRow } from './groups.store.js';

/** COMPAT.md "Users and the rest": `{id, type, divisionId, name, autoMembership, creationDate, creatorId}`. */
export const GroupSchema = Type.Object({
  id: Type.String(),
  type: Type.String(),
  divisionId: Nullable(Type.String()),
  name: Type.String(),
  autoMembership: Type.Boolean(),
  creationDate: Type.String(),
  creatorId: Type.String(),
});
export type Group = Static<typeof GroupSchema>;

export const GroupWithMembersSchema = Type.Object({
  ...GroupSchema.properties,
  members: Type.Array(Type.Object({ userId: Type.String() })),
});

export const GroupIdParams = Type.Object({ groupId: Type.String({ minLength: 1, maxLength: 100 }) });
export const GroupMemberParams = Type.Object({
  groupId: Type.String({ minLength: 1, maxLength: 100 }),
  userId: Type.String({ minLength: 1, maxLength: 100 }),
});

export const CreateGroupBodySchema = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200 }),
  type: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  divisionId: Type.Optional(Nullable(Type.String({ pattern: idPattern('DV') }))),
  autoMembership: Type.Optional(Type.Boolean()),
});
export type CreateGroupBody = Static<typeof CreateGroupBodySchema>;

export const MemberBodySchema = Type.Object({ userId: Type.String({ minLength: 1, maxLength: 100 }) });
export const MemberQuerySchema = Type.Object({
  userId: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
});

export function toGroup(row: GroupRow): Group {
  return {
    id: row.id,
    type: row.type,
    divisionId: row.division_id,
    name: row.name,
    autoMembership: row.auto_membership === 1,
    creationDate: row.created_at,
    creatorId: row.creator_id,
  };
}
