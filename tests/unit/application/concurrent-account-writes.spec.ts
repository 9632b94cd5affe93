import { completedSignIn } from '../../support/builders.js';
import { expect } from 'chai';
import { InvalidToken, ServiceUnavailable } from '../../../src/application/errors.js';
import type { UserRepository } from '../../../src/application/ports/user-repository.port.js';
import { InvalidCredentials } from '../../../src/domain/domain-error.js';
import { aRequestMetadata, aSignInCommand, aSignUpCommand } from '../../support/builders.js';
import { GatedPasswordHasher } from '../../support/fakes.js';
import { inMemoryWorld } from '../../support/in-memory-world.js';
import { rejection } from '../../support/rejection.js';

const OLD = 'analytical engine 1843';
const NEW = 'difference engine 1822';

/**
 * Two commands on one account, the second running exactly while the first waits on the hasher (where argon2 spends
 * its time). Every account write is a compare-and-swap on the account's version, so the loser reloads and decides
 * again: no change is written back over another, and no session escapes a password change.
 */
describe('Concurrent writes to one account', () => {
  async function world() {
    const hasher = new GatedPasswordHasher();
    const w = await inMemoryWorld({ replace: { hasher } });
    const signedUp = await w.signUp.execute(aSignUpCommand({ password: OLD }));
    const principal = await w.authenticate.execute({ accessToken: signedUp.accessToken });
    const changePassword = () =>
      w.changePassword.execute({ principal, currentPassword: OLD, newPassword: NEW, metadata: aRequestMetadata() });
    return { ...w, hasher, changePassword };
  }

  it('a password change that lands while a sign-in verifies the old password is kept, and that sign-in is refused', async () => {
    const w = await world();
    const held = w.hasher.holdNext('verify');
    const signIn = completedSignIn(w.signIn.execute(aSignInCommand({ password: OLD })));
    await held.reached;
    await w.changePassword();
    held.release();

    expect(await rejection(signIn)).to.be.instanceOf(InvalidCredentials);
    expect(await rejection(completedSignIn(w.signIn.execute(aSignInCommand({ password: OLD }))))).to.be.instanceOf(InvalidCredentials);
    expect((await completedSignIn(w.signIn.execute(aSignInCommand({ password: NEW })))).user.email).to.equal('ada@example.com');
  });

  it('a sign-in that commits while a password change hashes the new password has its session ended by that change', async () => {
    const w = await world();
    const held = w.hasher.holdNext('hash');
    const change = w.changePassword();
    await held.reached;
    const signedIn = await completedSignIn(w.signIn.execute(aSignInCommand({ password: OLD })));
    held.release();
    await change;

    expect(await rejection(w.authenticate.execute({ accessToken: signedIn.accessToken }))).to.be.instanceOf(InvalidToken);
    expect(await rejection(completedSignIn(w.signIn.execute(aSignInCommand({ password: OLD }))))).to.be.instanceOf(InvalidCredentials);
    const types = w.store.events.map((event) => event.type);
    expect(types.indexOf('SessionsEnded')).to.be.greaterThan(types.lastIndexOf('SessionStarted'));
  });

  it('a profile change that lands while a sign-in verifies the password is kept, and the sign-in still succeeds', async () => {
    const w = await world();
    const held = w.hasher.holdNext('verify');
    const signIn = completedSignIn(w.signIn.execute(aSignInCommand({ password: OLD })));
    await held.reached;
    await w.changeProfile.execute({ userId: 'id-1', name: 'Augusta', lastname: 'King', metadata: aRequestMetadata() });
    held.release();

    expect((await signIn).user).to.deep.include({ name: 'Augusta', lastname: 'King' });
    expect(await w.ports.userViews.findById('id-1')).to.deep.include({ name: 'Augusta', lastname: 'King' });
    expect(w.hasher.verifications).to.equal(1);
  });
});

describe('A record that keeps changing under a command', () => {
  it('makes the command give up with ServiceUnavailable(overloaded) after a bounded number of fresh loads, writing nothing', async () => {
    let attempts = 0;
    /** The real repository, but before each save of the command another writer moves the account on (a real commit). */
    const contending = (real: UserRepository): UserRepository => ({
      findByEmail: (email) => real.findByEmail(email),
      findById: (id) => real.findById(id),
      add: (user, events, opened, counted) => real.add(user, events, opened, counted),
      erase: (user, events) => real.erase(user, events),
      unverifiedBefore: (cutoff, limit) => real.unverifiedBefore(cutoff, limit),
      save: async (user, events, opened, changed, cleared) => {
        attempts += 1;
        const other = await real.findById(user.id);
        if (other) {
          other.rehashPassword(other.passwordHash, new Date());
          expect(await real.save(other, []), 'the other writer commits').to.equal(true);
        }
        return real.save(user, events, opened, changed, cleared);
      },
    });
    const w = await inMemoryWorld({ wrap: (ports) => ({ users: contending(ports.users) }) });
    await w.signUp.execute(aSignUpCommand());
    const error = await rejection(w.changeProfile.execute({ userId: 'id-1', name: 'Augusta', lastname: 'King', metadata: aRequestMetadata() }));

    expect(error).to.be.instanceOf(ServiceUnavailable);
    expect(error).to.include({ reason: 'overloaded', retryAfterSeconds: 1 });
    expect(attempts).to.equal(8);
    expect(await w.ports.userViews.findById('id-1'), 'every attempt lost to a real commit, and none was written').to.deep.include({ name: 'Ada', lastname: 'Lovelace' });
    expect(w.store.events.filter((event) => event.type === 'ProfileChanged')).to.deep.equal([]);
    expect((await w.users.findById('id-1'))?.version, 'the other writer committed each time').to.equal(8);
  });
});
