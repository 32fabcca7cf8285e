import { describe, expect, it } from 'vitest';
import { AuthoredTexts } from '../modules/surveys/compiled-survey.js';
import type { QsfDocument } from '../modules/surveys/definition/qsf.js';
import { sanitizeRichText as clean, type TextMedia } from './rich-text.js';

/**
 * A survey version keeps the sanitized HTML of its author's texts (decision 0012): a text is sanitized
 * once, unless its HTML depends on the request (an image: the page's origin; a Qualtrics graphic URL: the
 * organisation's graphics), which is sanitized every time.
 */
const IMPORTED = 'IM_aaaaaaaaaaaaaaa';
const QUALTRICS = `https://co1.qualtrics.com/ControlPanel/Graphic.php?IM=${IMPORTED}`;
const TEXTS = [
  '<p style="font-weight: bold">Rate <script>x()</script>us</p>',
  '<img src="/graphics/IM_bbbbbbbbbbbbbbb" alt="Chart"> Which?',
  `<a href="${QUALTRICS}">The chart</a>`,
  '<a href="https://example.org/">More</a>',
];
const versionTexts = () =>
  new AuthoredTexts({ SurveyElements: [{ texts: TEXTS }] } as unknown as QsfDocument);
const mediaAt = (origin: string, texts: AuthoredTexts): TextMedia => ({
  origin,
  graphics: new Map([[IMPORTED, `${origin}/graphics/${IMPORTED}`]]),
  texts,
});

describe("a version's sanitized texts", () => {
  it('are kept once sanitized, and drawn from the memo after', () => {
    const texts = versionTexts();
    const media = mediaAt('https://a.example', texts);
    const [styled = '', link = ''] = [TEXTS[0], TEXTS[3]];
    expect(clean(styled, { media })).toBe('<p class="fw-bold">Rate us</p>');
    expect(texts.get('block', styled)).toBe('<p class="fw-bold">Rate us</p>');
    expect(clean(link, { inline: true, media })).toBe(
      '<a href="https://example.org/" target="_blank" rel="noopener">More</a>',
    );
    expect(texts.get('inline', link)).toBe(clean(link, { inline: true }));
    expect(texts.get('block', link)).toBeUndefined();
    // What the memo holds is what the page gets.
    texts.set('block', styled, '<p>kept</p>');
    expect(clean(styled, { media })).toBe('<p>kept</p>');
    expect(clean(styled)).toBe('<p class="fw-bold">Rate us</p>');
  });

  it('are not kept when their HTML depends on the origin or the graphics of the request', () => {
    const texts = versionTexts();
    const [image = '', graphicLink = ''] = [TEXTS[1], TEXTS[2]];
    const atA = clean(image, { media: mediaAt('https://a.example', texts) });
    expect(atA).toBe('<img src="/graphics/IM_bbbbbbbbbbbbbbb" alt="Chart" /> Which?');
    expect(texts.get('block', image)).toBeUndefined();
    const linkAtA = clean(graphicLink, { media: mediaAt('https://a.example', texts) });
    const linkAtB = clean(graphicLink, { media: mediaAt('https://b.example', texts) });
    expect(linkAtA).toContain(`href="https://a.example/graphics/${IMPORTED}"`);
    expect(linkAtB).toContain(`href="https://b.example/graphics/${IMPORTED}"`);
    expect(texts.get('block', graphicLink)).toBeUndefined();
  });

  it('are not kept when the definition does not hold them as written (piped text)', () => {
    const texts = versionTexts();
    const piped = '<b>Hello Ana</b>';
    expect(clean(piped, { media: mediaAt('https://a.example', texts) })).toBe('<b>Hello Ana</b>');
    expect(texts.get('block', piped)).toBeUndefined();
  });
});
