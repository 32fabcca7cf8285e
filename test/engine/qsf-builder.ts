/**
 * Small QSF documents for the engine's tests and benchmark, written the way the real platform exports
 * them (SurveyEntry, SurveyElements with BL, FL, SO, SQ, QO).
 */
type Json = Record<string, unknown>;

const SURVEY_ID = 'SV_builder0000000';

export function element(kind: string, payload: unknown, primary = kind): Json {
  return {
    SurveyID: SURVEY_ID,
    Element: kind,
    PrimaryAttribute: primary,
    SecondaryAttribute: null,
    TertiaryAttribute: null,
    Payload: payload,
  };
}

export interface QuestionSpec {
  text?: string;
  type: string;
  selector: string;
  sub?: string;
  choices?: (string | Json)[];
  answers?: string[];
  force?: 'ON' | 'OFF' | 'RequestResponse';
  extra?: Json;
}

const keyed = (items: (string | Json)[]) =>
  Object.fromEntries(items.map((c, i) => [String(i + 1), typeof c === 'string' ? { Display: c } : c]));
const order = (items: unknown[]) => items.map((_, i) => String(i + 1));

export function question(id: string, spec: QuestionSpec): Json {
  const payload: Json = {
    QuestionID: id,
    DataExportTag: id.replace('QID', 'Q'),
    QuestionText: spec.text ?? `Question ${id}`,
    QuestionType: spec.type,
    Selector: spec.selector,
    Configuration: { QuestionDescriptionOption: 'UseText' },
    Validation: { Settings: { ForceResponse: spec.force ?? 'OFF', Type: 'None' } },
    ...(spec.sub ? { SubSelector: spec.sub } : {}),
    ...(spec.choices ? { Choices: keyed(spec.choices), ChoiceOrder: order(spec.choices) } : {}),
    ...(spec.answers ? { Answers: keyed(spec.answers), AnswerOrder: order(spec.answers) } : {}),
    ...spec.extra,
  };
  return element('SQ', payload, id);
}

/** `Question` elements, with `'|'` for a page break. */
export function block(id: string, items: string[], options?: Json): Json {
  return {
    Type: 'Standard',
    ID: id,
    Description: id,
    BlockElements: items.map((q) =>
      q === '|' ? { Type: 'Page Break' } : { Type: 'Question', QuestionID: q },
    ),
    ...(options ? { Options: options } : {}),
  };
}

export const blockFlow = (id: string, flowId: string) => ({ Type: 'Block', ID: id, FlowID: flowId });

/** A BooleanExpression with one condition. */
export function condition(expression: Json): Json {
  return { 0: { 0: { Type: 'Expression', ...expression }, Type: 'If' }, Type: 'BooleanExpression' };
}

export const selected = (qid: string, choice: string, operator = 'Selected') =>
  condition({
    LogicType: 'Question',
    QuestionID: qid,
    LeftOperand: `q://${qid}/SelectableChoice/${choice}`,
    Operator: operator,
  });

export function qsf(parts: {
  blocks: Json[];
  flow: Json[];
  questions: Json[];
  options?: Json;
  quotas?: Json[];
}) {
  return {
    SurveyEntry: { SurveyID: SURVEY_ID, SurveyName: 'Built survey', SurveyLanguage: 'EN' },
    SurveyElements: [
      element('BL', parts.blocks),
      element('FL', { Type: 'Root', FlowID: 'FL_1', Flow: parts.flow }),
      element('SO', { BackButton: 'true', ProgressBarDisplay: 'None', ...parts.options }),
      ...parts.questions,
      ...(parts.quotas ?? []).map((q) => element('QO', q, String(q.ID))),
    ],
  };
}
