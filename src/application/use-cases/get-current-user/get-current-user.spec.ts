import { expect } from 'chai';
import { InvalidToken } from '../../errors.js';
import { aSignUpCommand } from '../../../../tests/support/builders.js';
import { inMemoryWorld } from '../../../../tests/support/in-memory-world.js';

describe('GetCurrentUserHandler', () => {
  it('returns the same user resource sign-up returned, and writes nothing', async () => {
    const world = await inMemoryWorld();
    const { user } = await world.signUp.execute(aSignUpCommand());
    const eventsBefore = world.store.events.length;

    expect(await world.getCurrentUser.execute({ userId: user.id })).to.deep.equal(user);
    expect(await world.getCurrentUser.execute({ userId: user.id })).to.deep.equal({ id: 'id-1', name: 'Ada', lastname: 'Lovelace', email: 'ada@example.com', emailverified: false });
    expect(world.store.events).to.have.length(eventsBefore);
  });

  it('answers InvalidToken for a subject that does not exist (deleted, or never was)', async () => {
    const world = await inMemoryWorld();
    await world.signUp.execute(aSignUpCommand());
    let error: unknown;
    try {
      await world.getCurrentUser.execute({ userId: 'no-such-user' });
    } catch (caught) {
      error = caught;
    }
    expect(error).to.be.instanceOf(InvalidToken);
  });
});
