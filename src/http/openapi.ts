import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { ERROR_CODES } from './errors.js';
import { SCOPES } from './scopes.js';

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
          // The bearer tokens come from the client-credentials grant at the host root (token.routes.ts).
          oauth2: {
            type: 'oauth2',
            flows: {
              clientCredentials: {
                tokenUrl: '/oauth2/token',
                scopes: Object.fromEntries(SCOPES.map((scope) => [scope, scopeMeaning(scope)])),
              },
            },
          },
        },
      },
      security: [{ apiToken: [] }, { bearer: [] }, { oauth2: [] }],
    },
  });
  await app.register(swaggerUi, { routePrefix: '/API/docs' });
  app.get('/API/v3/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}

function scopeMeaning(scope: string): string {
  const [access, family] = scope.split(':');
  if (scope === 'manage:all') return 'every call of every family';
  return `${access === 'read' ? 'GET calls' : 'calls that change'} ${family?.replaceAll('_', ' ')}`;
}
