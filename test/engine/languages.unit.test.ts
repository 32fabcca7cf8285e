// biome-ignore-all lint/suspicious/noTemplateCurlyInString: piped text is written as QSF files write it
/**
 * Translations (issue 14 part 3) as pure logic: which language a new session runs in (Q_Language, the
 * sessions API's `language`, the browser's Accept-Language), the page's `lang`, and the survey's texts
 * in that language with the base text wherever the translation lacks one.
 */
import { describe, expect, it } from 'vitest';
import { walk } from '../../src/modules/engine/flow.js';
import {
  acceptedTags,
  chooseLanguage,
  findLanguage,
  htmlLang,
  matchAcceptLanguage,
} from '../../src/modules/engine/languages.js';
import { pageView } from '../../src/modules/engine/page-view.js';
import { toEngineSurvey } from '../../src/modules/engine/survey-model.js';
import { inLanguage } from '../../src/modules/engine/translations.js';
import { importQsf } from '../../src/modules/surveys/qsf-import.js';
import { block, blockFlow, qsf, question } from './qsf-builder.js';

const CUSTOMER_SERVICE = [
  'EN',
  'DE',
  'EN-GB',
  'ES',
  'ES-ES',
  'FI',
  'FR',
  'IT',
  'JA',
  'KO',
  'NL',
  'PT',
  'PT-BR',
  'ZH-S',
  'ZH-T',
];

describe('Accept-Language', () => {
  it('reads the tags in the order the browser prefers them, without q=0 and *', () => {
    expect(acceptedTags('de-DE,de;q=0.9')).toEqual(['de-de', 'de']);
    expect(acceptedTags('fr;q=0.5, en-GB ,*;q=0.8, it;q=0, nl;q=0.5')).toEqual(['en-gb', 'fr', 'nl']);
    expect(acceptedTags('')).toEqual([]);
    expect(acceptedTags('garbage;;,  ;q=1')).toEqual(['garbage']);
  });

  it.each([
    ['de-DE,de;q=0.9', 'DE'],
    ['en-GB,en;q=0.8', 'EN-GB'],
    ['en-US,en;q=0.9', 'EN'],
    ['en-AU', 'EN'],
    ['pt-BR', 'PT-BR'],
    ['pt-PT', 'PT'],
    ['es-ES', 'ES-ES'],
    ['es-MX', 'ES'],
    ['es-419,es;q=0.9', 'ES'],
    ['zh-CN', 'ZH-S'],
    ['zh', 'ZH-S'],
    ['zh-TW', 'ZH-T'],
    ['zh-Hant-HK', 'ZH-T'],
    ['zh-Hans-SG', 'ZH-S'],
    ['ru-RU, fi;q=0.7', 'FI'],
    ['ja;q=0.2, ko;q=0.9', 'KO'],
  ])('matches %s to %s among the customer-service template languages', (header, expected) => {
    expect(matchAcceptLanguage(CUSTOMER_SERVICE, header)).toBe(expected);
  });

  it('takes another variant of the same language before giving up on a tag', () => {
    expect(matchAcceptLanguage(['DE', 'EN-GB'], 'en-US,de;q=0.5')).toBe('EN-GB');
    expect(matchAcceptLanguage(['EN', 'PT-BR'], 'pt-PT')).toBe('PT-BR');
    expect(matchAcceptLanguage(['EN', 'TGL'], 'fil-PH')).toBe('TGL');
  });

  it('matches nothing when no tag is one of the survey languages', () => {
    expect(matchAcceptLanguage(['EN', 'DE'], 'ru-RU,uk;q=0.8')).toBeUndefined();
    expect(matchAcceptLanguage(['EN', 'DE'], undefined)).toBeUndefined();
  });
});

describe('choosing a session language', () => {
  const survey = { language: 'EN', languages: ['EN', 'DE', 'EN-GB'] };

  it('takes a code the survey has, in any case, before the browser', () => {
    expect(chooseLanguage(survey, { requested: 'de', acceptLanguage: 'en-GB' })).toBe('DE');
    expect(chooseLanguage(survey, { requested: 'en_gb' })).toBe('EN-GB');
    expect(findLanguage(survey.languages, 'De')).toBe('DE');
    expect(findLanguage(survey.languages, 'FR')).toBeUndefined();
  });

  it('gives an unknown code the base language, not the browser language', () => {
    expect(chooseLanguage(survey, { requested: 'XX', acceptLanguage: 'de-DE' })).toBe('EN');
  });

  it('falls back to the browser, then to the base language', () => {
    expect(chooseLanguage(survey, { acceptLanguage: 'de-DE,de;q=0.9' })).toBe('DE');
    expect(chooseLanguage(survey, { acceptLanguage: 'ru' })).toBe('EN');
    expect(chooseLanguage(survey, {})).toBe('EN');
  });
});

