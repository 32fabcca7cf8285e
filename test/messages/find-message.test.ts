// biome-ignore-all lint/suspicious/noTemplateCurlyInString: piped text is written ${…}, in plain strings.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '../../src/http/principal.js';
import {
  findMessage,
  findReachableMessage,
  messageText,
  renderPipedText,
} from '../../src/modules/messages/messages.service.js';
import { createUserWithToken } from '../helpers/factories.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';

// What the distributions module uses: findMessage / findReachableMessage on the database, then render.
let t: TestApp;
let admin: { apiToken: string; userId: string; brandId: string };
let owner: { token: string; userId: string };
let messageId: string;
const participant = (userId: string, organizationId: string): Principal => ({
  userId,
  organizationId,
  userType: 'UT_PARTICIPANT',
  targetAudience: false,
});

beforeAll(async () => {
  t = await buildTestApp();
  admin = await t.newOrganization();
  owner = await createUserWithToken(t, admin.apiToken);
  const created = await t.call(owner.token, 'POST', '/API/v3/messages', {
    description: 'Invite',
    category: 'invite',
    messages: { EN: 'Hi ${m://FirstName}: ${l://SurveyLink}', 'PT-BR': 'Olá ${m://FirstName}' },
  });
  messageId = created.body.result.id;
});
afterAll(() => t.close());

describe('findMessage', () => {
  it('finds a message of the organisation, in its library when one is named', async () => {
    const scope = { organizationId: admin.brandId };
    const found = await findMessage(t.database.db, scope, messageId);
    expect(found).toEqual({
      id: messageId,
      libraryId: owner.userId,
      description: 'Invite',
      category: 'invite',
      messages: { EN: 'Hi ${m://FirstName}: ${l://SurveyLink}', 'PT-BR': 'Olá ${m://FirstName}' },
    });
    expect(await findMessage(t.database.db, scope, messageId, owner.userId)).toEqual(found);
    expect(await findMessage(t.database.db, scope, messageId, admin.userId)).toBeUndefined();
    expect(await findMessage(t.database.db, scope, 'MS_000000000000000')).toBeUndefined();
  });

  it("never finds another organisation's message", async () => {
    const other = await t.newOrganization();
    expect(await findMessage(t.database.db, { organizationId: other.brandId }, messageId)).toBeUndefined();
    const principal = { ...participant(other.userId, other.brandId), userType: 'UT_BRANDADMIN' as const };
    expect(await findReachableMessage(t.database.db, principal, messageId)).toBeUndefined();
  });

  it('findReachableMessage follows library access', async () => {
    const stranger = await createUserWithToken(t, admin.apiToken);
    const db = t.database.db;
    expect(await findReachableMessage(db, participant(owner.userId, admin.brandId), messageId)).toMatchObject(
      {
        id: messageId,
      },
    );
    expect(
      await findReachableMessage(db, participant(stranger.userId, admin.brandId), messageId),
    ).toBeUndefined();
    const adminPrincipal = {
      ...participant(admin.userId, admin.brandId),
      userType: 'UT_BRANDADMIN' as const,
    };
    expect(await findReachableMessage(db, adminPrincipal, messageId, owner.userId)).toMatchObject({
      id: messageId,
    });
  });
});

describe('messageText and rendering', () => {
  it("picks the recipient's language, then its primary language, then English", async () => {
    const message = await findMessage(t.database.db, { organizationId: admin.brandId }, messageId);
    if (!message) throw new Error('message not found');
    expect(messageText(message, 'pt-br')).toBe('Olá ${m://FirstName}');
    expect(messageText(message, 'PT')).toBe('Olá ${m://FirstName}');
    expect(messageText(message, 'en')).toBe('Hi ${m://FirstName}: ${l://SurveyLink}');
    expect(messageText(message, 'DE')).toBe('Hi ${m://FirstName}: ${l://SurveyLink}');
    expect(messageText(message, null)).toBe('Hi ${m://FirstName}: ${l://SurveyLink}');
    expect(messageText({ messages: { FR: 'Bonjour' } }, 'DE')).toBe('Bonjour');
    expect(messageText({ messages: {} }, 'DE')).toBe('');
    const recipient = {
      firstName: 'Ana',
      lastName: null,
      email: null,
      externalDataReference: null,
      embeddedData: {},
    };
    const html = renderPipedText(messageText(message, 'en'), recipient, {
      surveyUrl: 'https://x.test/s?a=1&b=2',
    });
    expect(html).toBe('Hi Ana: <a href="https://x.test/s?a=1&amp;b=2">Take the Survey</a>');
  });
});
