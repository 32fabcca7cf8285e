/**
 * Which image a file is, read from its first bytes (magic numbers), never from its name or the declared
 * content type: a renamed text file stays a text file. SVG is refused on purpose: it is a document that
 * can carry script, and the public URL serves graphics to anyone.
 */

export type ImageFormat = 'png' | 'jpeg' | 'gif' | 'webp';

export const CONTENT_TYPES: Record<ImageFormat, string> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
};

/** How many leading bytes `imageFormatOf` needs to decide (fewer only when the file is shorter). */
export const SNIFF_BYTES = 16;

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The format of a file starting with `head`, or undefined when it is none of the four. */
export function imageFormatOf(head: Uint8Array): ImageFormat | undefined {
  const bytes = Buffer.from(head.buffer, head.byteOffset, head.byteLength);
  const ascii = (start: number, end: number) => bytes.toString('latin1', start, end);
  // PNG: the 8-byte signature, then the IHDR chunk, which must come first.
  if (bytes.subarray(0, 8).equals(PNG_SIGNATURE) && ascii(12, 16) === 'IHDR') return 'png';
  // JPEG: a start-of-image marker followed by another marker.
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (ascii(0, 6) === 'GIF87a' || ascii(0, 6) === 'GIF89a') return 'gif';
  // WebP: a RIFF container of form WEBP whose first chunk is VP8 (lossy), VP8L (lossless) or VP8X.
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP' && /^VP8[ LX]$/.test(ascii(12, 16))) return 'webp';
  return undefined;
}
