import type { TestApp } from '../helpers/test-app.js';

export interface PageAnswer {
  status: number;
  body: string;
  headers: Record<string, unknown>;
}

/**
 * A respondent without a browser, through `inject`: keeps the session cookies it is given and follows
 * the engine's redirects, the way a browser would. For HTTP-level tests of the survey pages.
 */
export class FormClient {
  private readonly cookies = new Map<string, string>();

  constructor(
    private readonly t: TestApp,
    private readonly headers: Record<string, string> = {},
  ) {}

  async get(url: string): Promise<PageAnswer> {
    return this.follow(await this.request('GET', url));
  }

  /** Posts the form of the page last shown with these fields (session and page taken from `page`). */
  async post(url: string, page: string, fields: Record<string, string | string[]>): Promise<PageAnswer> {
    const form = new URLSearchParams();
    for (const name of ['_fw_session', '_fw_page']) form.append(name, hiddenValue(page, name));
    for (const [name, value] of Object.entries(fields)) for (const v of [value].flat()) form.append(name, v);
    return this.follow(await this.request('POST', url, form.toString()));
  }

  /**
   * Answers `pages` in order, a post a page, from `from` (a page already shown) or else from the page the
   * link opens on; answers the page the last post led to.
   */
  async answerPages(
    url: string,
    pages: readonly Record<string, string | string[]>[],
    from?: PageAnswer,
  ): Promise<PageAnswer> {
    let page = from ?? (await this.get(url));
    for (const fields of pages) page = await this.post(url, page.body, fields);
    return page;
  }

  private async follow(answer: PageAnswer & { location?: string }): Promise<PageAnswer> {
    let current = answer;
    for (let hops = 0; hops < 5 && current.status === 303 && current.location; hops++)
      current = await this.request('GET', current.location);
    return current;
  }

  private async request(method: 'GET' | 'POST', url: string, payload?: string) {
    const cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const raw = await this.t.app.inject({
      method,
      url,
      headers: {
        ...this.headers,
        ...(cookie ? { cookie } : {}),
        ...(payload === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' }),
      },
      ...(payload === undefined ? {} : { payload }),
    });
    for (const header of [raw.headers['set-cookie'] ?? []].flat()) {
      const [pair] = String(header).split(';');
      const [name, ...value] = (pair ?? '').split('=');
      if (name) this.cookies.set(name, value.join('='));
    }
    return {
      status: raw.statusCode,
      body: raw.body,
      headers: raw.headers as Record<string, unknown>,
      location: raw.headers.location as string | undefined,
    };
  }
}

export function hiddenValue(page: string, name: string): string {
  return new RegExp(`name="${name}" value="([^"]*)"`).exec(page)?.[1] ?? '';
}
