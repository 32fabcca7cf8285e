import { describe, expect, it } from 'vitest';
import { qualtricsGraphicId, qualtricsGraphicIdsIn } from './graphic-links.js';
import { sanitizeRichText as clean, type TextMedia } from './rich-text.js';

const IMPORTED = 'IM_aaaaaaaaaaaaaaa';
const media: TextMedia = {
  origin: 'https://survey.example.org',
  graphics: new Map([[IMPORTED, `https://survey.example.org/graphics/${IMPORTED}`]]),
};

describe('the allow-list', () => {
  it('keeps formatting, paragraphs, lists and tables with their structural attributes', () => {
    expect(clean('<p>A <b>bold</b>, <i>slanted</i> and <u>underlined</u> word<sup>1</sup></p>')).toBe(
      '<p>A <b>bold</b>, <i>slanted</i> and <u>underlined</u> word<sup>1</sup></p>',
    );
    expect(clean('<ol start="3"><li>One</li></ol>')).toBe('<ol start="3"><li>One</li></ol>');
    expect(
      clean(
        '<table border="1" width="900"><tr><th scope="col">A</th><td colspan="2" rowspan="x">1</td></tr></table>',
      ),
    ).toBe('<table><tr><th scope="col">A</th><td colspan="2">1</td></tr></table>');
  });

  it('turns the styles that carry meaning into classes and drops the rest', () => {
    expect(
      clean(
        '<p style="text-align: center; color: red"><span style="font-size:22px; font-weight: bolder">Big</span></p>',
      ),
    ).toBe('<p class="fw-align-center"><span class="fw-larger fw-bold">Big</span></p>');
    expect(
      clean('<span style="font-size: 10px; font-style: italic; text-decoration: underline">s</span>'),
    ).toBe('<span class="fw-smaller fw-italic fw-underline">s</span>');
    expect(clean('<center>c</center><td align="right">r</td><font face="Comic" size="7">f</font>')).toBe(
      '<div class="fw-align-center">c</div><td class="fw-align-right">r</td><span>f</span>',
    );
    expect(clean('<b class="qmedia fw-bold" id="x" style="background:url(https://x.test/)">B</b>')).toBe(
      '<b>B</b>',
    );
  });

  it('keeps only web and mail links, which open beside the survey', () => {
    expect(clean('<a href="https://example.org/a?b=1&amp;c=2">x</a>')).toBe(
      '<a href="https://example.org/a?b=1&amp;c=2" target="_blank" rel="noopener">x</a>',
    );
    expect(clean('<a href="mailto:help@example.org" target="_self" rel="opener">m</a>')).toBe(
      '<a href="mailto:help@example.org" target="_self" rel="noopener">m</a>',
    );
    expect(clean('<a href="ftp://example.org/f">f</a> <a href="/jfe/x">g</a> <a>h</a>')).toBe('f g h');
  });
});

