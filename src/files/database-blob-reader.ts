import { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import type { Database } from '../tables.js';
import { BlobNotFoundError, type ByteRange, byteSpan } from './blob-store.js';

export interface StoredContent {
  id: string;
  size: number;
  chunk_size: number;
}

/**
 * A stream of a stored content's bytes that fetches chunk N only when the consumer wants more: the
 * buffer holds about one chunk, so memory stays flat whatever the blob's size. Contents never change
 * once written, so chunk queries need no transaction between them.
 */
export function openBlobContent(db: Kysely<Database>, content: StoredContent, range?: ByteRange): Readable {
  const { start, end } = byteSpan(range, content.size);
  return Readable.from(readChunks(db, content, start, end), {
    objectMode: false,
    highWaterMark: content.chunk_size,
  });
}

async function* readChunks(
  db: Kysely<Database>,
  content: StoredContent,
  start: number,
  end: number,
): AsyncGenerator<Buffer> {
  const size = content.chunk_size;
  for (let seq = Math.floor(start / size); seq * size < end; seq++) {
    const chunk = await db
      .selectFrom('blob_chunks')
      .select('data')
      .where('blob_id', '=', content.id)
      .where('seq', '=', seq)
      .executeTakeFirst();
    // Only removeStale deletes a content's chunks: a reader slower than its cutoff fails, never truncates.
    if (!chunk) throw new BlobNotFoundError(`content ${content.id}`);
    const offset = seq * size;
    yield chunk.data.subarray(Math.max(0, start - offset), Math.min(chunk.data.length, end - offset));
  }
}
