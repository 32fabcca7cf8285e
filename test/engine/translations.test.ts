/**
 * Translations (issue 14 part 3), on both databases: the customer-service template of ../shared (read
 * there at test time) carries 14 translations in its questions' `Language` blocks. A session chooses its
 * language when it starts (Q_Language, the sessions API's `language`, else the browser's Accept-Language,
 * else the survey's), keeps it on every page (`<html lang>`), and records it as UserLanguage.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BootstrapResult } from '../../src/modules/organizations/bootstrap.service.js';
import { requireShared, SHARED } from '../conformance/shared.js';
import { exportCsv } from '../exports/export-runs.js';
import { startExportWorker } from '../exports/exports-helpers.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import { call200, defs } from '../survey-definitions/definitions-helpers.js';
import {
  BROWSER_WALK_TIMEOUT,
  importSurvey,
  launchBrowser,
  listenOnLoopback,
  next,
} from './engine-helpers.js';
import { FormClient, hiddenValue } from './form-client.js';
import { block, blockFlow, qsf, question } from './qsf-builder.js';

let t: TestApp;
let base: string;
let browser: Browser;
let org: BootstrapResult;
let surveyId: string;

function customerService(): string {
  requireShared();
  return readFileSync(join(SHARED, 'fixtures/qsf/pyqsf-customer-service.qsf'), 'utf8');
}

beforeAll(async () => {
  t = await buildTestApp();
  base = await listenOnLoopback(t);
  browser = await launchBrowser();
  org = await t.newOrganization();
  surveyId = await importSurvey(t, org.apiToken, customerService());
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

const GERMAN = [
  'Wurde Ihr Problem gelöst?',
  'Ja, vollständig',
  'Äußerst zufrieden',
  'Warum oder warum nicht?',
];
const ENGLISH = ['Was your issue resolved?', 'Yes, completely', 'Extremely satisfied', 'Why or why not?'];

interface Taken {
  /** Every page's text, the end page's last. */
  texts: string[];
  /** `<html lang>` of every page, the end page's last. */
  langs: string[];
  sessionId: string;
}

/** Takes the survey to its end page, choosing the first choice of every question. */
async function takeToTheEnd(context: BrowserContext, url: string): Promise<Taken> {
  context.setDefaultTimeout(10_000);
  const page = await context.newPage();
  expect((await page.goto(url))?.status()).toBe(200);
  const sessionId = hiddenValue(await page.content(), '_fw_session');
  const taken: Taken = { texts: [], langs: [], sessionId };
  const record = async (p: Page) => {
    taken.texts.push(await p.locator('main').innerText());
    taken.langs.push((await p.locator('html').getAttribute('lang')) ?? '');
  };
  for (let n = 0; n < 20; n++) {
    await record(page);
    if ((await page.locator('.end').count()) > 0) return taken;
    const radios = await page.$$eval('input[type=radio]', (els) => [
      ...new Set(els.map((e) => (e as HTMLInputElement).name)),
    ]);
    for (const name of radios) await page.locator(`input[type=radio][name="${name}"]`).first().check();
    await next(page);
  }
  throw new Error('the survey did not end within 20 pages');
}

async function recorded(sessionId: string) {
  const session = await t.database.db
    .selectFrom('engine_sessions')
    .select('response_id')
    .where('id', '=', sessionId)
    .executeTakeFirstOrThrow();
  expect(session.response_id).not.toBeNull();
  const res = await call200(
    t,
    org.apiToken,
    'GET',
    `/API/v3/surveys/${surveyId}/responses/${session.response_id}`,
  );
  return res.result.values as Record<string, unknown>;
}

const expectTexts = (text: string, shown: string[], hidden: string[]) => {
  for (const s of shown) expect(text).toContain(s);
  for (const s of hidden) expect(text).not.toContain(s);
};