describe('nothing that runs', () => {
  it.each([
    ['<script>alert(1)</script>Hi', 'Hi'],
    ['<img src=x onerror=alert(1)>Hi', 'Hi'],
    ['<a href="javascript:alert(1)">link</a>', 'link'],
    ['<a href=" jav&#x09;ascript:alert(1)">link</a>', 'link'],
    ['<a href="JaVaScRiPt:alert(1)">link</a>', 'link'],
    ['<a href="data:text/html,<script>alert(1)</script>">link</a>', 'link'],
    ['<a href="vbscript:msgbox(1)">link</a>', 'link'],
    ['<svg onload=alert(1)><script>alert(1)</script></svg>ok', 'ok'],
    ['<math><mi xlink:href="javascript:alert(1)">m</mi></math>', 'm'],
    ['<iframe srcdoc="<script>alert(1)</script>"></iframe>ok', 'ok'],
    ['<iframe src="javascript:alert(1)"></iframe>ok', 'ok'],
    ['<object data="x.swf"></object><embed src="x.swf">ok', 'ok'],
    ['<style>*{display:none}</style><link rel=stylesheet href=x><meta http-equiv=refresh content=0>ok', 'ok'],
    ['<form action=x><input name=a><button formaction=x>b</button><textarea>t</textarea></form>', 'b'],
    ['<div onmouseover="alert(1)" style="position:fixed">x</div>', '<div>x</div>'],
    ['<details open ontoggle=alert(1)><summary>s</summary></details>', 's'],
    ['<img src="data:image/svg+xml;base64,PHN2Zz4=" alt="svg">', '<span>svg</span>'],
    ['<img src="data:text/html;base64,PHNjcmlwdD4=">', ''],
    ['<<script>script>alert(1)<</script>/script>', expect.not.stringMatching(/<[a-z]/i)],
    ['<scr<script>ipt>alert(1)</script>', expect.not.stringMatching(/<[a-z]/i)],
    ['<!-- <script>alert(1)</script> -->ok', 'ok'],
    ['<img src="https://x.test/a.png" alt="a" onload="alert(1)">', expect.not.stringContaining('onload')],
  ])('%s', (markup, expected) => {
    expect(clean(markup)).toEqual(expected);
  });

  it('escapes text and attribute values', () => {
    expect(clean('Tom & Jerry < 3 "quoted"')).toBe('Tom &amp; Jerry &lt; 3 "quoted"');
    // Words without markup skip the parser and come out as it would write them.
    expect(clean('3 > 2 "quoted"')).toBe('3 &gt; 2 "quoted"');
    expect(clean('3 > 2 "quoted" <b></b>')).toBe('3 &gt; 2 "quoted" <b></b>');
    expect(clean('<img src="/graphics/IM_x&quot; onerror=&quot;alert(1)" alt="a&quot;b">')).toBe(
      '<img src="/graphics/IM_x&quot; onerror=&quot;alert(1)" alt="a&quot;b" />',
    );
  });
});

describe('images and media', () => {
  it('shows an image Fieldwork serves, and names none as decoration only when it has no text', () => {
    expect(
      clean('<img src="https://survey.example.org/graphics/IM_b" alt="Chart" width="300" height="x">', {
        media,
      }),
    ).toBe('<img src="https://survey.example.org/graphics/IM_b" alt="Chart" width="300" />');
    expect(clean('<img src="/graphics/IM_b">')).toBe('<img src="/graphics/IM_b" alt="" />');
    // Paths that browsers read as another host are not Fieldwork's.
    expect(clean('<img src="//evil.test/a.png" alt="a">', { media })).toBe('<span>a</span>');
    expect(clean('<img src="/\\evil.test/a.png" alt="a">', { media })).toBe('<span>a</span>');
    expect(clean('<img src="https://evil.test/a.png" alt="a">')).toContain(
      '<a href="https://evil.test/a.png"',
    );
    expect(clean('<img src="data:image/png;base64,iVBORw0KGgo=">')).toBe(
      '<img src="data:image/png;base64,iVBORw0KGgo=" alt="" />',
    );
  });

  it('shows a Qualtrics graphic the organisation has, and links to one it has not', () => {
    expect(
      clean(`<img src="https://co1.qualtrics.com/ControlPanel/Graphic.php?IM=${IMPORTED}" alt="Cat">`, {
        media,
      }),
    ).toBe(`<img src="https://survey.example.org/graphics/${IMPORTED}" alt="Cat" />`);
    const unknown = 'https://co1.qualtrics.com/CP/Graphic.php?IM=IM_bbbbbbbbbbbbbbb';
    expect(clean(`<img src="${unknown}" alt="Dog">`, { media })).toBe(
      `<a href="${unknown}" target="_blank" rel="noopener">Image: Dog</a>`,
    );
    // Without the page's graphics nothing is rewritten: the same URL is a link.
    expect(clean(`<img src="https://co1.qualtrics.com/ControlPanel/Graphic.php?IM=${IMPORTED}">`)).toContain(
      '>Image</a>',
    );
    expect(
      clean(`<a href="https://co1.qualtrics.com/ControlPanel/Graphic.php?IM=${IMPORTED}">see</a>`, { media }),
    ).toBe(
      `<a href="https://survey.example.org/graphics/${IMPORTED}" target="_blank" rel="noopener">see</a>`,
    );
  });

  it('links to an image, a recording, a video or a frame from another site', () => {
    expect(clean('<img src="https://cdn.example.com/a.png">', { media })).toBe(
      '<a href="https://cdn.example.com/a.png" target="_blank" rel="noopener">Image</a>',
    );
    expect(
      clean(
        '<audio class="qmedia" controls="true"><source src="https://co1.qualtrics.com/ControlPanel/File.php?F=F_1" type="audio/mpeg"><embed src="x.swf"></audio>',
        { media },
      ),
    ).toBe(
      '<a href="https://co1.qualtrics.com/ControlPanel/File.php?F=F_1" target="_blank" rel="noopener">Audio</a>',
    );
    expect(clean('<video src="https://v.example.com/v.mp4" autoplay></video>')).toBe(
      '<a href="https://v.example.com/v.mp4" target="_blank" rel="noopener">Video</a>',
    );
    expect(clean('<video><source src="https://v.example.com/v.webm"></video>')).toBe(
      '<a href="https://v.example.com/v.webm" target="_blank" rel="noopener">Video</a>',
    );
    expect(clean('<iframe src="https://www.youtube.com/embed/x"></iframe>')).toBe(
      '<a href="https://www.youtube.com/embed/x" target="_blank" rel="noopener">Embedded content</a>',
    );
  });
});

