import { expect } from 'chai';
import { aRequestMetadata, aSignInCommand, aSignUpCommand, completedSignIn } from '../../../../tests/support/builders.js';
import { inMemoryWorld } from '../../../../tests/support/in-memory-world.js';
import { rejection } from '../../../../tests/support/rejection.js';
import { InvalidCursor } from '../../errors.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** Ada signs up on a laptop, an hour later signs in on a phone, an hour after that on a tablet; each a device of its own. */
async function adaOnThreeDevices() {
  const world = await inMemoryWorld();
  const started = [world.clock.now()];
  const laptop = await world.signUp.execute(aSignUpCommand({ metadata: aRequestMetadata({ userAgent: 'laptop', clientIp: '198.51.100.1' }) }));
  world.clock.advance(HOUR_MS);
  started.push(world.clock.now());
  const phone = await completedSignIn(world.signIn.execute(aSignInCommand({ metadata: aRequestMetadata({ userAgent: 'phone', clientIp: '198.51.100.2' }) })));
  world.clock.advance(HOUR_MS);
  started.push(world.clock.now());
  const tablet = await completedSignIn(world.signIn.execute(aSignInCommand({ metadata: aRequestMetadata({ userAgent: 'tablet', clientIp: null }) })));
  const principalOf = (accessToken: string) => world.authenticate.execute({ accessToken });
  return { world, started, laptop, phone, tablet, principalOf };
}

describe('ListSessionsHandler (listSessions)', () => {
  it("lists the caller's live sessions newest first, as their devices opened them, with exactly the caller's marked current", async () => {
    const { world, started, laptop, phone, tablet, principalOf } = await adaOnThreeDevices();
    const principal = await principalOf(phone.accessToken);
    const ids = await Promise.all([tablet, phone, laptop].map(async ({ accessToken }) => (await principalOf(accessToken)).sessionId));
    const { sessions, nextCursor } = await world.listSessions.execute({ principal });

    expect(nextCursor).to.equal(null);
    expect(sessions.map((session) => session.id)).to.deep.equal(ids);
    expect(sessions.map(({ userAgent, clientIp, createdAt, current }) => ({ userAgent, clientIp, createdAt, current }))).to.deep.equal([
      { userAgent: 'tablet', clientIp: null, createdAt: started[2], current: false },
      { userAgent: 'phone', clientIp: '198.51.100.2', createdAt: started[1], current: true },
      { userAgent: 'laptop', clientIp: '198.51.100.1', createdAt: started[0], current: false },
    ]);
    expect(sessions[2]?.expiresAt).to.deep.equal(new Date((started[0]?.getTime() ?? 0) + 14 * DAY_MS));
  });

  it('leaves out sessions that were signed out or passed their deadline, and sessions of other accounts', async () => {
    const { world, laptop, phone, tablet, principalOf } = await adaOnThreeDevices();
    const grace = await principalOf((await world.signUp.execute(aSignUpCommand({ name: 'Grace', lastname: 'Hopper', email: 'grace@example.com' }))).accessToken);
    const principal = await principalOf(tablet.accessToken);
    await world.signOut.execute({ principal: await principalOf(phone.accessToken), scope: 'local', metadata: aRequestMetadata() });
    const laptopSession = (await principalOf(laptop.accessToken)).sessionId;
    world.clock.advance(14 * DAY_MS - 2 * HOUR_MS);

    const { sessions } = await world.listSessions.execute({ principal });
    expect(sessions.map(({ id, current }) => ({ id, current }))).to.deep.equal([{ id: principal.sessionId, current: true }]);
    expect(sessions.map((session) => session.id)).to.not.include(laptopSession);
    expect((await world.listSessions.execute({ principal: grace })).sessions.map(({ id, current }) => ({ id, current }))).to.deep.equal([{ id: grace.sessionId, current: true }]);
  });

  it('marks none current for a principal whose session is not among them, and writes nothing', async () => {
    const { world, laptop, principalOf } = await adaOnThreeDevices();
    const { userId, account } = await principalOf(laptop.accessToken);
    const eventsBefore = world.store.events.length;
    const { sessions } = await world.listSessions.execute({ principal: { userId, sessionId: 'ended-elsewhere', amr: ['pwd'], authTime: null, account } });

    expect(sessions).to.have.length(3);
    expect(sessions.filter((session) => session.current)).to.deep.equal([]);
    expect(world.store.events).to.have.length(eventsBefore);
  });

  it('pages: at most `limit` sessions newest first, and a nextCursor for the older ones until the last page', async () => {
    const { world, laptop, phone, tablet, principalOf } = await adaOnThreeDevices();
    const principal = await principalOf(phone.accessToken);
    const ids = await Promise.all([tablet, phone, laptop].map(async ({ accessToken }) => (await principalOf(accessToken)).sessionId));

    const first = await world.listSessions.execute({ principal, limit: 2 });
    expect(first.sessions.map((session) => session.id)).to.deep.equal(ids.slice(0, 2));
    expect(first.nextCursor).to.be.a('string');
    const second = await world.listSessions.execute({ principal, limit: 2, cursor: first.nextCursor });
    expect(second.sessions.map((session) => session.id)).to.deep.equal(ids.slice(2));
    expect(second.nextCursor).to.equal(null);
    expect(await rejection(world.listSessions.execute({ principal, cursor: 'not-a-cursor' }))).to.be.instanceOf(InvalidCursor);
  });
});

