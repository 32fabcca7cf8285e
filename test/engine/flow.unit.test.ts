import { describe, expect, it } from 'vitest';
import { type Answers, walk } from '../../src/modules/engine/flow.js';
import { toEngineSurvey } from '../../src/modules/engine/survey-model.js';
import { importQsf } from '../../src/modules/surveys/qsf-import.js';
import { block, blockFlow, condition, qsf, question, selected } from './qsf-builder.js';

const SURVEY = 'SV_unittest000000';
const engineOf = (doc: unknown) => toEngineSurvey(SURVEY, importQsf(doc, SURVEY).document);
const path = (survey: ReturnType<typeof engineOf>, answers: Answers = {}, given = {}, seed = 1) =>
  walk(survey, { seed, answers, given });
const ids = (walked: ReturnType<typeof path>) => walked.pages.map((p) => p.questionIds);

const yesNo = (id: string) =>
  question(id, { type: 'MC', selector: 'SAVR', sub: 'TX', choices: ['Yes', 'No'] });
const text = (id: string, extra = {}) => question(id, { type: 'TE', selector: 'SL', extra });

describe('blocks, page breaks and display logic', () => {
  const survey = engineOf(
    qsf({
      blocks: [block('BL_a', ['QID1', '|', 'QID2', 'QID3', '|', 'QID4'])],
      flow: [blockFlow('BL_a', 'FL_2')],
      questions: [
        yesNo('QID1'),
        text('QID2', { DisplayLogic: selected('QID1', '1') }),
        text('QID3'),
        text('QID4', { DisplayLogic: selected('QID1', '1') }),
      ],
    }),
  );

  it('splits a block into pages at its page breaks', () => {
    expect(ids(path(survey, { QID1: { QID1: ['1'] } }))).toEqual([['QID1'], ['QID2', 'QID3'], ['QID4']]);
  });

  it('leaves out questions whose display logic fails, and pages left empty', () => {
    expect(ids(path(survey, { QID1: { QID1: ['2'] } }))).toEqual([['QID1'], ['QID3']]);
  });
});

describe('flow elements', () => {
  const survey = engineOf(
    qsf({
      blocks: [block('BL_a', ['QID1']), block('BL_b', ['QID2']), block('BL_c', ['QID3'])],
      flow: [
        {
          Type: 'EmbeddedData',
          FlowID: 'FL_2',
          EmbeddedData: [
            { Field: 'wave', Type: 'Custom', Value: 'spring' },
            { Field: 'panel', Type: 'Recipient' },
            // QSF piped text: the literal `${e://Field/panel}` is the file's own syntax.
            // biome-ignore lint/suspicious/noTemplateCurlyInString: see above
            { Field: 'greeting', Type: 'Custom', Value: 'from ${e://Field/panel}' },
          ],
        },
        blockFlow('BL_a', 'FL_3'),
        {
          Type: 'Branch',
          FlowID: 'FL_4',
          BranchLogic: selected('QID1', '2'),
          Flow: [{ Type: 'EndSurvey', FlowID: 'FL_5', Options: { EOSMessage: 'Thanks anyway.' } }],
        },
        blockFlow('BL_b', 'FL_6'),
        blockFlow('BL_c', 'FL_7'),
      ],
      questions: [yesNo('QID1'), text('QID2'), text('QID3')],
    }),
  );

  it('sets embedded data from the flow and from the link, piping values into others', () => {
    const walked = path(survey, {}, { panel: 'p7' });
    expect(walked.embedded).toEqual({ panel: 'p7', wave: 'spring', greeting: 'from p7' });
  });

  it('follows a branch to an end-of-survey element with its message', () => {
    const ended = path(survey, { QID1: { QID1: ['2'] } });
    expect(ids(ended)).toEqual([['QID1']]);
    expect(ended.ending.message).toBe('Thanks anyway.');
    expect(ids(path(survey, { QID1: { QID1: ['1'] } }))).toEqual([['QID1'], ['QID2'], ['QID3']]);
  });

  it('does not take a branch whose condition cannot be met yet', () => {
    expect(ids(path(survey))).toEqual([['QID1'], ['QID2'], ['QID3']]);
  });
});