describe('inline text', () => {
  it('keeps phrasing content: blocks become spans shown as blocks, tables lines of cells', () => {
    expect(clean('<div>One</div><ul><li>Two</li></ul><br><hr>', { inline: true })).toBe(
      '<span class="fw-block">One</span><span class="fw-block"><span class="fw-block">Two</span></span><br />',
    );
    expect(
      clean('<table><tr><td style="text-align:right">a</td><td>b</td></tr></table>', { inline: true }),
    ).toBe(
      '<span class="fw-block"><span class="fw-block"><span class="fw-align-right fw-cell">a</span><span class="fw-cell">b</span></span></span>',
    );
  });
});

describe('Qualtrics graphic URLs', () => {
  it('names the graphic of the real URL forms only', () => {
    expect(qualtricsGraphicId(`https://co1.qualtrics.com/ControlPanel/Graphic.php?IM=${IMPORTED}`)).toBe(
      IMPORTED,
    );
    expect(qualtricsGraphicId(`https://brand.az1.qualtrics.com/CP/Graphic.php?IM=${IMPORTED}&V=2`)).toBe(
      IMPORTED,
    );
    expect(
      qualtricsGraphicId(`https://qualtrics.com.evil.test/CP/Graphic.php?IM=${IMPORTED}`),
    ).toBeUndefined();
    expect(qualtricsGraphicId(`https://co1.qualtrics.com/CP/File.php?F=${IMPORTED}`)).toBeUndefined();
    expect(qualtricsGraphicId('https://co1.qualtrics.com/CP/Graphic.php?IM=IM_short')).toBeUndefined();
    expect(qualtricsGraphicId('not a url')).toBeUndefined();
  });

  it('finds every graphic a page may name, once', () => {
    const text = JSON.stringify({
      a: `<img src="https://co1.qualtrics.com/ControlPanel/Graphic.php?IM=${IMPORTED}">`,
      b: `<img src='https://co1.qualtrics.com/CP/Graphic.php?V=1&amp;IM=IM_bbbbbbbbbbbbbbb'>`,
      c: `https://co1.qualtrics.com/CP/Graphic.php?IM=${IMPORTED}`,
    });
    expect(qualtricsGraphicIdsIn(text)).toEqual([IMPORTED, 'IM_bbbbbbbbbbbbbbb']);
    expect(qualtricsGraphicIdsIn('<p>No graphics</p>')).toEqual([]);
  });
});
