import { type Static, Type } from 'typebox';
import { idPattern } from '../../http/ids.js';
import { Nullable, StringEnum } from '../../http/schema-types.js';
import type { EvaluatorRow } from './evaluators.store.js';
import type { SubjectRow, ThreeSixtyRow } from './threesixties.store.js';
import { RELATIONSHIPS, WorkflowInputSchema, WorkflowSchema, workflowOf } from './workflow.js';

const Name = Type.String({ minLength: 1, maxLength: 200 });
const Email = Type.String({ format: 'email', maxLength: 254 });
const PersonName = Type.String({ maxLength: 100 });
const ThreeSixtyStatus = StringEnum(['Active', 'Inactive'] as const);

export const ThreeSixtyIdParams = Type.Object({
  threeSixtyId: Type.String({ minLength: 1, maxLength: 100 }),
});
export const SubjectParams = Type.Object({
  ...ThreeSixtyIdParams.properties,
  subjectId: Type.String({ minLength: 1, maxLength: 100 }),
});
export const NominationParams = Type.Object({
  ...SubjectParams.properties,
  evaluatorId: Type.String({ minLength: 1, maxLength: 100 }),
});

export const CreateThreeSixtyBodySchema = Type.Object({
  name: Name,
  surveyId: Type.String({ pattern: idPattern('SV') }),
  workflow: WorkflowInputSchema,
  fromEmail: Type.Optional(Email),
  fromName: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
});
export type CreateThreeSixtyBody = Static<typeof CreateThreeSixtyBodySchema>;

export const UpdateThreeSixtyBodySchema = Type.Object({
  name: Type.Optional(Name),
  status: Type.Optional(ThreeSixtyStatus),
  workflow: Type.Optional(WorkflowInputSchema),
  fromEmail: Type.Optional(Email),
  fromName: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 200 }))),
});
export type UpdateThreeSixtyBody = Static<typeof UpdateThreeSixtyBodySchema>;

export const ThreeSixtySchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  surveyId: Type.String(),
  ownerId: Type.String(),
  status: ThreeSixtyStatus,
  workflow: WorkflowSchema,
  fromEmail: Type.String(),
  fromName: Nullable(Type.String()),
  creationDate: Type.String(),
  lastModifiedDate: Type.String(),
});
export type ThreeSixty = Static<typeof ThreeSixtySchema>;

export function toThreeSixty(row: ThreeSixtyRow): ThreeSixty {
  return {
    id: row.id,
    name: row.name,
    surveyId: row.survey_id,
    ownerId: row.owner_id,
    status: row.status as ThreeSixty['status'],
    workflow: workflowOf(row),
    fromEmail: row.from_email,
    fromName: row.from_name,
    creationDate: row.created_at,
    lastModifiedDate: row.updated_at,
  };
}

export const CreateSubjectBodySchema = Type.Object({
  firstName: PersonName,
  lastName: PersonName,
  email: Email,
});
export type CreateSubjectBody = Static<typeof CreateSubjectBodySchema>;

export const SubjectCreatedSchema = Type.Object({ id: Type.String(), openEvaluationUrl: Type.String() });

export const SubjectSchema = Type.Object({
  id: Type.String(),
  threeSixtyId: Type.String(),
  firstName: Type.String(),
  lastName: Type.String(),
  email: Type.String(),
  status: StringEnum(['Done', 'Waiting'] as const),
  reportReadyDate: Nullable(Type.String()),
  creationDate: Type.String(),
});
export type Subject = Static<typeof SubjectSchema>;

export function toSubject(row: SubjectRow): Subject {
  return {
    id: row.id,
    threeSixtyId: row.threesixty_id,
    firstName: row.first_name,
    lastName: row.last_name,
    email: row.email,
    status: row.status as Subject['status'],
    reportReadyDate: row.report_ready_at,
    creationDate: row.created_at,
  };
}

export const NominationBodySchema = Type.Object({
  email: Email,
  firstName: PersonName,
  lastName: PersonName,
  relationship: StringEnum(RELATIONSHIPS),
});
export type NominationBody = Static<typeof NominationBodySchema>;

export const NominationCreatedSchema = Type.Object({ id: Type.String(), evaluationUrl: Type.String() });

export const NominationSchema = Type.Object({
  id: Type.String(),
  subjectId: Type.String(),
  email: Type.String(),
  firstName: Type.String(),
  lastName: Type.String(),
  relationship: Type.String(),
  unsolicited: Type.Boolean(),
  status: StringEnum(['Nominated', 'Started', 'Finished'] as const),
  sessionId: Nullable(Type.String()),
  responseId: Nullable(Type.String()),
  creationDate: Type.String(),
  startDate: Nullable(Type.String()),
  finishDate: Nullable(Type.String()),
});
export type Nomination = Static<typeof NominationSchema>;

export function toNomination(row: EvaluatorRow): Nomination {
  return {
    id: row.id,
    subjectId: row.subject_id,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    relationship: row.relationship,
    unsolicited: row.nominated === 0,
    status: row.status as Nomination['status'],
    sessionId: row.session_id,
    responseId: row.response_id,
    creationDate: row.created_at,
    startDate: row.started_at,
    finishDate: row.finished_at,
  };
}

const Mean = Nullable(Type.Number());
const ScoreRowFields = {
  self: Mean,
  others: Mean,
  groups: Type.Record(Type.String(), Type.Object({ mean: Mean, count: Type.Integer() })),
};

/** The subject's report (report.ts): the same data as the page at its ReportURL. */
export const ReportSchema = Type.Object({
  threeSixtyId: Type.String(),
  subjectId: Type.String(),
  firstName: Type.String(),
  lastName: Type.String(),
  status: Type.String(),
  ready: Type.Boolean(),
  anonymityThreshold: Type.Integer(),
  groups: Type.Array(
    Type.Object({
      name: Type.String(),
      relationships: Type.Array(Type.String()),
      evaluations: Type.Integer(),
      shown: Type.Boolean(),
    }),
  ),
  questions: Type.Array(
    Type.Object({
      key: Type.String(),
      questionId: Type.String(),
      text: Type.String(),
      competency: Nullable(Type.String()),
      ...ScoreRowFields,
    }),
  ),
  competencies: Type.Array(Type.Object({ name: Type.String(), ...ScoreRowFields })),
});
