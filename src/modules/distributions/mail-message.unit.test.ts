// biome-ignore-all lint/suspicious/noTemplateCurlyInString: piped text is written ${…}, in plain strings.
import { describe, expect, it } from 'vitest';
import { htmlToText } from './html-text.js';
import { composeMail } from './mail-message.js';

const recipient = {
  firstName: 'Zoë',
  lastName: "O'Neil & Co",
  email: 'zoe@example.com',
  extRef: 'X1',
  language: 'fr',
  embeddedData: { Team: 'Blue' },
};
const links = {
  surveyUrl: 'https://survey.example.org/jfe/form/SV_1/l/abc',
  optOutUrl: 'https://survey.example.org/mail/optout/tok',
  openUrl: 'https://survey.example.org/mail/open/tok',
};

describe('one recipient’s message', () => {
  it('fills the piped text, in the recipient’s language, and keeps the subject plain text', () => {
    const mail = composeMail(
      {
        body: {
          en: '<p>Hi ${m://FirstName}</p>',
          fr: '<p>Salut ${m://FirstName} (${e://Field/Team})</p>${l://SurveyLink}${l://OptOutLink}',
        },
        subject: 'For ${m://LastName} <3 & ${m://FirstName}',
      },
      recipient,
      links,
    );
    expect(mail.html).toContain('Salut Zoë (Blue)');
    expect(mail.subject).toBe("For O'Neil & Co <3 & Zoë");
    expect(mail.html).toContain(`<a href="${links.surveyUrl}">`);
    expect(mail.html).toContain(`<img src="${links.openUrl}" width="1" height="1" alt="">`);
  });

  it('adds an opt-out link, and a survey link, when the message has none', () => {
    const mail = composeMail({ body: { en: '<p>Hello</p>' }, subject: 'S' }, recipient, links);
    expect(mail.html).toContain(`<a href="${links.optOutUrl}">Unsubscribe</a>`);
    expect(mail.html).toContain(`<a href="${links.surveyUrl}">`);
    const thanks = composeMail({ body: { en: '<p>Thanks</p>' }, subject: 'S' }, recipient, {
      optOutUrl: links.optOutUrl,
      openUrl: links.openUrl,
    });
    expect(thanks.html).not.toContain('/jfe/');
    expect(thanks.html).toContain('Unsubscribe');
  });

  it('has a text alternative with the links written out and no image', () => {
    const mail = composeMail(
      { body: { en: '<p>Hello ${m://FirstName},</p><p>${l://SurveyLink?d=Start}</p>' }, subject: 'S' },
      { ...recipient, language: null },
      links,
    );
    expect(mail.text).toContain('Hello Zoë,');
    expect(mail.text).toContain(`Start (${links.surveyUrl})`);
    expect(mail.text).not.toContain('<');
    expect(mail.text).not.toContain('/mail/open/');
  });
});

describe('htmlToText', () => {
  it('breaks blocks into lines, lists into dashes, decodes entities and drops style', () => {
    const text = htmlToText(
      '<style>p{color:red}</style><h1>Title</h1><p>A &amp; B&nbsp;&#233;<br>next</p><ul><li>one</li><li>two</li></ul><a href="https://x.org">https://x.org</a>',
    );
    expect(text).toBe('Title\n\nA & B é\nnext\n\n- one\n- two\n\nhttps://x.org');
  });
});
