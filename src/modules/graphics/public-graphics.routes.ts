import type { Deps } from '../../deps.js';
import type { App } from '../../http/app-types.js';
import { cacheHeaders, etagMatches } from './graphic-caching.js';
import { GraphicIdParams } from './graphics.schemas.js';
import { findPublicGraphic } from './graphics.service.js';

/**
 * `GET /graphics/{graphicId}` at the host root, outside the API and without a token: e-mails and survey
 * question text link it (`graphicUrl`). Not in the OpenAPI document, like the survey pages. Cacheable
 * (graphic-caching.ts), 304 on a matching If-None-Match; a deleted or unknown graphic is a 404.
 */
export function registerPublicGraphicRoutes(app: App, deps: Deps): void {
  app.get(
    '/graphics/:graphicId',
    { schema: { hide: true, params: GraphicIdParams } },
    async (request, reply) => {
      const graphic = await findPublicGraphic(deps, request.params.graphicId);
      if (etagMatches(request.headers['if-none-match'], graphic.etag))
        return reply.code(304).headers(cacheHeaders(graphic.etag)).send();
      // Opened before any header is set: a graphic deleted meanwhile is a plain 404, never a cached one.
      const body = await graphic.open();
      return reply
        .headers(cacheHeaders(graphic.etag))
        .type(graphic.contentType)
        .header('content-length', graphic.size)
        .send(body);
    },
  );
}
