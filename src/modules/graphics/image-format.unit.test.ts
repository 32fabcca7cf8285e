import { describe, expect, it } from 'vitest';
import { gif, jpeg, png, SVG, webp } from '../../../test/graphics/images.js';
import { imageFormatOf } from './image-format.js';

describe('imageFormatOf', () => {
  it('recognises each of the four formats from its leading bytes', () => {
    expect(imageFormatOf(png())).toBe('png');
    expect(imageFormatOf(jpeg())).toBe('jpeg');
    expect(imageFormatOf(gif())).toBe('gif');
    expect(imageFormatOf(Buffer.from('GIF87a\x01\x00\x01\x00', 'latin1'))).toBe('gif');
    expect(imageFormatOf(webp())).toBe('webp');
  });

  it('refuses SVG, text, other formats and signatures without what must follow them', () => {
    const riff = (form: string, chunk: string) =>
      Buffer.from(`RIFF\x10\x00\x00\x00${form}${chunk}`, 'latin1');
    for (const bytes of [
      SVG,
      Buffer.from('plain text that is long enough'),
      Buffer.alloc(0),
      Buffer.from('BM6\x00\x00\x00\x00\x00\x00\x006\x00\x00\x00', 'latin1'), // BMP
      riff('WAVE', 'fmt '), // a RIFF that is audio
      riff('WEBP', 'ABCD'), // a WEBP form whose first chunk is no VP8 chunk
      png().subarray(0, 12), // the signature without its IHDR chunk
      Buffer.from([0xff, 0xd8]), // a JPEG start with nothing after it
      Buffer.from('GIF89', 'latin1'),
    ]) {
      expect(imageFormatOf(bytes), bytes.toString('latin1')).toBeUndefined();
    }
  });

  it('reads a view into a larger buffer from its own start', () => {
    const backing = Buffer.concat([Buffer.from('junk'), png()]);
    expect(imageFormatOf(new Uint8Array(backing.buffer, backing.byteOffset + 4, backing.length - 4))).toBe(
      'png',
    );
  });
});
