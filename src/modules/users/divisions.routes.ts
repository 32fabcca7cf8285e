import type { Deps } from '../../deps.js';
import type { App } from '../../http/app-types.js';
import { Envelope, IdResultSchema, ok } from '../../http/envelope.js';
import { PagedList, PagingQuery, pagedResult, pageOf } from '../../http/paging.js';
import {
  CreateDivisionBodySchema,
  DivisionIdParams,
  DivisionSchema,
  toDivision,
} from './divisions.schemas.js';
import * as service from './divisions.service.js';

const tags = ['Divisions'];

export function registerDivisionRoutes(app: App, deps: Deps): void {
  app.get(
    '/divisions',
    {
      schema: {
        tags,
        summary: 'List divisions',
        querystring: PagingQuery(),
        response: { 200: Envelope(PagedList(DivisionSchema)) },
      },
    },
    async (request) => {
      const page = pageOf(request.query);
      const rows = await service.listDivisions(deps, request.principal, page);
      return ok(request, pagedResult(request, page, rows.map(toDivision)));
    },
  );

  app.post(
    '/divisions',
    {
      schema: {
        tags,
        summary: 'Create a division',
        body: CreateDivisionBodySchema,
        response: { 200: IdResultSchema },
      },
    },
    async (request) =>
      ok(request, { id: await service.createDivision(deps, request.principal, request.body) }),
  );

  app.get(
    '/divisions/:divisionId',
    {
      schema: {
        tags,
        summary: 'Get a division',
        params: DivisionIdParams,
        response: { 200: Envelope(DivisionSchema) },
      },
    },
    async (request) =>
      ok(request, toDivision(await service.getDivision(deps, request.principal, request.params.divisionId))),
  );
}
