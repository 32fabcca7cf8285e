import { ApiError } from '../../http/errors.js';
import { isObject } from './definition/is-object.js';
import type { FlowNodeRecord } from './surveys.presenter.js';

type Json = Record<string, unknown>;

function objectAt(value: unknown, field: string): Json {
  if (value === undefined || value === null) return {};
  if (!isObject(value)) throw ApiError.invalid(field, 'must be an object');
  return value;
}

function arrayAt(value: unknown, field: string): unknown[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw ApiError.invalid(field, 'must be an array');
  return value;
}

function stringAt(value: unknown, field: string, fallback = ''): string {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'string') throw ApiError.invalid(field, 'must be a string');
  return value;
}

/**
 * A JSON body in the shape `GET /v3/surveys/{id}` answers → a QSF document (then read by importQsf like
 * an uploaded file). The inverse of surveys.presenter.ts: matrix rows come from `subQuestions` and scale
 * points from `choices`; side-by-side columns from `columns`; blocks, flow, embedded data, quotas and
 * options map back to BL, FL, QO and SO elements. Fields the record has that a survey does not need
 * (ids, dates, counts, exportColumnMap, valueKeys) are ignored.
 */
export function qsfFromV3Record(body: Json, name: string): Json {
  const questions = objectAt(body.questions, 'questions');
  const elements: Json[] = [];
  for (const [qid, raw] of Object.entries(questions)) {
    elements.push({
      Element: 'SQ',
      PrimaryAttribute: qid,
      Payload: questionPayload(qid, raw, `questions.${qid}`),
    });
  }
  const blocks = objectAt(body.blocks, 'blocks');
  if (Object.keys(blocks).length > 0) {
    elements.push({
      Element: 'BL',
      PrimaryAttribute: 'Survey Blocks',
      Payload: Object.entries(blocks).map(([id, block]) => blockPayload(id, block, `blocks.${id}`)),
    });
  }
  const flow = arrayAt(body.flow, 'flow').map((node, i) => flowNode(node, `flow[${i}]`));
  const embedded = arrayAt(body.embeddedData, 'embeddedData');
  if (embedded.length > 0 && !flow.some((n) => n.Type === 'EmbeddedData')) {
    flow.unshift({
      Type: 'EmbeddedData',
      FlowID: 'FL_ed',
      EmbeddedData: embedded.map(embeddedField('embeddedData')),
    });
  }
  if (flow.length > 0) {
    elements.push({
      Element: 'FL',
      PrimaryAttribute: 'Survey Flow',
      Payload: { Type: 'Root', FlowID: 'FL_1', Flow: flow },
    });
  }
  for (const [i, quota] of arrayAt(body.quotas, 'quotas').entries())
    elements.push(quotaElement(quota, `quotas[${i}]`));
  if (body.options !== undefined) {
    elements.push({
      Element: 'SO',
      PrimaryAttribute: 'Survey Options',
      Payload: objectAt(body.options, 'options'),
    });
  }
  return {
    SurveyEntry: { SurveyName: name, SurveyLanguage: stringAt(body.language, 'language', 'EN') },
    SurveyElements: elements,
  };
}

function choicesFrom(value: unknown, field: string) {
  const choices: Json = {};
  const recodes: Json = {};
  for (const [id, raw] of Object.entries(objectAt(value, field))) {
    const choice = objectAt(raw, `${field}.${id}`);
    choices[id] = {
      Display: stringAt(choice.choiceText ?? choice.description, `${field}.${id}.choiceText`),
      ...(choice.textEntry === true ? { TextEntry: 'true' } : {}),
      ...(choice.exclusive === true ? { ExclusiveAnswer: true } : {}),
    };
    if (choice.recode !== undefined && String(choice.recode) !== id) recodes[id] = String(choice.recode);
  }
  return { choices, recodes };
}

