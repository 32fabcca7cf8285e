import { describe, expect, it } from 'vitest';
import { regionShapes, shapesHold } from './map-regions.js';

// A triangle whose bounding box is 0..100 × 0..100: the box's top right corner is outside it.
const TRIANGLE = [
  { X: 0, Y: 100 },
  { X: 50, Y: 0 },
  { X: 100, Y: 100 },
];

describe('map regions', () => {
  it('reads a box, and polygons before the box beside them', () => {
    expect(regionShapes({ X: '10', Y: 20, Width: 30, Height: 40 })).toEqual([
      { kind: 'box', x: 10, y: 20, width: 30, height: 40 },
    ]);
    expect(
      regionShapes({ X: 0, Y: 0, Width: 100, Height: 100, Type: 'Polygon', Shapes: [TRIANGLE] }),
    ).toEqual([
      {
        kind: 'polygon',
        points: [
          [0, 100],
          [50, 0],
          [100, 100],
        ],
      },
    ]);
    // Points as pairs, or under `Points`; a shape of fewer than three points is left out.
    expect(
      regionShapes({
        Shapes: [
          [
            [0, 0],
            [10, 0],
            [0, 10],
          ],
          {
            Points: [
              { x: 20, y: 20 },
              { x: 30, y: 20 },
              { x: 20, y: 30 },
            ],
          },
          [[1, 1]],
        ],
      }).map((s) => s.kind),
    ).toEqual(['polygon', 'polygon']);
    // Empty shapes fall back to the box; no box and no shape: not on the image.
    expect(regionShapes({ Shapes: [[]], X: 1, Y: 2, Width: 3, Height: 4 })).toHaveLength(1);
    expect(regionShapes({ Width: 0, Height: 4, X: 1, Y: 1 })).toEqual([]);
    expect(regionShapes(undefined)).toEqual([]);
  });

  it('hit-tests boxes and polygons, edges included', () => {
    const triangle = regionShapes({ Shapes: [TRIANGLE], X: 0, Y: 0, Width: 100, Height: 100 });
    expect(shapesHold(triangle, 50, 50)).toBe(true);
    expect(shapesHold(triangle, 50, 0)).toBe(true); // the apex
    expect(shapesHold(triangle, 25, 50)).toBe(true); // on the left edge
    expect(shapesHold(triangle, 95, 5)).toBe(false); // inside the box, outside the triangle
    expect(shapesHold(triangle, 5, 5)).toBe(false);
    const box = regionShapes({ X: 10, Y: 10, Width: 10, Height: 10 });
    expect([shapesHold(box, 10, 10), shapesHold(box, 20, 20), shapesHold(box, 21, 15)]).toEqual([
      true,
      true,
      false,
    ]);
    // Two shapes: either holds the point.
    const two = regionShapes({
      Shapes: [
        TRIANGLE,
        [
          { X: 200, Y: 0 },
          { X: 300, Y: 0 },
          { X: 300, Y: 100 },
        ],
      ],
    });
    expect([shapesHold(two, 290, 10), shapesHold(two, 210, 90), shapesHold(two, 150, 50)]).toEqual([
      true,
      false,
      false,
    ]);
  });
});
