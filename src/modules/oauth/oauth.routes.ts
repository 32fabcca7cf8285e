import type { Deps } from '../../deps.js';
import type { App } from '../../http/app-types.js';
import { done, Envelope, MetaOnlySchema, ok } from '../../http/envelope.js';
import { PagedList, PagingQuery, pagedResult, pageOf } from '../../http/paging.js';
import {
  ClientIdParams,
  ClientSchema,
  CreateClientBodySchema,
  CreatedClientSchema,
  toClient,
} from './oauth.schemas.js';
import * as service from './oauth.service.js';

const tags = ['OAuth clients'];

/** Issue 17: brand administrators register the OAuth clients of their organisation (README "OAuth 2.0"). */
export function registerOAuthClientRoutes(app: App, deps: Deps): void {
  app.post(
    '/oauth-clients',
    {
      schema: {
        tags,
        summary: 'Register an OAuth client (its secret is shown only in this answer)',
        body: CreateClientBodySchema,
        response: { 200: Envelope(CreatedClientSchema) },
      },
    },
    async (request) => ok(request, await service.createClient(deps, request.principal, request.body)),
  );

  app.get(
    '/oauth-clients',
    {
      schema: {
        tags,
        summary: "List the organisation's OAuth clients (never their secrets)",
        querystring: PagingQuery(),
        response: { 200: Envelope(PagedList(ClientSchema)) },
      },
    },
    async (request) => {
      const page = pageOf(request.query);
      const rows = await service.listClients(deps, request.principal, page);
      return ok(request, pagedResult(request, page, rows.map(toClient)));
    },
  );

  app.delete(
    '/oauth-clients/:clientId',
    {
      schema: {
        tags,
        summary: 'Delete an OAuth client: its access tokens stop working at once',
        params: ClientIdParams,
        response: { 200: MetaOnlySchema },
      },
    },
    async (request) => {
      await service.deleteClient(deps, request.principal, request.params.clientId);
      return done(request);
    },
  );
}
