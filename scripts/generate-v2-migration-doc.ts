/**
 * Writes docs/migrating-from-v2.md from the table of version 2 commands (src/modules/legacy/v2-commands.ts).
 * `npm run docs:v2`; test/legacy fails when the committed page differs from what this writes.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderMigrationDoc } from '../src/modules/legacy/v2-migration-doc.js';

const target = fileURLToPath(new URL('../docs/migrating-from-v2.md', import.meta.url));
writeFileSync(target, renderMigrationDoc());
process.stdout.write(`wrote ${target}\n`);
