import type { Deps } from '../../deps.js';
import type { App } from '../../http/app-types.js';
import { done, Envelope, MetaOnlySchema, ok } from '../../http/envelope.js';
import { PagedList, PagingQuery, pagedResult, pageOf } from '../../http/paging.js';
import { getReport } from './report.service.js';
import * as subjects from './subjects.service.js';
import {
  CreateSubjectBodySchema,
  NominationBodySchema,
  NominationCreatedSchema,
  NominationParams,
  NominationSchema,
  ReportSchema,
  SubjectCreatedSchema,
  SubjectParams,
  SubjectSchema,
  ThreeSixtyIdParams,
  toNomination,
  toSubject,
} from './threesixties.schemas.js';

const tags = ['360 evaluations'];
const ONE = '/threesixties/:threeSixtyId';
const SUBJECT = `${ONE}/subjects/:subjectId`;

/** A 360's subjects, their reports and their nominations. */
export function registerSubjectRoutes(app: App, deps: Deps): void {
  app.post(
    `${ONE}/subjects`,
    {
      schema: {
        tags,
        summary: 'Add a subject (a person evaluated)',
        params: ThreeSixtyIdParams,
        body: CreateSubjectBodySchema,
        response: { 200: Envelope(SubjectCreatedSchema) },
      },
    },
    async (request) =>
      ok(
        request,
        await subjects.createSubject(deps, request.principal, request.params.threeSixtyId, request.body),
      ),
  );

  app.get(
    `${ONE}/subjects`,
    {
      schema: {
        tags,
        summary: "List a 360's subjects",
        params: ThreeSixtyIdParams,
        querystring: PagingQuery(),
        response: { 200: Envelope(PagedList(SubjectSchema)) },
      },
    },
    async (request) => {
      const page = pageOf(request.query);
      const rows = await subjects.listSubjects(deps, request.principal, request.params.threeSixtyId, page);
      return ok(request, pagedResult(request, page, rows.map(toSubject)));
    },
  );

  app.get(
    SUBJECT,
    {
      schema: {
        tags,
        summary: 'Get a subject',
        params: SubjectParams,
        response: { 200: Envelope(SubjectSchema) },
      },
    },
    async (request) => {
      const { threeSixtyId, subjectId } = request.params;
      const { subject } = await subjects.getSubject(deps, request.principal, threeSixtyId, subjectId);
      return ok(request, toSubject(subject));
    },
  );

  app.delete(
    SUBJECT,
    {
      schema: {
        tags,
        summary: 'Delete a subject and its nominations',
        params: SubjectParams,
        response: { 200: MetaOnlySchema },
      },
    },
    async (request) => {
      await subjects.deleteSubject(
        deps,
        request.principal,
        request.params.threeSixtyId,
        request.params.subjectId,
      );
      return done(request);
    },
  );

  app.get(
    `${SUBJECT}/report`,
    {
      schema: {
        tags,
        summary: "A subject's report (the same as the page at its ReportURL)",
        params: SubjectParams,
        response: { 200: Envelope(ReportSchema) },
      },
    },
    async (request) =>
      ok(
        request,
        await getReport(deps, request.principal, request.params.threeSixtyId, request.params.subjectId),
      ),
  );

  registerNominationRoutes(app, deps);
}

function registerNominationRoutes(app: App, deps: Deps): void {
  app.post(
    `${SUBJECT}/nominations`,
    {
      schema: {
        tags,
        summary: 'Nominate an evaluator for a subject (the invitation is e-mailed)',
        params: SubjectParams,
        body: NominationBodySchema,
        response: { 200: Envelope(NominationCreatedSchema) },
      },
    },
    async (request) => {
      const { threeSixtyId, subjectId } = request.params;
      return ok(
        request,
        await subjects.createNomination(deps, request.principal, threeSixtyId, subjectId, request.body),
      );
    },
  );

  app.get(
    `${SUBJECT}/nominations`,
    {
      schema: {
        tags,
        summary: "A subject's evaluators (nominated and unsolicited) and where each evaluation is",
        params: SubjectParams,
        querystring: PagingQuery(),
        response: { 200: Envelope(PagedList(NominationSchema)) },
      },
    },
    async (request) => {
      const { threeSixtyId, subjectId } = request.params;
      const page = pageOf(request.query);
      const rows = await subjects.listNominations(deps, request.principal, threeSixtyId, subjectId, page);
      return ok(request, pagedResult(request, page, rows.map(toNomination)));
    },
  );

  app.delete(
    `${SUBJECT}/nominations/:evaluatorId`,
    {
      schema: {
        tags,
        summary: 'Remove a nomination (its evaluation link stops working)',
        params: NominationParams,
        response: { 200: MetaOnlySchema },
      },
    },
    async (request) => {
      const { threeSixtyId, subjectId, evaluatorId } = request.params;
      await subjects.removeNomination(deps, request.principal, threeSixtyId, subjectId, evaluatorId);
      return done(request);
    },
  );
}
