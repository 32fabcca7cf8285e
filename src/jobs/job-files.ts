import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Where jobs keep their input and output files: `<dataDir>/jobs`, or the system temporary directory
 * when the database is in memory. Several nodes must share it (a shared volume) when workers run apart
 * from the API (DESIGN.md "Processes and scale").
 */
export async function jobFilesDirectory(dataDir: string): Promise<string> {
  const dir = dataDir === ':memory:' ? join(tmpdir(), 'fieldwork-jobs') : join(dataDir, 'jobs');
  await mkdir(dir, { recursive: true });
  return dir;
}
