// biome-ignore-all lint/suspicious/noTemplateCurlyInString: piped text is written ${…}, in plain strings.
import { describe, expect, it } from 'vitest';
import { BoundedLru, pagePartsOf } from './compiled-survey.js';
import type { QsfDocument, QsfQuestion } from './definition/qsf.js';

describe('BoundedLru', () => {
  it('drops the least recently used entry past the entry count', () => {
    const lru = new BoundedLru<string>(2, 1000);
    lru.set('a', 'A', 1);
    lru.set('b', 'B', 1);
    expect(lru.get('a')).toBe('A'); // a is now the most recent
    lru.set('c', 'C', 1);
    expect(lru.get('b')).toBeUndefined();
    expect(lru.get('a')).toBe('A');
    expect(lru.get('c')).toBe('C');
    expect(lru.size).toBe(2);
  });

  it('drops the oldest entries until the summed weight fits', () => {
    const lru = new BoundedLru<string>(100, 10);
    lru.set('a', 'A', 4);
    lru.set('b', 'B', 4);
    lru.set('c', 'C', 4);
    expect(lru.get('a')).toBeUndefined();
    expect(lru.get('b')).toBe('B');
    expect(lru.get('c')).toBe('C');
  });

  it('keeps the newest entry even when it alone is over the weight', () => {
    const lru = new BoundedLru<string>(100, 10);
    lru.set('a', 'A', 4);
    lru.set('big', 'BIG', 50);
    expect(lru.get('a')).toBeUndefined();
    expect(lru.get('big')).toBe('BIG');
    expect(lru.size).toBe(1);
  });

  it('replacing a key counts its new weight only', () => {
    const lru = new BoundedLru<string>(100, 10);
    lru.set('a', 'A', 6);
    lru.set('a', 'A2', 3);
    lru.set('b', 'B', 7);
    expect(lru.get('a')).toBe('A2');
    expect(lru.get('b')).toBe('B');
  });
});

describe('the page parts of a version', () => {
  const graphic = (id: string) => `https://co1.qualtrics.com/ControlPanel/Graphic.php?IM=${id}`;
  const A = 'IM_aaaaaaaaaaaaaaa';
  const B = 'IM_bbbbbbbbbbbbbbb';
  const question = (id: string, text: string, choices: string[] = []) =>
    ({
      QuestionID: id,
      QuestionText: text,
      Choices: Object.fromEntries(choices.map((display, i) => [String(i + 1), { Display: display }])),
    }) as unknown as QsfQuestion;
  const partsOf = (questions: QsfQuestion[], elsewhere: unknown = {}) => {
    const definition = { SurveyElements: [questions, elsewhere] } as unknown as QsfDocument;
    return pagePartsOf(
      JSON.stringify(definition),
      definition,
      new Map(questions.map((q) => [q.QuestionID, q])),
    );
  };

  it('knows the graphic ids each question names, in its text or its choices', () => {
    const parts = partsOf([
      question('QID1', `<img src="${graphic(A)}" alt="A">`),
      question('QID2', 'Pick one', [`<img src="${graphic(B)}"> B`, 'C']),
      question('QID3', '<b>No picture</b>'),
    ]);
    expect(parts.graphicIds.get('QID1')).toEqual([A]);
    expect(parts.graphicIds.get('QID2')).toEqual([B]);
    expect(parts.graphicIds.has('QID3')).toBe(false);
  });

  it("knows a heat map's image named by its graphic id alone", () => {
    const map = { ...question('QID1', 'Where?'), GraphicID: A } as unknown as QsfQuestion;
    expect(partsOf([map]).graphicIds.get('QID1')).toEqual([A]);
  });

  it('gives a question with piped text every id the definition names', () => {
    const loopField = { Static: { 1: { 1: `<img src="${graphic(B)}">` } } };
    const parts = partsOf(
      [question('QID1', `<img src="${graphic(A)}">`), question('QID2', 'Look: ${lm://Field/1}')],
      loopField,
    );
    expect(parts.graphicIds.get('QID1')).toEqual([A]);
    expect(parts.graphicIds.get('QID2')).toEqual([A, B]);
  });

  it('has no graphic ids for a survey that names none', () => {
    expect(partsOf([question('QID1', 'Hi ${e://Field/name}')]).graphicIds.size).toBe(0);
  });

  it('keeps the texts the definition holds, each variant apart, and no other', () => {
    const { texts } = partsOf([question('QID1', '<b>Hello</b>', ['<i>One</i>'])]);
    texts.set('block', '<b>Hello</b>', 'B');
    texts.set('inline', '<b>Hello</b>', 'I');
    texts.set('inline', '<i>One</i>', 'O');
    // A piped text (here: what `Hello ${e://Field/name}` became) differs per respondent: not kept.
    texts.set('block', '<b>Hello Ana</b>', 'A');
    expect(texts.get('block', '<b>Hello</b>')).toBe('B');
    expect(texts.get('inline', '<b>Hello</b>')).toBe('I');
    expect(texts.get('inline', '<i>One</i>')).toBe('O');
    expect(texts.get('block', '<i>One</i>')).toBeUndefined();
    expect(texts.get('block', '<b>Hello Ana</b>')).toBeUndefined();
  });
});
