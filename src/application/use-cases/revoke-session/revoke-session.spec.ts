import { expect } from 'chai';
import { InvalidToken, SessionNotFound, StepUpRequired } from '../../errors.js';
import { withSecondFactor } from '../../../../tests/support/totp.js';
import { aRequestMetadata, aSignInCommand, aSignUpCommand, completedSignIn } from '../../../../tests/support/builders.js';
import { inMemoryWorld } from '../../../../tests/support/in-memory-world.js';
import { rejection } from '../../../../tests/support/rejection.js';

const metadata = aRequestMetadata();

/** Ada on a laptop (sign-up) and a phone (sign-in), acting from the laptop; Grace, another account, on her own device. */
async function adaAndGrace() {
  const world = await inMemoryWorld();
  const laptop = await world.signUp.execute(aSignUpCommand());
  const phone = await completedSignIn(world.signIn.execute(aSignInCommand()));
  const grace = await world.signUp.execute(aSignUpCommand({ name: 'Grace', lastname: 'Hopper', email: 'grace@example.com' }));
  const principal = await world.authenticate.execute({ accessToken: laptop.accessToken });
  const phoneSession = (await world.authenticate.execute({ accessToken: phone.accessToken })).sessionId;
  const graceSession = (await world.authenticate.execute({ accessToken: grace.accessToken })).sessionId;
  const revoke = (sessionId: string) => world.revokeSession.execute({ principal, sessionId, metadata });
  const revocations = () => world.store.events.filter((event) => event.type === 'SessionRevoked');
  return { world, laptop, phone, grace, principal, phoneSession, graceSession, revoke, revocations };
}

describe('RevokeSessionHandler (revokeSession)', () => {
  it("ends the named session of the caller's account, records SessionRevoked(revoked) on the account, and leaves the caller's own", async () => {
    const { world, laptop, phone, principal, phoneSession, revoke, revocations } = await adaAndGrace();
    await revoke(phoneSession);

    expect(await rejection(world.authenticate.execute({ accessToken: phone.accessToken }))).to.be.instanceOf(InvalidToken);
    expect(await world.authenticate.execute({ accessToken: laptop.accessToken })).to.deep.equal(principal);
    expect(revocations()).to.have.length(1);
    expect(revocations()[0]).to.deep.include({
      aggregateId: principal.userId,
      payload: { email: 'ada@example.com', sessionId: phoneSession, reason: 'revoked' },
      metadata,
    });
    expect((await world.listSessions.execute({ principal })).sessions.map((session) => session.id)).to.deep.equal([principal.sessionId]);
  });

  it("answers another account's session id with SessionNotFound and leaves that session alive", async () => {
    const { world, grace, graceSession, revoke, revocations } = await adaAndGrace();

    expect(await rejection(revoke(graceSession))).to.be.instanceOf(SessionNotFound);
    expect((await world.authenticate.execute({ accessToken: grace.accessToken })).sessionId).to.equal(graceSession);
    expect(revocations()).to.deep.equal([]);
  });

  it('answers an unknown session id with SessionNotFound', async () => {
    const { revoke, revocations } = await adaAndGrace();

    expect(await rejection(revoke('no-such-session'))).to.be.instanceOf(SessionNotFound);
    expect(revocations()).to.deep.equal([]);
  });

  it('answers a session that already ended, revoked or expired, with SessionNotFound and records nothing more', async () => {
    const { world, phoneSession, revoke, revocations } = await adaAndGrace();
    await revoke(phoneSession);

    expect(await rejection(revoke(phoneSession))).to.be.instanceOf(SessionNotFound);
    expect(revocations()).to.have.length(1);

    const tablet = await world.authenticate.execute({ accessToken: (await completedSignIn(world.signIn.execute(aSignInCommand()))).accessToken });
    world.clock.advance(14 * 86_400_000);
    expect(await rejection(revoke(tablet.sessionId))).to.be.instanceOf(SessionNotFound);
    expect(revocations()).to.have.length(1);
  });

  it('ends another session by id only after a step-up on an account with a second factor; its own needs none', async () => {
    const { world, passwordOnly, steppedUp, metadata } = await withSecondFactor();
    const { principal } = await steppedUp();
    const other = (await steppedUp()).principal;
    expect(await rejection(world.revokeSession.execute({ principal: passwordOnly, sessionId: principal.sessionId, metadata }))).to.be.instanceOf(StepUpRequired);
    await world.revokeSession.execute({ principal, sessionId: other.sessionId, metadata });
    await world.revokeSession.execute({ principal: passwordOnly, sessionId: passwordOnly.sessionId, metadata });
    expect(world.store.events.filter((event) => event.type === 'SessionRevoked').map((event) => event.payload['sessionId'])).to.deep.equal([other.sessionId, passwordOnly.sessionId]);
  });
});
