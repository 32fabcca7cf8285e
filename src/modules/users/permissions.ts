import { type TSchema, Type } from 'typebox';
import type { UserType } from '../../http/principal.js';
import { StringEnum } from '../../http/schema-types.js';

/**
 * Spec 2.5 shows one path of the permissions tree (siteIntercept.accountPermissions.administerSiteIntercept
 * with calculatedState and state). Fieldwork's tree lists what its own authorisation decides, by user type:
 * `state: "userType"` says the value is inherited from the user type, `calculatedState` what it comes to.
 */
const PERMISSION_TREE: Record<string, Record<string, Record<string, readonly UserType[]>>> = {
  controlPanel: {
    accountPermissions: {
      accessApi: ['UT_BRANDADMIN', 'UT_PARTICIPANT'],
      administerUsers: ['UT_BRANDADMIN'],
      administerDivisions: ['UT_BRANDADMIN'],
      administerGroups: ['UT_BRANDADMIN'],
      manageEventSubscriptions: ['UT_BRANDADMIN'],
    },
  },
  surveyPermissions: {
    accountPermissions: {
      createSurveys: ['UT_BRANDADMIN'],
      activateSurveys: ['UT_BRANDADMIN'],
      distributeSurveys: ['UT_BRANDADMIN'],
      viewSurveyResults: ['UT_BRANDADMIN'],
    },
  },
  contactPermissions: {
    accountPermissions: {
      useXmDirectory: ['UT_BRANDADMIN'],
      manageMailingLists: ['UT_BRANDADMIN'],
    },
  },
  siteIntercept: {
    accountPermissions: {
      administerSiteIntercept: [],
    },
  },
};

export interface PermissionState {
  calculatedState: 'on' | 'off';
  state: 'userType';
}

const PermissionStateSchema = Type.Object({
  calculatedState: StringEnum(['on', 'off']),
  state: Type.Literal('userType'),
});

const objectOf = <V>(entries: Record<string, V>, schemaOf: (value: V) => TSchema) =>
  Type.Object(Object.fromEntries(Object.entries(entries).map(([key, value]) => [key, schemaOf(value)])));

/**
 * The tree's exact shape, from the same table: the serializer then writes it with compiled code (the
 * open-ended `additionalProperties` it replaces went through JSON.stringify, most of the record's cost).
 */
export const PermissionsSchema = Type.Unsafe<PermissionsTree>(
  objectOf(PERMISSION_TREE, (groups) =>
    objectOf(groups, (permissions) => objectOf(permissions, () => PermissionStateSchema)),
  ),
);

export type PermissionsTree = Record<string, Record<string, Record<string, PermissionState>>>;

const treeByUserType = new Map<string, PermissionsTree>();

/** The tree depends on the user type alone, so it is built once per type. */
export function permissionsFor(userType: string): PermissionsTree {
  let tree = treeByUserType.get(userType);
  if (!tree) {
    tree = buildTree(userType);
    treeByUserType.set(userType, tree);
  }
  return tree;
}

function buildTree(userType: string): PermissionsTree {
  const tree: PermissionsTree = {};
  for (const [family, groups] of Object.entries(PERMISSION_TREE)) {
    const familyOut: Record<string, Record<string, PermissionState>> = {};
    for (const [group, permissions] of Object.entries(groups)) {
      const groupOut: Record<string, PermissionState> = {};
      for (const [name, allowed] of Object.entries(permissions)) {
        groupOut[name] = {
          calculatedState: allowed.includes(userType as UserType) ? 'on' : 'off',
          state: 'userType',
        };
      }
      familyOut[group] = groupOut;
    }
    tree[family] = familyOut;
  }
  return tree;
}
