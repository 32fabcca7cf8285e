// biome-ignore-all lint/suspicious/noTemplateCurlyInString: piped text is written ${…}, in plain strings.
import { describe, expect, it } from 'vitest';
import { findPipes, pipeParts, replacePipes, unknownPipes } from './pipes.js';

const bodies = (text: string) => findPipes(text).map((p) => p.body);
const upper = (text: string) => replacePipes(text, (scheme, path) => `<${scheme}|${path}>`.toUpperCase());

describe('findPipes', () => {
  it('finds each closed ${…} with where it starts and ends', () => {
    const text = 'a ${e://Field/x} b ${q://QID1/QuestionText}';
    expect(findPipes(text)).toEqual([
      { start: 2, end: 16, body: 'e://Field/x' },
      { start: 19, end: 43, body: 'q://QID1/QuestionText' },
    ]);
  });

  it('takes a pipe inside another as one pipe, and skips an unclosed ${', () => {
    expect(bodies('<${e://Field/${m://Email}}>')).toEqual(['e://Field/${m://Email}']);
    expect(bodies('${oops ${m://FirstName} end')).toEqual(['m://FirstName']);
    expect(bodies('<style>p{color:red}</style> $5 {x} }{')).toEqual([]);
  });
});

describe('pipeParts', () => {
  it('splits scheme://path and refuses other shapes', () => {
    expect(pipeParts('date://CurrentDate/SL')).toEqual({ scheme: 'date', path: 'CurrentDate/SL' });
    expect(pipeParts('')).toBeUndefined();
    expect(pipeParts('FirstName')).toBeUndefined();
    expect(pipeParts('E://Field/x')).toBeUndefined();
  });
});

describe('replacePipes', () => {
  it('replaces every scheme://path pipe and leaves other ${…} and unclosed ones as written', () => {
    expect(upper('x ${e://Field/a}${lm://CurrentLoopNumber} ${} ${name} ${q://QID1')).toBe(
      'x <E|FIELD/A><LM|CURRENTLOOPNUMBER> ${} ${name} ${q://QID1',
    );
  });

  it('stays linear on a megabyte of unclosed pipes', () => {
    const text = '${e://'.repeat(200_000);
    const started = performance.now();
    expect(upper(text)).toBe(text);
    expect(performance.now() - started).toBeLessThan(2000);
  });
});

describe('unknownPipes', () => {
  it('names the pipes the engine does not run, a pipe inside another among them', () => {
    expect(
      unknownPipes('${e://Field/a} ${gr://SC_1/Score} ${x} ${q://QID1/${e://Field/b}} ${rand://int/1:6}'),
    ).toEqual(['${gr://SC_1/Score}', '${q://QID1/${e://Field/b}}']);
  });
});
