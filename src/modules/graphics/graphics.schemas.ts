import { Type } from 'typebox';
import { Envelope } from '../../http/envelope.js';
import { idPattern } from '../../http/ids.js';

export const GraphicIdParams = Type.Object({ graphicId: Type.String({ minLength: 1, maxLength: 100 }) });

/** `{id}` as every v3 create call answers, and the public URL to put in e-mails and question text. */
export const GraphicCreatedSchema = Envelope(
  Type.Object({
    id: Type.String(),
    url: Type.String({ description: 'The public, cacheable URL of the image (no token needed).' }),
  }),
);

/**
 * The multipart parts, for the OpenAPI document. The body is streamed, never parsed into an object, so
 * the route reads and checks the parts itself (graphics.routes.ts, graphics.service.ts).
 */
export const UploadBodySchema = Type.Unsafe<unknown>({
  type: 'object',
  required: ['file'],
  properties: {
    graphicId: Type.String({
      pattern: idPattern('IM'),
      description:
        "Optional, a text part sent before `file`: the graphic's id, instead of a new one. For the images of a " +
        'survey imported from Qualtrics: its question texts name them by their `IM_…` id, and show the graphic ' +
        'of that id once it is here. 400 when it is not `IM_` and 15 letters or digits; 409 FW_GRA_3 when a ' +
        'graphic of this server has it (graphic ids are unique on the server: the public URL names a graphic ' +
        'by its id alone). Empty is as if absent.',
    }),
    file: Type.String({
      format: 'binary',
      description:
        'A PNG, JPEG, GIF or WebP image of at most 10 MB, recognised from its bytes. SVG is refused.',
    }),
  },
});
