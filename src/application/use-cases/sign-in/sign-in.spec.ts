import { expect } from 'chai';
import { ServiceUnavailable } from '../../errors.js';
import { InvalidCredentials, InvalidInput } from '../../../domain/domain-error.js';
import { aSignInCommand, aSignUpCommand, completedSignIn } from '../../../../tests/support/builders.js';
import { UnavailableEventLog, UnavailableUserRepository, UuidShapedIds } from '../../../../tests/support/fakes.js';
import { inMemoryWorld } from '../../../../tests/support/in-memory-world.js';
import { InvalidToken } from '../../errors.js';
import { rejection } from '../../../../tests/support/rejection.js';


async function worldWithAda() {
  const world = await inMemoryWorld();
  await world.signUp.execute(aSignUpCommand());
  return world;
}

describe('SignInHandler', () => {
  it('signs in with the right password, whatever the e-mail case and spacing, and records UserSignedIn', async () => {
    const world = await worldWithAda();
    const result = await completedSignIn(world.signIn.execute(aSignInCommand({ email: '  ADA@example.COM ' })));

    expect(result.user).to.deep.equal({ id: 'id-1', name: 'Ada', lastname: 'Lovelace', email: 'ada@example.com', emailverified: false });
    expect(result.accessToken).to.equal('token-2-for-id-1-in-id-7');
    expect(world.store.events.map((event) => event.type)).to.deep.equal(['UserRegistered', 'EmailVerificationRequested', 'SessionStarted', 'UserSignedIn', 'SessionStarted']);
  });

  it('answers a wrong password with InvalidCredentials and records SignInFailed(wrong_password)', async () => {
    const world = await worldWithAda();
    const error = await rejection(completedSignIn(world.signIn.execute(aSignInCommand({ password: 'not the password' }))));

    expect(error).to.be.instanceOf(InvalidCredentials);
    expect(world.store.events.at(-1)).to.deep.include({
      type: 'SignInFailed',
      aggregateId: 'id-1',
      payload: { email: 'ada@example.com', reason: 'wrong_password' },
    });
  });

  it('answers an unknown e-mail exactly like a wrong password, after spending a dummy verification', async () => {
    const world = await worldWithAda();
    const unknown = await rejection(completedSignIn(world.signIn.execute(aSignInCommand({ email: 'Nobody@Example.com' }))));
    const wrong = await rejection(completedSignIn(world.signIn.execute(aSignInCommand({ password: 'not the password' }))));

    expect(unknown).to.be.instanceOf(InvalidCredentials);
    expect({ message: (unknown as Error).message, issues: (unknown as InvalidCredentials).issues }).to.deep.equal({
      message: (wrong as Error).message,
      issues: (wrong as InvalidCredentials).issues,
    });
    expect(world.hasher.dummyVerifications).to.equal(1);
    expect(world.store.events.find((event) => 'email' in event.payload && event.payload.email === 'nobody@example.com')).to.deep.include({
      type: 'SignInFailed',
      aggregateId: null,
      payload: { email: 'nobody@example.com', reason: 'unknown_email' },
    });
  });

  it('rejects malformed input before touching the store: the answer is InvalidInput even while the store is down', async () => {
    const world = await inMemoryWorld({ replace: { users: new UnavailableUserRepository(), events: new UnavailableEventLog() } });
    const error = await rejection(completedSignIn(world.signIn.execute(aSignInCommand({ email: 'not-an-email', password: '' }))));

    expect(error).to.be.instanceOf(InvalidInput);
    expect((error as InvalidInput).issues.map((issue) => issue.field)).to.deep.equal(['email', 'password']);
    expect(await rejection(completedSignIn(world.signIn.execute(aSignInCommand())))).to.be.instanceOf(ServiceUnavailable);
    expect(world.hasher.verifications + world.hasher.dummyVerifications).to.equal(0);
  });

  it('rehashes a password hashed with other parameters and records PasswordRehashed', async () => {
    const world = await worldWithAda();
    world.hasher.version = 2;
    await completedSignIn(world.signIn.execute(aSignInCommand()));

    expect((await world.users.findByEmail('ada@example.com'))?.passwordHash).to.equal('fake$v2$analytical engine 1843');
    expect(world.store.events.map((event) => event.type)).to.deep.equal(['UserRegistered', 'EmailVerificationRequested', 'SessionStarted', 'PasswordRehashed', 'UserSignedIn', 'SessionStarted']);
    await completedSignIn(world.signIn.execute(aSignInCommand()));
    expect(world.store.events.filter((event) => event.type === 'PasswordRehashed')).to.have.length(1);
  });

  it('does not rehash a current hash', async () => {
    const world = await worldWithAda();
    await completedSignIn(world.signIn.execute(aSignInCommand()));
    expect((await world.users.findByEmail('ada@example.com'))?.passwordHash).to.equal('fake$v1$analytical engine 1843');
  });

  it('lets simultaneous sign-ins to an account at the cap all succeed (none is refused for losing an eviction), and leaves it at the cap', async () => {
    const world = await inMemoryWorld({ sessions: { maxPerAccount: 3 }, replace: { ids: new UuidShapedIds() } });
    const { user } = await world.signUp.execute(aSignUpCommand());
    for (let i = 0; i < 2; i++) await completedSignIn(world.signIn.execute(aSignInCommand()));

    const outcomes = await Promise.allSettled(Array.from({ length: 24 }, () => completedSignIn(world.signIn.execute(aSignInCommand()))));
    expect(outcomes.filter((outcome) => outcome.status === 'rejected').map((outcome) => String((outcome).reason))).to.deep.equal([]);

    expect(await world.ports.sessions.findByUser(user.id, 0), 'back at the cap once they are done').to.have.length(3);
  });

  it('keeps at most SESSIONS_MAX_PER_ACCOUNT sessions: a sign-in beyond it ends the least recently used one in its commit', async () => {
    const world = await inMemoryWorld({ sessions: { maxPerAccount: 3 }, replace: { ids: new UuidShapedIds() } });
    const metadata = { requestId: null, clientIp: null, userAgent: null };
    const first = await world.signUp.execute(aSignUpCommand());
    world.clock.advance(1000);
    const second = await completedSignIn(world.signIn.execute(aSignInCommand()));
    world.clock.advance(1000);
    const third = await completedSignIn(world.signIn.execute(aSignInCommand()));
    world.clock.advance(1000);
    const refreshedFirst = await world.refreshSession.execute({ refreshToken: first.refreshToken, metadata });
    world.clock.advance(1000);
    const authenticates = (accessToken: string) =>
      world.authenticate.execute({ accessToken }).then(
        () => true,
        (error: unknown) => (error instanceof InvalidToken ? false : Promise.reject(error as Error)),
      );
    const secondSession = (await world.authenticate.execute({ accessToken: second.accessToken })).sessionId;

    const fourth = await completedSignIn(world.signIn.execute(aSignInCommand()));

    expect(await authenticates(second.accessToken), 'the least recently used').to.equal(false);
    for (const { accessToken } of [refreshedFirst, third, fourth]) expect(await authenticates(accessToken)).to.equal(true);
    expect(await world.ports.sessions.findByUser(first.user.id, 0)).to.have.length(3);
    const revoked = world.store.events.flatMap((event) => (event.type === 'SessionRevoked' ? [event.payload] : []));
    expect(revoked).to.deep.equal([{ email: 'ada@example.com', sessionId: secondSession, reason: 'evicted' }]);
    expect(world.store.events.slice(-3).map((event) => event.type)).to.deep.equal(['UserSignedIn', 'SessionStarted', 'SessionRevoked']);
  });
});

