/**
 * The pages' favicon (`/favicon.ico`): Fieldwork's blue square with a white check mark, drawn here as a
 * 32×32 ICO (one uncompressed 32-bit bitmap) so that no binary file or build step is needed.
 */

const SIZE = 32;
const BLUE = [0xd8, 0x4e, 0x1d]; // #1d4ed8, the pages' button colour, in BGR order
const WHITE = [0xff, 0xff, 0xff];

/** Distance from (x, y) to the segment from a to b. */
function distance(x: number, y: number, a: [number, number], b: [number, number]): number {
  const [dx, dy] = [b[0] - a[0], b[1] - a[1]];
  const t = Math.max(0, Math.min(1, ((x - a[0]) * dx + (y - a[1]) * dy) / (dx * dx + dy * dy)));
  return Math.hypot(x - (a[0] + t * dx), y - (a[1] + t * dy));
}

/** The colour (BGRA) of one pixel, y from the top; outside the rounded square is transparent. */
function pixel(x: number, y: number): number[] {
  const [cx, cy] = [x + 0.5, y + 0.5];
  const radius = 6;
  const nearestX = Math.max(radius, Math.min(SIZE - radius, cx));
  const nearestY = Math.max(radius, Math.min(SIZE - radius, cy));
  if (Math.hypot(cx - nearestX, cy - nearestY) > radius) return [0, 0, 0, 0];
  const check = Math.min(distance(cx, cy, [8, 17], [14, 23]), distance(cx, cy, [14, 23], [25, 10]));
  return [...(check <= 2.5 ? WHITE : BLUE), 0xff];
}

function drawIcon(): Buffer {
  const header = Buffer.alloc(6 + 16 + 40);
  header.writeUInt16LE(1, 2); // type: icon
  header.writeUInt16LE(1, 4); // one image
  const andMask = Buffer.alloc((SIZE * SIZE) / 8); // all zero: the alpha channel decides
  const pixels = Buffer.alloc(SIZE * SIZE * 4);
  for (let row = 0; row < SIZE; row++) {
    for (let x = 0; x < SIZE; x++) {
      // Bitmap rows run from the bottom up.
      Buffer.from(pixel(x, SIZE - 1 - row)).copy(pixels, (row * SIZE + x) * 4);
    }
  }
  const imageSize = 40 + pixels.length + andMask.length;
  // The directory entry.
  header.writeUInt8(SIZE, 6);
  header.writeUInt8(SIZE, 7);
  header.writeUInt16LE(1, 10); // planes
  header.writeUInt16LE(32, 12); // bits per pixel
  header.writeUInt32LE(imageSize, 14);
  header.writeUInt32LE(22, 18); // where the image starts
  // The bitmap header: its height counts the colour rows and the mask rows.
  header.writeUInt32LE(40, 22);
  header.writeInt32LE(SIZE, 26);
  header.writeInt32LE(SIZE * 2, 30);
  header.writeUInt16LE(1, 34);
  header.writeUInt16LE(32, 36);
  header.writeUInt32LE(pixels.length + andMask.length, 42);
  return Buffer.concat([header, pixels, andMask]);
}

export const FAVICON: Buffer = drawIcon();
