import { SESSIONS } from '../../../infrastructure/storage/account-tables.js';
import { expect } from 'chai';
import { InvalidRefreshToken, InvalidToken } from '../../errors.js';
import { UuidShapedIds } from '../../../../tests/support/fakes.js';
import { InvalidInput } from '../../../domain/domain-error.js';
import { aRequestMetadata, aSignUpCommand } from '../../../../tests/support/builders.js';
import { inMemoryWorld } from '../../../../tests/support/in-memory-world.js';
import { rejection } from '../../../../tests/support/rejection.js';

const DAY_MS = 86_400_000;
const metadata = aRequestMetadata();

/** Ada signed up, with the session that sign-up opened (idle 14 days, absolute 30 days, 10 s of grace). */
async function signedUp() {
  const world = await inMemoryWorld({ replace: { ids: new UuidShapedIds() } });
  const first = await world.signUp.execute(aSignUpCommand());
  const [sessionId] = world.tables.rowsOf(SESSIONS).map((stored) => stored.key);
  const refresh = (refreshToken: unknown) => world.refreshSession.execute({ refreshToken, metadata });
  const storedSession = () => world.tables.rowsOf(SESSIONS).find((stored) => stored.key === sessionId)?.value;
  const eventsOfSession = () => world.store.events.filter((event) => 'sessionId' in event.payload && event.payload.sessionId === sessionId).map((event) => event.type);
  return { world, first, sessionId, refresh, storedSession, eventsOfSession };
}

describe('RefreshHandler (refreshSession)', () => {
  it('rotates the refresh token: a new token of the next generation, an access token of the same session, the idle deadline restarted', async () => {
    const { world, first, sessionId, refresh, storedSession } = await signedUp();
    world.clock.advance(DAY_MS);
    const now = world.clock.now();
    const second = await refresh(first.refreshToken);

    expect(second.refreshToken).to.not.equal(first.refreshToken);
    expect(second.user).to.deep.equal(first.user);
    expect(await world.authenticate.execute({ accessToken: second.accessToken })).to.deep.equal({ userId: first.user.id, sessionId, amr: ['pwd'], authTime: new Date(now.getTime() - DAY_MS), account: first.user });
    expect(storedSession()).to.deep.include({ generation: 1, rotatedAt: now, lastUsedAt: now, expiresAt: new Date(now.getTime() + 14 * DAY_MS) });
    expect((await refresh(second.refreshToken)).refreshToken).to.not.equal(second.refreshToken);
  });

  it('answers the previous token within the grace window with the same successor, without rotating again or recording anything', async () => {
    const { world, first, refresh, storedSession } = await signedUp();
    const second = await refresh(first.refreshToken);
    const eventsBefore = world.store.events.length;
    world.clock.advance(10_000);
    const again = await refresh(first.refreshToken);

    expect(again.refreshToken).to.equal(second.refreshToken);
    expect(storedSession()).to.deep.include({ generation: 1, revokedAt: null });
    expect(world.store.events).to.have.length(eventsBefore);
  });

  it('treats the previous token after the grace window as a reuse: RefreshTokenReused, the session ends, its successor is refused too', async () => {
    const { world, first, sessionId, refresh, eventsOfSession } = await signedUp();
    const second = await refresh(first.refreshToken);
    world.clock.advance(10_001);

    expect(await rejection(refresh(first.refreshToken))).to.be.instanceOf(InvalidRefreshToken);
    expect(eventsOfSession()).to.deep.equal(['SessionStarted', 'RefreshTokenReused', 'SessionRevoked']);
    expect(world.store.events.at(-1)).to.deep.include({ aggregateId: first.user.id, payload: { email: 'ada@example.com', sessionId, reason: 'reuse_detected' } });
    expect(await rejection(refresh(second.refreshToken))).to.be.instanceOf(InvalidRefreshToken);
    expect(await rejection(world.authenticate.execute({ accessToken: second.accessToken }))).to.be.instanceOf(InvalidToken);
  });

  it('refuses the current token of a session idle past its deadline with InvalidRefreshToken, ending it as expired', async () => {
    const { world, first, refresh, storedSession, eventsOfSession } = await signedUp();
    world.clock.advance(14 * DAY_MS);

    expect(await rejection(refresh(first.refreshToken))).to.be.instanceOf(InvalidRefreshToken);
    expect(storedSession()).to.deep.include({ revokedReason: 'expired', generation: 0 });
    expect(eventsOfSession()).to.deep.equal(['SessionStarted', 'SessionRevoked']);
  });

  it('keeps the absolute deadline: refreshing every 13 days does not carry a session past 30 days', async () => {
    const { world, first, refresh } = await signedUp();
    world.clock.advance(13 * DAY_MS);
    const second = await refresh(first.refreshToken);
    world.clock.advance(13 * DAY_MS);
    const third = await refresh(second.refreshToken);
    world.clock.advance(4 * DAY_MS);

    expect(await rejection(refresh(third.refreshToken))).to.be.instanceOf(InvalidRefreshToken);
  });

  it('answers a missing token with InvalidInput on refreshtoken, and a token it never issued with InvalidRefreshToken', async () => {
    const { first, refresh } = await signedUp();
    const missing = await rejection(refresh(''));
    const forged = first.refreshToken.replace(/\.[A-Za-z0-9_-]{43}$/, `.${'A'.repeat(43)}`);

    expect(missing).to.be.instanceOf(InvalidInput);
    expect((missing as InvalidInput).issues).to.deep.equal([{ field: 'refreshtoken', code: 'REQUIRED', message: 'is required' }]);
    expect(forged).to.not.equal(first.refreshToken);
    expect(await rejection(refresh(forged))).to.be.instanceOf(InvalidRefreshToken);
  });
});
