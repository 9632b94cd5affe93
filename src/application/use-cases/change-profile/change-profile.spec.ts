import { expect } from 'chai';
import { InvalidToken } from '../../errors.js';
import { InvalidInput } from '../../../domain/domain-error.js';
import { aRequestMetadata, aSignInCommand, aSignUpCommand, completedSignIn } from '../../../../tests/support/builders.js';
import { inMemoryWorld } from '../../../../tests/support/in-memory-world.js';
import { rejection } from '../../../../tests/support/rejection.js';

const aChange = (userId: string, name: unknown, lastname: unknown) => ({ userId, name, lastname, metadata: aRequestMetadata() });

describe('ChangeProfileHandler', () => {
  it('renames the account, records ProfileChanged, and sign-in and /auth/me show the new names', async () => {
    const world = await inMemoryWorld();
    const { user } = await world.signUp.execute(aSignUpCommand());
    const changed = await world.changeProfile.execute(aChange(user.id, '  Augusta Ada ', 'King'));

    expect(changed).to.deep.equal({ ...user, name: 'Augusta Ada', lastname: 'King' });
    expect(await world.ports.userViews.findById(user.id)).to.deep.equal(changed);
    expect((await completedSignIn(world.signIn.execute(aSignInCommand()))).user).to.deep.equal(changed);
    expect(world.store.events.map((event) => event.type)).to.deep.equal(['UserRegistered', 'EmailVerificationRequested', 'SessionStarted', 'ProfileChanged', 'UserSignedIn', 'SessionStarted']);
  });

  it('records nothing when nothing changes', async () => {
    const world = await inMemoryWorld();
    const { user } = await world.signUp.execute(aSignUpCommand());
    await world.changeProfile.execute(aChange(user.id, 'Ada', 'Lovelace'));
    expect(world.store.events.map((event) => event.type)).to.deep.equal(['UserRegistered', 'EmailVerificationRequested', 'SessionStarted']);
  });

  it('reports every offending field at once and changes nothing', async () => {
    const world = await inMemoryWorld();
    const { user } = await world.signUp.execute(aSignUpCommand());
    const error = await rejection(world.changeProfile.execute(aChange(user.id, '', 42)));

    expect(error).to.be.instanceOf(InvalidInput);
    expect((error as InvalidInput).issues).to.deep.equal([
      { field: 'name', code: 'REQUIRED', message: 'is required' },
      { field: 'lastname', code: 'NOT_A_STRING', message: 'must be a string' },
    ]);
    expect(await world.ports.userViews.findById(user.id)).to.deep.equal(user);
  });

  it('answers InvalidToken for a subject that does not exist', async () => {
    const world = await inMemoryWorld();
    expect(await rejection(world.changeProfile.execute(aChange('no-such-user', 'Ada', 'King')))).to.be.instanceOf(InvalidToken);
  });
});
