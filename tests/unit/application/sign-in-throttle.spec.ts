import { expect } from 'chai';
import { InvalidCredentials, TooManyAttempts } from '../../../src/domain/domain-error.js';
import { aSignInCommand, aSignUpCommand } from '../../support/builders.js';
import { inMemoryWorld } from '../../support/in-memory-world.js';

const outcome = async (promise: Promise<unknown>): Promise<unknown> => {
  try {
    return await promise;
  } catch (error) {
    return error;
  }
};

const SECOND = 1000;
const wrong = aSignInCommand({ password: 'not the password' });

async function worldWithAda(settings = { maxFailures: 5, windowSeconds: 900 }) {
  const world = await inMemoryWorld({ signInThrottle: settings });
  await world.signUp.execute(aSignUpCommand());
  return world;
}

describe('SignInHandler: per-account throttling from the event log', () => {
  it('after 5 failures within 15 minutes refuses the 6th attempt, even with the right password, without hashing or recording', async () => {
    const world = await worldWithAda();
    for (let i = 0; i < 5; i++) {
      expect(await outcome(world.signIn.execute(wrong))).to.be.instanceOf(InvalidCredentials);
      world.clock.advance(10 * SECOND);
    }
    const eventsBefore = world.store.events.length;
    const verificationsBefore = world.hasher.verifications;

    const refused = await outcome(world.signIn.execute(aSignInCommand()));

    expect(refused).to.be.instanceOf(TooManyAttempts);
    expect((refused as TooManyAttempts).retryAfterSeconds).to.equal(900 - 50);
    expect(world.store.events).to.have.length(eventsBefore);
    expect(world.hasher.verifications).to.equal(verificationsBefore);
  });

  it('lets the e-mail try again once the oldest counted failure leaves the window', async () => {
    const world = await worldWithAda();
    for (let i = 0; i < 5; i++) {
      await outcome(world.signIn.execute(wrong));
      world.clock.advance(60 * SECOND);
    }
    const refused = (await outcome(world.signIn.execute(aSignInCommand()))) as TooManyAttempts;
    expect(refused.retryAfterSeconds).to.equal(900 - 300);

    world.clock.advance(refused.retryAfterSeconds * SECOND - 1);
    expect(await outcome(world.signIn.execute(aSignInCommand()))).to.be.instanceOf(TooManyAttempts);
    world.clock.advance(1);
    expect(await outcome(world.signIn.execute(aSignInCommand()))).to.have.nested.property('user.email', 'ada@example.com');
  });

  it('counts only failures newer than the latest successful sign-in', async () => {
    const world = await worldWithAda();
    for (let i = 0; i < 4; i++) await outcome(world.signIn.execute(wrong));
    await world.signIn.execute(aSignInCommand());
    for (let i = 0; i < 4; i++) await outcome(world.signIn.execute(wrong));

    expect(await outcome(world.signIn.execute(wrong))).to.be.instanceOf(InvalidCredentials);
    expect(await outcome(world.signIn.execute(wrong))).to.be.instanceOf(TooManyAttempts);
  });

  it('throttles an e-mail with no account the same way, without a dummy verification once throttled', async () => {
    const world = await worldWithAda();
    const unknown = aSignInCommand({ email: 'Nobody@Example.com' });
    for (let i = 0; i < 5; i++) expect(await outcome(world.signIn.execute(unknown))).to.be.instanceOf(InvalidCredentials);

    const refused = await outcome(world.signIn.execute(aSignInCommand({ email: 'NOBODY@example.com' })));

    expect(refused).to.be.instanceOf(TooManyAttempts);
    expect(world.hasher.dummyVerifications).to.equal(5);
    expect(world.store.events.filter((event) => event.type === 'SignInFailed')).to.have.length(5);
  });

  it('ignores failures older than the window and failures of other e-mails', async () => {
    const world = await worldWithAda();
    await world.signUp.execute(aSignUpCommand({ email: 'grace@example.com', password: 'compiler pioneer 1952' }));
    for (let i = 0; i < 4; i++) await outcome(world.signIn.execute(wrong));
    world.clock.advance(901 * SECOND);
    for (let i = 0; i < 4; i++) await outcome(world.signIn.execute(wrong));
    for (let i = 0; i < 5; i++) await outcome(world.signIn.execute(aSignInCommand({ email: 'grace@example.com', password: 'nope nope' })));

    expect(await outcome(world.signIn.execute(aSignInCommand()))).to.have.nested.property('user.email', 'ada@example.com');
  });

  it('follows the configured limit', async () => {
    const world = await worldWithAda({ maxFailures: 2, windowSeconds: 60 });
    await outcome(world.signIn.execute(wrong));
    await outcome(world.signIn.execute(wrong));
    expect(((await outcome(world.signIn.execute(wrong))) as TooManyAttempts).retryAfterSeconds).to.equal(60);
  });
});

describe('SignInHandler: a right password and the cap, decided in the commit', () => {
  it('refuses the right password when the 5th failure is counted between its last check and its commit: no session, the count kept', async () => {
    let raced = false;
    const world = await inMemoryWorld({
      signInThrottle: { maxFailures: 5, windowSeconds: 900 },
      wrap: (ports) => ({
        users: {
          ...ports.users,
          findByEmail: (email) => ports.users.findByEmail(email),
          findById: (id) => ports.users.findById(id),
          add: (...args) => ports.users.add(...args),
          erase: (...args) => ports.users.erase(...args),
          unverifiedBefore: (...args) => ports.users.unverifiedBefore(...args),
          save: async (user, events, opened, changed, cleared) => {
            if (opened && !raced) {
              // The right password passed its check with 4 failures counted; a 5th is counted before its commit lands.
              raced = true;
              const fifth = { key: 'sign-in:ada@example.com', max: 5, windowSeconds: 900 };
              expect(await ports.limits.take(fifth, world.clock.now()), 'the 5th failure is counted').to.equal(null);
            }
            return ports.users.save(user, events, opened, changed, cleared);
          },
        },
      }),
    });
    await world.signUp.execute(aSignUpCommand());
    for (let i = 0; i < 4; i++) expect(await outcome(world.signIn.execute(wrong))).to.be.instanceOf(InvalidCredentials);
    const sessionsBefore = (await world.ports.sessions.findByUser('id-1', 0)).length;

    const refused = await outcome(world.signIn.execute(aSignInCommand()));

    expect(raced).to.equal(true);
    expect(refused).to.be.instanceOf(TooManyAttempts);
    expect(await world.ports.sessions.findByUser('id-1', 0)).to.have.length(sessionsBefore);
    expect(world.store.events.filter((event) => event.type === 'UserSignedIn')).to.deep.equal([]);
    expect(await outcome(world.signIn.execute(aSignInCommand())), 'the count was not cleared').to.be.instanceOf(TooManyAttempts);
  });
});
