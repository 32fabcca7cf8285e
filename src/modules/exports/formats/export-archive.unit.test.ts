import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { unzip } from '../../../../test/helpers/zip.js';
import { CHUNK_BYTES } from './chunked-output.js';
import { CSV, headerText } from './delimited-writer.js';
import { exportFileName, writeExportArchive } from './export-archive.js';
import type { ExportRow } from './export-layout.js';
import { asyncRows, collect, sampleLayout, sampleRows } from './export-sample.test-helper.js';

async function* manyRows(count: number): AsyncGenerator<ExportRow> {
  const [template] = sampleRows();
  for (let i = 0; i < count; i++) yield { ...(template as ExportRow), responseId: `R_${i}` };
}

describe('export archive', () => {
  it('zips one entry named like the real platform, <Survey Name>.<ext>', async () => {
    const out = collect();
    const result = await writeExportArchive({
      format: 'csv',
      layout: sampleLayout(),
      rows: asyncRows(sampleRows()),
      surveyName: 'API TEST PROJECT',
      destination: out.stream,
    });
    expect(result).toMatchObject({
      rows: 2,
      fileName: 'API TEST PROJECT.zip',
      contentType: 'application/zip',
    });
    const entries = await unzip(out.bytes());
    expect([...entries.keys()]).toEqual(['API TEST PROJECT.csv']);
    const csv = entries.get('API TEST PROJECT.csv')?.toString('utf8') ?? '';
    expect(csv.startsWith(headerText(sampleLayout(), CSV))).toBe(true);
  });

  it('writes the bare file with compress: false, and names every format', async () => {
    const out = collect();
    const result = await writeExportArchive({
      format: 'spss',
      layout: sampleLayout(),
      rows: asyncRows(sampleRows()),
      surveyName: 'a/b: survey',
      compress: false,
      destination: out.stream,
    });
    expect(result).toMatchObject({
      rows: 2,
      fileName: 'a_b: survey.sav',
      contentType: 'application/x-spss-sav',
    });
    expect(out.bytes().subarray(0, 4).toString('latin1')).toBe('$FL2');
    expect(exportFileName('S', 'ndjson')).toBe('S.ndjson');
    expect(exportFileName('S', 'csv2013')).toBe('S.csv');
    expect(exportFileName('  ', 'tsv')).toBe('export.tsv');
  });

  it('hands the destination ~64 KB chunks, not one write per row', async () => {
    const writes: number[] = [];
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        writes.push(chunk.length);
        done();
      },
    });
    const result = await writeExportArchive({
      format: 'ndjson',
      layout: sampleLayout(),
      rows: manyRows(3000),
      surveyName: 'S',
      compress: false,
      destination,
    });
    expect(result.rows).toBe(3000);
    const total = writes.reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThan(1_000_000);
    expect(writes.length).toBeLessThan(total / CHUNK_BYTES + 2);
    for (const size of writes.slice(0, -1)) expect(size).toBeGreaterThanOrEqual(CHUNK_BYTES);
  });

  it('fails the export, not hangs, when the destination fails', async () => {
    const destination = new Writable({
      write(_chunk, _encoding, done) {
        done(new Error('disk full'));
      },
    });
    await expect(
      writeExportArchive({
        format: 'csv',
        layout: sampleLayout(),
        rows: manyRows(50_000),
        surveyName: 'S',
        destination,
      }),
    ).rejects.toThrow('disk full');
  });
});