describe('randomisation', () => {
  const randomizer = engineOf(
    qsf({
      blocks: [block('BL_a', ['QID1']), block('BL_b', ['QID2']), block('BL_c', ['QID3'])],
      flow: [
        {
          Type: 'BlockRandomizer',
          FlowID: 'FL_2',
          SubSet: 1,
          Flow: [blockFlow('BL_a', 'FL_3'), blockFlow('BL_b', 'FL_4'), blockFlow('BL_c', 'FL_5')],
        },
      ],
      questions: [text('QID1'), text('QID2'), text('QID3')],
    }),
  );

  it('shows a subset of a randomizer’s blocks, the same for a seed every time, all of them over seeds', () => {
    const shown = new Set<string>();
    for (let seed = 1; seed <= 60; seed++) {
      const walked = path(randomizer, {}, {}, seed);
      expect(walked.pages).toHaveLength(1);
      expect(ids(path(randomizer, {}, {}, seed))).toEqual(ids(walked));
      shown.add(walked.pages[0]?.questionIds[0] ?? '');
    }
    expect([...shown].sort()).toEqual(['QID1', 'QID2', 'QID3']);
  });

  it('shuffles a block’s questions and cuts them into pages when the block says so', () => {
    const survey = engineOf(
      qsf({
        blocks: [
          block('BL_a', ['QID1', 'QID2', 'QID3', 'QID4'], {
            RandomizeQuestions: 'RandomWithXPerPage',
            Randomization: { QuestionsPerPage: 2 },
          }),
        ],
        flow: [blockFlow('BL_a', 'FL_2')],
        questions: ['QID1', 'QID2', 'QID3', 'QID4'].map((id) => text(id)),
      }),
    );
    const orders = new Set<string>();
    for (let seed = 1; seed <= 20; seed++) {
      const pages = ids(path(survey, {}, {}, seed));
      expect(pages.map((p) => p.length)).toEqual([2, 2]);
      expect(pages.flat().sort()).toEqual(['QID1', 'QID2', 'QID3', 'QID4']);
      orders.add(pages.flat().join());
    }
    expect(orders.size).toBeGreaterThan(1);
  });
});

describe('skip logic', () => {
  const skipping = (destination: string) =>
    engineOf(
      qsf({
        blocks: [block('BL_a', ['QID1', '|', 'QID2', '|', 'QID3']), block('BL_b', ['QID4'])],
        flow: [blockFlow('BL_a', 'FL_2'), blockFlow('BL_b', 'FL_3')],
        questions: [yesNo('QID1'), text('QID2'), text('QID3'), text('QID4')].map((q, i) =>
          i === 0
            ? {
                ...q,
                Payload: {
                  ...(q.Payload as object),
                  SkipLogic: [
                    {
                      ChoiceLocator: 'q://QID1/SelectableChoice/2',
                      Condition: 'Selected',
                      SkipToDestination: destination,
                    },
                  ],
                },
              }
            : q,
        ),
      }),
    );
  const no = { QID1: { QID1: ['2'] } };

  it('skips to the end of the block, to a later question, or to the end of the survey', () => {
    expect(ids(path(skipping('ENDOFBLOCK'), no))).toEqual([['QID1'], ['QID4']]);
    expect(ids(path(skipping('QID3'), no))).toEqual([['QID1'], ['QID3'], ['QID4']]);
    expect(ids(path(skipping('ENDOFSURVEY'), no))).toEqual([['QID1']]);
    expect(ids(path(skipping('ENDOFSURVEY'), { QID1: { QID1: ['1'] } }))).toHaveLength(4);
  });
});

describe('conditions', () => {
  const survey = engineOf(
    qsf({
      blocks: [block('BL_a', ['QID1', 'QID2', '|', 'QID3'])],
      flow: [blockFlow('BL_a', 'FL_2')],
      questions: [
        yesNo('QID1'),
        text('QID2'),
        text('QID3', {
          DisplayLogic: {
            0: {
              0: { LogicType: 'Question', LeftOperand: 'q://QID1/SelectableChoice/1', Operator: 'Selected' },
              1: {
                LogicType: 'Question',
                LeftOperand: 'q://QID2/ChoiceTextEntryValue',
                Operator: 'GreaterThan',
                RightOperand: '10',
                Conjuction: 'And',
              },
              Type: 'If',
            },
            1: {
              0: { LogicType: 'EmbeddedField', LeftOperand: 'vip', Operator: 'EqualTo', RightOperand: 'yes' },
              Type: 'Or',
            },
            Type: 'BooleanExpression',
          },
        }),
      ],
    }),
  );
  const shows = (answers: Answers, given = {}) => path(survey, answers, given).displayed.has('QID3');

  it('joins expressions with their conjunctions and sets with their types', () => {
    expect(shows({ QID1: { QID1: ['1'] }, QID2: { QID2_TEXT: ['11'] } })).toBe(true);
    expect(shows({ QID1: { QID1: ['1'] }, QID2: { QID2_TEXT: ['9'] } })).toBe(false);
    expect(shows({ QID1: { QID1: ['2'] }, QID2: { QID2_TEXT: ['11'] } })).toBe(false);
    expect(shows({}, { vip: 'yes' })).toBe(true);
    expect(shows({}, { vip: 'no' })).toBe(false);
  });

  it('reads embedded data a condition names', () => {
    const withField = engineOf(
      qsf({
        blocks: [block('BL_a', ['QID1'])],
        flow: [
          { Type: 'EmbeddedData', FlowID: 'FL_2', EmbeddedData: [{ Field: 'vip', Type: 'Recipient' }] },
          blockFlow('BL_a', 'FL_3'),
        ],
        questions: [
          text('QID1', {
            DisplayLogic: condition({
              LogicType: 'EmbeddedField',
              LeftOperand: 'vip',
              Operator: 'EqualTo',
              RightOperand: 'yes',
            }),
          }),
        ],
      }),
    );
    expect(path(withField, {}, { vip: 'yes' }).pages).toHaveLength(1);
    expect(path(withField, {}, { vip: 'no' }).pages).toHaveLength(0);
  });
});
