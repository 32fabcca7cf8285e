import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../http/errors.js';
import {
  findV2Command,
  requestedCommand,
  retiredMessage,
  retiredV2Call,
  safeCommandName,
} from './v2.service.js';
import { listV2Commands } from './v2-commands.js';
import { renderMigrationDoc } from './v2-migration-doc.js';

const AFTER = new Date('2020-04-01T00:00:00Z');
const BEFORE = new Date('2020-03-31T23:59:59Z');

describe('the table of version 2 commands', () => {
  const commands = listV2Commands();

  it('names each command once, in a form the answers may repeat', () => {
    const lower = commands.map((command) => command.name.toLowerCase());
    expect(new Set(lower).size).toBe(commands.length);
    for (const { name } of commands) expect(safeCommandName(name), name).toBe(name);
  });

  it('gives each a v3 call in the spec notation, or null for an obsoleted one', () => {
    for (const { name, replacement } of commands) {
      if (replacement === null) continue;
      expect(replacement, name).toMatch(/^(GET|POST|PUT|DELETE) \/v3\/[A-Za-z0-9/<>]+$/);
    }
    expect(commands.filter((command) => command.replacement === null).length).toBeGreaterThan(0);
  });

  it('gives the spec words to every command whose name is our reading', () => {
    for (const command of commands.filter((c) => c.nameUncertain))
      expect(command.specTerms?.length, command.name).toBeGreaterThan(0);
  });
});

describe('reading the command of a v2 call', () => {
  it.each([
    [{ Request: 'getSurveys' }, 'getSurveys'],
    [{ request: 'getSurveys' }, 'getSurveys'],
    [{ REQUEST: 'getSurveys', User: 'x' }, 'getSurveys'],
    [{ Request: ['getSurvey', 'getSurveys'] }, 'getSurvey'],
    [{ User: 'x' }, undefined],
    [{ Request: 42 }, undefined],
    [undefined, undefined],
    ['Request=getSurveys', undefined],
  ])('finds %j as %j', (fields, expected) => {
    expect(requestedCommand(fields)).toBe(expected);
  });

  it('matches a command in any case', () => {
    expect(findV2Command('GETLEGACYRESPONSEDATA')?.name).toBe('getLegacyResponseData');
    expect(findV2Command('getlegacyresponsedata')?.replacement).toBe('POST /v3/responseexports');
    expect(findV2Command('getLegacyResponse')).toBeUndefined();
  });

  it.each([
    '<script>alert(1)</script>',
    'get Survey',
    'getSurvey;drop',
    `a${'b'.repeat(64)}`,
    '1getSurvey',
    '',
    'ｇｅｔSurvey',
  ])('repeats no unsafe name: %j', (raw) => {
    expect(safeCommandName(raw)).toBeUndefined();
    const message = retiredMessage(raw, AFTER);
    if (raw) expect(message).not.toContain(raw);
    expect(message).toContain('/API/v3');
  });
});

describe('the answer', () => {
  it('is a 404 FW_V2_1 naming the replacement', () => {
    const error = retiredV2Call('activateSurvey', AFTER);
    expect(error.status).toBe(404);
    expect(error.code).toBe('FW_V2_1');
    expect(ERROR_CODES.FW_V2_1.status).toBe(404);
    expect(error.message).toBe(
      'Version 2 of the API was shut down on 2020-03-31. activateSurvey is replaced by PUT /v3/surveys/<surveyId>. Send `{"isActive": true}`.',
    );
  });

  it('says an obsoleted command has no v3 equivalent, and adds its note', () => {
    expect(retiredMessage('activateBrand', AFTER)).toBe(
      'Version 2 of the API was shut down on 2020-03-31. activateBrand was obsoleted: it has no version 3 equivalent.',
    );
    expect(retiredMessage('getPanelMemberCount', AFTER)).toContain('carries its `contactCount`.');
  });

  it('names the command as the table spells it whatever the case sent', () => {
    expect(retiredMessage('DEACTIVATESURVEY', AFTER)).toContain('deactivateSurvey is replaced by PUT');
  });

  it('repeats an unknown but safe name and points at the v3 API', () => {
    expect(retiredMessage('getSomething', AFTER)).toBe(
      'Version 2 of the API was shut down on 2020-03-31. "getSomething" is not a version 2 command Fieldwork knows. Use the version 3 API under /API/v3 (reference at /API/docs).',
    );
  });

  it('says the shutdown is ahead before the end of 2020-03-31 (spec 9.2), and past from then on', () => {
    expect(retiredMessage('getSurvey', BEFORE)).toMatch(
      /^Version 2 of the API is retired and stops existing after 2020-03-31/,
    );
    expect(retiredMessage('getSurvey', AFTER)).toMatch(/^Version 2 of the API was shut down on 2020-03-31\./);
  });
});

describe('the migration page', () => {
  it('has a row for every command with its v3 call or its obsoletion', () => {
    const doc = renderMigrationDoc();
    for (const command of listV2Commands()) {
      const call = command.replacement ? `\`${command.replacement}\`` : 'obsoleted: no version 3 equivalent';
      expect(doc, command.name).toMatch(
        new RegExp(`^\\| \`${command.name}\`( \\(\\?\\))? \\| ${escapeRegExp(call)} \\|`, 'm'),
      );
    }
  });

  it('keeps the id placeholders of calls in notes inside code spans', () => {
    const doc = renderMigrationDoc();
    expect(doc).toContain('then poll `GET /v3/responseexports/<exportId>` until');
    expect(doc).not.toMatch(/[^`]GET \/v3\/users\/<userId>/);
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
