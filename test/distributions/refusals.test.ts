import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  allPages,
  createDistribution,
  distributionWorld,
  getDistribution,
  type World,
} from './distribution-helpers.js';

/** Issue 12: a 550 ends in bouncedContacts; a 451 is tried again after a back-off and delivered. */
let world: World;

beforeAll(async () => {
  world = await distributionWorld({
    contacts: 3,
    // person0 is refused for good; person1 is put off once, then taken.
    rule: (address, n) => {
      if (address === 'person0@example.com') return { code: 550, message: '5.1.1 No such mailbox' };
      if (address === 'person1@example.com' && n === 0)
        return { code: 451, message: '4.7.1 Try again later' };
      return undefined;
    },
  });
}, 60_000);
afterAll(async () => world?.close());

describe('refusals by the SMTP server', () => {
  it('a 550 bounces the contact; a 451 waits for its back-off and is then delivered', async () => {
    const id = await createDistribution(world);
    await world.runJobs();
    expect(world.sink.received.map((m) => m.to[0])).toEqual(['person2@example.com']);
    expect((await getDistribution(world, id)).stats).toMatchObject({ sent: 1, bounced: 1, failed: 0 });
    expect((await getDistribution(world, id)).requestStatus).toBe('InProgress');
    const bounced = await allPages(
      world,
      `/API/v3/directories/${world.org.directoryId}/mailinglists/${world.listId}/bouncedContacts`,
    );
    expect(bounced.map((c) => c.contactId)).toEqual([world.contacts[0]?.id]);
    const history = await allPages(world, `/API/v3/distributions/${id}/history`);
    const of = (i: number) => history.find((h) => h.contactId === world.contacts[i]?.id);
    expect(of(0)).toMatchObject({ status: 'HardBounce' });
    expect(String(of(0)?.errorMessage)).toContain('550');
    expect(of(1)).toMatchObject({ status: 'SoftBounce' });

    // Nothing is due until the back-off (about a minute) has passed on the clock.
    expect(await world.runJobs()).toBe(0);
    world.clock.advance(30_000);
    expect(await world.runJobs()).toBe(0);
    world.clock.advance(10 * 60_000);
    expect(await world.runJobs()).toBe(1);
    expect(world.sink.received.map((m) => m.to[0]).sort()).toEqual([
      'person1@example.com',
      'person2@example.com',
    ]);
    expect(world.sink.offered.get('person1@example.com')).toBe(2);
    // The bounced contact is not tried again.
    expect(world.sink.offered.get('person0@example.com')).toBe(1);
    const read = await getDistribution(world, id);
    expect(read).toMatchObject({ requestStatus: 'Done', stats: { sent: 2, bounced: 1 } });
  });
});
