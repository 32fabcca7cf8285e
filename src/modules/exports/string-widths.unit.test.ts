import { describe, expect, it } from 'vitest';
import type { ExportColumn, ExportLayout } from './formats/export-layout.js';
import { applyStringWidths } from './string-widths.js';

const column = (
  key: string,
  kind: ExportColumn['kind'],
  extra: Partial<ExportColumn> = {},
): ExportColumn => ({
  key,
  name: key,
  text: key,
  importId: { ImportId: key },
  kind,
  type: 'string',
  ...extra,
});

function layout(): ExportLayout {
  return {
    columns: [
      column('ipAddress', 'metadata', { maxBytes: 45 }),
      column('QID3_TEXT', 'question'),
      column('QID2', 'question', { maxBytes: 5 }), // a joined set: derived, in no stored row
      column('panel', 'embedded'),
      column('QID1', 'question', { type: 'numeric' }),
    ],
  };
}

const widths = (l: ExportLayout) => Object.fromEntries(l.columns.map((c) => [c.key, c.maxBytes]));

describe('applyStringWidths', () => {
  it('sets measured widths, replacing metadata presets but keeping a larger derived-column bound', () => {
    const l = layout();
    applyStringWidths(
      l,
      new Map([
        ['ipAddress', 9],
        ['QID3_TEXT', 300],
        ['QID2', 3],
        ['panel', 0],
      ]),
      {},
    );
    expect(widths(l)).toEqual({ ipAddress: 9, QID3_TEXT: 300, QID2: 5, panel: 0, QID1: undefined });
  });

  it('makes question columns room for the seen-but-unanswered recode (in bytes), not other columns', () => {
    const l = layout();
    applyStringWidths(l, new Map([['QID3_TEXT', 3]]), { seenUnansweredRecode: 'vu non répondu' });
    expect(widths(l)).toEqual({ ipAddress: 0, QID3_TEXT: 15, QID2: 15, panel: 0, QID1: undefined });
  });
});
