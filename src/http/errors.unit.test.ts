import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { ERROR_CODES } from './errors.js';

it('documents every error code of the code table, with its status, in docs/errors.md', () => {
  const docs = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');
  for (const [code, { status }] of Object.entries(ERROR_CODES)) {
    expect(docs, code).toMatch(new RegExp(`\\| \`${code.replace('.', '\\.')}\` \\| ${status} \\|`));
  }
});
