import { describe, expect, it } from 'vitest';
import { unstorableText } from './storable-text.js';

describe('unstorableText', () => {
  it('takes any well-formed text, surrogate pairs included', () => {
    for (const text of ['', 'plain', 'Zoë 🙂 日本', '\t\r\n\u0001\uFFFD'])
      expect(unstorableText(text)).toBeUndefined();
  });

  it('names a NUL and an unpaired surrogate, high or low, wherever it is', () => {
    expect(unstorableText('a\u0000b')).toBe('holds a NUL character (U+0000), which cannot be stored');
    expect(unstorableText('\ud800')).toBe(
      'holds an unpaired surrogate (U+D800), which is not valid Unicode text',
    );
    expect(unstorableText('x\udc00y')).toContain('(U+DC00)');
    expect(unstorableText('🙂\ud83d')).toContain('(U+D83D)');
    expect(unstorableText('\ude42🙂')).toContain('(U+DE42)');
  });
});
