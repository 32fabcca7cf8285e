import { deflateSync } from 'node:zlib';

/**
 * Tiny valid images, built from their formats' bytes (no fixture files). Each is one pixel; the server
 * reads only their leading bytes, but each is a file an image viewer opens.
 */

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = (CRC_TABLE[(crc ^ byte) & 0xff] as number) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** PNG: signature, IHDR (1×1, 8-bit RGBA), IDAT (filter byte + one pixel, zlib), IEND. */
export function png(rgba: [number, number, number, number] = [255, 0, 0, 255]): Buffer {
  const header = Buffer.from([0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(Buffer.from([0, ...rgba]))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * Baseline JPEG, 1×1 grey: SOI, a quantisation table, SOF0, one-code Huffman tables (DC category 0, AC
 * end-of-block), the scan (two zero bits, padded with ones) and EOI.
 */
export function jpeg(): Buffer {
  const oneCode = (tableClassAndId: number) => [
    0xff,
    0xc4,
    0x00,
    0x14,
    tableClassAndId,
    1,
    ...Array(15).fill(0),
    0,
  ];
  return Buffer.from([
    ...[0xff, 0xd8],
    ...[0xff, 0xdb, 0x00, 0x43, 0x00, ...Array(64).fill(1)],
    ...[0xff, 0xc0, 0x00, 0x0b, 8, 0, 1, 0, 1, 1, 1, 0x11, 0],
    ...oneCode(0x00),
    ...oneCode(0x10),
    ...[0xff, 0xda, 0x00, 0x08, 1, 1, 0x00, 0, 63, 0],
    0x3f,
    ...[0xff, 0xd9],
  ]);
}

/** GIF89a, 1×1: screen descriptor with a 2-colour table, the image descriptor, LZW data, trailer. */
export function gif(): Buffer {
  return Buffer.concat([
    Buffer.from('GIF89a', 'latin1'),
    Buffer.from([1, 0, 1, 0, 0x80, 0, 0]),
    Buffer.from([0, 0, 0, 0xff, 0xff, 0xff]),
    Buffer.from([0x2c, 0, 0, 0, 0, 1, 0, 1, 0, 0]),
    Buffer.from([2, 2, 0x44, 0x01, 0]),
    Buffer.from([0x3b]),
  ]);
}

/** WebP, lossless (VP8L) 1×1: the RIFF container and the bitstream Modernizr uses to detect WebP. */
export function webp(): Buffer {
  const bitstream = Buffer.from([0x2f, 0, 0, 0, 0x10, 0x07, 0x10, 0x11, 0x11, 0x88, 0x88, 0xfe, 0x07, 0]);
  const chunk = Buffer.concat([Buffer.from('VP8L', 'latin1'), le32(13), bitstream]);
  return Buffer.concat([Buffer.from('RIFF', 'latin1'), le32(4 + chunk.length), Buffer.from('WEBP'), chunk]);
}

function le32(value: number): Buffer {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32LE(value);
  return bytes;
}

export const SVG = Buffer.from(
  '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"><script>alert(1)</script></svg>',
);
