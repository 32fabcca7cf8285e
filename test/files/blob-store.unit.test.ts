import { describe, expect, it } from 'vitest';
import { ConfigError, readConfig } from '../../src/config.js';
import { byteSpan, checkBlobKey, InvalidBlobKeyError } from '../../src/files/blob-store.js';
import { fixedChunks } from '../../src/files/database-blob-store.js';

describe('--blob-store', () => {
  it('defaults to the directory, takes FIELDWORK_BLOB_STORE, and the flag over it', () => {
    expect(readConfig({}, {}).blobStore).toBe('directory');
    expect(readConfig({}, { FIELDWORK_BLOB_STORE: 'database' }).blobStore).toBe('database');
    expect(readConfig({ blobStore: 'directory' }, { FIELDWORK_BLOB_STORE: 'database' }).blobStore).toBe(
      'directory',
    );
  });

  it.each([
    [{ blobStore: 's3' }, {}, '--blob-store must be one of directory, database, got "s3"'],
    [{}, { FIELDWORK_BLOB_STORE: 'Database' }, 'FIELDWORK_BLOB_STORE must be one of directory, database'],
  ])('refuses %j %j, naming the setting', (input, env, message) => {
    expect(() => readConfig(input, env)).toThrow(ConfigError);
    expect(() => readConfig(input, env)).toThrow(message);
  });
});

describe('checkBlobKey', () => {
  it('returns the organisation a key belongs to', () => {
    expect(checkBlobKey('org1/exports/EXP_1.zip')).toBe('org1');
    expect(checkBlobKey('org1/tmp/attempt-3')).toBe('org1');
  });

  it('refuses keys that could name a path outside the store', () => {
    for (const key of ['..', 'org1/..', '../org1/x', 'org1/x/../../..', 'C:\\x', 'org1/\u00e9t\u00e9'])
      expect(() => checkBlobKey(key), key).toThrow(InvalidBlobKeyError);
  });
});

describe('byteSpan', () => {
  it('turns inclusive ranges into half-open spans clipped to the size', () => {
    expect(byteSpan(undefined, 10)).toEqual({ start: 0, end: 10 });
    expect(byteSpan({ start: 2, end: 4 }, 10)).toEqual({ start: 2, end: 5 });
    expect(byteSpan({ start: 8, end: 100 }, 10)).toEqual({ start: 8, end: 10 });
    expect(byteSpan({ start: 12 }, 10)).toEqual({ start: 10, end: 10 });
    expect(byteSpan(undefined, 0)).toEqual({ start: 0, end: 0 });
  });

  it.each([[{ start: -1 }], [{ start: 5, end: 3 }], [{ start: 1.5 }]])('refuses %j', (range) => {
    expect(() => byteSpan(range, 10)).toThrow(RangeError);
  });
});

describe('fixedChunks', () => {
  it('regroups pieces of any size into chunks of exactly the size, the last shorter', async () => {
    const data = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 251));
    const pieces = [data.subarray(0, 1), data.subarray(1, 700), data.subarray(700, 701), data.subarray(701)];
    const chunks: Buffer[] = [];
    for await (const chunk of fixedChunks(pieces, 256)) chunks.push(chunk);
    expect(chunks.map((chunk) => chunk.length)).toEqual([256, 256, 256, 232]);
    expect(Buffer.concat(chunks).equals(data)).toBe(true);
  });

  it('yields nothing for an empty source', async () => {
    const chunks: Buffer[] = [];
    for await (const chunk of fixedChunks([], 256)) chunks.push(chunk);
    expect(chunks).toEqual([]);
  });
});
