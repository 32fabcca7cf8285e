import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { ERROR_CODES } from './errors.js';

/** The OpenAPI document is generated from the route schemas: one source for validation, serialisation and docs. */
export async function registerOpenApi(app: FastifyInstance, version: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Fieldwork survey API, version 3',
        version,
        description: [
          'Every call answers `{result, meta}`; errors answer `{meta: {httpStatus, error: {errorMessage, errorCode}, requestId}}`.',
          '',
          'Error codes:',
          ...Object.entries(ERROR_CODES).map(
            ([code, { status, meaning }]) => `- \`${code}\` (${status}): ${meaning}`,
          ),
        ].join('\n'),
      },
      components: {
        securitySchemes: {
          apiToken: { type: 'apiKey', in: 'header', name: 'X-API-TOKEN' },
          bearer: { type: 'http', scheme: 'bearer' },
        },
      },
      security: [{ apiToken: [] }, { bearer: [] }],
    },
  });
  await app.register(swaggerUi, { routePrefix: '/API/docs' });
  app.get('/API/v3/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