describe('translations imported from QSF', () => {
  it('are kept in the survey definition read back, as JSON and as QSF', async () => {
    const json = await call200(t, org.apiToken, 'GET', defs(surveyId));
    const qid2 = json.result.Questions.QID2;
    expect(qid2.Language.DE.QuestionText).toBe('Wurde Ihr Problem gelöst?');
    expect(Object.keys(qid2.Language)).toHaveLength(14);
    const file = await call200(t, org.apiToken, 'GET', `${defs(surveyId)}?format=qsf`);
    const elements = file.result.SurveyElements as {
      Element: string;
      Payload: {
        QuestionID?: string;
        Language?: Record<string, { Choices?: Record<string, { Display: string }> }>;
      };
    }[];
    const payload = elements.find((e) => e.Element === 'SQ' && e.Payload.QuestionID === 'QID2')?.Payload;
    expect(payload?.Language?.DE?.Choices?.['1']?.Display).toBe('Ja, vollständig');
  });
});

describe('a browser session', { timeout: BROWSER_WALK_TIMEOUT }, () => {
  it.each([
    ['with Q_Language=DE (the browser asking for English)', { locale: 'en-US' }, '?Q_Language=DE', 'DE'],
    [
      'with Accept-Language: de-DE,de;q=0.9',
      { locale: 'de-DE', extraHTTPHeaders: { 'Accept-Language': 'de-DE,de;q=0.9' } },
      '',
      'DE',
    ],
    ['in an English browser', { locale: 'en-US' }, '', 'EN'],
  ])(
    '%s shows every page in its language and records it as UserLanguage',
    async (_, options, query, language) => {
      const context = await browser.newContext(options);
      try {
        const taken = await takeToTheEnd(context, `${base}/jfe/form/${surveyId}${query}`);
        const [shown, hidden] = language === 'DE' ? [GERMAN, ENGLISH] : [ENGLISH, GERMAN];
        expectTexts(taken.texts.join('\n'), shown, hidden);
        expect(new Set(taken.langs)).toEqual(new Set([language.toLowerCase()]));
        expect(await recorded(taken.sessionId)).toMatchObject({ userLanguage: language, QID2: 1 });
      } finally {
        await context.close();
      }
    },
  );

  it('matches the browser languages as the real platform names them, and an unknown Q_Language is the base', async () => {
    const firstPage = async (query: string, acceptLanguage: string) => {
      const page = await new FormClient(t, { 'accept-language': acceptLanguage }).get(
        `/jfe/form/${surveyId}${query}`,
      );
      expect(page.status).toBe(200);
      return { lang: /<html lang="([^"]*)"/.exec(page.body)?.[1], body: page.body };
    };
    const unknown = await firstPage('?Q_Language=XX', 'de-DE,de;q=0.9');
    expect(unknown.lang).toBe('en');
    expect(unknown.body).toContain('Thank you for your recent communication');
    const french = await firstPage('', 'fr-CA,fr;q=0.9,en;q=0.5');
    expect(french.lang).toBe('fr');
    expect(french.body).toContain('Nous utilisons vos commentaires sur des enquêtes');
    expect((await firstPage('', 'zh-TW,zh;q=0.9')).lang).toBe('zh-Hant');
    expect((await firstPage('', 'zh-CN')).lang).toBe('zh-Hans');
    expect((await firstPage('?Q_Language=en-gb', 'de')).lang).toBe('en-GB');
    expect((await firstPage('', 'ru-RU,ru;q=0.9')).lang).toBe('en');
  });
});

