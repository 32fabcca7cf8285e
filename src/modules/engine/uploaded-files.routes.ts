import { create as contentDisposition } from 'content-disposition';
import { Type } from 'typebox';
import type { Deps } from '../../deps.js';
import type { App } from '../../http/app-types.js';
import { openResponseFile } from './uploads.js';

const Id = Type.String({ minLength: 1, maxLength: 100 });

/**
 * `GET /v3/surveys/{surveyId}/responses/{responseId}/uploaded-files/{fileId}`: a file a respondent
 * uploaded, or their signature, as the real API's "Get response uploaded file" spells it (the spec and
 * COMPAT.md name no such call). Whoever may read the response may read its files. Always an attachment
 * with `nosniff`: a respondent's file never runs as a page of this origin.
 */
export function registerUploadedFileRoutes(app: App, deps: Deps): void {
  app.get(
    '/surveys/:surveyId/responses/:responseId/uploaded-files/:fileId',
    {
      schema: {
        tags: ['Responses'],
        summary: "Download a file of a response (a file upload question's file or a signature)",
        params: Type.Object({ surveyId: Id, responseId: Id, fileId: Id }),
      },
    },
    async (request, reply) => {
      const { surveyId, responseId, fileId } = request.params;
      const file = await openResponseFile(deps, request.principal, surveyId, responseId, fileId);
      return reply
        .type(/^[\w.+-]+\/[\w.+-]+$/.test(file.type) ? file.type : 'application/octet-stream')
        .header('content-length', file.size)
        .header('content-disposition', contentDisposition(file.name || fileId))
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .send(file.stream);
    },
  );
}
