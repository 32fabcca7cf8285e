import Fastify from 'fastify';
import type { Clock } from './clock.js';
import type { Config } from './config.js';
import { type Db, isReachable } from './db/database.js';
import type { Deps } from './deps.js';
import { DeliveryWorker } from './events/delivery-worker.js';
import { secretKeyWarning } from './events/secret-key.js';
import type { BlobStore } from './files/blob-store.js';
import { createBlobStore } from './files/create-blob-store.js';
import type { App } from './http/app-types.js';
import { type Authentication, requireAuthentication } from './http/auth.js';
import { clientErrorHandler, routerErrorHandler } from './http/client-errors.js';
import { Datacenters } from './http/datacenter.js';
import { databaseUnavailable, registerErrorHandling, sendError } from './http/error-handler.js';
import { MAX_PARAM_LENGTH } from './http/framework-errors.js';
import { closeConnectionsWhenClosing } from './http/graceful-close.js';
import { guardRequestInput } from './http/hostile-input.js';
import { registerOpenApi } from './http/openapi.js';
import { createRateLimiter, registerRateLimits } from './http/rate-limit.js';
import { randomRequestId } from './http/request-id.js';
import { RequestLog } from './http/request-log.js';
import { serializerCompiler } from './http/serialization.js';
import { validatorCompiler } from './http/validation.js';
import { BlobSweeper } from './jobs/blob-sweeper.js';
import { JobRegistry, JobWorker } from './jobs/job-runner.js';
import { contactImportJob } from './modules/contacts/contact-import.job.js';
import { CONTACT_IMPORT_JOB } from './modules/contacts/contact-imports.service.js';
import { registerDirectoryRoutes } from './modules/contacts/directories.routes.js';
import { registerDirectoryContactRoutes } from './modules/contacts/directory-contacts.routes.js';
import { registerDirectoryListRoutes } from './modules/contacts/directory-lists.routes.js';
import { registerLegacyListRoutes } from './modules/contacts/legacy-lists.routes.js';
import { DISTRIBUTION_JOB, distributionJob } from './modules/distributions/distribution.job.js';
import { registerDistributionRoutes } from './modules/distributions/distributions.routes.js';
import { registerMailLinkRoutes } from './modules/distributions/mail-links.routes.js';
import { registerSessionApiRoutes } from './modules/engine/sessions-api.routes.js';
import { registerUploadedFileRoutes } from './modules/engine/uploaded-files.routes.js';
import { registerEventSubscriptionRoutes } from './modules/eventsubscriptions/eventsubscriptions.routes.js';
import { sealStoredSharedKeys } from './modules/eventsubscriptions/eventsubscriptions.service.js';
import { RESPONSE_EXPORT_EXPIRY_JOB, responseExportExpiryJob } from './modules/exports/export-expiry.job.js';
import { RESPONSE_EXPORT_JOB, responseExportJob } from './modules/exports/response-export.job.js';
import { registerResponseExportRoutes } from './modules/exports/response-exports.routes.js';
import { registerGraphicRoutes } from './modules/graphics/graphics.routes.js';
import { registerPublicGraphicRoutes } from './modules/graphics/public-graphics.routes.js';
import { registerGroupRoutes } from './modules/groups/groups.routes.js';
import { registerV2RetirementRoutes } from './modules/legacy/v2.routes.js';
import { registerMessageRoutes } from './modules/messages/messages.routes.js';
import { registerOAuthClientRoutes } from './modules/oauth/oauth.routes.js';
import { registerTokenRoute } from './modules/oauth/token.routes.js';
import { principalForAccessToken } from './modules/oauth/tokens.service.js';
import { registerOrganizationRoutes } from './modules/organizations/organizations.routes.js';
import { responseImportJob } from './modules/responseimports/response-import.job.js';
import { registerResponseImportRoutes } from './modules/responseimports/response-imports.routes.js';
import { RESPONSE_IMPORT_JOB } from './modules/responseimports/response-imports.service.js';
import { registerGetResponseRoute, registerResponseRoutes } from './modules/responses/responses.routes.js';
import { responseUpdateJob } from './modules/responses/update-responses.job.js';
import { RESPONSE_UPDATE_JOB } from './modules/responses/update-responses.service.js';
import { registerSurveyDefinitionRoutes } from './modules/survey-definitions/survey-definitions.routes.js';
import { registerSurveySharingRoutes } from './modules/surveys/survey-sharing.routes.js';
import { registerSurveyRoutes } from './modules/surveys/surveys.routes.js';
import { evaluationFinished } from './modules/threesixties/evaluations.service.js';
import { threeSixtyMailJob } from './modules/threesixties/mail.job.js';
import { THREESIXTY_MAIL_JOB } from './modules/threesixties/mails.js';
import { registerThreeSixtyPages } from './modules/threesixties/pages.routes.js';
import { registerThreeSixtyRoutes } from './modules/threesixties/threesixties.routes.js';
import { registerDivisionRoutes } from './modules/users/divisions.routes.js';
import { registerUserRoutes } from './modules/users/users.routes.js';
import { principalForToken } from './modules/users/users.service.js';
import { VERSION } from './version.js';
import { registerEngineRoutes } from './web/engine.routes.js';
import { WorkerSet } from './workers.js';

