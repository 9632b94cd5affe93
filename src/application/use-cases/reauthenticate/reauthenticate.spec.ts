import { expect } from 'chai';
import type { InvalidInput } from '../../../domain/domain-error.js';
import { inMemoryWorld } from '../../../../tests/support/in-memory-world.js';
import { completedSignIn } from '../../../../tests/support/builders.js';
import { rejection } from '../../../../tests/support/rejection.js';
import { aFlowRequest, aPkcePair, reauthenticated, socialSignIn } from '../../../../tests/support/social.js';

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
});
