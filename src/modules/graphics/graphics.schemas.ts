import { Type } from 'typebox';
import { Envelope } from '../../http/envelope.js';

export const GraphicIdParams = Type.Object({ graphicId: Type.String({ minLength: 1, maxLength: 100 }) });

/** `{id}` as every v3 create call answers, and the public URL to put in e-mails and question text. */
export const GraphicCreatedSchema = Envelope(
  Type.Object({
    id: Type.String(),
    url: Type.String({ description: 'The public, cacheable URL of the image (no token needed).' }),
  }),
);

export const UploadBodySchema = Type.Unknown({
  description:
    'A multipart part `file`: a PNG, JPEG, GIF or WebP image of at most 10 MB, recognised from its bytes. SVG is refused.',
});
