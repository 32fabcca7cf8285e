// biome-ignore-all lint/suspicious/noTemplateCurlyInString: piped text is written ${…}, in plain strings.
import { describe, expect, it } from 'vitest';
import { type PipedRecipient, renderPipedText, unknownPipedFields } from './piped-text.js';

const ada: PipedRecipient = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.com',
  externalDataReference: 'EXT-1',
  embeddedData: { plan: 'gold', 'Home Town': 'London' },
};
const nobody: PipedRecipient = {
  firstName: null,
  lastName: null,
  email: null,
  externalDataReference: null,
  embeddedData: {},
};
const links = {
  surveyUrl: 'https://surveys.test/jfe/form/SV_1?Q_CHL=email&t=abc',
  optOutUrl: 'https://surveys.test/optout?t=abc',
};

describe('renderPipedText: recipient fields', () => {
  it('fills the four contact fields', () => {
    const out = renderPipedText(
      '<p>${m://FirstName} ${m://LastName} &lt;${m://Email}&gt; (${m://ExternalDataReference})</p>',
      ada,
      links,
    );
    expect(out).toBe('<p>Ada Lovelace &lt;ada@example.com&gt; (EXT-1)</p>');
  });

  it('renders missing contact fields as nothing', () => {
    expect(renderPipedText('Dear ${m://FirstName}${m://LastName}!', nobody, {})).toBe('Dear !');
  });

  it('fills embedded data, by the name as written or %20-encoded, and missing as empty', () => {
    const out = renderPipedText(
      '${e://Field/plan}|${e://Field/Home%20Town}|${e://Field/Home Town}|${e://Field/none}|',
      ada,
      {},
    );
    expect(out).toBe('gold|London|London||');
  });

  it('does not read inherited properties as embedded data', () => {
    expect(renderPipedText('[${e://Field/constructor}][${e://Field/__proto__}]', ada, {})).toBe('[][]');
  });

  it('HTML-escapes every value', () => {
    const evil: PipedRecipient = {
      firstName: '<script>alert(1)</script>',
      lastName: `O'Brien & "Sons"`,
      email: null,
      externalDataReference: null,
      embeddedData: { x: '<img src=x onerror=alert(1)>' },
    };
    const out = renderPipedText('${m://FirstName} ${m://LastName} ${e://Field/x}', evil, {});
    expect(out).toBe(
      '&lt;script&gt;alert(1)&lt;/script&gt; O&#39;Brien &amp; &quot;Sons&quot; &lt;img src=x onerror=alert(1)&gt;',
    );
  });

  it('does not re-interpret piped text inside a value', () => {
    const sneaky = { ...nobody, firstName: '${m://Email}', email: 'secret@example.com' };
    expect(renderPipedText('${m://FirstName}', sneaky, {})).toBe('${m://Email}');
  });

  it('keeps unicode in values and around fields', () => {
    const zoe = { ...nobody, firstName: 'Zoë 🙂', embeddedData: { städt: '東京' } };
    expect(renderPipedText('¡Hola ${m://FirstName}! ${e://Field/städt} ✓', zoe, {})).toBe(
      '¡Hola Zoë 🙂! 東京 ✓',
    );
  });
});

describe('renderPipedText: links', () => {
  it('puts the bare survey and opt-out URLs, escaped for an attribute', () => {
    const out = renderPipedText('<a href="${l://SurveyURL}">go</a> ${l://OptOutURL}', nobody, links);
    expect(out).toBe(
      '<a href="https://surveys.test/jfe/form/SV_1?Q_CHL=email&amp;t=abc">go</a> https://surveys.test/optout?t=abc',
    );
  });

  it('makes a survey link with the platform default text', () => {
    expect(renderPipedText('${l://SurveyLink}', nobody, links)).toBe(
      '<a href="https://surveys.test/jfe/form/SV_1?Q_CHL=email&amp;t=abc">Take the Survey</a>',
    );
  });

  it('makes an opt-out link with the platform default text', () => {
    expect(renderPipedText('${l://OptOutLink}', nobody, links)).toBe(
      '<a href="https://surveys.test/optout?t=abc">Click here to unsubscribe</a>',
    );
  });

  it('takes the link text from d, URL-encoded or not, and escapes it', () => {
    expect(renderPipedText('${l://SurveyLink?d=Start%20now}', nobody, links)).toContain('>Start now</a>');
    expect(renderPipedText("${l://OptOutLink?d=I'm done}", nobody, links)).toContain('>I&#39;m done</a>');
    expect(renderPipedText('${l://SurveyLink?d=Q&A = fun}', nobody, links)).toContain('>Q&amp;A = fun</a>');
    expect(renderPipedText('${l://SurveyLink?d=100% sure}', nobody, links)).toContain('>100% sure</a>');
    expect(renderPipedText('${l://SurveyLink?d=%3Cb%3Ex%3C%2Fb%3E}', nobody, links)).toContain(
      '>&lt;b&gt;x&lt;/b&gt;</a>',
    );
    expect(renderPipedText('${l://SurveyLink?d=Umfrage%20%C3%B6ffnen}', nobody, links)).toContain(
      '>Umfrage öffnen</a>',
    );
  });

  it('uses the default text when d is empty', () => {
    expect(renderPipedText('${l://SurveyLink?d=}', nobody, links)).toContain('>Take the Survey</a>');
  });

  it('renders links as nothing when the sender has no such URL', () => {
    expect(
      renderPipedText(
        '[${l://SurveyLink}][${l://SurveyURL}][${l://OptOutLink?d=x}][${l://OptOutURL}]',
        ada,
        {},
      ),
    ).toBe('[][][][]');
  });

  it('refuses URLs that are not absolute http(s)', () => {
    const bad = { surveyUrl: 'javascript:alert(1)', optOutUrl: '/relative/path' };
    expect(renderPipedText('[${l://SurveyLink}][${l://SurveyURL}][${l://OptOutURL}]', nobody, bad)).toBe(
      '[][][]',
    );
  });

  it('escapes a quote in a URL so it cannot leave the attribute', () => {
    const out = renderPipedText('${l://SurveyLink}', nobody, {
      surveyUrl: 'https://x.test/a"onmouseover="alert(1)',
    });
    expect(out).toBe('<a href="https://x.test/a&quot;onmouseover=&quot;alert(1)">Take the Survey</a>');
  });
});

