import { Type } from 'typebox';
import { Nullable, StringEnum } from '../../http/schema-types.js';

/** Any JSON object (a question, a block, a flow element, options): QSF parts pass through as they are. */
export const AnyObject = Type.Record(Type.String(), Type.Unknown());

const Id = (description: string) => Type.String({ minLength: 1, maxLength: 100, description });
export const SurveyParams = Type.Object({ surveyId: Id('SV_…') });
export const QuestionParams = Type.Object({ surveyId: Id('SV_…'), questionId: Id('QID<n>') });
export const BlockParams = Type.Object({ surveyId: Id('SV_…'), blockId: Id('BL_…') });
export const FlowParams = Type.Object({ surveyId: Id('SV_…'), flowId: Id('FL_<n>') });
export const VersionParams = Type.Object({ surveyId: Id('SV_…'), versionId: Id('A version id') });

export const FormatQuery = Type.Object({
  format: Type.Optional(StringEnum(['json', 'qsf'], { description: 'qsf: the definition as a QSF file.' })),
});
export const BlockQuery = Type.Object({
  blockId: Type.Optional(
    Type.String({ maxLength: 100, description: 'The block to add to; default the default block.' }),
  ),
});

export const CreateDefinitionBodySchema = Type.Object({
  SurveyName: Type.String({ minLength: 1, maxLength: 500 }),
  Language: Type.Optional(Type.String({ minLength: 1, maxLength: 20, description: 'Default EN.' })),
  ProjectCategory: Type.Optional(StringEnum(['CORE'], { description: 'Only CORE (a survey project).' })),
});
export const CreatedDefinitionSchema = Type.Object({
  SurveyID: Type.String(),
  DefaultBlockID: Type.String(),
});

/** A question as the QSF writes one; other fields (Choices, Validation, DisplayLogic, …) are kept as sent. */
export const QuestionBodySchema = Type.Object({
  QuestionID: Type.Optional(
    Type.String({ description: 'POST: kept when free (QID<n>); else the next QID.' }),
  ),
  QuestionText: Type.String(),
  QuestionType: Type.String({ minLength: 1, description: 'MC, TE, Matrix, Slider, RO, DB, …' }),
  Selector: Type.String({ minLength: 1, description: 'SAVR, MAVR, SL, Likert, …' }),
  SubSelector: Type.Optional(Type.String()),
  DataExportTag: Type.Optional(Type.String({ maxLength: 200 })),
  Choices: Type.Optional(Type.Unknown()),
  ChoiceOrder: Type.Optional(Type.Array(Type.Unknown())),
  Validation: Type.Optional(AnyObject),
  DisplayLogic: Type.Optional(Type.Unknown()),
  Configuration: Type.Optional(AnyObject),
});
export const QuestionCreatedSchema = Type.Object({ QuestionID: Type.String() });

export const BlockBodySchema = Type.Object({
  Type: Type.Optional(Type.String()),
  Description: Type.Optional(Type.String({ maxLength: 500 })),
  BlockElements: Type.Optional(Type.Array(AnyObject)),
  Options: Type.Optional(AnyObject),
});
export const BlockCreatedSchema = Type.Object({ BlockID: Type.String(), FlowID: Type.String() });

export const FlowBodySchema = Type.Object({
  Type: Type.Optional(Type.String()),
  FlowID: Type.Optional(Type.String()),
  Flow: Type.Array(AnyObject),
  Properties: Type.Optional(AnyObject),
});
export const FlowElementBodySchema = Type.Union([AnyObject, Type.Array(AnyObject)]);

export const EmbeddedDataBodySchema = Type.Object({
  embeddedDataFields: Type.Array(
    Type.Object({
      key: Type.String({ minLength: 1, maxLength: 200 }),
      type: Type.Optional(Type.String({ description: 'text (default), number, date, multiValueText.' })),
      value: Type.Optional(
        Type.String({ description: 'A set value; none: taken from the link or contact.' }),
      ),
    }),
    { minItems: 1, maxItems: 2000 },
  ),
});

export const QuotaBodySchema = Type.Object({
  Name: Type.String({ minLength: 1, maxLength: 500 }),
  Occurrences: Type.Integer({ minimum: 0 }),
  Logic: Type.Optional(Nullable(AnyObject)),
  QuotaAction: Type.Optional(Type.String()),
});
export const QuotaCreatedSchema = Type.Object({ QuotaID: Type.String() });

export const MetadataBodySchema = Type.Object({
  SurveyName: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
  SurveyDescription: Type.Optional(Nullable(Type.String({ maxLength: 5000 }))),
  SurveyStatus: Type.Optional(StringEnum(['Active', 'Inactive'])),
  SurveyStartDate: Type.Optional(
    Nullable(Type.String({ description: 'YYYY-MM-DD HH:MM:SS (UTC) or ISO 8601.' })),
  ),
  SurveyExpirationDate: Type.Optional(
    Nullable(Type.String({ description: 'YYYY-MM-DD HH:MM:SS (UTC) or ISO 8601.' })),
  ),
});

export const MetadataSchema = Type.Object({
  SurveyID: Type.String(),
  SurveyName: Type.String(),
  SurveyDescription: Nullable(Type.String()),
  SurveyOwnerID: Type.String(),
  SurveyBrandID: Type.String(),
  DivisionID: Type.Null(),
  SurveyLanguage: Type.String(),
  SurveyActiveResponseSet: Nullable(Type.String()),
  SurveyStatus: Type.String(),
  SurveyStartDate: Nullable(Type.String()),
  SurveyExpirationDate: Nullable(Type.String()),
  SurveyCreationDate: Nullable(Type.String()),
  CreatorID: Type.String(),
  LastModified: Nullable(Type.String()),
  LastAccessed: Type.Null(),
  LastActivated: Type.Null(),
  Deleted: Type.Null(),
});

export const VersionBodySchema = Type.Object({
  Description: Type.String({ minLength: 1, maxLength: 1000 }),
  Published: Type.Optional(Type.Boolean({ description: 'Default true: it becomes the live definition.' })),
});

export const VersionSchema = Type.Object({
  versionID: Type.String(),
  versionNumber: Type.Integer(),
  description: Type.String(),
  userID: Nullable(Type.String()),
  creationDate: Type.String(),
  published: Type.Boolean({ description: 'The live definition now.' }),
  wasPublished: Type.Boolean(),
});

/** The JSON definition, or with format=qsf the QSF file (`{SurveyEntry, SurveyElements}`). */
export const DefinitionSchema = Type.Union([
  Type.Object({
    SurveyID: Type.String(),
    SurveyName: Type.String(),
    SurveyStatus: Type.String(),
    OwnerID: Type.String(),
    CreatorID: Type.String(),
    BrandID: Type.String(),
    BrandBaseURL: Type.String(),
    LastModified: Type.String(),
    LastAccessed: Type.Null(),
    LastActivated: Type.Null(),
    QuestionCount: Type.String(),
    Questions: Type.Record(Type.String(), AnyObject),
    Blocks: Type.Record(Type.String(), AnyObject),
    SurveyFlow: AnyObject,
    SurveyOptions: AnyObject,
    ResponseSets: AnyObject,
    Scoring: Type.Unknown(),
    ProjectInfo: Type.Unknown(),
    metadata: Type.Optional(VersionSchema),
  }),
  Type.Object({ SurveyEntry: AnyObject, SurveyElements: Type.Array(AnyObject) }),
]);
