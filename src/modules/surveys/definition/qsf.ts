/**
 * The normalised QSF document: the canonical survey definition Fieldwork stores and the engine runs.
 * It keeps the real platform's shape (`SurveyEntry`, `SurveyElements` with `Element` kinds BL, FL, SQ,
 * SO, QO, …) so a file read back is still a QSF file, but every field the engine and the presenter read is
 * made regular by qsf-import.ts: choices are objects keyed by choice id, orders are string arrays, flags
 * are booleans, missing fields are null or empty. Element kinds Fieldwork does not know are kept as they came.
 */
export interface QsfDocument {
  SurveyEntry: QsfSurveyEntry;
  SurveyElements: QsfElement[];
}

export interface QsfSurveyEntry {
  SurveyID: string;
  SurveyName: string;
  SurveyLanguage: string;
  [field: string]: unknown;
}

export interface QsfElement {
  SurveyID: string;
  Element: string;
  PrimaryAttribute: string | null;
  SecondaryAttribute: string | null;
  TertiaryAttribute: string | null;
  Payload: unknown;
}

export interface QsfChoice {
  Display: string;
  /** The choice takes typed text beside it (`QID4_5_TEXT`). */
  TextEntry: boolean;
  /** Choosing it clears the others (multi-answer "None of these"). */
  ExclusiveAnswer: boolean;
  [field: string]: unknown;
}

export type QsfChoices = Record<string, QsfChoice>;

/** The payload of an SQ element, regularised. */
export interface QsfQuestion {
  QuestionID: string;
  DataExportTag: string;
  QuestionType: string;
  Selector: string;
  SubSelector: string | null;
  QuestionText: string;
  QuestionDescription: string;
  Choices: QsfChoices;
  ChoiceOrder: string[];
  /** Matrix columns (scale points); empty for other types. */
  Answers: QsfChoices;
  AnswerOrder: string[];
  /** choice id (answer id for a matrix) → recode value written to the response. */
  RecodeValues: Record<string, string>;
  Validation: { Settings: Record<string, unknown> } & Record<string, unknown>;
  DisplayLogic: unknown;
  Configuration: Record<string, unknown>;
  /** Side-by-side columns, keyed "1", "2", …, each a regularised matrix question. */
  AdditionalQuestions?: Record<string, QsfQuestion>;
  [field: string]: unknown;
}

export interface QsfBlockElement {
  Type: string;
  QuestionID?: string;
  [field: string]: unknown;
}

export interface QsfBlock {
  ID: string;
  Type: string;
  Description: string;
  BlockElements: QsfBlockElement[];
  [field: string]: unknown;
}

/** One node of the survey flow: Block/Standard (ID is a block id), Branch, BlockRandomizer, Group, EmbeddedData, EndSurvey, … */
export interface QsfFlowNode {
  Type: string;
  FlowID: string;
  ID?: string;
  Flow?: QsfFlowNode[];
  EmbeddedData?: QsfEmbeddedField[];
  [field: string]: unknown;
}

export interface QsfEmbeddedField {
  Field: string;
  Type: string;
  Value?: string;
  Description?: string;
  [field: string]: unknown;
}

export interface QsfQuota {
  ID: string;
  Name: string;
  Occurrences: number;
  Logic: unknown;
  QuotaAction: string;
  [field: string]: unknown;
}

/** Every SQ payload of the document, in document order. */
export function questionsOf(doc: QsfDocument): QsfQuestion[] {
  return doc.SurveyElements.filter((e) => e.Element === 'SQ').map((e) => e.Payload as QsfQuestion);
}

export function blocksOf(doc: QsfDocument): QsfBlock[] {
  const element = doc.SurveyElements.find((e) => e.Element === 'BL');
  return (element?.Payload as QsfBlock[] | undefined) ?? [];
}

export function flowOf(doc: QsfDocument): QsfFlowNode[] {
  const element = doc.SurveyElements.find((e) => e.Element === 'FL');
  return (element?.Payload as { Flow?: QsfFlowNode[] } | undefined)?.Flow ?? [];
}

export function optionsOf(doc: QsfDocument): Record<string, unknown> {
  const element = doc.SurveyElements.find((e) => e.Element === 'SO');
  return (element?.Payload as Record<string, unknown> | undefined) ?? {};
}

export function quotasOf(doc: QsfDocument): QsfQuota[] {
  return doc.SurveyElements.filter((e) => e.Element === 'QO').map((e) => e.Payload as QsfQuota);
}

/** Embedded data fields set in the flow (at any depth), in flow order, first definition of a name wins. */
export function embeddedFieldsOf(doc: QsfDocument): QsfEmbeddedField[] {
  const seen = new Map<string, QsfEmbeddedField>();
  const visit = (nodes: QsfFlowNode[]) => {
    for (const node of nodes) {
      for (const field of node.EmbeddedData ?? []) if (!seen.has(field.Field)) seen.set(field.Field, field);
      if (node.Flow) visit(node.Flow);
    }
  };
  visit(flowOf(doc));
  return [...seen.values()];
}

/** The embedded field a screened-out response carries (`Screened`), as the real platform sets it. */
export const TERMINATE_FLAG = 'Q_TerminateFlag';

/** Whether an EndSurvey element of the flow screens out (`ResponseFlag: Screened`): exports then add the flag. */
export function hasScreenOut(doc: QsfDocument): boolean {
  const visit = (nodes: QsfFlowNode[]): boolean =>
    nodes.some((node) => {
      const options = (node as { Options?: { ResponseFlag?: unknown } }).Options;
      return /^screen/i.test(String(options?.ResponseFlag ?? '')) || (node.Flow ? visit(node.Flow) : false);
    });
  return visit(flowOf(doc));
}

/** The recode written for a choice (MC) or a scale point (matrix): RecodeValues, else the id itself. */
export function recodeOf(question: QsfQuestion, id: string): string {
  return question.RecodeValues[id] ?? id;
}
