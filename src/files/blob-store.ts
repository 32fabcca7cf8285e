import type { Readable } from 'node:stream';

/**
 * Where job files, exports and uploads live (issue 18 item 5). Two backends share this interface: a
 * directory (the default) and the database (chunked rows), so nodes on different machines can share
 * files with nothing but PostgreSQL. Everything streams: no backend holds a whole blob in memory.
 *
 * Keys are organisation-scoped paths such as `<orgId>/exports/<id>.zip` (see `checkBlobKey`).
 */
export interface BlobStore {
  /**
   * Streams `source` into the blob `key`, replacing any blob there only once the whole source has been
   * stored: readers see the old blob or the new one, never part of one. A source that fails leaves the
   * old blob (or nothing) and no partial data behind. The source must not reuse a buffer it has yielded.
   */
  save(key: string, source: BlobSource): Promise<BlobInfo>;
  /** The blob's bytes (all, or `range`); throws `BlobNotFoundError` when there is none. */
  open(key: string, range?: ByteRange): Promise<Readable>;
  /** The blob's size and when it was stored; `undefined` when there is none. */
  stat(key: string): Promise<BlobInfo | undefined>;
  /** Removes the blob; removing a missing blob is not an error. */
  remove(key: string): Promise<void>;
  /**
   * Moves `from` to `to` in one step, replacing `to` (a job attempt writes its own temporary blob, then
   * renames it into place). Throws `BlobNotFoundError` when `from` is missing.
   */
  rename(from: string, to: string): Promise<void>;
  /**
   * Deletes what interrupted saves left behind, and replaced or removed contents kept for readers still
   * streaming them, when older than `olderThan`. Pick a cutoff beyond the longest save or download.
   * Returns how many leftovers it deleted.
   */
  removeStale(olderThan: Date): Promise<number>;
}

export type BlobSource = Readable | AsyncIterable<Uint8Array> | Iterable<Uint8Array>;

export interface BlobInfo {
  key: string;
  size: number;
  createdAt: Date;
}

/** Byte offsets as in HTTP ranges and `fs.createReadStream`: `end` is inclusive; absent means to the end. */
export interface ByteRange {
  start: number;
  end?: number;
}

export class BlobNotFoundError extends Error {
  readonly code = 'BLOB_NOT_FOUND';
  constructor(readonly key: string) {
    super(`no blob at ${key}`);
    this.name = 'BlobNotFoundError';
  }
}

export class InvalidBlobKeyError extends Error {
  readonly code = 'INVALID_BLOB_KEY';
  constructor(readonly key: string) {
    super(
      `invalid blob key ${JSON.stringify(key)}: expected <organizationId>/<segment>/..., no "." segments`,
    );
    this.name = 'InvalidBlobKeyError';
  }
}

// A segment is a plain file name: no separators, no leading dot (so no `.`, `..` or hidden names, which
// the directory backend keeps for its temporary files), nothing a shell or a file system treats specially.
const SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9_.=-]{0,127}$/;
const MAX_KEY_LENGTH = 512;

/**
 * Checks a key and returns its organisation (the first segment). A key has at least two segments, so every
 * blob belongs to an organisation, and can never name anything outside the store.
 */
export function checkBlobKey(key: string): string {
  const segments = typeof key === 'string' && key.length <= MAX_KEY_LENGTH ? key.split('/') : [];
  if (segments.length < 2 || !segments.every((segment) => SEGMENT.test(segment)))
    throw new InvalidBlobKeyError(String(key));
  return segments[0] as string;
}

/** Turns an optional range into half-open `[start, end)` offsets within a blob of `size` bytes. */
export function byteSpan(range: ByteRange | undefined, size: number): { start: number; end: number } {
  const start = range?.start ?? 0;
  const end = range?.end === undefined ? Math.max(size, start) : range.end + 1;
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || end < start)
    throw new RangeError(`invalid byte range ${JSON.stringify(range)}`);
  return { start: Math.min(start, size), end: Math.min(end, size) };
}