describe('a sessions API session', () => {
  const sessions = () => `/API/v3/surveys/${surveyId}/sessions`;
  const texts = (body: {
    result: { questions: { questionText: string; choices: Record<string, { choiceText: string }> }[] };
  }) =>
    body.result.questions.flatMap((q) => [
      q.questionText,
      ...Object.values(q.choices).map((c) => c.choiceText),
    ]);

  it('with language DE gets German question texts and records UserLanguage DE', async () => {
    const created = await t.call(org.apiToken, 'POST', sessions(), { language: 'DE' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const { sessionId } = created.body.result;
    expect(texts(created.body).join('\n')).toContain('Vielen Dank für Ihre kürzlich erfolgte Kommunikation');
    const second = await t.call(org.apiToken, 'POST', `${sessions()}/${sessionId}`, {
      advance: true,
      responses: {},
    });
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    expect(second.body.result.questions[0]).toMatchObject({
      questionId: 'QID28',
      questionText:
        'Basierend auf Ihrer letzten Interaktion mit unserem Serviceteam, wie zufrieden sind Sie mit unserem Unternehmen?',
      choices: { 1: { choiceText: 'Äußerst zufrieden' }, 7: { choiceText: 'Äußerst unzufrieden' } },
    });
    const closed = await t.call(org.apiToken, 'POST', `${sessions()}/${sessionId}`, {
      advance: true,
      responses: { QID28: { 2: { selected: true } } },
      close: true,
    });
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    expect(await recorded(sessionId)).toMatchObject({ userLanguage: 'DE', QID28: 2 });
  });

  it('without a language, or with the base language in any case, runs in English', async () => {
    for (const body of [{}, { language: 'en' }]) {
      const created = await t.call(org.apiToken, 'POST', sessions(), body);
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect(texts(created.body).join('\n')).toContain('Thank you for your recent communication');
      const closed = await t.call(org.apiToken, 'POST', `${sessions()}/${created.body.result.sessionId}`, {
        close: true,
      });
      expect(closed.status).toBe(200);
      expect((await recorded(created.body.result.sessionId)).userLanguage).toBe('EN');
    }
  });

  it('refuses a language the survey does not have with a 400 naming language', async () => {
    const res = await t.call(org.apiToken, 'POST', sessions(), { language: 'XX' });
    expect(res.status).toBe(400);
    expect(res.body.meta.error.errorMessage).toMatch(/\blanguage\b.*\bDE\b/);
  });

  it('shows a matrix with its translated scale points and the base text where a translation lacks one', async () => {
    const small = await importSurvey(
      t,
      org.apiToken,
      JSON.stringify(
        qsf({
          blocks: [block('BL_1', ['QID1'])],
          flow: [blockFlow('BL_1', 'FL_2')],
          questions: [
            question('QID1', {
              type: 'Matrix',
              selector: 'Likert',
              sub: 'SingleAnswer',
              text: 'Rate our service',
              choices: ['Speed', 'Friendliness'],
              answers: ['Poor', 'Good'],
              extra: {
                Language: {
                  DE: {
                    QuestionText: 'Bewerten Sie unseren Service',
                    Choices: { 1: { Display: 'Tempo' } },
                    Answers: { 1: { Display: 'Schlecht' }, 2: { Display: 'Gut' } },
                  },
                },
              },
            }),
          ],
        }),
      ),
    );
    const created = await t.call(org.apiToken, 'POST', `/API/v3/surveys/${small}/sessions`, {
      language: 'de',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.result.questions[0]).toMatchObject({
      questionText: 'Bewerten Sie unseren Service',
      choices: { 1: { choiceText: 'Tempo' }, 2: { choiceText: 'Friendliness' } },
      answers: { 1: { answerText: 'Schlecht' }, 2: { answerText: 'Gut' } },
    });
  });
});

describe('the export', () => {
  it('has UserLanguage as each session chose it, recorded or in progress', async () => {
    const own = await importSurvey(t, org.apiToken, customerService());
    const start = async (language: string) => {
      const created = await t.call(org.apiToken, 'POST', `/API/v3/surveys/${own}/sessions`, { language });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      return created.body.result.sessionId as string;
    };
    const recordedLanguages: Record<string, string> = {};
    for (const language of ['DE', 'EN-GB', 'en', 'ZH-S']) {
      const id = await start(language);
      const closed = await t.call(org.apiToken, 'POST', `/API/v3/surveys/${own}/sessions/${id}`, {
        close: true,
      });
      expect(closed.status, JSON.stringify(closed.body)).toBe(200);
      recordedLanguages[closed.body.result.responseId] = language.toUpperCase();
    }
    const open = await start('pt-br');
    const worker = startExportWorker(t);
    try {
      const languagesOf = async (options: Record<string, unknown>) => {
        const file = await exportCsv(t, org.apiToken, own, options);
        const column = file.names.indexOf('UserLanguage');
        return Object.fromEntries(file.data.map((row, i) => [file.responseIds[i], row[column]]));
      };
      expect(await languagesOf({})).toEqual(recordedLanguages);
      expect(await languagesOf({ exportResponsesInProgress: true })).toEqual({ [open]: 'PT-BR' });
    } finally {
      await worker.stop();
    }
  });
});
