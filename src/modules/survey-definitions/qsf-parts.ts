/** Small readers and makers of QSF document parts, shared by the definition edits. */
import type { QsfDocument, QsfElement } from '../surveys/definition/qsf.js';

export type Json = Record<string, unknown>;

/** A survey element as the real platform writes one. */
export function surveyElement(
  document: QsfDocument,
  kind: string,
  primary: string,
  payload: unknown,
): QsfElement {
  return {
    SurveyID: document.SurveyEntry.SurveyID,
    Element: kind,
    PrimaryAttribute: primary,
    SecondaryAttribute: null,
    TertiaryAttribute: null,
    Payload: payload,
  };
}