function questionPayload(qid: string, raw: unknown, field: string): Json {
  const question = objectAt(raw, field);
  const type = objectAt(question.questionType, `${field}.questionType`);
  const qType = stringAt(type.type, `${field}.questionType.type`);
  if (qType === '') throw ApiError.invalid(`${field}.questionType.type`, 'is required');
  const matrix = qType === 'Matrix';
  const main = choicesFrom(question.choices, `${field}.choices`);
  const rows = choicesFrom(question.subQuestions, `${field}.subQuestions`);
  const validation = objectAt(question.validation, `${field}.validation`);
  const settings = isObject(validation.settings)
    ? validation.settings
    : { ForceResponse: validation.doesForceResponse === true ? 'ON' : 'OFF', Type: 'None' };
  const payload: Json = {
    QuestionID: qid,
    DataExportTag: stringAt(question.questionName, `${field}.questionName`, qid),
    QuestionType: qType,
    Selector: stringAt(type.selector, `${field}.questionType.selector`),
    SubSelector: type.subSelector ?? null,
    QuestionText: stringAt(question.questionText, `${field}.questionText`),
    QuestionDescription: stringAt(question.questionDescription, `${field}.questionDescription`),
    Choices: matrix || qType === 'SBS' ? rows.choices : main.choices,
    ChoiceOrder: arrayAt(matrix || qType === 'SBS' ? question.subQuestionOrder : question.choiceOrder, field),
    Answers: matrix ? main.choices : {},
    AnswerOrder: matrix ? arrayAt(question.choiceOrder, `${field}.choiceOrder`) : [],
    RecodeValues: main.recodes,
    Validation: { Settings: settings },
    DisplayLogic: question.displayLogic ?? null,
    Configuration: objectAt(question.configuration, `${field}.configuration`),
  };
  if (qType === 'PGR') payload.Groups = arrayAt(question.groups, `${field}.groups`);
  if (qType === 'SBS') {
    const columns: Json = {};
    for (const [column, rawColumn] of Object.entries(objectAt(question.columns, `${field}.columns`))) {
      const sub = objectAt(rawColumn, `${field}.columns.${column}`);
      const subType = objectAt(sub.questionType, `${field}.columns.${column}.questionType`);
      const answers = choicesFrom(sub.choices, `${field}.columns.${column}.choices`);
      columns[column] = {
        QuestionText: stringAt(sub.questionText, `${field}.columns.${column}.questionText`),
        QuestionType: stringAt(subType.type, `${field}.columns.${column}.questionType.type`, 'Matrix'),
        Selector: stringAt(subType.selector, `${field}.columns.${column}.questionType.selector`, 'Likert'),
        SubSelector: subType.subSelector ?? null,
        Answers: answers.choices,
        AnswerOrder: arrayAt(sub.choiceOrder, `${field}.columns.${column}.choiceOrder`),
        RecodeValues: answers.recodes,
      };
    }
    payload.AdditionalQuestions = columns;
  }
  return payload;
}

function blockPayload(id: string, raw: unknown, field: string): Json {
  const block = objectAt(raw, field);
  return {
    ID: id,
    Type: stringAt(block.type, `${field}.type`, 'Standard'),
    Description: stringAt(block.description, `${field}.description`),
    BlockElements: arrayAt(block.elements, `${field}.elements`).map((e, i) => {
      const element = objectAt(e, `${field}.elements[${i}]`);
      const type = stringAt(element.type, `${field}.elements[${i}].type`, 'Question');
      if (type === 'Question')
        return {
          Type: 'Question',
          QuestionID: stringAt(element.questionId, `${field}.elements[${i}].questionId`),
        };
      return { Type: type === 'PageBreak' ? 'Page Break' : type };
    }),
  };
}

const embeddedField = (field: string) => (raw: unknown, i: number) => {
  const f = objectAt(raw, `${field}[${i}]`);
  const value = f.value ?? f.defaultValue;
  return {
    Field: stringAt(f.name, `${field}[${i}].name`),
    Type: stringAt(f.type, `${field}[${i}].type`, 'Custom'),
    ...(value === undefined || value === null ? {} : { Value: String(value) }),
  };
};

function flowNode(raw: unknown, field: string): Json {
  const node = objectAt(raw, field) as Partial<FlowNodeRecord> & Json;
  const type = stringAt(node.type, `${field}.type`);
  const out: Json = {
    ...objectAt(node.details, `${field}.details`),
    Type: type,
    FlowID: node.flowId ?? node.id,
  };
  if (type === 'Block' || type === 'Standard') out.ID = stringAt(node.id, `${field}.id`);
  if (node.flow !== undefined)
    out.Flow = arrayAt(node.flow, `${field}.flow`).map((n, i) => flowNode(n, `${field}.flow[${i}]`));
  if (node.embeddedData !== undefined)
    out.EmbeddedData = arrayAt(node.embeddedData, `${field}.embeddedData`).map(
      embeddedField(`${field}.embeddedData`),
    );
  return out;
}

function quotaElement(raw: unknown, field: string): Json {
  const quota = objectAt(raw, field);
  const id = stringAt(quota.id, `${field}.id`);
  if (typeof quota.limit !== 'number' || quota.limit < 0)
    throw ApiError.invalid(`${field}.limit`, 'must be a non-negative number');
  return {
    Element: 'QO',
    PrimaryAttribute: id,
    Payload: {
      ID: id,
      Name: stringAt(quota.name, `${field}.name`, id),
      Occurrences: quota.limit,
      Logic: quota.condition ?? null,
      QuotaAction: stringAt(quota.action, `${field}.action`, 'EndCurrentSurvey'),
    },
  };
}
