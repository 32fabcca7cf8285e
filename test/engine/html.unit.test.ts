import { describe, expect, it } from 'vitest';
import { html, plain, rich } from '../../src/web/html.js';

describe('the survey author’s markup', () => {
  it('keeps a few formatting tags without their attributes and drops the rest', () => {
    expect(rich('<b class="x">Bold</b> <span style="color:red" onclick="evil()">red</span>').html).toBe(
      '<b>Bold</b> <span>red</span>',
    );
    expect(rich('<script>alert(1)</script><style>p{}</style>Hi<img src=x onerror=alert(1)>').html).toBe('Hi');
    expect(rich('<a href="javascript:alert(1)">link</a>').html).toBe('link');
  });

  it('escapes text and keeps the characters of entities the author wrote', () => {
    expect(rich('Tom & Jerry < 3 &nbsp;"quoted"').html).toBe('Tom &amp; Jerry &lt; 3 \u00a0"quoted"');
  });

  it('turns block tags into spans shown as blocks for places that take a line of text', () => {
    expect(rich('<div>One</div><ul><li>Two</li></ul><br>', { inline: true }).html).toBe(
      '<span class="fw-block">One</span><span class="fw-block"><span class="fw-block">Two</span></span><br />',
    );
  });

  it('escapes every interpolated value of a template and reads markup as plain text', () => {
    expect(html`<p title="${'"x"'}">${'<b>'}</p>`.html).toBe('<p title="&quot;x&quot;">&lt;b&gt;</p>');
    expect(plain('<b>Fish</b> &amp; chips&nbsp;')).toBe('Fish & chips');
  });
});
