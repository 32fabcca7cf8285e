import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type CsvDialect, readCsvRecords, readFileStart, UnreadableFileError } from './import-file.js';

const dir = mkdtempSync(join(tmpdir(), 'fieldwork-import-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
function file(content: string): string {
  const path = join(dir, `f${++n}`);
  writeFileSync(path, content);
  return path;
}

async function records(path: string, dialect: CsvDialect, onBytes?: (bytes: number) => void) {
  const out: string[][] = [];
  for await (const record of readCsvRecords(path, dialect, onBytes)) out.push(record);
  return out;
}

describe('readCsvRecords', () => {
  it('drops the byte-order mark and blank lines, splits on the dialect delimiter, and reports bytes read', async () => {
    const content = '\uFEFFa\tb\r\n\r\n"x, y"\t2\r\n';
    const heard: number[] = [];
    const read = await records(file(content), { delimiter: '\t', maxRecordBytes: 1024 }, (b) =>
      heard.push(b),
    );
    expect(read).toEqual([
      ['a', 'b'],
      ['x, y', '2'],
    ]);
    expect(heard.at(-1)).toBe(Buffer.byteLength(content));
  });

  it('takes ragged rows and stray quotes only when lenient', async () => {
    const path = file('a,b\n1,x"y,3\n');
    expect(await records(path, { maxRecordBytes: 1024, lenient: true })).toEqual([
      ['a', 'b'],
      ['1', 'x"y', '3'],
    ]);
    await expect(records(path, { maxRecordBytes: 1024 })).rejects.toThrow(UnreadableFileError);
  });

  it.each([
    ['a quote left open', 'a,b\n"open,2\n', 1024],
    ['a record over the cap', `a,b\n${'x'.repeat(200)},2\n`, 100],
  ])('refuses %s as an unreadable file', async (_name, content, maxRecordBytes) => {
    const reading = records(file(content), { maxRecordBytes });
    await expect(reading).rejects.toThrow(UnreadableFileError);
    await expect(reading).rejects.toThrow(/^The file cannot be read: /);
  });

  it('passes a missing file on as it is, not as an unreadable one', async () => {
    const reading = records(join(dir, 'missing'), { maxRecordBytes: 1024 });
    await expect(reading).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(reading).rejects.not.toThrow(UnreadableFileError);
  });
});

describe('readFileStart', () => {
  it('answers the first bytes without a byte-order mark or leading white space', async () => {
    expect(await readFileStart(file('\uFEFF \n [{"a":1}]'))).toBe('[{"a":1}]');
    expect((await readFileStart(file('x'.repeat(10_000)), 16)).length).toBe(16);
  });
});
