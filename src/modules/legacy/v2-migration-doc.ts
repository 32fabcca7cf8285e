/**
 * docs/migrating-from-v2.md, rendered from the one table of v2 commands (v2-commands.ts). Written by
 * `npm run docs:v2`; a test compares the committed page with this rendering, so the two cannot drift.
 */

import { retiredMessage, V2_SHUTDOWN_DATE } from './v2.service.js';
import { listV2Commands, V2_AREAS, type V2Command } from './v2-commands.js';

const AFTER_SHUTDOWN = new Date('2021-01-01T00:00:00Z');
const V3_CALL = /\b(GET|POST|PUT|DELETE) (\/v3\/[^\s`]*[^\s`.,;:)])/g;

/** Markdown for a table cell: v3 calls in code spans (their `<id>` placeholders are not HTML), pipes escaped. */
function cell(text: string): string {
  const spans = text.split('`');
  const marked = spans.map((span, i) => (i % 2 === 0 ? span.replace(V3_CALL, '`$1 $2`') : span));
  return marked.join('`').replaceAll('|', '\\|');
}

function row(command: V2Command & { name: string }): string {
  const name = `\`${command.name}\`${command.nameUncertain ? ' (?)' : ''}`;
  const call = command.replacement ? `\`${command.replacement}\`` : 'obsoleted: no version 3 equivalent';
  return `| ${name} | ${call} | ${command.note ? cell(command.note) : ''} |`;
}

function areaSection(area: string, commands: (V2Command & { name: string })[]): string[] {
  return [
    `### ${area}`,
    '',
    '| v2 command | v3 call | what to send or read |',
    '|---|---|---|',
    ...commands.map(row),
    '',
  ];
}

const INTRO = [
  '# Migrating from version 2',
  '',
  '<!-- Generated from src/modules/legacy/v2-commands.ts by `npm run docs:v2`: edit the table, not this page. -->',
  '',
  `Version 2 of the API was one script endpoint that took a command name and its parameters in the query string: \`/WRAPI/ControlPanel/api.php?Request=<command>&…\`. It was shut down on ${V2_SHUTDOWN_DATE} (spec 9.2); Fieldwork serves version 3 only.`,
  '',
  'A call to `/WRAPI/ControlPanel/api.php` (any method; `Request` in the query string or in a posted form, the parameter name in any case) or to any path under `/API/v2/` answers **404** in the version 3 error envelope with `errorCode` `FW_V2_1`. Its message names the version 3 call that replaces the command, or says that the command was obsoleted with no version 3 equivalent; a command not listed here gets a message pointing at the version 3 API. The answer is the same for every caller, so it needs no token, and it repeats nothing of the request but a command name of at most 64 letters, digits and underscores. These endpoints are not in the OpenAPI document (`hide: true`), which describes version 3 only.',
  '',
  '```',
  '$ curl -s "http://127.0.0.1:8080/WRAPI/ControlPanel/api.php?Request=activateSurvey&SurveyID=SV_…"',
  JSON.stringify({
    meta: {
      httpStatus: '404 - Not Found',
      error: { errorMessage: retiredMessage('activateSurvey', AFTER_SHUTDOWN), errorCode: 'FW_V2_1' },
      requestId: '…',
    },
  }),
  '```',
  '',
  '## What changes in version 3 (spec 9.3)',
  '',
  '- One endpoint per resource under `/API/v3/…` instead of one script taking a command name.',
  '- The `X-API-TOKEN` header replaces the version 2 pair of API key and user name; OAuth 2.0 bearer tokens are the alternative.',
  '- JSON only: a call answers `{"result", "meta"}`, lists come as arrays in `result.elements` paged through `result.nextPage`. No XML, no JSONP.',
  '- User ids are opaque codes (`UR_…`), not login names.',
  '- A version 2 panel is a mailing list (spec 1.6); its members are the contacts of the list.',
  '',
  '## Commands',
  '',
  'Paths are under `{base_url}/API`, as in the spec: `PUT /v3/surveys/<surveyId>` is `PUT {base_url}/API/v3/surveys/<surveyId>`. A command marked (?) is one the spec describes without naming it; the name is our reading of version 2 clients. Command names are matched in any case.',
  '',
];

export function renderMigrationDoc(): string {
  const commands = listV2Commands();
  const sections = V2_AREAS.flatMap((area) =>
    areaSection(
      area,
      commands.filter((command) => command.area === area),
    ),
  );
  return [...INTRO, ...sections].join('\n');
}
