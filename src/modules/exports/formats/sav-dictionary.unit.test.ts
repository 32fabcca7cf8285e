import { describe, expect, it } from 'vitest';
import type { ExportColumn } from './export-layout.js';
import { buildDictionary, caseElements, truncateUtf8, validVariableName } from './sav-dictionary.js';

const column = (name: string, extra: Partial<ExportColumn> = {}): ExportColumn => ({
  key: name,
  name,
  text: name,
  importId: { ImportId: name },
  kind: 'question',
  type: 'numeric',
  ...extra,
});

describe('.sav variable names', () => {
  it('turns export tags into valid names the way the real platform does', () => {
    expect(validVariableName('Duration (in seconds)')).toBe('Duration__in_seconds_');
    expect(validVariableName('timing_First Click')).toBe('timing_First_Click');
    expect(validVariableName('sidebyside#1_1')).toBe('sidebyside#1_1');
    expect(validVariableName('Q3.8')).toBe('Q3.8');
    expect(validVariableName('Q3.')).toBe('Q3');
    expect(validVariableName('1st')).toBe('V1st');
    expect(validVariableName('_x')).toBe('V_x');
    expect(validVariableName('by')).toBe('by_');
    expect(validVariableName('Größe')).toBe('Größe');
  });

  it('keeps names within 64 bytes on whole characters and unique regardless of case', () => {
    const long = 'ü'.repeat(40); // 80 bytes
    const variables = buildDictionary([
      column(long),
      column(long),
      column('Q1'),
      column('q1'),
      column('Q1_2'),
    ]);
    const names = variables.map((v) => v.name);
    for (const name of names) expect(Buffer.byteLength(name)).toBeLessThanOrEqual(64);
    expect(names[0]).toBe('ü'.repeat(32));
    expect(names[1]).toBe(`${'ü'.repeat(31)}_2`);
    expect(names.slice(2)).toEqual(['Q1', 'q1_2', 'Q1_2_2']);
    expect(new Set(names.map((n) => n.toUpperCase())).size).toBe(names.length);
  });

  it('gives every record an unused short name of at most 8 upper-case bytes', () => {
    const columns = [
      column('Q1'),
      column('q1'),
      column('ü'),
      column('verylongname_a', { type: 'string', maxBytes: 600 }),
      column('verylongname_b', { type: 'string', maxBytes: 600 }),
    ];
    const shorts = buildDictionary(columns).flatMap((v) => v.segments.map((s) => s.shortName));
    expect(shorts).toHaveLength(1 + 1 + 1 + 3 + 3);
    expect(new Set(shorts).size).toBe(shorts.length);
    for (const short of shorts) expect(short).toMatch(/^[A-Z@][A-Z0-9_@#$]{0,7}$/);
    // Segments of one variable share a 5-character stem, so SPSS joins them.
    expect(shorts.slice(3, 6)).toEqual(['VERYL', 'VERYL0', 'VERYL1']);
  });
});

describe('.sav widths and segments', () => {
  it('sizes strings from maxBytes, defaults to 2000 and splits past 255 bytes', () => {
    const [small, unknown, huge] = buildDictionary([
      column('a', { type: 'string', maxBytes: 3 }),
      column('b', { type: 'string' }),
      column('c', { type: 'string', maxBytes: 100_000 }),
    ]);
    expect(small?.segments.map((s) => s.width)).toEqual([3]);
    expect(unknown?.width).toBe(2000);
    // 2000 bytes: ceil(2000 / 252) = 8 segments, 255 wide but the last (the real file's IPAddress).
    expect(unknown?.segments.map((s) => s.width)).toEqual([255, 255, 255, 255, 255, 255, 255, 236]);
    expect(huge?.width).toBe(32767);
    expect(caseElements([small, unknown].filter((v) => v !== undefined))).toBe(1 + 7 * 32 + 30);
    expect(unknown?.dictionaryIndex).toBe(2);
    expect(huge?.dictionaryIndex).toBe(2 + 7 * 32 + 30);
  });

  it('cuts text on whole UTF-8 characters', () => {
    expect(truncateUtf8('aé€', 3)).toBe('aé');
    expect(truncateUtf8('aé€', 5)).toBe('aé');
    expect(truncateUtf8('aé€', 6)).toBe('aé€');
  });
});
