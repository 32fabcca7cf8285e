// biome-ignore-all lint/suspicious/noTemplateCurlyInString: piped text is written ${…}, in plain strings.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FormClient } from '../engine/form-client.js';
import { testWorker } from '../events/event-fixtures.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';
import {
  allPages,
  createDistribution,
  distributionWorld,
  getDistribution,
  hrefOf,
  pathOf,
  type World,
} from './distribution-helpers.js';

/**
 * Issue 12 acceptance: a 50-contact list with 2 opted out gets 48 messages, each with the recipient's
 * name, a working individual link and a working opt-out link; one person takes the survey and the
 * completion event names them; a reminder reaches the other 47, a thank-you the one.
 */
let world: World;
let receiver: WebhookReceiver;
const OPTED_OUT = [3, 17];

beforeAll(async () => {
  world = await distributionWorld({ contacts: 50, unsubscribed: OPTED_OUT });
  receiver = await startWebhookReceiver();
}, 120_000);
afterAll(async () => {
  await world?.close();
  await receiver?.close();
});

describe('an invitation to a mailing list', () => {
  let distributionId: string;
  let finisher: { id: string; email: string };

  it('sends one message to each subscribed contact, skipping the two opted out', async () => {
    distributionId = await createDistribution(world);
    expect((await getDistribution(world, distributionId)).requestStatus).toBe('Pending');
    await world.runJobs();
    expect(world.sink.received).toHaveLength(48);
    const addresses = world.sink.received.flatMap((m) => m.to);
    const expected = world.contacts.filter((_, i) => !OPTED_OUT.includes(i)).map((c) => c.email);
    expect(addresses.sort()).toEqual(expected.sort());
    expect(new Set(world.sink.received.map((m) => m.messageId)).size).toBe(48);
    const read = await getDistribution(world, distributionId);
    expect(read).toMatchObject({
      requestStatus: 'Done',
      requestType: 'Invite',
      headers: {
        fromEmail: 'surveys@example.org',
        fromName: 'Survey Team',
        replyToEmail: 'replies@example.org',
      },
      recipients: { mailingListId: world.listId, contactId: null },
      surveyLink: { surveyId: world.surveyId, linkType: 'Individual' },
      stats: { sent: 48, skipped: 2, failed: 0, bounced: 0, started: 0, finished: 0, opened: 0 },
    });
  });

  it("carries the recipient's name, an individual link, an opt-out link, List-Unsubscribe and a text part", async () => {
    const contact = world.contacts[5] as { id: string; firstName: string; email: string };
    const mail = world.sink.received.find((m) => m.to.includes(contact.email));
    expect(mail).toBeDefined();
    const parsed = await world.sink.parse(mail as never);
    expect(parsed.subject).toBe(`A question for ${contact.firstName}`);
    expect(parsed.from?.value[0]).toMatchObject({ name: 'Survey Team', address: 'surveys@example.org' });
    expect(parsed.replyTo?.text).toBe('replies@example.org');
    const html = String(parsed.html);
    expect(html).toContain(`Dear ${contact.firstName} Surname5`);
    const surveyLink = hrefOf(html, 'Take the survey');
    expect(surveyLink).toMatch(new RegExp(`/jfe/form/${world.surveyId}/l/[A-Za-z0-9]{40}$`));
    const optOut = hrefOf(html, 'Unsubscribe');
    const header = (mail?.raw.toString('utf8') ?? '').split('\r\n\r\n')[0]?.replace(/\r\n[ \t]+/g, ' ') ?? '';
    expect(header).toContain(`List-Unsubscribe: <${optOut}>`);
    expect(header).toContain('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
    expect(parsed.text).toContain(`Dear ${contact.firstName} Surname5`);
    expect(parsed.text).toContain(surveyLink);
    // The individual link opens the survey; the opt-out link shows its confirm page.
    expect((await new FormClient(world.t).get(pathOf(surveyLink))).body).toContain('Anything to add?');
    const confirm = await world.t.app.inject({ method: 'GET', url: pathOf(optOut) });
    expect(confirm.statusCode).toBe(200);
    expect(confirm.body).toContain(contact.email);
  });

  it('ties the response to the contact: the completion event carries its RecipientID', async () => {
    const subscribed = await world.t.call(world.org.apiToken, 'POST', '/API/v3/eventsubscriptions', {
      topics: 'surveyengine.completedResponse.*',
      publicationUrl: receiver.url,
    });
    expect(subscribed.status).toBe(200);
    const contact = world.contacts[7] as { id: string; email: string };
    finisher = contact;
    const mail = world.sink.received.find((m) => m.to.includes(contact.email));
    const link = hrefOf(String((await world.sink.parse(mail as never)).html), 'Take the survey');
    const client = new FormClient(world.t);
    const first = await client.get(pathOf(link));
    const links = async () =>
      allPages(world, `/API/v3/distributions/${distributionId}/links?surveyId=${world.surveyId}`);
    expect((await links()).find((l) => l.contactId === contact.id)?.status).toBe('Survey Started');
    const end = await client.post(`/jfe/form/${world.surveyId}`, first.body, { QID1_TEXT: 'All good' });
    expect(end.body).toContain('Your response has been recorded');

    const worker = testWorker(world.t);
    await worker.deliverDue();
    await receiver.waitFor(1, 10_000);
    const event = JSON.parse(receiver.received[0]?.form.get('MSG') ?? '{}');
    expect(event).toMatchObject({
      Status: 'Complete',
      SurveyID: world.surveyId,
      RecipientID: contact.id,
      DistributionID: distributionId,
    });
    const response = await world.t.call(
      world.org.apiToken,
      'GET',
      `/API/v3/surveys/${world.surveyId}/responses/${event.ResponseID}`,
    );
    expect(response.body.result.values).toMatchObject({
      distributionChannel: 'email',
      recipientFirstName: 'Person7',
      recipientLastName: 'Surname7',
      recipientEmail: contact.email,
    });

    const all = await links();
    expect(all).toHaveLength(50);
    const byStatus = (status: string) => all.filter((l) => l.status === status).length;
    expect(byStatus('Survey Finished')).toBe(1);
    // Person 5's link was opened (and not finished) by the test before.
    expect(byStatus('Survey Started')).toBe(1);
    expect(byStatus('Email Sent')).toBe(46);
    expect(byStatus('Email Skipped (Opted Out)')).toBe(2);
    expect(all.find((l) => l.contactId === contact.id)).toMatchObject({ link: link, unsubscribed: false });
    expect((await getDistribution(world, distributionId)).stats).toMatchObject({ started: 2, finished: 1 });
    const history = await allPages(world, `/API/v3/distributions/${distributionId}/history?pageSize=20`);
    expect(history).toHaveLength(50);
    expect(history.find((h) => h.contactId === contact.id)).toMatchObject({
      status: 'SurveyFinished',
      responseId: event.ResponseID,
      distributionId,
    });
    expect(history.filter((h) => h.status === 'Success')).toHaveLength(46);
    expect(history.filter((h) => h.status === 'SurveyStarted')).toHaveLength(1);
  });

  it('sends a reminder to the 47 who have not finished, and a thank-you to the one who has', async () => {
    const before = world.sink.received.length;
    const reminder = await world.t.call(
      world.org.apiToken,
      'POST',
      `/API/v3/distributions/${distributionId}/reminders`,
      {
        message: {
          messageText: '<p>A reminder, ${m://FirstName}: ${l://SurveyLink?d=Take%20the%20survey}</p>',
        },
        header: { subject: 'Reminder' },
        sendDate: world.clock.now().toISOString(),
      },
    );
    expect(reminder.status, JSON.stringify(reminder.body)).toBe(200);
    await world.runJobs();
    const reminded = world.sink.received.slice(before);
    expect(reminded).toHaveLength(47);
    expect(reminded.some((m) => m.to.includes(finisher.email))).toBe(false);
    // A reminder's link is the invitation's own individual link.
    const sample = reminded[0];
    const invite = world.sink.received.slice(0, before).find((m) => m.to[0] === sample?.to[0]);
    expect(hrefOf(String((await world.sink.parse(sample as never)).html), 'Take the survey')).toBe(
      hrefOf(String((await world.sink.parse(invite as never)).html), 'Take the survey'),
    );
    const reminderRead = await getDistribution(world, reminder.body.result.id);
    expect(reminderRead).toMatchObject({
      requestType: 'Reminder',
      parentDistributionId: distributionId,
      stats: { sent: 47, finished: 0 },
    });

    const thanks = await world.t.call(world.org.apiToken, 'POST', `/API/v3/distributions/${distributionId}`, {
      requestType: 'ThankYou',
      message: { messageText: '<p>Thank you, ${m://FirstName}.</p>' },
      sendDate: world.clock.now().toISOString(),
    });
    expect(thanks.status, JSON.stringify(thanks.body)).toBe(200);
    await world.runJobs();
    const thanked = world.sink.received.slice(before + 47);
    expect(thanked.map((m) => m.to)).toEqual([[finisher.email]]);
    const thankYouHtml = String((await world.sink.parse(thanked[0] as never)).html);
    expect(thankYouHtml).not.toContain('/jfe/form/');
    expect((await getDistribution(world, thanks.body.result.id)).stats).toMatchObject({
      sent: 1,
      finished: 1,
    });

    const listed = await allPages(world, `/API/v3/distributions?surveyId=${world.surveyId}`);
    expect(listed.map((d) => d.requestType).sort()).toEqual(['Invite', 'Reminder', 'ThankYou']);
    const onlyReminders = await allPages(
      world,
      `/API/v3/distributions?surveyId=${world.surveyId}&distributionRequestType=Reminder`,
    );
    expect(onlyReminders.map((d) => d.id)).toEqual([reminder.body.result.id]);
  });

  it('opts a contact out through the one-click POST and records an opened message', async () => {
    const contact = world.contacts[9] as { id: string; email: string };
    const mail = world.sink.received.find((m) => m.to.includes(contact.email));
    const parsed = await world.sink.parse(mail as never);
    const optOut = hrefOf(String(parsed.html), 'Unsubscribe');
    const oneClick = await world.t.app.inject({
      method: 'POST',
      url: pathOf(optOut),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.statusCode).toBe(200);
    const optedOut = await allPages(
      world,
      `/API/v3/directories/${world.org.directoryId}/mailinglists/${world.listId}/optedOutContacts`,
    );
    expect(optedOut.map((c) => c.contactId)).toContain(contact.id);
    const read = await world.t.call(
      world.org.apiToken,
      'GET',
      `/API/v3/directories/${world.org.directoryId}/contacts/${contact.id}`,
    );
    expect(read.body.result.unsubscribed).toBe(true);

    const image = /<img src="([^"]+)"/.exec(String(parsed.html))?.[1] ?? '';
    const pixel = await world.t.app.inject({ method: 'GET', url: pathOf(image.replaceAll('&amp;', '&')) });
    expect(pixel.statusCode).toBe(200);
    expect(pixel.headers['content-type']).toBe('image/gif');
    const invite = (
      await allPages(world, `/API/v3/distributions?surveyId=${world.surveyId}&distributionRequestType=Invite`)
    )[0];
    expect(invite?.stats).toMatchObject({ opened: 1 });
    const bad = await world.t.app.inject({
      method: 'POST',
      url: '/mail/optout/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    });
    expect(bad.statusCode).toBe(404);
  });
});
