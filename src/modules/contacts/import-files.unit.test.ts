import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  checkImportFile,
  type ImportFormat,
  MalformedImportError,
  readImportRecords,
} from './import-files.js';

const dir = mkdtempSync(join(tmpdir(), 'fieldwork-import-files-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
function file(content: string, format: ImportFormat): string {
  const path = join(dir, `f${++n}.${format}`);
  writeFileSync(path, content);
  return path;
}
async function records(path: string, format: ImportFormat) {
  const out = [];
  for await (const record of readImportRecords(path, format)) out.push(record);
  return out;
}

describe('CSV import files', () => {
  it('maps header names to contact fields, whatever their case and spacing; the rest is embedded data', async () => {
    const path = file(
      '\uFEFFE-mail Address,FIRST NAME,last_name,External Data Reference,Plan\r\na@x.io,Ann,"Lee, Jr",E1,"gold"\r\n\r\n',
      'csv',
    );
    expect(await records(path, 'csv')).toEqual([
      {
        row: 1,
        fields: { email: 'a@x.io', firstName: 'Ann', lastName: 'Lee, Jr', extRef: 'E1' },
        embedded: { Plan: 'gold' },
      },
    ]);
  });

  it.each([
    ['a duplicated column', 'email,Email\na,b\n', /appears twice/],
    ['an unnamed column', 'email,\na,b\n', /no name/],
    ['no email or extRef column', 'name\na\n', /email or an extRef/],
    ['a short row', 'email,firstName\na@x.io\n', /line 2/i],
    ['an unclosed quote', 'email\n"a@x.io\n', /quote/i],
    ['an embedded column with a quote', 'email,"a""b"\nx,y\n', /embedded data field/],
  ])('refuses %s', async (_what, content, message) => {
    await expect(checkImportFile(file(content, 'csv'), 'csv')).rejects.toThrow(message);
    await expect(checkImportFile(file(content, 'csv'), 'csv')).rejects.toBeInstanceOf(MalformedImportError);
  });

  it('counts the contacts of a good file and refuses an empty one', async () => {
    expect(await checkImportFile(file('email\na@x.io\nb@x.io\n', 'csv'), 'csv')).toBe(2);
    await expect(checkImportFile(file('', 'csv'), 'csv')).rejects.toThrow(/empty/);
  });
});

describe('JSON import files', () => {
  it('reads an array of contacts and an object holding them in "contacts"', async () => {
    const contacts = [{ email: 'a@x.io' }, { extRef: 'E2', embeddedData: { k: 'v' } }];
    expect((await records(file(JSON.stringify(contacts), 'json'), 'json')).map((r) => r.fields)).toEqual(
      contacts,
    );
    const wrapped = file(`  {"meta": {"x": [1]}, "contacts": ${JSON.stringify(contacts)}}`, 'json');
    expect((await records(wrapped, 'json')).map((r) => r.row)).toEqual([1, 2]);
  });

  it.each([
    ['truncated JSON', '[{"email": "a@x.io"}, {"email"'],
    ['a non-object element', '[{"email": "a@x.io"}, "b@x.io"]'],
    ['a bare string', '"contacts"'],
    ['an empty array', '[]'],
    ['an object without contacts', '{"people": [{"email": "a@x.io"}]}'],
  ])('refuses %s', async (_what, content) => {
    await expect(checkImportFile(file(content, 'json'), 'json')).rejects.toBeInstanceOf(MalformedImportError);
  });

  it('reports how far reading has come', async () => {
    const path = file(
      JSON.stringify(Array.from({ length: 2000 }, (_, i) => ({ email: `u${i}@x.io` }))),
      'json',
    );
    let bytes = 0;
    for await (const _record of readImportRecords(path, 'json', (n) => (bytes = n)));
    expect(bytes).toBeGreaterThan(30_000);
  });
});
