import type { Deps } from '../../deps.js';
import type { App } from '../../http/app-types.js';
import { done, Envelope, IdResultSchema, MetaOnlySchema, ok } from '../../http/envelope.js';
import { originOf } from '../../http/origin.js';
import { PagedList, PagingQuery, pagedResult, pageOf } from '../../http/paging.js';
import { registerSubjectRoutes } from './subjects.routes.js';
import {
  CreateThreeSixtyBodySchema,
  ThreeSixtyIdParams,
  ThreeSixtySchema,
  toThreeSixty,
  UpdateThreeSixtyBodySchema,
} from './threesixties.schemas.js';
import * as service from './threesixties.service.js';

const tags = ['360 evaluations'];
const ROOT = '/threesixties';
const ONE = `${ROOT}/:threeSixtyId`;

/** The 360 evaluations API (issue 16, docs/threesixties.md): programs, subjects, nominations, reports. */
export function registerThreeSixtyRoutes(app: App, deps: Deps): void {
  app.post(
    ROOT,
    {
      schema: {
        tags,
        summary: 'Create a 360 (inactive)',
        body: CreateThreeSixtyBodySchema,
        response: { 200: IdResultSchema },
      },
    },
    async (request) => {
      const base = originOf(request);
      return ok(request, { id: await service.createThreeSixty(deps, request.principal, request.body, base) });
    },
  );

  app.get(
    ROOT,
    {
      schema: {
        tags,
        summary: 'List 360s',
        querystring: PagingQuery(),
        response: { 200: Envelope(PagedList(ThreeSixtySchema)) },
      },
    },
    async (request) => {
      const page = pageOf(request.query);
      const rows = await service.listThreeSixties(deps, request.principal, page);
      return ok(request, pagedResult(request, page, rows.map(toThreeSixty)));
    },
  );

  app.get(
    ONE,
    {
      schema: {
        tags,
        summary: 'Get a 360',
        params: ThreeSixtyIdParams,
        response: { 200: Envelope(ThreeSixtySchema) },
      },
    },
    async (request) =>
      ok(
        request,
        toThreeSixty(await service.getThreeSixty(deps, request.principal, request.params.threeSixtyId)),
      ),
  );

  app.put(
    ONE,
    {
      schema: {
        tags,
        summary: 'Change a 360: activate or deactivate it (status), its workflow, name or sender',
        params: ThreeSixtyIdParams,
        body: UpdateThreeSixtyBodySchema,
        response: { 200: MetaOnlySchema },
      },
    },
    async (request) => {
      await service.updateThreeSixty(deps, request.principal, request.params.threeSixtyId, request.body);
      return done(request);
    },
  );

  app.delete(
    ONE,
    {
      schema: {
        tags,
        summary: 'Delete a 360 and its subjects',
        params: ThreeSixtyIdParams,
        response: { 200: MetaOnlySchema },
      },
    },
    async (request) => {
      await service.deleteThreeSixty(deps, request.principal, request.params.threeSixtyId);
      return done(request);
    },
  );

  registerSubjectRoutes(app, deps);
}
