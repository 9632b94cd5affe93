import { expect } from 'chai';
import { revokeSession } from '../../../src/application/policies/sessions.js';
import { InvalidRefreshToken } from '../../../src/application/errors.js';
import { aRequestMetadata, aSignUpCommand } from '../../support/builders.js';
import { UuidShapedIds } from '../../support/fakes.js';
import { inMemoryWorld } from '../../support/in-memory-world.js';
import { rejection } from '../../support/rejection.js';

const metadata = aRequestMetadata();

describe('revokeSession: ending one session that a refresh changes meanwhile', () => {
  it('reloads the session after its compare-and-swap lost to a refresh, and ends it: the refreshed tokens are refused', async () => {
    const world = await inMemoryWorld({ replace: { ids: new UuidShapedIds() } });
    const signedUp = await world.signUp.execute(aSignUpCommand());
    const { sessionId } = await world.authenticate.execute({ accessToken: signedUp.accessToken });
    const stale = await world.ports.sessions.findById(sessionId);
    const refreshed = await world.refreshSession.execute({ refreshToken: signedUp.refreshToken, metadata });

    await revokeSession(world.ports, stale ?? expect.fail('no session'), 'revoked', metadata);

    expect(await rejection(world.refreshSession.execute({ refreshToken: refreshed.refreshToken, metadata }))).to.be.instanceOf(InvalidRefreshToken);
    const revoked = world.store.events.filter((event) => event.type === 'SessionRevoked');
    expect(revoked.map((event) => event.type === 'SessionRevoked' && event.payload.reason)).to.deep.equal(['revoked']);
  });

  it('writes nothing for a session already ended', async () => {
    const world = await inMemoryWorld({ replace: { ids: new UuidShapedIds() } });
    const signedUp = await world.signUp.execute(aSignUpCommand());
    const { sessionId } = await world.authenticate.execute({ accessToken: signedUp.accessToken });
    const session = (await world.ports.sessions.findById(sessionId)) ?? expect.fail('no session');
    await revokeSession(world.ports, session, 'sign_out', metadata);
    const events = world.store.events.length;

    await revokeSession(world.ports, (await world.ports.sessions.findById(sessionId)) ?? expect.fail('no session'), 'revoked', metadata);
    expect(world.store.events.length).to.equal(events);
  });
});
