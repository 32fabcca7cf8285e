/**
 * A 360 program's workflow (issue 16): who evaluates a subject (relationships, with the fewest and most
 * evaluators of each), whether subjects nominate their own evaluators, whether unsolicited evaluations
 * (through a subject's open link) are taken and whether they count, the report's anonymity threshold and
 * its competencies. Pure: the service checks what needs the survey (competency questions).
 */
import { type Static, Type } from 'typebox';
import { fromJson } from '../../db/json.js';
import { StringEnum } from '../../http/schema-types.js';

/** The relationships a 360 knows (issue 16). */
export const RELATIONSHIPS = ['Self', 'Manager', 'Peer', 'Direct report', 'Other'] as const;
export type Relationship = (typeof RELATIONSHIPS)[number];

/** Where the report puts relationships below the anonymity threshold. */
export const MERGED_GROUP = 'Others';
export const DEFAULT_ANONYMITY_THRESHOLD = 3;

const RelationshipRuleSchema = Type.Object({
  name: StringEnum(RELATIONSHIPS, { description: 'Self, Manager, Peer, Direct report or Other.' }),
  min: Type.Integer({ minimum: 0, maximum: 100, description: 'Finished evaluations the subject needs.' }),
  max: Type.Integer({ minimum: 1, maximum: 100, description: 'Most evaluators nominated.' }),
});

const CompetencySchema = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200 }),
  questionIds: Type.Array(Type.String({ pattern: '^QID[0-9]+$' }), { minItems: 1, maxItems: 500 }),
});

/** As a caller sends it: everything but the relationships has a default. */
export const WorkflowInputSchema = Type.Object({
  relationships: Type.Array(RelationshipRuleSchema, { minItems: 1, maxItems: RELATIONSHIPS.length }),
  subjectsNominate: Type.Optional(Type.Boolean()),
  allowUnsolicited: Type.Optional(Type.Boolean()),
  countUnsolicited: Type.Optional(Type.Boolean()),
  anonymityThreshold: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  competencies: Type.Optional(Type.Array(CompetencySchema, { maxItems: 200 })),
});
export type WorkflowInput = Static<typeof WorkflowInputSchema>;

/** As stored, answered and sent in `threesixty.created`: every setting spelled out. */
export const WorkflowSchema = Type.Object({
  relationships: Type.Array(RelationshipRuleSchema),
  subjectsNominate: Type.Boolean(),
  allowUnsolicited: Type.Boolean(),
  countUnsolicited: Type.Boolean(),
  anonymityThreshold: Type.Integer(),
  competencies: Type.Array(CompetencySchema),
});
export type Workflow = Static<typeof WorkflowSchema>;

/** The workflow with its defaults, or the first problem as [field, problem]. */
export function normalizeWorkflow(input: WorkflowInput): Workflow | [string, string] {
  const seen = new Set<string>();
  for (const [i, rule] of input.relationships.entries()) {
    const field = `workflow.relationships[${i}]`;
    if (seen.has(rule.name)) return [`${field}.name`, `names ${rule.name} twice`];
    seen.add(rule.name);
    if (rule.min > rule.max) return [`${field}.min`, 'must not be more than max'];
    if (rule.name === 'Self' && rule.max > 1) return [`${field}.max`, 'must be 1 for Self'];
  }
  const names = new Set<string>();
  for (const [i, competency] of (input.competencies ?? []).entries()) {
    if (names.has(competency.name)) return [`workflow.competencies[${i}].name`, 'is used twice'];
    names.add(competency.name);
  }
  return {
    relationships: input.relationships.map(({ name, min, max }) => ({ name, min, max })),
    subjectsNominate: input.subjectsNominate ?? false,
    allowUnsolicited: input.allowUnsolicited ?? false,
    countUnsolicited: input.countUnsolicited ?? false,
    anonymityThreshold: input.anonymityThreshold ?? DEFAULT_ANONYMITY_THRESHOLD,
    competencies: (input.competencies ?? []).map(({ name, questionIds }) => ({ name, questionIds })),
  };
}

/** Does a finished evaluation count towards the subject's minimums and report? */
export const counts = (workflow: Workflow, evaluator: { nominated: number }) =>
  evaluator.nominated === 1 || workflow.countUnsolicited;

/**
 * Done (spec 3) once every relationship has its minimum of counted finished evaluations, and at least one
 * evaluation is finished at all; Waiting before.
 */
export function subjectStatus(
  workflow: Workflow,
  finished: readonly { relationship: string }[],
): 'Done' | 'Waiting' {
  if (finished.length === 0) return 'Waiting';
  const met = workflow.relationships.every(
    (rule) => finished.filter((e) => e.relationship === rule.name).length >= rule.min,
  );
  return met ? 'Done' : 'Waiting';
}

/** Relationships an unsolicited evaluator may choose: the workflow's, but never Self. */
export const unsolicitedRelationships = (workflow: Workflow) =>
  workflow.relationships.map((r) => r.name).filter((name) => name !== 'Self');

/** A program row's workflow, as stored. */
export const workflowOf = (row: { workflow: string }) => fromJson<Workflow>(row.workflow);
