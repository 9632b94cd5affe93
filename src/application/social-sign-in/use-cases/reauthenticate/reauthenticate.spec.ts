import { expect } from 'chai';
import { InvalidInput } from '../../../../domain/domain-error.js';
import { inMemoryWorld } from '../../../../../tests/support/in-memory-world.js';
import { aRequestMetadata, completedSignIn } from '../../../../../tests/support/builders.js';
import { rejection } from '../../../../../tests/support/rejection.js';
import { aFlowRequest, aPkcePair, reauthenticated, socialSignIn } from '../../../../../tests/support/social.js';

describe('ReauthenticateHandler (reauthenticate)', () => {
  it("answers a code bound to the session and the action for an identity of the caller's account only", async () => {
    const world = await inMemoryWorld();
    const signedIn = await completedSignIn(socialSignIn(world, { subject: 'ada-1', email: 'ada@example.com' }));
    const principal = await world.authenticate.execute({ accessToken: signedIn.accessToken });
    const own = await reauthenticated(world, principal, { subject: 'ada-1', email: 'ada@example.com' }, 'change-email');
    expect(Object.keys(own.params)).to.deep.equal(['code']);
    const code = await world.oauthFlows.redeem(world.providers.idOf(own.oauthCode ?? ''));
    expect(code?.reauth).to.deep.equal({ sessionId: principal.sessionId, action: 'change-email' });
    expect((await reauthenticated(world, principal, { subject: 'mallory' }, 'change-email')).params).to.deep.equal({ error: 'access_denied' });
    expect(await world.identities.findBySubject('https://corp.example', 'mallory'), 'nothing linked, no account made').to.equal(null);
  });

  it('refuses an action it does not know, with the flow request checked alongside', async () => {
    const world = await inMemoryWorld();
    const signedIn = await completedSignIn(socialSignIn(world, { subject: 'ada-1' }));
    const principal = await world.authenticate.execute({ accessToken: signedIn.accessToken });
    const refused = await rejection(world.reauthenticate.execute({ ...aFlowRequest(aPkcePair().challenge, { redirectTo: 'https://evil.example/' }), principal, action: 'everything' }));
    expect((refused as InvalidInput).issues.map((issue) => issue.field)).to.deep.equal(['redirect_to', 'action']);
  });

  it('serves one of N simultaneous requests that carry the same re-authentication code; the others are refused', async () => {
    const world = await inMemoryWorld();
    const signedIn = await completedSignIn(socialSignIn(world, { subject: 'ada-1', email: 'ada@example.com' }));
    const principal = await world.authenticate.execute({ accessToken: signedIn.accessToken });
    const proof = await reauthenticated(world, principal, { subject: 'ada-1', email: 'ada@example.com' }, 'change-email');
    const outcomes = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) => world.requestEmailChange.execute({ principal, currentPassword: undefined, ...proof, newEmail: `ada${i}@elsewhere.example`, metadata: aRequestMetadata() })),
    );
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).to.have.length(1);
    const refused = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason as unknown] : []));
    expect(refused.filter((reason) => reason instanceof InvalidInput)).to.have.length(9);
  });
});

