import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, opendir, rename, rm, stat, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  type BlobInfo,
  BlobNotFoundError,
  type BlobSource,
  type BlobStore,
  type ByteRange,
  byteSpan,
  checkBlobKey,
} from './blob-store.js';

// Blobs are private to the service: only its own user reads them (uploads hold respondents' data).
const FILE_MODE = 0o600;
const DIRECTORY_MODE = 0o700;
const READ_CHUNK = 256 * 1024;
// Temporary files start with a dot, which no key segment may (checkBlobKey), so they never collide.
const TEMPORARY = /^\.[0-9a-f]{16}\.tmp$/;

/**
 * Blobs as files under `root`, one per key (`<root>/<orgId>/exports/<id>.zip`). A save writes a
 * temporary file beside its target and renames it into place, so a reader opens the old file or the
 * new one, and an open file keeps its content even when replaced or removed meanwhile.
 */
export function createDirectoryBlobStore(root: string): BlobStore {
  const pathOf = (key: string) => {
    checkBlobKey(key);
    return join(root, key);
  };
  return {
    // async, so a refused key rejects like every other failure instead of throwing on the spot
    save: async (key, source) => saveFile(pathOf(key), key, source),
    open: async (key, range) => openFile(pathOf(key), key, range),
    stat: async (key) => statFile(pathOf(key), key),
    remove: async (key) => {
      await unlink(pathOf(key)).catch(ignoreMissing);
    },
    rename: async (from, to) => {
      const [source, target] = [pathOf(from), pathOf(to)];
      await mkdir(dirname(target), { recursive: true, mode: DIRECTORY_MODE });
      await rename(source, target).catch((error: unknown) => {
        throw isMissing(error) ? new BlobNotFoundError(from) : error;
      });
    },
    removeStale: (olderThan) => removeTemporaryFiles(root, olderThan),
  };
}

async function saveFile(path: string, key: string, source: BlobSource): Promise<BlobInfo> {
  await mkdir(dirname(path), { recursive: true, mode: DIRECTORY_MODE });
  const temporary = join(dirname(path), `.${randomBytes(8).toString('hex')}.tmp`);
  let size = 0;
  const count = async function* (chunks: BlobSource) {
    for await (const chunk of chunks) {
      size += chunk.length;
      yield chunk;
    }
  };
  let createdAt: Date;
  try {
    // `flush`: on disk before it has a name readers can open, so a crash never leaves a named, half-written blob.
    await pipeline(
      source,
      count,
      createWriteStream(temporary, { flags: 'wx', mode: FILE_MODE, flush: true }),
    );
    createdAt = (await stat(temporary)).mtime;
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  return { key, size, createdAt };
}

async function openFile(path: string, key: string, range?: ByteRange): Promise<Readable> {
  const handle = await open(path, 'r').catch((error: unknown) => {
    throw isMissing(error) ? new BlobNotFoundError(key) : error;
  });
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new BlobNotFoundError(key);
    const { start, end } = byteSpan(range, info.size);
    if (start === end) {
      await handle.close();
      return Readable.from([]);
    }
    return handle.createReadStream({ start, end: end - 1, highWaterMark: READ_CHUNK });
  } catch (error) {
    await handle.close();
    throw error;
  }
}

async function statFile(path: string, key: string): Promise<BlobInfo | undefined> {
  const info = await stat(path).catch(ignoreMissing);
  if (!info?.isFile()) return undefined;
  return { key, size: info.size, createdAt: info.mtime };
}

/** Temporary files that interrupted saves (a crash, a killed process) left behind. */
async function removeTemporaryFiles(root: string, olderThan: Date): Promise<number> {
  let removed = 0;
  const visit = async (dir: string): Promise<void> => {
    const entries = await opendir(dir).catch(ignoreMissing);
    if (!entries) return;
    for await (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await visit(path);
      else if (TEMPORARY.test(entry.name) && (await isOlder(path, olderThan))) {
        await rm(path, { force: true });
        removed++;
      }
    }
  };
  await visit(root);
  return removed;
}

async function isOlder(path: string, than: Date): Promise<boolean> {
  const info = await stat(path).catch(ignoreMissing);
  return info !== undefined && info.mtime < than;
}

function isMissing(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

function ignoreMissing(error: unknown): undefined {
  if (isMissing(error)) return undefined;
  throw error;
}