describe('renderPipedText: unknown and malformed fields', () => {
  it('renders an unknown field as nothing, never the raw ${…}', () => {
    const out = renderPipedText(
      'a${q://QID1/ChoiceGroup/SelectedChoices}b${}c${m://firstname}d${l://SurveyLink?x=1}e',
      ada,
      links,
    );
    expect(out).toBe('abcde');
  });

  it('leaves a ${ without a closing } as written', () => {
    expect(renderPipedText('Price: ${m://FirstName', ada, {})).toBe('Price: ${m://FirstName');
    expect(renderPipedText('${', ada, {})).toBe('${');
    expect(renderPipedText('$', ada, {})).toBe('$');
  });

  it('still fills fields after an unclosed ${', () => {
    expect(renderPipedText('${oops ${m://FirstName} end', ada, {})).toBe('${oops Ada end');
  });

  it('treats a field containing another field as one unknown field', () => {
    expect(renderPipedText('<${e://Field/${m://FirstName}}>', ada, {})).toBe('<>');
    expect(renderPipedText('${a{b}c} ${m://LastName}', ada, {})).toBe(' Lovelace');
  });

  it('passes braces and dollars that are not piped text through', () => {
    const html = '<style>p{color:red}</style><p>$5 {x} }{ $ {</p>';
    expect(renderPipedText(html, ada, links)).toBe(html);
  });

  it('fills adjacent and repeated fields', () => {
    expect(renderPipedText('${m://FirstName}${m://FirstName}$${m://LastName}', ada, {})).toBe(
      'AdaAda$Lovelace',
    );
  });

  it('stays linear on a megabyte of unclosed ${', () => {
    const template = '${'.repeat(500_000);
    const started = performance.now();
    expect(renderPipedText(template, ada, links)).toBe(template);
    expect(performance.now() - started).toBeLessThan(2000);
  });
});

describe('unknownPipedFields', () => {
  it('lists unknown fields once each, in order, as written', () => {
    const template =
      '${q://QID1/ChoiceGroup/SelectedChoices} ${m://FirstName} ${x://y} ${q://QID1/ChoiceGroup/SelectedChoices} ${e://Field/a}';
    expect(unknownPipedFields(template)).toEqual(['${q://QID1/ChoiceGroup/SelectedChoices}', '${x://y}']);
  });

  it('knows every supported field', () => {
    const template =
      '${m://FirstName}${m://LastName}${m://Email}${m://ExternalDataReference}${e://Field/any thing}' +
      '${l://SurveyURL}${l://SurveyLink}${l://SurveyLink?d=Go}${l://OptOutLink?d=Stop}${l://OptOutURL}';
    expect(unknownPipedFields(template)).toEqual([]);
  });

  it('reports malformed known-looking fields', () => {
    expect(unknownPipedFields('${} ${e://Field/} ${l://SurveyLink?x=1} ${e://Field/${m://Email}}')).toEqual([
      '${}',
      '${e://Field/}',
      '${l://SurveyLink?x=1}',
      '${e://Field/${m://Email}}',
    ]);
  });

  it('ignores an unclosed ${', () => {
    expect(unknownPipedFields('cost ${ and ${q://QID2')).toEqual([]);
  });
});
