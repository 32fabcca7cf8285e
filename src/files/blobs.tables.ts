/**
 * The database blob store's tables (files/database-blob-store.ts). A `blobs` row is one stored content; it
 * has a `key` only while it is the live blob under that key. Its bytes are `blob_chunks` rows of
 * `chunk_size` bytes each (the last one shorter), deleted with the row.
 */
export interface BlobsTable {
  id: string;
  /** The key while live; null while being written and once replaced or removed. */
  key: string | null;
  organization_id: string;
  /** `writing`, `live`, or `replaced` (kept a while for readers still streaming it). */
  state: string;
  size: number;
  chunk_size: number;
  /** When the row entered its state (ISO 8601 UTC): the save's end for a live blob. */
  created_at: string;
}

export interface BlobChunksTable {
  blob_id: string;
  seq: number;
  data: Buffer;
}

export interface BlobTables {
  blobs: BlobsTable;
  blob_chunks: BlobChunksTable;
}