declare module 'fastify' {
  interface FastifyInstance {
    workers: WorkerSet;
    /** This node's BlobStore: job files, exports and uploads (tests' own job workers use it too). */
    blobs: BlobStore;
    /** Every method and path served, for the OpenAPI and endpoint-coverage tests. */
    registeredRoutes: { method: string; url: string }[];
  }
}

export interface AppOptions {
  config: Config;
  database: Db;
  clock: Clock;
  /** pino options or false; tests pass false. */
  logger?: boolean | Record<string, unknown>;
  /** Background workers the modules register; server.ts starts them by role. */
  workers?: WorkerSet;
  /** TLS key and certificate: the server speaks https. */
  https?: { cert: Buffer; key: Buffer };
}

/** A load balancer's check must answer even when the database does not (a frozen server answers nothing). */
const HEALTH_TIMEOUT_MS = 2_000;

/** The whole HTTP application as a plugin tree. It never listens: server.ts does. */
export async function buildApp(options: AppOptions): Promise<App> {
  const { config, database, clock } = options;
  // One BlobStore for every job file, export and upload of this node (issue 18 item 5).
  const blobs = createBlobStore(config, database.db, clock);
  const deps: Deps = { db: database.db, clock, config, blobs };
  const workers = options.workers ?? new WorkerSet();
  const app = Fastify({
    logger: options.logger ?? false,
    ...(options.https ? { https: options.https } : {}),
    genReqId: randomRequestId,
    logController: new RequestLog(),
    trustProxy: config.trustProxy,
    return503OnClosing: true,
    bodyLimit: 10 * 1024 * 1024,
    // COMPAT.md "Paths": a trailing slash and a doubled slash are accepted everywhere.
    routerOptions: {
      ignoreTrailingSlash: true,
      ignoreDuplicateSlashes: true,
      maxParamLength: MAX_PARAM_LENGTH,
    },
    // Requests refused before routing (by Node's parser, by the router) answer in the envelope too.
    clientErrorHandler,
    frameworkErrors: routerErrorHandler,
  }).withTypeProvider() as unknown as App;

  const registeredRoutes: { method: string; url: string }[] = [];
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD') registeredRoutes.push({ method, url: route.url });
    }
  });
  app.decorate('registeredRoutes', registeredRoutes);

  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // No call takes text/plain: without Fastify's default parser it is a 415 like any other type.
  app.removeContentTypeParser('text/plain');
  guardRequestInput(app);
  registerErrorHandling(app);
  closeConnectionsWhenClosing(app);

  database.useLog(app.log);
  app.get('/health', { schema: { hide: true } }, async (request, reply) => {
    if (await isReachable(database.db, HEALTH_TIMEOUT_MS)) return { status: 'ok', database: database.engine };
    return sendError(request, reply, databaseUnavailable());
  });

  app.decorate('workers', workers);
  app.decorate('blobs', blobs);
  await prepareSecretKey(app, deps);
  workers.add(new DeliveryWorker(deps, { log: app.log }));
  const jobs = new JobRegistry();
  jobs.register(CONTACT_IMPORT_JOB, contactImportJob(deps));
  jobs.register(RESPONSE_EXPORT_JOB, responseExportJob(deps));
  jobs.register(RESPONSE_EXPORT_EXPIRY_JOB, responseExportExpiryJob(deps));
  jobs.register(RESPONSE_IMPORT_JOB, responseImportJob(deps));
  jobs.register(RESPONSE_UPDATE_JOB, responseUpdateJob(deps));
  const distributionJobs = distributionJob(deps);
  jobs.register(DISTRIBUTION_JOB, distributionJobs);
  // 360 invitations go out through the distributions' mail sender (issue 16).
  jobs.register(THREESIXTY_MAIL_JOB, threeSixtyMailJob(deps, distributionJobs.sender));
  workers.add(
    new JobWorker({
      ...deps,
      registry: jobs,
      log: (message, err) => app.log.error({ err }, message),
      ...(config.jobLeaseMs ? { leaseMs: config.jobLeaseMs } : {}),
      ...(config.jobMaxAttempts ? { maxAttempts: config.jobMaxAttempts } : {}),
    }),
  );
  workers.add(new BlobSweeper({ blobs, clock, log: (message, err) => app.log.error({ err }, message) }));
  app.addHook('onClose', async () => workers.stop());
  app.addHook('onClose', async () => distributionJobs.close());

  // A worker-only node serves /health and nothing else.
  if (config.role === 'worker') return app;
  const rateLimiter = await createRateLimiter(config, clock, app.log);
  // API tokens, OAuth access tokens, and the other data centers a misdirected call goes to (issue 17).
  const authentication: Authentication = {
    apiToken: (token) => principalForToken(deps, token),
    accessToken: (token) => principalForAccessToken(deps, token),
    datacenters: new Datacenters(config),
  };
  app.addHook('onClose', async () => authentication.datacenters.close());
  app.addHook('onClose', async () => rateLimiter?.buckets.close());
  // The API's documents, before its routes (swagger collects routes as they are added); not on a worker.
  await registerOpenApi(app, VERSION);
  await app.register(
    async (v3) => {
      const api = v3 as unknown as App;
      requireAuthentication(api, authentication);
      await registerRateLimits(api, rateLimiter);
      registerOrganizationRoutes(api, deps);
      registerUserRoutes(api, deps);
      registerDivisionRoutes(api, deps);
      registerGroupRoutes(api, deps);
      registerMessageRoutes(api, deps);
      registerEventSubscriptionRoutes(api, deps);
      registerDirectoryRoutes(api, deps);
      registerDirectoryContactRoutes(api, deps);
      registerDirectoryListRoutes(api, deps);
      registerLegacyListRoutes(api, deps);
      await registerSurveyRoutes(api, deps);
      registerSurveySharingRoutes(api, deps);
      registerSurveyDefinitionRoutes(api, deps);
      registerResponseRoutes(api, deps);
      // Sessions through the API run the browser's engine, with its completion hook (issue 15).
      registerSessionApiRoutes(api, { ...deps, onSessionCompleted: evaluationFinished });
      registerUploadedFileRoutes(api, deps);
      registerResponseExportRoutes(api, deps);
      registerResponseImportRoutes(api, deps);
      registerDistributionRoutes(api, deps);
      registerGraphicRoutes(api, deps);
      registerOAuthClientRoutes(api, deps);
      registerThreeSixtyRoutes(api, deps);
    },
    { prefix: '/API/v3' },
  );
  // Spec 4.6 writes this one path as /API/v3/... under the {base_url}/API base: served there too.
  await app.register(
    async (literal) => {
      const api = literal as unknown as App;
      requireAuthentication(api, authentication);
      await registerRateLimits(api, rateLimiter);
      registerGetResponseRoute(api, deps);
    },
    { prefix: '/API/API/v3' },
  );
  // The retired version 2 endpoints (issue 17): 404 naming the v3 replacement, no token needed.
  await registerV2RetirementRoutes(app, deps);
  // The OAuth 2.0 token endpoint (issue 17): at the host root, in RFC 6749's shapes, no token needed.
  await registerTokenRoute(app, deps);
  // The survey-taking pages (issue 5): at the root, outside the authenticated API.
  // A completed session that is a 360 evaluation finishes it, in the recording's transaction (issue 16).
  await registerEngineRoutes(app, { ...deps, onSessionCompleted: evaluationFinished });
  // The 360's links (issue 16): evaluations, open links, nomination pages and reports.
  await registerThreeSixtyPages(app, deps);
  // A message's opt-out link and open-tracking image (issue 12): at the root, no token.
  await registerMailLinkRoutes(app, deps);
  // Graphics' public URL (issue 12): at the root too, no token, for e-mails and question text.
  registerPublicGraphicRoutes(app, deps);
  return app;
}

/** Every node, at start: says when nodes may not share the secret key, and seals sharedKeys still in clear. */
async function prepareSecretKey(app: App, deps: Deps): Promise<void> {
  const warning = secretKeyWarning(deps.config);
  if (warning) app.log.warn(warning);
  const sealed = await sealStoredSharedKeys(deps);
  if (sealed > 0) app.log.info(`sealed ${sealed} subscription sharedKey(s) stored in clear`);
}