describe('the page lang', () => {
  it.each([
    ['EN', 'en'],
    ['EN-GB', 'en-GB'],
    ['PT-BR', 'pt-BR'],
    ['ZH-S', 'zh-Hans'],
    ['ZH-T', 'zh-Hant'],
    ['TGL', 'tl'],
    ['de', 'de'],
    [undefined, 'en'],
    ['"><script>', 'en'],
  ])('of %s is %s', (code, tag) => {
    expect(htmlLang(code)).toBe(tag);
  });
});

describe('a survey in another language', () => {
  const doc = importQsf(
    qsf({
      blocks: [block('BL_1', ['QID1', 'QID2', 'QID3', 'QID4'])],
      flow: [blockFlow('BL_1', 'FL_2')],
      options: { AvailableLanguages: { EN: [], FR: [] } },
      questions: [
        question('QID1', {
          type: 'MC',
          selector: 'SAVR',
          sub: 'TX',
          text: 'Which fruit?',
          choices: ['Apple', 'Pear'],
          // Choice 2 is not translated: it keeps its English text.
          extra: {
            Language: { DE: { QuestionText: 'Welche Frucht?', Choices: { 1: { Display: 'Apfel' } } } },
          },
        }),
        question('QID2', {
          type: 'Matrix',
          selector: 'Likert',
          sub: 'SingleAnswer',
          text: 'Rate',
          choices: ['Taste'],
          answers: ['Low', 'High'],
          extra: {
            Language: {
              DE: {
                QuestionText: '',
                Choices: { 1: { Display: 'Geschmack' } },
                Answers: { 2: { Display: 'Hoch' } },
              },
            },
          },
        }),
        question('QID3', {
          type: 'MC',
          selector: 'NPS',
          text: 'Recommend?',
          extra: {
            Choices: [{ Display: '0' }, { Display: '1' }],
            Language: {
              DE: { QuestionText: 'Empfehlen?', Choices: [{ Display: 'null' }, { Display: 'eins' }] },
            },
          },
        }),
        question('QID4', {
          type: 'TE',
          selector: 'SL',
          text: 'You chose ${q://QID1/ChoiceGroup/SelectedChoices}',
          extra: {
            Language: { DE: { QuestionText: 'Sie wählten ${q://QID1/ChoiceGroup/SelectedChoices}' } },
          },
        }),
      ],
    }),
    'SV_translations000',
  ).document;
  const survey = toEngineSurvey('SV_translations000', doc);

  it('lists the base language, the listed ones and the translated ones', () => {
    expect(survey.language).toBe('EN');
    expect(survey.languages).toEqual(['EN', 'FR', 'DE']);
  });

  it('shows the translated texts and the base text wherever a translation lacks one', () => {
    const german = inLanguage(survey, 'DE');
    const q1 = german.questions.get('QID1');
    expect(q1?.text).toBe('Welche Frucht?');
    expect(q1?.choices.map((c) => c.text)).toEqual(['Apfel', 'Pear']);
    const q2 = german.questions.get('QID2');
    expect(q2?.text).toBe('Rate');
    expect(q2?.choices.map((c) => c.text)).toEqual(['Geschmack']);
    expect(q2?.answers.map((a) => a.text)).toEqual(['Low', 'Hoch']);
    expect(german.questions.get('QID3')?.choices.map((c) => [c.id, c.text])).toEqual([
      ['0', 'null'],
      ['1', 'eins'],
    ]);
    // The same survey object for every session in that language; the base survey itself for the base.
    expect(inLanguage(survey, 'DE')).toBe(german);
    expect(inLanguage(survey, 'EN')).toBe(survey);
    expect(survey.questions.get('QID1')?.text).toBe('Which fruit?');
    // A language with no texts at all is the base texts.
    expect(
      inLanguage(survey, 'FR')
        .questions.get('QID1')
        ?.choices.map((c) => c.text),
    ).toEqual(['Apple', 'Pear']);
  });

  it('pipes the texts of the session language into the page', () => {
    const german = inLanguage(survey, 'DE');
    const state = {
      seed: 1,
      given: {},
      answers: { QID1: { QID1: ['1'] } },
      position: 0,
      shownKey: '',
      shownAt: '',
    };
    const view = pageView(
      german,
      { title: 't', language: 'DE', sessionId: 'FS_x' },
      state,
      walk(german, state),
    );
    expect(view?.questions.find((q) => q.question.id === 'QID4')?.text).toBe('Sie wählten Apfel');
  });
});
