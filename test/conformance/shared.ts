import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** ../shared beside the repository (CI clones main with shared/ next to it). */
export const SHARED = fileURLToPath(new URL('../../../shared/', import.meta.url));

export function requireShared(): void {
  if (!existsSync(SHARED))
    throw new Error(`The conformance suite needs the shared reference data at ${SHARED}`);
}
