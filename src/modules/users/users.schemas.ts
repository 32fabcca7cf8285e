import { type Static, Type } from 'typebox';
import { idPattern } from '../../http/ids.js';
import { Nullable, StringEnum, Timestamp } from '../../http/schema-types.js';
import { PermissionsSchema, permissionsFor } from './permissions.js';
import type { ResponseCounts, UserRow } from './users.store.js';

export const USER_TYPES = ['UT_BRANDADMIN', 'UT_PARTICIPANT'] as const;
export const ACCOUNT_STATUSES = ['active', 'disabled'] as const;

/** Spec 2.5, every field. */
export const UserRecordSchema = Type.Object({
  id: Type.String(),
  username: Type.String(),
  email: Type.String(),
  firstName: Type.String(),
  lastName: Type.String(),
  userType: Type.String(),
  organizationId: Type.String(),
  divisionId: Nullable(Type.String()),
  language: Type.String(),
  accountStatus: Type.String(),
  unsubscribed: Type.Boolean(),
  accountCreationDate: Type.String(),
  accountExpirationDate: Nullable(Type.String()),
  passwordLastChangedDate: Nullable(Type.String()),
  passwordExpirationDate: Nullable(Type.String()),
  lastLoginDate: Nullable(Type.String()),
  responseCounts: Type.Object({
    auditable: Type.Integer(),
    generated: Type.Integer(),
    deleted: Type.Integer(),
  }),
  permissions: PermissionsSchema,
});
export type UserRecord = Static<typeof UserRecordSchema>;

/** Spec 2.5: the list call returns exactly this subset. */
export const UserSummarySchema = Type.Object({
  id: Type.String(),
  divisionId: Nullable(Type.String()),
  username: Type.String(),
  firstName: Type.String(),
  lastName: Type.String(),
  userType: Type.String(),
  email: Type.String(),
  accountStatus: Type.String(),
});
export type UserSummary = Static<typeof UserSummarySchema>;

export const UserIdParams = Type.Object({ userId: Type.String({ minLength: 1, maxLength: 100 }) });

const Email = Type.String({ format: 'email', maxLength: 254 });
const Language = Type.String({ pattern: '^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8})*$' });

export const CreateUserBodySchema = Type.Object({
  username: Type.String({ minLength: 1, maxLength: 200 }),
  password: Type.Optional(Type.String({ minLength: 8, maxLength: 200 })),
  firstName: Type.String({ maxLength: 200 }),
  lastName: Type.String({ maxLength: 200 }),
  userType: StringEnum(USER_TYPES),
  email: Email,
  language: Type.Optional(Language),
  divisionId: Type.Optional(Nullable(Type.String({ pattern: idPattern('DV') }))),
  accountExpirationDate: Type.Optional(Nullable(Timestamp)),
  timeZone: Type.Optional(Type.String({ maxLength: 64 })),
});
export type CreateUserBody = Static<typeof CreateUserBodySchema>;

export const UpdateUserBodySchema = Type.Object({
  username: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  password: Type.Optional(Type.String({ minLength: 8, maxLength: 200 })),
  firstName: Type.Optional(Type.String({ maxLength: 200 })),
  lastName: Type.Optional(Type.String({ maxLength: 200 })),
  userType: Type.Optional(StringEnum(USER_TYPES)),
  email: Type.Optional(Email),
  language: Type.Optional(Language),
  divisionId: Type.Optional(Nullable(Type.String({ pattern: idPattern('DV') }))),
  accountStatus: Type.Optional(StringEnum(ACCOUNT_STATUSES)),
  accountExpirationDate: Type.Optional(Nullable(Timestamp)),
  passwordExpirationDate: Type.Optional(Nullable(Timestamp)),
  unsubscribed: Type.Optional(Type.Boolean()),
  timeZone: Type.Optional(Nullable(Type.String({ maxLength: 64 }))),
});
export type UpdateUserBody = Static<typeof UpdateUserBodySchema>;

export const ApiTokenResultSchema = Type.Object({ apiToken: Type.String() });

export const WhoAmISchema = Type.Object({
  brandId: Type.String(),
  userId: Type.String(),
  userName: Type.String(),
  accountType: Type.String(),
  firstName: Type.String(),
  lastName: Type.String(),
  email: Type.String(),
  datacenter: Type.String(),
});
export type WhoAmI = Static<typeof WhoAmISchema>;

/** Spec 2.5: the user record, as the API shows it (never the password hash). */
export function toUserRecord(row: UserRow & { responseCounts: ResponseCounts }): UserRecord {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    userType: row.user_type,
    organizationId: row.organization_id,
    divisionId: row.division_id,
    language: row.language,
    accountStatus: row.account_status,
    unsubscribed: row.unsubscribed === 1,
    accountCreationDate: row.created_at,
    accountExpirationDate: row.account_expiration_date,
    passwordLastChangedDate: row.password_last_changed_date,
    passwordExpirationDate: row.password_expiration_date,
    lastLoginDate: row.last_login_date,
    responseCounts: row.responseCounts,
    permissions: permissionsFor(row.user_type),
  };
}

export function toUserSummary(row: UserRow): UserSummary {
  return {
    id: row.id,
    divisionId: row.division_id,
    username: row.username,
    firstName: row.first_name,
    lastName: row.last_name,
    userType: row.user_type,
    email: row.email,
    accountStatus: row.account_status,
  };
}
