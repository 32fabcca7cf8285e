import type { Deps } from '../../deps.js';
import type { App } from '../../http/app-types.js';
import { done, Envelope, MetaOnlySchema, ok } from '../../http/envelope.js';
import { originOf } from '../../http/origin.js';
import {
  OrganizationIdParams,
  OrganizationSchema,
  toOrganization,
  UpdateOrganizationBodySchema,
} from './organizations.schemas.js';
import * as service from './organizations.service.js';

const tags = ['Organizations'];

export function registerOrganizationRoutes(app: App, deps: Deps): void {
  app.get(
    '/organizations/:organizationId',
    {
      schema: {
        tags,
        summary: "Get the caller's organization",
        params: OrganizationIdParams,
        response: { 200: Envelope(OrganizationSchema) },
      },
    },
    async (request) => {
      const { row, userCount } = await service.getOrganization(
        deps,
        request.principal,
        request.params.organizationId,
      );
      return ok(request, toOrganization(row, originOf(request), userCount));
    },
  );

  app.put(
    '/organizations/:organizationId',
    {
      schema: {
        tags,
        summary: 'Change organization settings (brand administrators): the target-audience variant',
        params: OrganizationIdParams,
        body: UpdateOrganizationBodySchema,
        response: { 200: MetaOnlySchema },
      },
    },
    async (request) => {
      await service.updateOrganization(deps, request.principal, request.params.organizationId, request.body);
      return done(request);
    },
  );
}
