import { createWriteStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { writeExportArchive } from './export-archive.js';
import type { ExportRow } from './export-layout.js';
import { sampleLayout, sampleRows } from './export-sample.test-helper.js';

/**
 * Issue 19, defect 12: a destination that fails while the writer waits for its next row (as it waits for
 * the database) emitted 'error' on a stream nobody listened to, and the process died. Now the export
 * rejects with the destination's own error, zipped or bare, and nothing else is thrown.
 */
const dir = mkdtempSync(join(tmpdir(), 'fieldwork-archive-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Rows that arrive slowly, as from a database: the writer is between writes when the destination fails. */
async function* slowRows(count: number): AsyncGenerator<ExportRow> {
  const [template] = sampleRows();
  for (let i = 0; i < count; i++) {
    await new Promise((resolve) => setTimeout(resolve, 2));
    yield { ...(template as ExportRow), responseId: `R_${i}` };
  }
}

/** A path that cannot be opened: its "directory" is a file. */
function unopenablePath(): string {
  const file = join(dir, `not-a-directory-${Math.random().toString(16).slice(2)}`);
  writeFileSync(file, '');
  return join(file, 'export.zip');
}

describe('an export whose destination fails', () => {
  it.each([true, false])('rejects with the destination error (compress: %s)', async (compress) => {
    const written = writeExportArchive({
      format: 'csv',
      layout: sampleLayout(),
      rows: slowRows(50),
      surveyName: 'S',
      compress,
      destination: createWriteStream(unopenablePath()),
    });
    await expect(written).rejects.toMatchObject({ code: 'ENOTDIR' });
  });

  it.each([true, false])(
    'rejects with the error of a destination that fails while rows still come (compress: %s)',
    async (compress) => {
      let read = 0;
      async function* counted() {
        for await (const row of slowRows(10_000)) {
          read++;
          yield row;
        }
      }
      // A full disk: the first bytes the destination is handed fail, while rows still come.
      const destination = new Writable({
        write(_chunk: Buffer, _encoding, done) {
          done(Object.assign(new Error('disk full'), { code: 'ENOSPC' }));
        },
      });
      const written = writeExportArchive({
        format: 'json',
        layout: sampleLayout(),
        rows: counted(),
        surveyName: 'S',
        compress,
        destination,
      });
      await expect(written).rejects.toMatchObject({ code: 'ENOSPC' });
      expect(read).toBeLessThan(10_000);
    },
  );
});
