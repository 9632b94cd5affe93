import { expect } from 'chai';
import { LastSignInMethod } from '../../../errors.js';
import { IdentityNotFound } from '../../errors.js';
import { inMemoryWorld } from '../../../../../tests/support/in-memory-world.js';
import { aRequestMetadata, completedSignIn } from '../../../../../tests/support/builders.js';
import { rejection } from '../../../../../tests/support/rejection.js';
import { socialSignIn, throughProvider, reauthenticated } from '../../../../../tests/support/social.js';
import { verifiedSignUp } from '../../../../../tests/support/verified.js';

const metadata = aRequestMetadata();

describe('UnlinkIdentityHandler (unlinkIdentity)', () => {
  it('unlinks an identity of an account with a password: gone from its identities, IdentityUnlinked; unlinking it again is not found', async () => {
    const world = await inMemoryWorld();
    const { principal, signedUp } = await verifiedSignUp(world);
    await throughProvider(world, { subject: 'ada-corp', email: 'ada@corp.example' }, { link: principal });
    const [identity] = await world.identities.listByUser(signedUp.user.id);
    await world.unlinkIdentity.execute({ principal, id: identity?.id ?? '', metadata });
    expect(await world.identities.listByUser(signedUp.user.id)).to.deep.equal([]);
    expect(world.store.capabilityEvents.filter((event) => event.type === 'IdentityUnlinked').map((event) => event.payload)).to.deep.equal([{ email: 'ada@example.com', identityId: identity?.id, provider: 'corp' }]);
    expect(await rejection(world.unlinkIdentity.execute({ principal, id: identity?.id ?? '', metadata }))).to.be.instanceOf(IdentityNotFound);
  });

  it("refuses to unlink the last way into an account with no password and no passkey, and another account's identity is not found", async () => {
    const world = await inMemoryWorld();
    const signedIn = await completedSignIn(socialSignIn(world, { subject: 'ada-1', email: 'ada@example.com' }));
    const principal = await world.authenticate.execute({ accessToken: signedIn.accessToken });
    const [only] = await world.identities.listByUser(signedIn.user.id);
    expect(await rejection(world.unlinkIdentity.execute({ principal, id: only?.id ?? '', metadata }))).to.be.instanceOf(LastSignInMethod);
    const { principal: grace } = await verifiedSignUp(world, { name: 'Grace', lastname: 'Hopper', email: 'grace@example.com', password: 'analytical engine 1843', metadata });
    expect(await rejection(world.unlinkIdentity.execute({ principal: grace, id: only?.id ?? '', metadata }))).to.be.instanceOf(IdentityNotFound);
  });

  it('keeps one of two identities of an account without a password when both are unlinked at once', async () => {
    const world = await inMemoryWorld();
    const signedIn = await completedSignIn(socialSignIn(world, { subject: 'ada-1', email: 'ada@example.com' }));
    const principal = await world.authenticate.execute({ accessToken: signedIn.accessToken });
    const proof = await reauthenticated(world, principal, { subject: 'ada-1', email: 'ada@example.com' }, 'link-identity');
    await throughProvider(world, { subject: 'ada-gh', email: 'ada@example.com' }, { link: principal, provider: 'github', password: '', proof });
    const identities = await world.identities.listByUser(signedIn.user.id);
    expect(identities).to.have.length(2);
    const outcomes = await Promise.allSettled(identities.map((identity) => world.unlinkIdentity.execute({ principal, id: identity.id, metadata })));
    expect(outcomes.map((outcome) => outcome.status).sort()).to.deep.equal(['fulfilled', 'rejected']);
    expect(await world.identities.listByUser(signedIn.user.id)).to.have.length(1);
  });
});
