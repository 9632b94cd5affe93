import { SESSIONS } from '../../../infrastructure/storage/account-tables.js';
import { expect } from 'chai';
import { InvalidToken } from '../../errors.js';
import { aRequestMetadata, aSignUpCommand } from '../../../../tests/support/builders.js';
import { inMemoryWorld } from '../../../../tests/support/in-memory-world.js';
import { rejection } from '../../../../tests/support/rejection.js';

const DAY_MS = 86_400_000;

/** Ada signed up (idle deadline 14 days), with the one session that sign-up stored. */
async function adaSignedUp() {
  const world = await inMemoryWorld();
  const { user, accessToken } = await world.signUp.execute(aSignUpCommand());
  const sessionIds = world.tables.rowsOf(SESSIONS).map((stored) => stored.key);
  expect(sessionIds).to.have.length(1);
  const authenticate = (token: string) => world.authenticate.execute({ accessToken: token });
  return { world, user, accessToken, sessionId: sessionIds[0] ?? '', authenticate };
}

describe('AuthenticateHandler (authenticate)', () => {
  it('returns the principal, the account and its stored session, for a token of a live session, and writes nothing', async () => {
    const { world, user, accessToken, sessionId, authenticate } = await adaSignedUp();
    const eventsBefore = world.store.events.length;

    expect(await authenticate(accessToken)).to.deep.equal({ userId: user.id, sessionId, amr: ['pwd'], authTime: world.clock.now(), account: user });
    expect(world.store.events).to.have.length(eventsBefore);
  });

  it('throws InvalidToken once the session is signed out, though the token itself still verifies', async () => {
    const { world, accessToken, authenticate } = await adaSignedUp();
    const principal = await authenticate(accessToken);
    await world.signOut.execute({ principal, scope: 'local', metadata: aRequestMetadata() });

    const { account: _account, ...claims } = principal;
    expect(await world.verifier.verify(accessToken)).to.deep.include(claims);
    expect(await rejection(authenticate(accessToken))).to.be.instanceOf(InvalidToken);
  });

  it('throws InvalidToken from the moment the session passes its idle deadline, and not a millisecond before', async () => {
    const { world, user, accessToken, authenticate } = await adaSignedUp();
    world.clock.advance(14 * DAY_MS - 1);
    expect((await authenticate(accessToken)).userId).to.equal(user.id);

    world.clock.advance(1);
    expect(await rejection(authenticate(accessToken))).to.be.instanceOf(InvalidToken);
  });

  it("throws InvalidToken for a token that does not verify, names an unknown session, or names another account's session", async () => {
    const { world, user, sessionId, authenticate } = await adaSignedUp();
    const grace = await world.signUp.execute(aSignUpCommand({ name: 'Grace', lastname: 'Hopper', email: 'grace@example.com' }));
    const graceAsAda = await world.tokens.issue({ userId: grace.user.id, sessionId, amr: ['pwd'], authTime: new Date() });
    const unknownSession = await world.tokens.issue({ userId: user.id, sessionId: 'no-such-session', amr: ['pwd'], authTime: new Date() });

    expect(await rejection(authenticate('not-a-token'))).to.be.instanceOf(InvalidToken);
    expect(await rejection(authenticate(unknownSession))).to.be.instanceOf(InvalidToken);
    expect(await rejection(authenticate(graceAsAda))).to.be.instanceOf(InvalidToken);
    expect((await authenticate(grace.accessToken)).userId).to.equal(grace.user.id);
  });
});
