import { expect } from 'chai';
import { aRequestMetadata, aSignUpCommand } from '../../../../tests/support/builders.js';
import { inMemoryWorld } from '../../../../tests/support/in-memory-world.js';

describe('GetCurrentUserHandler', () => {
  it('answers the account as authentication read it: the user resource sign-up returned, writing nothing', async () => {
    const world = await inMemoryWorld();
    const { user, accessToken } = await world.signUp.execute(aSignUpCommand());
    const principal = await world.authenticate.execute({ accessToken });
    const eventsBefore = world.store.events.length;

    expect(await world.getCurrentUser.execute({ principal })).to.deep.equal({ id: user.id, name: 'Ada', lastname: 'Lovelace', email: 'ada@example.com', emailverified: false });
    expect(world.store.events).to.have.length(eventsBefore);
  });

  it('shows a change made since the token was issued: each request authenticates, and reads the account then', async () => {
    const world = await inMemoryWorld();
    const { user, accessToken } = await world.signUp.execute(aSignUpCommand());
    await world.changeProfile.execute({ userId: user.id, name: 'Augusta', lastname: 'Lovelace', metadata: aRequestMetadata() });
    const principal = await world.authenticate.execute({ accessToken });
    expect(await world.getCurrentUser.execute({ principal })).to.deep.include({ name: 'Augusta', lastname: 'Lovelace' });
  });
});
