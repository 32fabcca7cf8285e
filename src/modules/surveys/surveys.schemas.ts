import { type Static, Type } from 'typebox';
import { Nullable } from '../../http/schema-types.js';

const AnyObject = Type.Record(Type.String(), Type.Unknown());

export const SurveyIdParams = Type.Object({ surveyId: Type.String({ minLength: 1, maxLength: 100 }) });

/** COMPAT.md "Surveys": the list element. */
export const SurveyListElementSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  ownerId: Type.String(),
  lastModified: Type.String(),
  creationDate: Type.String(),
  isActive: Type.Boolean(),
});

const ExpirationSchema = Type.Object({
  startDate: Nullable(Type.String({ description: 'ISO 8601 UTC; null: open from the start.' })),
  endDate: Nullable(Type.String({ description: 'ISO 8601 UTC; null: never expires.' })),
});

const QuestionSchema = Type.Object({
  questionType: Type.Object({
    type: Type.String(),
    selector: Type.String(),
    subSelector: Nullable(Type.String()),
  }),
  questionText: Type.String(),
  questionDescription: Type.String(),
  questionName: Type.String({ description: 'The DataExportTag.' }),
  validation: Type.Object({
    doesForceResponse: Type.Boolean(),
    doesRequestResponse: Type.Boolean(),
    settings: AnyObject,
  }),
  choices: Type.Record(Type.String(), AnyObject, { description: 'MC choices; a matrix’s scale points.' }),
  choiceOrder: Type.Array(Type.String()),
  subQuestions: Type.Optional(Type.Record(Type.String(), AnyObject, { description: 'Matrix rows.' })),
  subQuestionOrder: Type.Optional(Type.Array(Type.String())),
  groups: Type.Optional(
    Type.Array(Type.String(), { description: 'Pick, group and rank: the groups, in order.' }),
  ),
  columns: Type.Optional(Type.Record(Type.String(), AnyObject, { description: 'Side-by-side columns.' })),
  displayLogic: Type.Unknown(),
  configuration: AnyObject,
  supported: Type.Boolean({ description: 'Whether the survey-taking engine runs this question type.' }),
  valueKeys: Type.Array(Type.String(), { description: 'The response value keys the question produces.' }),
});

const FlowNodeSchema = Type.Object({
  type: Type.String(),
  id: Type.String(),
  flowId: Type.String(),
  flow: Type.Optional(Type.Array(Type.Unknown())),
  embeddedData: Type.Optional(Type.Array(Type.Unknown())),
  details: Type.Optional(AnyObject),
});

/** COMPAT.md "Surveys": the get record. */
export const SurveySchema = Type.Object({
  ...SurveyListElementSchema.properties,
  organizationId: Type.String(),
  lastModifiedDate: Type.String(),
  expiration: ExpirationSchema,
  questions: Type.Record(Type.String(), QuestionSchema),
  exportColumnMap: Type.Record(Type.String(), Type.Record(Type.String(), Type.String())),
  blocks: Type.Record(Type.String(), AnyObject),
  flow: Type.Array(FlowNodeSchema),
  embeddedData: Type.Array(
    Type.Object({ name: Type.String(), type: Type.String(), defaultValue: Nullable(Type.String()) }),
  ),
  comments: AnyObject,
  loopAndMerge: AnyObject,
  responseCounts: Type.Object({
    auditable: Type.Integer(),
    generated: Type.Integer(),
    deleted: Type.Integer(),
  }),
  quotas: Type.Array(
    Type.Object({
      id: Type.String(),
      name: Type.String(),
      limit: Type.Integer(),
      condition: Type.Unknown(),
      action: Type.String(),
    }),
  ),
  options: AnyObject,
  language: Type.String(),
});

/**
 * `POST /v3/surveys`: multipart `file` (a QSF file) and `name`; or JSON, either `{name, file: <QSF object
 * or text>}` or a record in the shape `GET /v3/surveys/{id}` answers (questions, blocks, flow, …).
 */
export const CreateSurveyBodySchema = Type.Object({
  name: Type.Optional(Type.String({ maxLength: 500, description: 'Defaults to the file’s SurveyName.' })),
  file: Type.Optional(Type.Unknown({ description: 'The QSF file (multipart upload, or JSON object/text).' })),
  ownerId: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  isActive: Type.Optional(Type.Boolean({ description: 'Default false.' })),
  expiration: Type.Optional(Type.Partial(ExpirationSchema)),
  language: Type.Optional(Type.String()),
  questions: Type.Optional(AnyObject),
  blocks: Type.Optional(AnyObject),
  flow: Type.Optional(Type.Array(Type.Unknown())),
  embeddedData: Type.Optional(Type.Array(Type.Unknown())),
  quotas: Type.Optional(Type.Array(Type.Unknown())),
  options: Type.Optional(AnyObject),
});
export type CreateSurveyBody = Static<typeof CreateSurveyBodySchema>;

/** Spec 9.5 / COMPAT.md: any of `{name, isActive, expiration: {startDate, endDate}, ownerId}`. */
export const UpdateSurveyBodySchema = Type.Object({
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
  isActive: Type.Optional(Type.Boolean()),
  expiration: Type.Optional(Type.Partial(ExpirationSchema)),
  ownerId: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
});

export const QuotaSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  condition: Type.Unknown({
    description: 'The QSF quota Logic (BooleanExpression); null counts every response.',
  }),
  limit: Type.Integer(),
  count: Type.Integer({ description: 'Responses counted so far.' }),
  isFull: Type.Boolean(),
  action: Type.String(),
});
