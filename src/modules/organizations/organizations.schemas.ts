import { type Static, Type } from 'typebox';
import { Nullable } from '../../http/schema-types.js';
import type { OrganizationRow } from './organizations.store.js';

export const OrganizationSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  baseUrl: Type.String(),
  type: Type.String(),
  status: Type.String(),
  creationDate: Type.String(),
  expirationDate: Nullable(Type.String()),
  targetAudience: Type.Boolean({ description: 'The target-audience product variant (spec 1.7) is enabled.' }),
  stats: Type.Object({ userCount: Type.Integer() }),
});
export type Organization = Static<typeof OrganizationSchema>;

export const OrganizationIdParams = Type.Object({
  organizationId: Type.String({ minLength: 1, maxLength: 100 }),
});

export const UpdateOrganizationBodySchema = Type.Object({
  targetAudience: Type.Optional(Type.Boolean()),
});
export type UpdateOrganizationBody = Static<typeof UpdateOrganizationBodySchema>;

export function toOrganization(row: OrganizationRow, baseUrl: string, userCount: number): Organization {
  return {
    id: row.id,
    name: row.name,
    baseUrl,
    type: row.type,
    status: row.status,
    creationDate: row.created_at,
    expirationDate: row.expiration_date,
    targetAudience: row.target_audience === 1,
    stats: { userCount },
  };
}
