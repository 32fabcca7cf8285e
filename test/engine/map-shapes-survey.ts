import { crc32, deflateSync } from 'node:zlib';
import { block, blockFlow, qsf, question } from './qsf-builder.js';

/** A PNG of one grey, `width` × `height` pixels. */
export function greyPng(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3, 0xcc)]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(Array<Buffer>(height).fill(row)))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The 400×200 image of the map questions, as a `data:` URL (the pages show raster `data:` images). */
export const mapImage = () => `data:image/png;base64,${greyPng(400, 200).toString('base64')}`;

/**
 * A triangle over the image's left half, apex at the top middle of that half: its bounding box is the
 * whole half, so (10, 10) is in the box but not the region.
 */
export const TRIANGLE = {
  X: 0,
  Y: 0,
  Width: 200,
  Height: 200,
  Type: 'Polygon',
  Shapes: [
    [
      { X: 0, Y: 200 },
      { X: 100, Y: 0 },
      { X: 200, Y: 200 },
    ],
  ],
};
export const RIGHT_BOX = { X: 200, Y: 0, Width: 200, Height: 200 };

/**
 * A like/dislike hot spot (QID81: a triangle and a box) and a heat map with a polygon region (QID82), on
 * one page; numbered to sit beside the every-type survey's questions.
 */
export function mapShapeQuestions() {
  const src = mapImage();
  return [
    question('QID81', {
      type: 'HotSpot',
      selector: 'LikeDislike',
      text: 'Mark what you like and dislike in the shop window',
      choices: ['Left display', 'Right display'],
      extra: {
        Graphics: src,
        GraphicsDescription: 'The shop window',
        Regions: [
          { ChoiceID: '1', Description: 'Region #1', ...TRIANGLE },
          { ChoiceID: '2', Description: 'Region #2', ...RIGHT_BOX },
        ],
      },
    }),
    question('QID82', {
      type: 'HeatMap',
      selector: 'Image',
      text: 'Where would you sit?',
      choices: ['X,Y'],
      extra: {
        Graphics: src,
        GraphicsDescription: 'The seating plan',
        Regions: [
          { Description: 'Stage', ...TRIANGLE },
          { Description: 'Bar', ...RIGHT_BOX },
        ],
      },
    }),
  ];
}

/** An on/off hot spot (QID80) over two boxes, to sit beside `mapShapeQuestions`. */
export function onOffHotSpot() {
  return question('QID80', {
    type: 'HotSpot',
    selector: 'OnOff',
    text: 'Which windows do you like?',
    choices: ['Left window', 'Right window'],
    extra: {
      Graphics: mapImage(),
      GraphicsDescription: 'The shop front',
      Regions: [
        { ChoiceID: '1', X: 0, Y: 0, Width: 200, Height: 200 },
        { ChoiceID: '2', ...RIGHT_BOX },
      ],
    },
  });
}

export function mapShapesSurvey() {
  return qsf({
    blocks: [block('BL_shapes000000001', ['QID81', 'QID82'])],
    flow: [blockFlow('BL_shapes000000001', 'FL_2')],
    questions: mapShapeQuestions(),
  });
}
