import { expect } from 'chai';
import { inMemoryWorld } from '../../../../../tests/support/in-memory-world.js';
import { throughProvider } from '../../../../../tests/support/social.js';
import { verifiedSignUp } from '../../../../../tests/support/verified.js';

describe('ListIdentitiesHandler (listIdentities)', () => {
  it("lists the caller's identities oldest first, with the provider and the address each showed, and nobody else's", async () => {
    const world = await inMemoryWorld();
    const { principal, signedUp } = await verifiedSignUp(world);
    await throughProvider(world, { subject: 'ada-corp', email: 'ada@corp.example' }, { link: principal });
    world.clock.advance(1000);
    await throughProvider(world, { subject: 'ada-gh', email: null }, { link: principal, provider: 'github' });
    await throughProvider(world, { subject: 'grace', email: 'grace@example.com' });
    const listed = await world.listIdentities.execute({ userId: signedUp.user.id });
    expect(listed.map(({ provider, email }) => ({ provider, email }))).to.deep.equal([{ provider: 'corp', email: 'ada@corp.example' }, { provider: 'github', email: null }]);
    expect(new Date(listed[0]?.createdat ?? '').getTime()).to.be.below(new Date(listed[1]?.createdat ?? '').getTime());
  });
});
