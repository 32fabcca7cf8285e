import { type Static, Type } from 'typebox';
import { PERMISSION_GROUPS } from './survey-permissions.js';

/** One group of flags: the known ones named (for the OpenAPI document), others any boolean (ignored). */
const flagsOf = (flags: readonly string[]) =>
  Type.Object(Object.fromEntries(flags.map((flag) => [flag, Type.Optional(Type.Boolean())])), {
    additionalProperties: Type.Boolean(),
  });

const groups = Object.fromEntries(
  Object.entries(PERMISSION_GROUPS).map(([group, flags]) => [group, Type.Optional(flagsOf(flags))]),
);
const unknownGroup = Type.Record(Type.String(), Type.Boolean());

const PermissionGroupsSchema = Type.Object(groups, { additionalProperties: unknownGroup });

export const SharePermissionsSchema = Type.Object(
  { ...groups, SurveyPermissions: Type.Optional(PermissionGroupsSchema) },
  {
    additionalProperties: unknownGroup,
    description:
      'Groups of boolean flags (surveyDefinitionManipulation, surveyManagement, response, result), or the same ' +
      'inside SurveyPermissions. A flag not given is not granted; unknown ones are ignored and named in meta.notice.',
  },
);

export const ShareBodySchema = Type.Object({
  recipientId: Type.String({ minLength: 1, maxLength: 100, description: 'A user (UR_) or group (GR_) id.' }),
  userId: Type.Optional(
    Type.String({ maxLength: 100, description: 'Accepted for compatibility; the caller shares.' }),
  ),
  permissions: SharePermissionsSchema,
});
export type ShareBody = Static<typeof ShareBodySchema>;

const GrantedSchema = Type.Object(
  Object.fromEntries(
    Object.entries(PERMISSION_GROUPS).map(([group, flags]) => [
      group,
      Type.Object(Object.fromEntries(flags.map((flag) => [flag, Type.Boolean()]))),
    ]),
  ),
);

export const CollaborationSchema = Type.Object({
  recipientId: Type.String(),
  recipientType: Type.Union([Type.Literal('user'), Type.Literal('group')]),
  permissions: GrantedSchema,
  sharedBy: Type.String(),
  creationDate: Type.String(),
  lastModified: Type.String(),
});

export const CollaborationParams = Type.Object({
  surveyId: Type.String({ minLength: 1, maxLength: 100 }),
  recipientId: Type.String({ minLength: 1, maxLength: 100 }),
});
