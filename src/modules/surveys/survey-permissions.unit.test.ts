import { describe, expect, it } from 'vitest';
import { grants, readPermissions, unionOf } from './survey-permissions.js';

describe('survey permissions', () => {
  it('grants only the flags given true; everything else is false', () => {
    const { permissions, ignored } = readPermissions({
      result: { viewSurveyResults: true, downloadSurveyResults: false },
    });
    expect(ignored).toEqual([]);
    expect(grants(permissions, 'result.viewSurveyResults')).toBe(true);
    expect(grants(permissions, 'result.downloadSurveyResults')).toBe(false);
    expect(grants(permissions, 'surveyManagement.editSurveys')).toBe(false);
    expect(grants(permissions, 'see')).toBe(true);
    expect(Object.keys(permissions.surveyDefinitionManipulation)).toHaveLength(12);
  });

  it('unwraps SurveyPermissions and names unknown groups and flags', () => {
    const { permissions, ignored } = readPermissions({
      SurveyPermissions: { response: { editSurveyResponses: true, teleport: true }, admin: {} },
    });
    expect(grants(permissions, 'response.editSurveyResponses')).toBe(true);
    expect(ignored).toEqual(['permissions.response.teleport', 'permissions.admin']);
  });

  it('a user has the union of their own share and their groups’', () => {
    const own = readPermissions({ result: { viewSurveyResults: true } }).permissions;
    const group = readPermissions({
      surveyManagement: { editSurveys: true },
      result: { viewSurveyResults: false },
    }).permissions;
    const both = unionOf([own, group]);
    expect(grants(both, 'result.viewSurveyResults')).toBe(true);
    expect(grants(both, 'surveyManagement.editSurveys')).toBe(true);
    expect(grants(both, 'surveyManagement.deleteSurveys')).toBe(false);
  });
});
