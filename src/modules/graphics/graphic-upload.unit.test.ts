import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { gif, png, SVG } from '../../../test/graphics/images.js';
import { ApiError } from '../../http/errors.js';
import { chosenGraphicId, type InspectedUpload, inspectUpload } from './graphic-upload.js';

async function* pieces(bytes: Buffer, size: number) {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

async function drain(source: AsyncIterable<Buffer>): Promise<{ bytes: Buffer; chunks: number }> {
  const chunks: Buffer[] = [];
  for await (const chunk of source) chunks.push(chunk);
  return { bytes: Buffer.concat(chunks), chunks: chunks.length };
}

describe('inspectUpload', () => {
  it.each([1, 3, 16, 1000])(
    'passes the bytes through unchanged in pieces of %i, with format, size and digest',
    async (size) => {
      const image = png();
      const result: InspectedUpload = { size: 0 };
      const { bytes } = await drain(inspectUpload(pieces(image, size), 1024, result));
      expect(bytes.equals(image)).toBe(true);
      expect(result).toEqual({
        format: 'png',
        size: image.length,
        etag: `"${createHash('sha256').update(image).digest('hex').slice(0, 32)}"`,
      });
    },
  );

  it('holds back no more than the first bytes: later pieces pass as they come', async () => {
    const image = Buffer.concat([gif(), Buffer.alloc(100)]);
    const { chunks } = await drain(inspectUpload(pieces(image, 20), 1024, { size: 0 }));
    expect(chunks).toBe(Math.ceil(image.length / 20));
  });

  it('fails at the first piece that is not an image, before passing anything on', async () => {
    const passed: Buffer[] = [];
    const run = async () => {
      for await (const chunk of inspectUpload(pieces(SVG, 8), 1024, { size: 0 })) passed.push(chunk);
    };
    const error = await run().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('FW_GRA_1');
    expect(passed).toEqual([]);
  });

  it('fails with 413 once the bytes pass the limit, and takes a file of exactly the limit', async () => {
    const image = Buffer.concat([png(), Buffer.alloc(200)]);
    const error = await drain(inspectUpload(pieces(image, 50), image.length - 1, { size: 0 })).catch(
      (e) => e,
    );
    expect((error as ApiError).status).toBe(413);
    expect((error as ApiError).message).toContain(`${image.length - 1} bytes`);
    const { bytes } = await drain(inspectUpload(pieces(image, 50), image.length, { size: 0 }));
    expect(bytes.length).toBe(image.length);
  });
});

describe('chosenGraphicId', () => {
  it('takes IM_ and 15 letters or digits; absent or empty is no choice', () => {
    expect(chosenGraphicId('IM_0123456789abcDE')).toBe('IM_0123456789abcDE');
    expect(chosenGraphicId(undefined)).toBeUndefined();
    expect(chosenGraphicId('')).toBeUndefined();
  });
  it('refuses anything else with 400 naming graphicId', () => {
    for (const value of [
      'IM_0123456789abcD',
      'IM_0123456789abcDEF',
      'SV_0123456789abcDE',
      'IM_0123456789abc/E',
    ]) {
      const error = (() => {
        try {
          return chosenGraphicId(value);
        } catch (e) {
          return e;
        }
      })();
      expect(error, value).toBeInstanceOf(ApiError);
      expect((error as ApiError).status).toBe(400);
      expect((error as ApiError).message).toContain('graphicId must be a graphic id');
    }
  });
});
