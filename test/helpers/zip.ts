import { promisify } from 'node:util';
import { fromBuffer, type ZipFile } from 'yauzl';

/** The entries of a zip: name → content. */
export async function unzip(zip: Buffer): Promise<Map<string, Buffer>> {
  const file = await promisify<Buffer, { lazyEntries: boolean }, ZipFile>(fromBuffer)(zip, {
    lazyEntries: true,
  });
  const entries = new Map<string, Buffer>();
  await new Promise<void>((resolve, reject) => {
    file.on('entry', (entry) => {
      file.openReadStream(entry, (error, stream) => {
        if (error) return reject(error);
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('error', reject);
        stream.on('end', () => {
          entries.set(entry.fileName, Buffer.concat(chunks));
          file.readEntry();
        });
      });
    });
    file.on('end', resolve);
    file.on('error', reject);
    file.readEntry();
  });
  return entries;
}
