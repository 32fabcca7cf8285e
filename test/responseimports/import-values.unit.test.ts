import { describe, expect, it } from 'vitest';
import { createDateFormatter } from '../../src/modules/exports/formats/dates.js';
import type { ExportColumn } from '../../src/modules/exports/formats/export-layout.js';
import { ImportHeaderError, matchHeader } from '../../src/modules/responseimports/import-columns.js';
import { readDate } from '../../src/modules/responseimports/import-values.js';

describe('readDate: the inverse of the export date cells', () => {
  it('reads wall-clock time in the zone of header row 3, across daylight-saving changes', () => {
    for (const zone of ['America/Denver', 'Europe/Berlin', 'Australia/Lord_Howe']) {
      const format = createDateFormatter(zone);
      for (const iso of ['2026-01-15T12:34:56Z', '2026-07-01T00:00:00Z', '2026-03-29T01:30:00Z']) {
        const ms = Date.parse(iso);
        expect(readDate(format.format(ms), zone)?.toISOString(), `${zone} ${iso}`).toBe(
          new Date(ms).toISOString(),
        );
      }
    }
  });

  it('takes `Z`, ISO 8601 with a zone, and refuses other text', () => {
    expect(readDate('2020-12-04 20:53:12', 'Z')?.toISOString()).toBe('2020-12-04T20:53:12.000Z');
    expect(readDate('2020-12-04T20:53:12+02:00', 'Z')?.toISOString()).toBe('2020-12-04T18:53:12.000Z');
    expect(readDate('04/12/2020 20:53', 'Z')).toBeUndefined();
    expect(readDate('yesterday', 'Z')).toBeUndefined();
  });
});

describe('matchHeader', () => {
  const column = (
    key: string,
    name: string,
    importId: ExportColumn['importId'],
    kind: ExportColumn['kind'],
  ) =>
    ({
      key,
      name,
      text: name,
      importId,
      kind,
      type: key === 'startDate' ? 'date' : 'string',
    }) as ExportColumn;
  const layout = [
    column('startDate', 'StartDate', { ImportId: 'startDate' }, 'metadata'),
    column('QID2_1', 'Q2_1', { ImportId: 'QID2', choiceId: '1' }, 'question'),
    column('QID8#2_1_1', 'sbs#2_1_1', { ImportId: 'QID8#2_1_1' }, 'question'),
    column('panel', 'panel', { ImportId: 'panel' }, 'embedded'),
  ];
  const ids = (...cells: object[]) => cells.map((c) => JSON.stringify(c));

  it('finds columns by ImportId and choiceId, by the two joined, and by name; lists the rest', () => {
    const names = ['StartDate', 'Q2_1', 'sbs#2_1_1', 'renamed', 'Q2_DO_1'];
    const row3 = ids(
      { ImportId: 'startDate', timeZone: 'America/Denver' },
      { ImportId: 'QID2', choiceId: '1' },
      { ImportId: 'QID8#2_1', choiceId: '1' },
      { ImportId: 'panel' },
      { ImportId: 'QID2_DO', choiceId: '1' },
    );
    const match = matchHeader([names, names, row3], layout, 'SV_x');
    expect(match.columns.map((c) => [c.index, c.column.key, c.timeZone])).toEqual([
      [0, 'startDate', 'America/Denver'],
      [1, 'QID2_1', undefined],
      [2, 'QID8#2_1_1', undefined],
      [3, 'panel', undefined],
    ]);
    expect(match.ignored).toEqual(['Q2_DO_1']);
  });

  it('refuses two header rows, a row 3 that is not ImportIds, an unknown zone, a column twice, another survey', () => {
    const refuse = (rows: string[][], pattern: RegExp) =>
      expect(() => matchHeader(rows, layout, 'SV_x')).toThrow(pattern);
    refuse([['Q2_1'], ['Q2_1']], /three header rows/);
    refuse([['Q2_1'], ['x'], ['QID2_1']], /Header row 3, column 1 \(Q2_1\)/);
    refuse(
      [['StartDate'], ['x'], ids({ ImportId: 'startDate', timeZone: 'Mars/Olympus' })],
      /unknown time zone/,
    );
    refuse(
      [['a', 'b'], ['a', 'b'], ids({ ImportId: 'panel' }, { ImportId: 'panel' })],
      /which an earlier column fills/,
    );
    refuse([['Q9'], ['x'], ids({ ImportId: 'QID9' })], /belongs to survey SV_x/);
    expect(() => matchHeader([['Q9'], ['x'], ids({ ImportId: 'QID9' })], layout, 'SV_x')).toThrow(
      ImportHeaderError,
    );
  });
});
